export { Indices, newUuid, type ResolveOptions } from './indices.js';
export { IndexHandle, PRIMARY_TERM, type PreparedWrite, type LiveDocument, type UpdateRequest, type WriteParams } from './index-handle.js';
export { nestSettings, flattenSettings, INDEX_VERSION_CREATED } from './settings.js';
export { isPlainObject, deepEqual, deepMerge, type JsonObject } from './deep.js';
export type { VersionType } from './versioning.js';
export { aliasDefinition, aliasesNotFound, type AliasAction } from './aliases.js';
export { shardOf, reachesDocument, routingHash } from './shard-routing.js';
export { defaultsFor, humanSettings } from './settings-defaults.js';
export { Templates } from './templates.js';
