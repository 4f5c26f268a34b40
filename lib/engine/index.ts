import type { Config } from '../config/index.js';
import type { Backend } from './backend.js';
import { HttpBackend } from './http/index.js';
import { openEmbeddedEngine } from './embedded/index.js';

export type { Backend, EngineRequest, EngineResponse, EngineRoute, HeaderMap } from './backend.js';
export { readBulkItems } from './backend.js';
export { intercept, InterceptedBackend, type Dispatch, type Interceptor } from './interceptor.js';
export { backingIndexName, dataStreamOfBackingName } from './data-stream-names.js';
export { authorizationDisagreements, authorizationDisagreementCount } from './embedded/access/disagreements.js';
export { SYSTEM_INDEX_PREFIX, PLUGIN_SYSTEM_INDICES, SYSTEM_INDEX_FAMILIES, familyCoveredBy, familyExclusion, familyReachedFrom, isSystemIndex, prefixReachesSystemIndex, type SystemIndexFamily, wildcardMatches, patternsCover, patternsCoverPattern, type AuthorizeIndicesOptions } from './index-patterns.js';
export { callJson, callRequest, readBody, readJson, readRequest, type JsonReply } from './json-call.js';

/** ENGINE_URL set → the thin proxy to Elasticsearch/OpenSearch; absent → the embedded engine in DATA_DIR. */
export async function openBackend(config: Config): Promise<Backend> {
  if (config.engineUrl) return new HttpBackend(config.engineUrl, { timeoutMs: config.engineTimeoutMs });
  return openEmbeddedEngine({ dataDir: config.dataDir, configDir: config.engineConfigDir, maxContentLength: config.maxContentLength, pointInTimeBytes: config.pointInTimeBytes, apiDialect: config.apiDialect });
}
export { type EngineAccess } from './backend.js';
export { jsonBody } from './json-body.js';
