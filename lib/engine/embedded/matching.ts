/**
 * The engine's one implementation of query semantics, as the gateway uses it outside the engine:
 * live search streams test each changed document against their queries with exactly the code
 * the engine searches with, and index their searches by the same clause semantics (field
 * existence, range bounds, minimum_should_match).
 */
export {
  parseQuery, rewriteQuery, prepareDocument, preparedMatches, queryTerm, fieldExists, rangeOperands, rangeBounds, inRange,
  requiredShouldMatches, matcherDecides, matchScope, assertNever,
} from './search/query/index.js';
export type { Query, MatchScope, MatchContext, CandidateDocument, PreparedDocument, RewriteContext, RangeBounds } from './search/query/index.js';
export { filterSource, sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from './search/source-filter.js';
export { createAnalysisRegistry, type AnalysisRegistry } from './analysis/index.js';
export { fieldType, isRangeType, resolveFieldMapping, type Mappings } from './mapping/index.js';
