export type { Query } from './query.js';
export { parseQuery, withNamedQueries, type NamedQuery } from './parse-query.js';
export { checkQueryLimits, MAX_CLAUSE_COUNT } from './query-limits.js';
export { executeQuery, queryWork, rewrittenQueryWork, float32, queryContextOf, type ExecutionContext } from './execute-query.js';
/** Ordinal → score of the documents a query matches: ascending ordinals, parallel scores, Map-compatible. */
export { ScoredDocs, DocSetBuilder } from './doc-set.js';
export {
  documentMatches, createDocumentMatcher, prepareDocument, preparedMatches, fieldExists, rangeOperands,
  type MatchContext, type CandidateDocument, type PreparedDocument,
} from './document-matcher.js';
export { rangeBounds, inRange, type RangeBounds } from './field-rules.js';
export { assertNever, requiredShouldMatches } from './query.js';
export { queryTerm } from './query-terms.js';
export { rewriteQuery, type RewriteContext } from './rewrite-query.js';
export { explainQuery, type Explanation } from './explain-query.js';
export { resolveBodyLookups, resolveTermsLookups, withLookupsUnread, type DocumentLookup } from './terms-lookup.js';
export { resolveRuleQueries, type ApplyQueryRules } from './rule-query.js';
export { luceneString } from './lucene-string.js';
export { queryTypeOf, type QueryType } from './query-type.js';
export { checkPercolateFields, percolatedHits, type PercolatedHit } from './percolate-query.js';
export { checkExpensiveQueries } from './expensive-queries.js';
export { matcherDecides, matchScope, type MatchScope } from './matcher-decides.js';
