export type { Query } from './query.js';
export { parseQuery } from './parse-query.js';
export { executeQuery, type ScoredDocs, type ExecutionContext } from './execute-query.js';
export { documentMatches, createDocumentMatcher, type MatchContext, type CandidateDocument } from './document-matcher.js';
export { queryTerm } from './query-terms.js';
