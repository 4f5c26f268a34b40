export { IsmPolicies, type StoredPolicy, type ManagedIndex } from './ism-policies.js';
