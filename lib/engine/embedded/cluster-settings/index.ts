export { ClusterSettings, type ClusterSettingValues } from './cluster-settings.js';
