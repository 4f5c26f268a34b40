import type { IndexHandle } from '../../indices/index.js';
import type { AggNode } from '../aggregations/index.js';
import type { ExecutionContext, Query } from '../query/index.js';
import { AggregationProfiler } from './aggregation-profile.js';
import type { FetchPlan } from './fetch-profile.js';
import { profileQuery } from './query-profile.js';

/** What the profiler needs of the search it watches. */
export interface ProfiledSearch {
  query: Query;
  size: number;
  scoreOrder: boolean;
  scoring: boolean;
  aggregations?: AggNode[];
  /** `search.aggs.rewrite_to_filter_by_filter`: whether a terms aggregation may be run as filters. */
  rewriteToFilterByFilter?: boolean;
  /** What the fetch phase does for each hit. */
  fetch: FetchPlan;
  /** The context the search ran its query in on an index. */
  contextOf(handle: IndexHandle): ExecutionContext;
}

interface Fetched {
  nanos: number;
  hits: number;
}

function msToNanos(ms: number): number {
  return Math.max(1, Math.round(ms * 1e6));
}

/**
 * `"profile": true` on a search (Elasticsearch's Profile API): the search tells the profiler how
 * long each index's query phase and fetch took; the profiler renders `profile.shards`, one entry
 * per index (each index is one shard on the one node here), with Elasticsearch's shape: `id`
 * (`[node][index][0]`), `node_id`, `shard_id`, `index`, `cluster`, `searches` (the query tree,
 * `rewrite_time`, `collector`), `aggregations` and, for an index with hits on the page, `fetch`.
 */
export class SearchProfiler {
  readonly aggregations = new AggregationProfiler();
  private readonly queryNanos = new Map<IndexHandle, number>();
  private readonly fetched = new Map<IndexHandle, Fetched>();
  private aggregationNanos = 0;

  constructor(private readonly search: ProfiledSearch, private readonly nodeId: string) {}

  queryPhase(handle: IndexHandle, ms: number): void {
    this.queryNanos.set(handle, (this.queryNanos.get(handle) ?? 0) + msToNanos(ms));
  }

  aggregationPhase(ms: number): void {
    this.aggregationNanos += msToNanos(ms);
  }

  fetchedHit(handle: IndexHandle, ms: number): void {
    const f = this.fetched.get(handle) ?? { nanos: 0, hits: 0 };
    f.nanos += msToNanos(ms);
    f.hits++;
    this.fetched.set(handle, f);
  }

  /** The response's `profile`, the shards in the order of their ids (as Elasticsearch sorts them). */
  render(handles: IndexHandle[]): { shards: Array<Record<string, unknown>> } {
    const shards = handles.map((h) => this.shard(h, handles));
    shards.sort((a, b) => String(a.id).localeCompare(String(b.id)));
    return { shards };
  }

  private shard(handle: IndexHandle, handles: IndexHandle[]): Record<string, unknown> {
    const { query, rewriteNanos } = profileQuery(this.search.query, this.search.contextOf(handle), this.search.scoring);
    const out: Record<string, unknown> = {
      id: `[${this.nodeId}][${handle.name}][0]`, node_id: this.nodeId, shard_id: 0, index: handle.name, cluster: '(local)',
      searches: [{ query, rewrite_time: rewriteNanos, collector: [this.collector(handle)] }],
      aggregations: this.search.aggregations ? this.aggregations.shardSection(this.search.aggregations, handle, handles, this.search.rewriteToFilterByFilter ?? true) : [],
    };
    const fetch = this.fetched.get(handle);
    if (fetch) out.fetch = fetchSection(fetch, this.search.fetch);
    return out;
  }

  private collector(handle: IndexHandle): Record<string, unknown> {
    const queryNanos = this.queryNanos.get(handle) ?? 1;
    const hits = this.search.size === 0
      ? { name: 'TotalHitCountCollector', reason: 'search_count', time_in_nanos: queryNanos }
      : { name: this.search.scoreOrder ? 'SimpleTopScoreDocCollector' : 'SimpleFieldCollector', reason: 'search_top_hits', time_in_nanos: queryNanos };
    const children: Array<Record<string, unknown>> = [hits];
    const names = (this.search.aggregations ?? []).filter((a) => a.type !== 'global').map((a) => a.name);
    if (names.length) children.push({ name: `AggregatorCollector: [${names.join(', ')}]`, reason: 'aggregation', time_in_nanos: this.aggregationNanos || 1 });
    const total = children.reduce((n, c) => n + (c.time_in_nanos as number), 0);
    return { name: 'QueryPhaseCollector', reason: 'search_query_phase', time_in_nanos: total, children };
  }
}

/**
 * An index's fetch phase (FetchProfiler). A hit is one read of the stored document, `_source`
 * included, and building it: the time is `load_stored_fields`, counted once per hit. Each sub-phase
 * that ran is a child; moving to the index's one segment (`next_reader`) is bookkeeping: a
 * nanosecond, as the aggregations' phases around their pass.
 */
function fetchSection(f: Fetched, plan: FetchPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: 'fetch', description: '', time_in_nanos: f.nanos + 1,
    breakdown: {
      next_reader: 1, next_reader_count: 1, load_stored_fields: f.nanos, load_stored_fields_count: f.hits,
      load_source: 0, load_source_count: plan.loadsSource ? f.hits : 0,
    },
    debug: { stored_fields: plan.storedFields },
  };
  if (plan.phases.length) {
    out.children = plan.phases.map((type) => ({
      type, description: '', time_in_nanos: 1,
      breakdown: { next_reader: 1, next_reader_count: 1, process: 0, process_count: f.hits },
      ...(type === 'FetchSourcePhase' ? { debug: { fast_path: f.hits } } : {}),
    }));
  }
  return out;
}
