import type { IndexHandle } from '../indices/index.js';
import { fieldType, NUMERIC_TYPES, resolveFieldMapping } from '../mapping/index.js';
import { rangeBounds, type Query } from './query/index.js';
import type { SearchRequest } from './search-request.js';

/** Elasticsearch's default `pre_filter_shard_size`: the can-match phase runs past this many shards. */
const DEFAULT_PRE_FILTER_SHARD_SIZE = 128;

/**
 * `_shards.skipped` as Elasticsearch's can-match phase (CanMatchPreFilterSearchPhase) counts it:
 * when a query-then-fetch search spans more shards than `pre_filter_shard_size` and its query
 * could rewrite to match nothing (not match_all, no suggest, no aggregation that must see every
 * document: `global`, or `terms` with `min_doc_count: 0`), each shard (an index here) whose query
 * rewrites to match_none is skipped — but one is always searched, to answer the empty result.
 * A skipped shard has no match, so the answer is the same; only the count tells.
 */
export function skippedShards(req: SearchRequest, handles: IndexHandle[], shardsOf: (h: IndexHandle) => number, now: number): number {
  const total = handles.reduce((n, h) => n + shardsOf(h), 0);
  if (req.dfs || !((req.preFilterShardSize ?? DEFAULT_PRE_FILTER_SHARD_SIZE) < total)) return 0;
  if (req.query.type === 'match_all' || req.suggest !== undefined) return 0;
  if (req.aggregations?.some((a) => a.type === 'global' || (a.type === 'terms' && Number(a.body.min_doc_count ?? 1) === 0))) return 0;
  let skipped = 0;
  for (const h of handles) if (!canMatch(req.query, h, now)) skipped += shardsOf(h);
  return skipped === total ? total - 1 : skipped;
}

/**
 * Whether the query, rewritten on this index, could match a document (false only when Elasticsearch's
 * rewrite gives match_none): the can-match phase's test, and the one `index_filter` of `_field_caps`
 * applies to each index (SearchService.queryStillMatchesAfterRewrite).
 */
export function canMatch(q: Query, h: IndexHandle, now: number): boolean {
  switch (q.type) {
    case 'match_none':
      return false;
    case 'bool': {
      if ([...q.must, ...q.filter].some((c) => !canMatch(c, h, now))) return false;
      if (q.should.length && !q.must.length && !q.filter.length) return q.should.some((c) => canMatch(c, h, now));
      return true;
    }
    case 'constant_score':
      return canMatch(q.filter, h, now);
    case 'term':
      if (q.field === '_index') return String(q.value) === h.name;
      return resolveFieldMapping(h.mappings, q.field) !== undefined || q.field.startsWith('_');
    case 'range':
      return rangeCanMatch(q, h, now);
    default:
      return true;
  }
}

/** A range on a number or date field: disjoint from the index's smallest and largest value (or no value at all) is match_none. */
function rangeCanMatch(q: Extract<Query, { type: 'range' }>, h: IndexHandle, now: number): boolean {
  const mapping = resolveFieldMapping(h.mappings, q.field);
  if (!mapping) return q.field.startsWith('_');
  const type = fieldType(mapping);
  if (!NUMERIC_TYPES.has(type) && type !== 'date') return true;
  const b = rangeBounds(q, mapping, h.registry, now);
  if (!b.numeric) return true;
  const values = h.inverted?.field(q.field)?.docValues;
  let min: number | bigint | undefined;
  let max: number | bigint | undefined;
  for (const vs of values?.values() ?? []) {
    for (const v of vs) {
      if (typeof v !== 'number' && typeof v !== 'bigint') return true;
      if (min === undefined || v < min) min = v;
      if (max === undefined || v > max) max = v;
    }
  }
  if (min === undefined || max === undefined) return false;
  // numeric bounds are numbers (epoch milliseconds for dates), as the doc values are
  const lo = b.lo as number | bigint | undefined;
  const hi = b.hi as number | bigint | undefined;
  if (hi !== undefined && (b.hiInc ? hi < min : hi <= min)) return false;
  if (lo !== undefined && (b.loInc ? lo > max : lo >= max)) return false;
  return true;
}
