/**
 * The embedded engine: an in-process, Elasticsearch 8-compatible engine on LMDB, behind the
 * Backend interface, and servable standalone over HTTP.
 */
export { EmbeddedEngine, openEmbeddedEngine, type EmbeddedEngineOptions } from './engine.js';
export { checkEngineRoute } from './rest/rest-handler.js';
export { checkParams } from './rest/router.js';
export { mappingReadsFields } from './access/index.js';
export { createEngineHttpServer, type EngineHttpServerOptions } from './http-server.js';
export { createDocumentMatcher, documentMatches, parseQuery, type Query, type MatchContext, type CandidateDocument } from './search/index.js';
export { type Mappings, type PreparedDocument, type RangeBounds, type SourceFilter, assertNever, createAnalysisRegistry, fieldExists, fieldType, filterSource, inRange, isRangeType, matcherDecides, matchScope, type MatchScope, prepareDocument, preparedMatches, queryTerm, rangeBounds, rangeOperands, requiredShouldMatches, resolveFieldMapping, rewriteQuery, sourceFilterFromBody, sourceFilterFromParams } from './matching.js';
export { UrlParams, booleanParam, type ParamReader } from './rest/params.js';
