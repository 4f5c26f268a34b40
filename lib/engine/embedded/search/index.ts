export { runSearch, runCount } from './search.js';
export { canMatch } from './can-match.js';
export type { CancelAfter } from './cancel-after.js';
export { parseSearchRequest, parseCountQuery, validateExecutionParams, type SearchRequest } from './search-request.js';
export { filterSource, sourceFilterFromBody, sourceFilterFromParams, FETCH_ALL, type SourceFilter } from './source-filter.js';
export { resolveBodyLookups, resolveTermsLookups, withLookupsUnread, type DocumentLookup, resolveRuleQueries, type ApplyQueryRules } from './query/index.js';
export { parseQuery, executeQuery, queryContextOf, explainQuery, type Explanation, documentMatches, createDocumentMatcher, type Query, type MatchContext, type CandidateDocument, luceneString, checkExpensiveQueries } from './query/index.js';
export { parseSort } from './sort/index.js';
