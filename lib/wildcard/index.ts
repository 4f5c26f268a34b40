/**
 * Wildcard patterns, matched without building a RegExp from user input (each call is at most
 * O(pattern × text)):
 * - `simpleMatch(pattern, text, caseInsensitive?)`: Elasticsearch's `Regex.simpleMatch`, `*` only;
 *   what index, alias, field, template, `_source` and `filter_path` patterns mean.
 * - `compileWildcardQuery(pattern, caseInsensitive)`: the `wildcard` query's Lucene syntax
 *   (`*`, `?`, `\` escapes).
 */
export { simpleMatch } from './simple-match.js';
export { compileWildcardQuery, type WildcardQueryMatcher } from './wildcard-query.js';
