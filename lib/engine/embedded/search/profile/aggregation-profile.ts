import { fieldType, NUMERIC_TYPES, resolveFieldMapping } from '../../mapping/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { bucketsCollected, docCounts, type AggNode, type AggregationTimings, type DocSet } from '../aggregations/index.js';

/**
 * The aggregations section of a shard's profile (Elasticsearch's AggregationProfileShardResult):
 * one entry per aggregator, named by the class Elasticsearch would have built (`type`), described
 * by the aggregation's name, with its time, Elasticsearch's breakdown keys and, for the
 * aggregators whose `debug` the reference shows, that debug. The engine collects an aggregation's
 * documents and builds its result in one pass: that pass's measured time is `collect`; the other
 * phases get the bookkeeping time around it. Pipeline aggregations are not aggregators (as in
 * Elasticsearch, they are not profiled).
 */
export interface AggregationProfile {
  type: string;
  description: string;
  time_in_nanos: number;
  breakdown: Record<string, number>;
  debug?: Record<string, unknown>;
  children?: AggregationProfile[];
}

/** Elasticsearch's AggregationTimingType, in its order. */
const AGGREGATION_TIMERS = ['initialize', 'build_leaf_collector', 'collect', 'post_collection', 'build_aggregation', 'reduce'] as const;

interface Runs {
  nanos: bigint;
  runs: number;
  /** Documents collected, by index (an index is a shard here). */
  docs: Map<IndexHandle, number>;
  /** Indices that gave the aggregation a leaf (a segment) to collect. */
  leaves: Set<IndexHandle>;
  /** The ordinals collected, by index (the doc sets the aggregation was given, not copies). */
  collected: Map<IndexHandle, number[][]>;
}

const PIPELINES = new Set([
  'avg_bucket', 'max_bucket', 'min_bucket', 'sum_bucket', 'stats_bucket', 'extended_stats_bucket', 'percentiles_bucket', 'bucket_script',
  'bucket_selector', 'bucket_sort', 'cumulative_sum', 'cumulative_cardinality', 'derivative', 'moving_avg', 'moving_fn', 'moving_percentiles',
  'serial_diff', 'normalize', 'inference', 'bucket_count_ks_test', 'bucket_correlation', 'change_point',
]);

/** Aggregator classes by aggregation type, where the name is not `{Type}Aggregator`. */
const AGGREGATOR_CLASSES: Record<string, string> = {
  histogram: 'NumericHistogramAggregator', date_histogram: 'DateHistogramAggregator', date_range: 'RangeAggregator', ip_range: 'BinaryRangeAggregator',
  geo_distance: 'RangeAggregator', percentiles: 'TDigestPercentilesAggregator', percentile_ranks: 'TDigestPercentileRanksAggregator',
  geohash_grid: 'GeoHashGridAggregator', geotile_grid: 'GeoTileGridAggregator', diversified_sampler: 'DiversifiedMapSamplerAggregator',
  rare_terms: 'StringRareTermsAggregator', significant_text: 'SignificantTextAggregator', variable_width_histogram: 'VariableWidthHistogramAggregator',
};

function pascal(type: string): string {
  return type.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function fieldOf(node: AggNode): string | undefined {
  return typeof node.body.field === 'string' ? node.body.field : undefined;
}

function fieldKind(node: AggNode, handles: IndexHandle[]): 'numeric' | 'ordinals' | 'none' {
  const field = fieldOf(node);
  if (field === undefined) return 'none';
  for (const h of handles) {
    const m = resolveFieldMapping(h.mappings, field);
    if (!m) continue;
    const type = fieldType(m);
    return NUMERIC_TYPES.has(type) || type === 'date' || type === 'date_nanos' || type === 'boolean' ? 'numeric' : 'ordinals';
  }
  return 'none';
}

function classOf(node: AggNode, handles: IndexHandle[], topLevel: boolean): string {
  switch (node.type) {
    case 'terms':
    case 'significant_terms': {
      const kind = fieldKind(node, handles);
      if (kind === 'numeric') return node.type === 'terms' ? 'NumericTermsAggregator' : 'NumericSignificantTermsAggregator';
      if (node.body.execution_hint === 'map' || kind === 'none') return node.type === 'terms' ? 'MapStringTermsAggregator' : 'MapStringSignificantTermsAggregator';
      return 'GlobalOrdinalsStringTermsAggregator';
    }
    case 'auto_date_histogram':
      return topLevel ? 'AutoDateHistogramAggregator.FromSingle' : 'AutoDateHistogramAggregator.FromMany';
    case 'cardinality':
      return fieldKind(node, handles) === 'ordinals' ? 'GlobalOrdCardinalityAggregator' : 'CardinalityAggregator';
    case 'filters':
      // Elasticsearch runs a filters aggregation filter by filter when nothing is above it and it keeps no "other" bucket.
      return topLevel && !otherBucket(node) ? 'FilterByFilterAggregator' : 'FiltersAggregator';
    default:
      return AGGREGATOR_CLASSES[node.type] ?? `${pascal(node.type)}Aggregator`;
  }
}

/** Elasticsearch's TermsAggregatorFactory.MAX_ORDS_TO_TRY_FILTERS: the most terms a terms aggregation is run as filters for. */
const MAX_ORDS_TO_TRY_FILTERS = 1000;

/**
 * Whether Elasticsearch would run a top-level terms aggregation on an index as one term query per
 * term, filter by filter (StringTermsAggregatorFromFilters): its field an indexed keyword read
 * without `missing` or a script, holding between 1 and MAX_ORDS_TO_TRY_FILTERS distinct terms
 * there, and (as the 7.x releases still required) nothing below it to feed.
 */
function termsAsFilters(node: AggNode, handle: IndexHandle): boolean {
  const field = fieldOf(node);
  if (node.type !== 'terms' || field === undefined || node.body.missing !== undefined || node.body.script !== undefined) return false;
  if (node.subs.some((s) => !PIPELINES.has(s.type))) return false;
  const m = resolveFieldMapping(handle.mappings, field);
  if (!m || fieldType(m) !== 'keyword' || m.index === false) return false;
  const fi = handle.inverted?.field(field);
  if (!fi) return false;
  const terms = new Set<unknown>();
  for (const values of fi.docValues.values()) {
    for (const v of values) terms.add(v);
    if (terms.size > MAX_ORDS_TO_TRY_FILTERS) return false;
  }
  return terms.size > 0;
}

function otherBucket(node: AggNode): boolean {
  return node.body.other_bucket === true || typeof node.body.other_bucket_key === 'string';
}

/** Whether some collected document has more than one value of the aggregation's field in an index. */
function multiValued(node: AggNode, handle: IndexHandle, runs: Runs | undefined): boolean {
  const field = fieldOf(node);
  const fi = field === undefined ? undefined : handle.inverted?.field(field);
  if (!fi || !runs?.docs.get(handle)) return false;
  for (const values of fi.docValues.values()) if (values.length > 1) return true;
  return false;
}

/** How many distinct values of the aggregation's field the collected documents of an index hold (the buckets collection made). */
function distinctValues(node: AggNode, handle: IndexHandle, runs: Runs | undefined): number {
  const field = fieldOf(node);
  const fi = field === undefined ? undefined : handle.inverted?.field(field);
  if (!fi) return 0;
  const seen = new Set<unknown>();
  for (const ords of runs?.collected.get(handle) ?? []) for (const ord of ords) for (const v of fi.docValues.get(ord) ?? []) seen.add(v);
  return seen.size;
}

/** The numeric values of the aggregation's field in the documents it collected in an index. */
function* numbersCollected(node: AggNode, handle: IndexHandle, runs: Runs | undefined): Generator<number> {
  const field = fieldOf(node);
  const fi = field === undefined ? undefined : handle.inverted?.field(field);
  if (!fi) return;
  for (const ords of runs?.collected.get(handle) ?? []) for (const ord of ords) for (const v of fi.docValues.get(ord) ?? []) yield Number(v);
}

/**
 * The debug of a filter-by-filter run on an index: an index whose documents carry `_doc_count`, or
 * with sub-aggregations to feed, has its documents collected; otherwise each filter's matches are counted.
 */
function filterByFilterDebug(node: AggNode, handle: IndexHandle, leaves: number): Record<string, number> {
  const weighted = docCounts(handle) !== undefined;
  const collected = weighted || node.subs.some((s) => !PIPELINES.has(s.type)) ? leaves : 0;
  return { segments_with_doc_count_field: weighted ? leaves : 0, segments_with_deleted_docs: 0, segments_counted: leaves - collected, segments_collected: collected };
}

/** The `debug` the reference shows for an aggregator, for one index. */
function debugOf(node: AggNode, type: string, handle: IndexHandle, runs: Runs | undefined): Record<string, unknown> | undefined {
  const deferred = node.body.collect_mode === 'breadth_first' ? node.subs.filter((s) => !PIPELINES.has(s.type)).map((s) => s.name) : [];
  const withDeferred = (d: Record<string, unknown>) => (deferred.length ? { deferred_aggregators: deferred, ...d } : d);
  const leaves = runs?.leaves.has(handle) ? 1 : 0;
  switch (type) {
    case 'GlobalOrdinalsStringTermsAggregator': {
      const multi = multiValued(node, handle, runs);
      return withDeferred({
        collection_strategy: 'dense', result_strategy: 'terms', has_filter: node.body.include !== undefined || node.body.exclude !== undefined,
        segments_with_single_valued_ords: multi ? 0 : leaves, segments_with_multi_valued_ords: multi ? leaves : 0,
      });
    }
    case 'MapStringTermsAggregator':
      return withDeferred({ result_strategy: 'terms', total_buckets: distinctValues(node, handle, runs) });
    case 'NumericTermsAggregator':
      return withDeferred({ result_strategy: 'long_terms', total_buckets: distinctValues(node, handle, runs) });
    case 'NumericHistogramAggregator':
    case 'DateHistogramAggregator': {
      const total = bucketsCollected(node, numbersCollected(node, handle, runs));
      return total === undefined ? undefined : withDeferred({ total_buckets: total });
    }
    case 'FilterByFilterAggregator':
      return withDeferred(filterByFilterDebug(node, handle, leaves));
    case 'StringTermsAggregatorFromFilters':
      return { delegate: 'FilterByFilterAggregator', delegate_debug: filterByFilterDebug(node, handle, leaves) };
    case 'AutoDateHistogramAggregator.FromSingle':
      return withDeferred({ surviving_buckets: distinctValues(node, handle, runs) });
    case 'CardinalityAggregator':
    case 'GlobalOrdCardinalityAggregator': {
      const ordinals = type === 'GlobalOrdCardinalityAggregator';
      return {
        empty_collectors_used: fieldOf(node) === undefined ? leaves : 0, numeric_collectors_used: ordinals || fieldOf(node) === undefined ? 0 : leaves,
        ordinals_collectors_used: ordinals ? leaves : 0, ordinals_collectors_overhead_too_high: 0, string_hashing_collectors_used: 0,
      };
    }
    default:
      return undefined;
  }
}

/** Collects the time of every aggregation run of a search (AggContext.timings) and renders each index's section. */
export class AggregationProfiler implements AggregationTimings {
  private readonly runs = new Map<AggNode, Runs>();

  record(node: AggNode, docs: DocSet, nanos: bigint): void {
    let r = this.runs.get(node);
    if (!r) this.runs.set(node, (r = { nanos: 0n, runs: 0, docs: new Map(), leaves: new Set(), collected: new Map() }));
    r.nanos += nanos;
    r.runs++;
    for (const seg of docs) {
      r.docs.set(seg.handle, (r.docs.get(seg.handle) ?? 0) + seg.ords.length);
      if (!seg.ords.length) continue;
      r.leaves.add(seg.handle);
      const collected = r.collected.get(seg.handle);
      if (collected) collected.push(seg.ords);
      else r.collected.set(seg.handle, [seg.ords]);
    }
  }

  /** The aggregations section of one index (shard): each aggregator with its share of the time by the documents it collected there. */
  shardSection(nodes: AggNode[], handle: IndexHandle, handles: IndexHandle[], filterByFilter: boolean, topLevel = true): AggregationProfile[] {
    const out: AggregationProfile[] = [];
    for (const node of nodes) {
      if (PIPELINES.has(node.type)) continue;
      const r = this.runs.get(node);
      const docs = r?.docs.get(handle) ?? 0;
      let all = 0;
      for (const n of r?.docs.values() ?? []) all += n;
      const share = r === undefined ? 0 : handles.length === 1 || all === 0 ? Number(r.nanos) / handles.length : (Number(r.nanos) * docs) / all;
      const collect = Math.max(1, Math.round(share));
      const counts: Record<string, number> = {
        initialize: 1, build_leaf_collector: r?.leaves.has(handle) ? 1 : 0, collect: docs, post_collection: 1, build_aggregation: 1, reduce: 0,
      };
      const times: Record<string, number> = {};
      // What is not the pass itself is bookkeeping: a nanosecond for each phase that ran.
      for (const t of AGGREGATION_TIMERS) times[t] = t === 'collect' ? (docs ? collect : 0) : counts[t] ? 1 : 0;
      const breakdown: Record<string, number> = {};
      for (const t of AGGREGATION_TIMERS) {
        breakdown[t] = times[t];
        breakdown[`${t}_count`] = counts[t];
      }
      const ordinals = classOf(node, handles, topLevel);
      const type = ordinals === 'GlobalOrdinalsStringTermsAggregator' && topLevel && filterByFilter && termsAsFilters(node, handle)
        ? 'StringTermsAggregatorFromFilters' : ordinals;
      const entry: AggregationProfile = {
        type, description: node.name, time_in_nanos: AGGREGATION_TIMERS.reduce((n, t) => n + times[t], 0), breakdown,
      };
      const debug = debugOf(node, type, handle, r);
      if (debug) entry.debug = debug;
      const children = this.shardSection(node.subs, handle, handles, filterByFilter, false);
      if (children.length) entry.children = children;
      out.push(entry);
    }
    return out;
  }
}
