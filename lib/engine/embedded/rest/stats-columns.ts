import { requestCacheBytes, type IndexHandle } from '../indices/index.js';
import { ByteSize, Duration, column, type CatColumn, type Cell } from './cat-table.js';
import { pointInTimeContexts, scrollContexts } from './routes/scroll-contexts.js';
import type { EngineContext } from './types.js';

/**
 * What the engine counts of some indices' activity, for the stats columns `_cat/shards` and
 * `_cat/nodes` share with Elasticsearch. Indexing, get and search are measured (IndexStats);
 * flushes are counted as they are asked for, the shard request cache's lookups as request-cache.ts
 * counts them; the query cache, merges, refreshes, warmers and bulk have no counterpart in the engine and are
 * reported as ES reports a shard that never used them.
 */
export interface ActivityCounters {
  indexTotal: number;
  indexMs: number;
  indexFailed: number;
  deleteTotal: number;
  deleteMs: number;
  noopUpdateTotal: number;
  getExistsTotal: number;
  getExistsMs: number;
  getMissingTotal: number;
  getMissingMs: number;
  queryTotal: number;
  queryMs: number;
  fetchTotal: number;
  fetchMs: number;
  scrollTotal: number;
  scrollMs: number;
  suggestTotal: number;
  suggestMs: number;
  flushTotal: number;
  flushMs: number;
  translogOps: number;
  translogBytes: number;
  /** Milliseconds since the oldest operation still in a translog was written (0 when none is). */
  translogAge: number;
  openContexts: number;
  segments: number;
  requestCacheBytes: number;
  requestCacheHits: number;
  requestCacheMisses: number;
}

export const NO_ACTIVITY: ActivityCounters = {
  indexTotal: 0, indexMs: 0, indexFailed: 0, deleteTotal: 0, deleteMs: 0, noopUpdateTotal: 0, getExistsTotal: 0, getExistsMs: 0, getMissingTotal: 0,
  getMissingMs: 0, queryTotal: 0, queryMs: 0, fetchTotal: 0, fetchMs: 0, scrollTotal: 0, scrollMs: 0, suggestTotal: 0, suggestMs: 0,
  flushTotal: 0, flushMs: 0, translogOps: 0, translogBytes: 0, translogAge: 0, openContexts: 0, segments: 0,
  requestCacheBytes: 0, requestCacheHits: 0, requestCacheMisses: 0,
};

export function activityOf(handles: IndexHandle[], ctx: EngineContext): ActivityCounters {
  const out = { ...NO_ACTIVITY };
  const contexts = scrollContexts(ctx);
  const pits = pointInTimeContexts(ctx);
  for (const h of handles) {
    if (!h.isOpen) continue;
    const s = h.stats;
    out.indexTotal += s.indexTotal;
    out.indexMs += s.indexMs;
    out.indexFailed += s.indexFailed;
    out.deleteTotal += s.deleteTotal;
    out.deleteMs += s.deleteMs;
    out.noopUpdateTotal += s.noopUpdateTotal;
    out.getExistsTotal += s.getExistsTotal;
    out.getExistsMs += s.getExistsMs;
    out.getMissingTotal += s.getMissingTotal;
    out.getMissingMs += s.getMissingMs;
    out.queryTotal += s.queryTotal;
    out.queryMs += s.queryMs;
    out.fetchTotal += s.fetchTotal;
    out.fetchMs += s.fetchMs;
    out.scrollTotal += s.scrollTotal;
    out.scrollMs += s.scrollMs;
    out.suggestTotal += s.suggestTotal;
    out.suggestMs += s.suggestMs;
    out.flushTotal += s.flushTotal;
    out.flushMs += s.flushMs;
    out.translogOps += s.translogOps;
    out.translogBytes += s.translogBytes;
    if (s.translogOps) out.translogAge = Math.max(out.translogAge, Date.now() - s.translogSince);
    out.openContexts += contexts.openOver(s) + pits.openOver(s);
    out.segments += h.docCount > 0 ? 1 : 0;
    out.requestCacheBytes += requestCacheBytes(h);
    out.requestCacheHits += s.requestCacheHits;
    out.requestCacheMisses += s.requestCacheMisses;
  }
  return out;
}

const ms = (n: number) => Duration.ofMillis(Math.round(n));
const ZERO_BYTES = new ByteSize(0);
const ZERO_TIME = Duration.ofMillis(0);

/** Each stats column's value, by ES's column name. */
const VALUES: Record<string, (c: ActivityCounters) => Cell> = {
  'completion.size': () => ZERO_BYTES,
  'fielddata.memory_size': () => ZERO_BYTES,
  'fielddata.evictions': () => 0,
  'query_cache.memory_size': () => ZERO_BYTES,
  'query_cache.evictions': () => 0,
  'query_cache.hit_count': () => 0,
  'query_cache.miss_count': () => 0,
  'request_cache.memory_size': (c) => new ByteSize(c.requestCacheBytes),
  'request_cache.evictions': () => 0,
  'request_cache.hit_count': (c) => c.requestCacheHits,
  'request_cache.miss_count': (c) => c.requestCacheMisses,
  'flush.total': (c) => c.flushTotal,
  'flush.total_time': (c) => ms(c.flushMs),
  'get.current': () => 0,
  'get.time': (c) => ms(c.getExistsMs + c.getMissingMs),
  'get.total': (c) => c.getExistsTotal + c.getMissingTotal,
  'get.exists_time': (c) => ms(c.getExistsMs),
  'get.exists_total': (c) => c.getExistsTotal,
  'get.missing_time': (c) => ms(c.getMissingMs),
  'get.missing_total': (c) => c.getMissingTotal,
  'indexing.delete_current': () => 0,
  'indexing.delete_time': (c) => ms(c.deleteMs),
  'indexing.delete_total': (c) => c.deleteTotal,
  'indexing.index_current': () => 0,
  'indexing.index_time': (c) => ms(c.indexMs),
  'indexing.index_total': (c) => c.indexTotal,
  'indexing.index_failed': (c) => c.indexFailed,
  'merges.current': () => 0,
  'merges.current_docs': () => 0,
  'merges.current_size': () => ZERO_BYTES,
  'merges.total': () => 0,
  'merges.total_docs': () => 0,
  'merges.total_size': () => ZERO_BYTES,
  'merges.total_time': () => ZERO_TIME,
  'refresh.total': () => 0,
  'refresh.time': () => ZERO_TIME,
  'refresh.external_total': () => 0,
  'refresh.external_time': () => ZERO_TIME,
  'refresh.listeners': () => 0,
  'script.compilations': () => 0,
  'script.cache_evictions': () => 0,
  'script.compilation_limit_triggered': () => 0,
  'search.fetch_current': () => 0,
  'search.fetch_time': (c) => ms(c.fetchMs),
  'search.fetch_total': (c) => c.fetchTotal,
  'search.open_contexts': (c) => c.openContexts,
  'search.query_current': () => 0,
  'search.query_time': (c) => ms(c.queryMs),
  'search.query_total': (c) => c.queryTotal,
  'search.scroll_current': (c) => c.openContexts,
  'search.scroll_time': (c) => ms(c.scrollMs),
  'search.scroll_total': (c) => c.scrollTotal,
  'segments.count': (c) => c.segments,
  'segments.memory': () => ZERO_BYTES,
  'segments.index_writer_memory': () => ZERO_BYTES,
  'segments.version_map_memory': () => ZERO_BYTES,
  'segments.fixed_bitset_memory': () => ZERO_BYTES,
  'suggest.current': () => 0,
  'suggest.time': (c) => ms(c.suggestMs),
  'suggest.total': (c) => c.suggestTotal,
  'warmer.current': () => 0,
  'warmer.total': () => 0,
  'warmer.total_time': () => ZERO_TIME,
  'bulk.total_operations': () => 0,
  'bulk.total_time': () => ZERO_TIME,
  'bulk.total_size_in_bytes': () => ZERO_BYTES,
  'bulk.avg_time': () => ZERO_TIME,
  'bulk.avg_size_in_bytes': () => ZERO_BYTES,
  'dense_vector.value_count': () => 0,
  'sparse_vector.value_count': () => 0,
};

/**
 * Stats columns as one ES table declares them (`[name, attributes]`), valued from the counters
 * `of(row)` gives (null: a row without stats, such as an unassigned shard).
 */
export function statsColumns<Row>(declared: Array<[string, string]>, of: (row: Row) => ActivityCounters | null): Array<CatColumn<Row>> {
  return declared.map(([name, attrs]) => {
    const value = VALUES[name];
    return column<Row>(name, attrs, (row) => {
      const c = of(row);
      return c === null ? null : value(c);
    });
  });
}

/** The flush, get, indexing, merge and refresh columns `_cat/nodes` and `_cat/shards` both have (as Elasticsearch declares them). */
export const ACTIVITY_COLUMNS: Array<[string, string]> = [
  ['flush.total', 'alias:ft,flushTotal;default:false;text-align:right;desc:number of flushes'],
  ['flush.total_time', 'alias:ftt,flushTotalTime;default:false;text-align:right;desc:time spent in flush'],
  ['get.current', 'alias:gc,getCurrent;default:false;text-align:right;desc:number of current get ops'],
  ['get.time', 'alias:gti,getTime;default:false;text-align:right;desc:time spent in get'],
  ['get.total', 'alias:gto,getTotal;default:false;text-align:right;desc:number of get ops'],
  ['get.exists_time', 'alias:geti,getExistsTime;default:false;text-align:right;desc:time spent in successful gets'],
  ['get.exists_total', 'alias:geto,getExistsTotal;default:false;text-align:right;desc:number of successful gets'],
  ['get.missing_time', 'alias:gmti,getMissingTime;default:false;text-align:right;desc:time spent in failed gets'],
  ['get.missing_total', 'alias:gmto,getMissingTotal;default:false;text-align:right;desc:number of failed gets'],
  ['indexing.delete_current', 'alias:idc,indexingDeleteCurrent;default:false;text-align:right;desc:number of current deletions'],
  ['indexing.delete_time', 'alias:idti,indexingDeleteTime;default:false;text-align:right;desc:time spent in deletions'],
  ['indexing.delete_total', 'alias:idto,indexingDeleteTotal;default:false;text-align:right;desc:number of delete ops'],
  ['indexing.index_current', 'alias:iic,indexingIndexCurrent;default:false;text-align:right;desc:number of current indexing ops'],
  ['indexing.index_time', 'alias:iiti,indexingIndexTime;default:false;text-align:right;desc:time spent in indexing'],
  ['indexing.index_total', 'alias:iito,indexingIndexTotal;default:false;text-align:right;desc:number of indexing ops'],
  ['indexing.index_failed', 'alias:iif,indexingIndexFailed;default:false;text-align:right;desc:number of failed indexing ops'],
  ['merges.current', 'alias:mc,mergesCurrent;default:false;text-align:right;desc:number of current merges'],
  ['merges.current_docs', 'alias:mcd,mergesCurrentDocs;default:false;text-align:right;desc:number of current merging docs'],
  ['merges.current_size', 'alias:mcs,mergesCurrentSize;default:false;text-align:right;desc:size of current merges'],
  ['merges.total', 'alias:mt,mergesTotal;default:false;text-align:right;desc:number of completed merge ops'],
  ['merges.total_docs', 'alias:mtd,mergesTotalDocs;default:false;text-align:right;desc:docs merged'],
  ['merges.total_size', 'alias:mts,mergesTotalSize;default:false;text-align:right;desc:size merged'],
  ['merges.total_time', 'alias:mtt,mergesTotalTime;default:false;text-align:right;desc:time spent in merges'],
  ['refresh.total', 'alias:rto,refreshTotal;default:false;text-align:right;desc:total refreshes'],
  ['refresh.time', 'alias:rti,refreshTime;default:false;text-align:right;desc:time spent in refreshes'],
  ['refresh.external_total', 'alias:rto,refreshTotal;default:false;text-align:right;desc:total external refreshes'],
  ['refresh.external_time', 'alias:rti,refreshTime;default:false;text-align:right;desc:time spent in external refreshes'],
  ['refresh.listeners', 'alias:rli,refreshListeners;default:false;text-align:right;desc:number of pending refresh listeners'],
];

/** The search and segments columns `_cat/nodes` and `_cat/shards` both have (as Elasticsearch declares them). */
export const SEARCH_SEGMENT_COLUMNS: Array<[string, string]> = [
  ['search.fetch_current', 'alias:sfc,searchFetchCurrent;default:false;text-align:right;desc:current fetch phase ops'],
  ['search.fetch_time', 'alias:sfti,searchFetchTime;default:false;text-align:right;desc:time spent in fetch phase'],
  ['search.fetch_total', 'alias:sfto,searchFetchTotal;default:false;text-align:right;desc:total fetch ops'],
  ['search.open_contexts', 'alias:so,searchOpenContexts;default:false;text-align:right;desc:open search contexts'],
  ['search.query_current', 'alias:sqc,searchQueryCurrent;default:false;text-align:right;desc:current query phase ops'],
  ['search.query_time', 'alias:sqti,searchQueryTime;default:false;text-align:right;desc:time spent in query phase'],
  ['search.query_total', 'alias:sqto,searchQueryTotal;default:false;text-align:right;desc:total query phase ops'],
  ['search.scroll_current', 'alias:scc,searchScrollCurrent;default:false;text-align:right;desc:open scroll contexts'],
  ['search.scroll_time', 'alias:scti,searchScrollTime;default:false;text-align:right;desc:time scroll contexts held open'],
  ['search.scroll_total', 'alias:scto,searchScrollTotal;default:false;text-align:right;desc:completed scroll contexts'],
  ['segments.count', 'alias:sc,segmentsCount;default:false;text-align:right;desc:number of segments'],
  ['segments.memory', 'alias:sm,segmentsMemory;default:false;text-align:right;desc:memory used by segments'],
  ['segments.index_writer_memory', 'alias:siwm,segmentsIndexWriterMemory;default:false;text-align:right;desc:memory used by index writer'],
  ['segments.version_map_memory', 'alias:svmm,segmentsVersionMapMemory;default:false;text-align:right;desc:memory used by version map'],
  ['segments.fixed_bitset_memory', 'alias:sfbm,fixedBitsetMemory;default:false;text-align:right;desc:memory used by fixed bit sets for nested object field types and type filters for types referred in _parent fields'],
];
