export type { Query } from './query.js';
export { parseQuery } from './parse-query.js';
export { executeQuery, float32, type ExecutionContext } from './execute-query.js';
/** Ordinal → score of the documents a query matches: ascending ordinals, parallel scores, Map-compatible. */
export { ScoredDocs, DocSetBuilder } from './doc-set.js';
export { documentMatches, createDocumentMatcher, type MatchContext, type CandidateDocument } from './document-matcher.js';
export { queryTerm } from './query-terms.js';
export { rewriteQuery } from './rewrite-query.js';
