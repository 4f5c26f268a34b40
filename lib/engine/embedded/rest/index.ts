export { RestHandler, readBodyText } from './rest-handler.js';
export type { EngineContext } from './types.js';
export { ES_VERSION } from './routes/cluster.js';
export { applyFilterPath } from './filter-path.js';
