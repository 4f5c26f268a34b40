/**
 * OpenSearch's `hybrid` query (neural-search 2.10+): documents any of its sub-queries (at most 5)
 * matches, each narrowed by its `filter`. The scores OpenSearch combines are the search pipeline's
 * to make (the normalization and score-ranker processors, search-pipelines/hybrid-scores.ts, read
 * each sub-query's score by name); on its own the engine scores a document by its best sub-query,
 * as dis_max does, where OpenSearch answers its raw per-sub-query lists.
 */
import { checkKeys, isObject, parseQuery, parsingError } from './parse-query.js';
import type { QueryOf } from './query-type.js';

const MAX_SUB_QUERIES = 5;

export function parseHybrid(body: unknown): QueryOf<'dis_max'> {
  if (!isObject(body)) throw parsingError('[hybrid] query malformed, no start_object after query name');
  if (body.boost !== undefined) throw parsingError('[hybrid] query does not support [boost]');
  checkKeys('hybrid', body, ['queries', 'filter', 'pagination_depth', '_name']);
  const { queries, filter, pagination_depth: depth } = body;
  if (!Array.isArray(queries) || queries.length === 0) throw parsingError('[hybrid] requires \'queries\' field with at least one clause');
  if (queries.length > MAX_SUB_QUERIES) throw parsingError(`Number of sub-queries exceeds maximum supported by [hybrid] query`);
  if (depth !== undefined && (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > 10000)) {
    throw parsingError(`pagination_depth should be less than or equal to index.max_result_window setting`);
  }
  const filters = filter === undefined ? [] : [parseQuery(filter)];
  const subs = queries.map((q) => {
    const sub = parseQuery(q);
    return filters.length ? { type: 'bool' as const, must: [sub], filter: filters, should: [], mustNot: [], boost: 1 } : sub;
  });
  return { type: 'dis_max', queries: subs, tieBreaker: 0, boost: 1 };
}
