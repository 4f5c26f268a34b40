/**
 * Authorization where the engine acts: a request carrying rights (EngineRequest.access) sees the
 * engine's indices through a view that checks every index it resolves and touches.
 */
export { IndexAccess } from './index-access.js';
export { authorizedIndices, pluginIndices, WRITE_ACTION, type ResolveCheck } from './authorized-indices.js';
export { countDisagreement } from './disagreements.js';
export { hideFields, type FieldRules } from './field-rules.js';
export { FieldSubset, fieldSubsetView } from './field-subset.js';
export { mappingReadsFields } from './mapping-reads.js';
