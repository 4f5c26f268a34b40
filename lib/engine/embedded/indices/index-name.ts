// Elasticsearch's rules for a new index name: one copy, read by the gateway's classification too
export { validateIndexName, hasUnpairedSurrogate } from '../../../request/index.js';
