import { createHash } from 'node:crypto';
import { EsError, errors } from '../../../../errors/index.js';
import { completionSection, fielddataSection, type IndexHandle } from '../../indices/index.js';
import { booleanParam } from '../params.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { unrecognizedMessage } from '../unknown-field.js';
import { activityOf, type ActivityCounters } from '../stats-columns.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { bytesOf } from './cat.js';
import { indexHealth } from './cluster.js';
import { resolveTarget } from './search-target.js';

/** A stats section: counters, flags, and maps (segments' file_sizes, the fields of fielddata and completion). */
type Section = { [key: string]: number | boolean | Section };

const ms = (n: number) => Math.round(n);

/** An empty translog's size: its header, as Elasticsearch reports a shard with no operations (55 bytes). */
const TRANSLOG_HEADER_BYTES = 55;

/** What an index's (or several indices') stats sections are made of. */
export interface StatsInput {
  docs: number;
  /** Primary shards of the open indices (each started on the one node). */
  shards: number;
  storeBytes: number;
  activity: ActivityCounters;
  /** Field data loaded, and completion fields' size (field-memory-stats). */
  fielddataBytes: number;
  completionBytes: number;
}

export function statsInputOf(handles: IndexHandle[], ctx: EngineContext): StatsInput {
  const open = handles.filter((h) => h.isOpen);
  const shards = open.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1'), 0);
  return {
    docs: open.reduce((n, h) => n + h.docCount, 0), shards, storeBytes: open.reduce((n, h) => n + bytesOf(h), 0), activity: activityOf(open, ctx),
    fielddataBytes: open.reduce((n, h) => n + (fielddataSection(h, undefined).memory_size_in_bytes as number), 0),
    completionBytes: open.reduce((n, h) => n + (completionSection(h, undefined).size_in_bytes as number), 0),
  };
}

/**
 * The sections of an index's stats, by metric name. What the engine counts (documents, store,
 * indexing, get, search, flushes) is measured; what it has no counterpart for (caches, merges,
 * warmers, completion) is reported as Elasticsearch reports an index that never used them.
 */
export const STATS_SECTIONS: Record<string, (i: StatsInput) => Section> = {
  docs: (i) => ({ count: i.docs, deleted: 0 }),
  shard_stats: (i) => ({ total_count: i.shards }),
  store: (i) => ({ size_in_bytes: i.storeBytes, total_data_set_size_in_bytes: i.storeBytes, reserved_in_bytes: 0 }),
  indexing: ({ activity: s }) => ({
    index_total: s.indexTotal, index_time_in_millis: ms(s.indexMs), index_current: 0, index_failed: s.indexFailed,
    delete_total: s.deleteTotal, delete_time_in_millis: ms(s.deleteMs), delete_current: 0,
    noop_update_total: s.noopUpdateTotal, is_throttled: false, throttle_time_in_millis: 0,
  }),
  get: ({ activity: s }) => ({
    total: s.getExistsTotal + s.getMissingTotal, time_in_millis: ms(s.getExistsMs + s.getMissingMs),
    exists_total: s.getExistsTotal, exists_time_in_millis: ms(s.getExistsMs),
    missing_total: s.getMissingTotal, missing_time_in_millis: ms(s.getMissingMs), current: 0,
  }),
  search: ({ activity: s }) => ({
    open_contexts: s.openContexts, query_total: s.queryTotal, query_time_in_millis: ms(s.queryMs), query_current: 0,
    fetch_total: s.fetchTotal, fetch_time_in_millis: ms(s.fetchMs), fetch_current: 0,
    scroll_total: s.scrollTotal, scroll_time_in_millis: ms(s.scrollMs), scroll_current: s.openContexts,
    suggest_total: s.suggestTotal, suggest_time_in_millis: ms(s.suggestMs), suggest_current: 0,
  }),
  merges: () => ({
    current: 0, current_docs: 0, current_size_in_bytes: 0, total: 0, total_time_in_millis: 0, total_docs: 0, total_size_in_bytes: 0,
    total_stopped_time_in_millis: 0, total_throttled_time_in_millis: 0, total_auto_throttle_in_bytes: 0,
  }),
  refresh: () => ({ total: 0, total_time_in_millis: 0, external_total: 0, external_total_time_in_millis: 0, listeners: 0 }),
  flush: ({ activity: s }) => ({ total: s.flushTotal, periodic: 0, total_time_in_millis: ms(s.flushMs) }),
  warmer: () => ({ current: 0, total: 0, total_time_in_millis: 0 }),
  query_cache: () => ({ memory_size_in_bytes: 0, total_count: 0, hit_count: 0, miss_count: 0, cache_size: 0, cache_count: 0, evictions: 0 }),
  fielddata: (i) => ({ memory_size_in_bytes: i.fielddataBytes, evictions: 0, global_ordinals: { build_time_in_millis: 0 } }),
  completion: (i) => ({ size_in_bytes: i.completionBytes }),
  segments: ({ activity: s }) => ({
    count: s.segments, memory_in_bytes: 0, terms_memory_in_bytes: 0, stored_fields_memory_in_bytes: 0,
    term_vectors_memory_in_bytes: 0, norms_memory_in_bytes: 0, points_memory_in_bytes: 0, doc_values_memory_in_bytes: 0,
    index_writer_memory_in_bytes: 0, version_map_memory_in_bytes: 0, fixed_bit_set_memory_in_bytes: 0,
    max_unsafe_auto_id_timestamp: -1, file_sizes: {},
  }),
  translog: ({ activity: s, shards }) => {
    // each shard's translog file starts with its header; a flush trims it back to that
    const bytes = shards * TRANSLOG_HEADER_BYTES + s.translogBytes;
    return { operations: s.translogOps, size_in_bytes: bytes, uncommitted_operations: s.translogOps, uncommitted_size_in_bytes: bytes, earliest_last_modified_age: s.translogAge };
  },
  request_cache: ({ activity: s }) => ({ memory_size_in_bytes: s.requestCacheBytes, evictions: 0, hit_count: s.requestCacheHits, miss_count: s.requestCacheMisses }),
  recovery: () => ({ current_as_source: 0, current_as_target: 0, throttle_time_in_millis: 0 }),
  bulk: () => ({ total_operations: 0, total_time_in_millis: 0, total_size_in_bytes: 0, avg_time_in_millis: 0, avg_size_in_bytes: 0 }),
};
const SECTIONS = STATS_SECTIONS;

/** Metric names of the URL → the sections they select (`merge` names the `merges` section, `suggest` is part of `search`). */
const METRICS: Record<string, string> = {
  docs: 'docs', store: 'store', indexing: 'indexing', get: 'get', search: 'search', suggest: 'search', merge: 'merges',
  refresh: 'refresh', flush: 'flush', warmer: 'warmer', query_cache: 'query_cache', fielddata: 'fielddata',
  completion: 'completion', request_cache: 'request_cache', segments: 'segments', translog: 'translog', recovery: 'recovery',
  bulk: 'bulk', shard_stats: 'shard_stats',
};

function selectedSections(req: RestRequest): string[] {
  const metric = req.pathParams.metric;
  if (metric === undefined || metric === '_all') return Object.keys(SECTIONS);
  const out = new Set<string>();
  const asked = metric.split(',').map((x) => x.trim());
  const invalid = asked.filter((m) => m !== '_all' && !METRICS[m]);
  if (invalid.length) throw new EsError(400, 'illegal_argument_exception', unrecognizedMessage(req.path, invalid, Object.keys(METRICS), 'metric'));
  for (const m of asked) {
    if (m === '_all') return Object.keys(SECTIONS);
    out.add(METRICS[m]);
  }
  return Object.keys(SECTIONS).filter((s) => out.has(s));
}

/**
 * The fields whose own figures a section reports (RestIndicesStatsAction): `fielddata_fields` or
 * `completion_fields`, else `fields` for both; undefined when none is named.
 */
function namedFields(req: RestRequest, own: string): string[] | undefined {
  const value = req.params.get(own) ?? req.params.get('fields');
  return value === null ? undefined : value.split(',').map((f) => f.trim()).filter(Boolean);
}

function indexSections(h: IndexHandle, sections: string[], ctx: EngineContext, req: RestRequest): Record<string, Section> {
  const out: Record<string, Section> = {};
  const input = statsInputOf([h], ctx);
  for (const s of sections) {
    if (s === 'fielddata') out[s] = fielddataSection(h, namedFields(req, 'fielddata_fields'));
    else if (s === 'completion') out[s] = completionSection(h, namedFields(req, 'completion_fields'));
    else if (s === 'segments' && !h.isOpen && booleanParam(req.params, 'include_unloaded_segments', false)) {
      // a closed index's segments are on disk, not loaded: counted when asked for
      out[s] = { ...SECTIONS[s](input), count: h.docCount > 0 ? 1 : 0 };
    } else if (s === 'search' && req.params.get('groups') !== null) out[s] = { ...SECTIONS[s](input), groups: searchGroups(h, req.params.get('groups')!) };
    else out[s] = SECTIONS[s](input);
  }
  return out;
}

/** `groups`: the search groups (names or patterns) whose statistics the search section lists. */
function searchGroups(h: IndexHandle, groups: string): Section {
  const patterns = groups.split(',').map((g) => g.trim()).filter(Boolean);
  const out: Section = {};
  if (!h.isOpen) return out;
  for (const [name, g] of [...h.stats.groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!patterns.some((p) => simpleMatch(p, name))) continue;
    out[name] = {
      query_total: g.queryTotal, query_time_in_millis: ms(g.queryMs), query_current: 0,
      fetch_total: g.fetchTotal, fetch_time_in_millis: ms(g.fetchMs), fetch_current: 0,
      scroll_total: g.scrollTotal, scroll_time_in_millis: ms(g.scrollMs), scroll_current: 0,
      suggest_total: g.suggestTotal, suggest_time_in_millis: ms(g.suggestMs), suggest_current: 0,
    };
  }
  return out;
}

/** Figures of several shards that are their largest, not their sum (global ordinals' value count). */
const MAX_KEYS = new Set(['shard_max_value_count']);

/** Adds a section into another, key by key (booleans: any; maps: merged, their numbers added, or the largest kept). */
function addInto(acc: Section, part: Section): void {
  for (const [k, v] of Object.entries(part)) {
    if (typeof v === 'object') addInto((acc[k] = typeof acc[k] === 'object' ? acc[k] : {}) as Section, v);
    else if (MAX_KEYS.has(k)) acc[k] = Math.max((acc[k] as number | undefined) ?? 0, v as number);
    else acc[k] = typeof v === 'boolean' ? acc[k] === true || v : ((acc[k] as number | undefined) ?? 0) + v;
  }
}

/** Sums sections of several indices, key by key; no index gives no section, as in ES. */
function sum(parts: Array<Record<string, Section>>, sections: string[]): Record<string, Section> {
  const out: Record<string, Section> = {};
  if (!parts.length) return out;
  for (const s of sections) {
    const acc: Section = {};
    for (const p of parts) addInto(acc, p[s]);
    out[s] = acc;
  }
  return out;
}

/**
 * `GET /_stats[/{metric}]`, `GET /{index}/_stats[/{metric}]`: Elasticsearch's index stats. One
 * node holds every primary; replicas are unassigned, so `total` equals `primaries`.
 */
function stats(req: RestRequest, ctx: EngineContext): RestResponse {
  const sections = selectedSections(req);
  const level = req.params.get('level') ?? 'indices';
  if (!['cluster', 'indices', 'shards'].includes(level)) {
    throw new EsError(400, 'illegal_argument_exception', `level parameter must be one of [cluster] or [indices] or [shards] but was [${level}]`);
  }
  const handles = resolveTarget(ctx, req.pathParams.index, req.params);
  const forbidClosed = booleanParam(req.params, 'forbid_closed_indices', true);
  const closed = handles.find((h) => !h.isOpen);
  // a closed index is refused, as Elasticsearch's broadcast actions do, unless ignore_unavailable leaves it out
  if (closed && forbidClosed && !booleanParam(req.params, 'ignore_unavailable', false)) throw errors.indexClosed(closed.name, closed.uuid);
  // closed indices are listed when allowed (forbid_closed_indices=false), with what a closed shard holds in memory: nothing
  const listed = forbidClosed ? handles.filter((h) => h.isOpen) : handles;
  const perIndex = listed.map((h) => indexSections(h, sections, ctx, req));
  const all = sum(perIndex, sections);
  const shards = (h: IndexHandle) => Number(h.meta.settings['index.number_of_shards'] ?? '1');
  const copies = (h: IndexHandle) => shards(h) * (1 + Number(h.meta.settings['index.number_of_replicas'] ?? '1'));
  const body: Record<string, unknown> = {
    _shards: { total: listed.reduce((n, h) => n + copies(h), 0), successful: listed.reduce((n, h) => n + shards(h), 0), failed: 0 },
    _all: { primaries: all, total: all },
  };
  if (level !== 'cluster') {
    const indices: Record<string, unknown> = {};
    listed.forEach((h, i) => {
      const entry: Record<string, unknown> = { uuid: h.uuid, health: indexHealth(h), status: h.meta.state, primaries: perIndex[i], total: perIndex[i] };
      if (level === 'shards') {
        entry.shards = { 0: [{ routing: { state: 'STARTED', primary: true, node: ctx.nodeName, relocating_node: null }, ...perIndex[i], ...shardState(h) }] };
      }
      indices[h.name] = entry;
    });
    body.indices = indices;
  }
  return { status: 200, body };
}

/**
 * What Elasticsearch adds to each shard's stats at `level=shards`: the last commit (its id, its
 * generation, the checkpoints and uuids of its user data, its documents) and the shard's sequence
 * numbers. Every acknowledged write is committed, so the checkpoints are the max sequence number.
 */
function shardState(h: IndexHandle): Record<string, unknown> {
  const seqNo = h.lastSeqNo;
  const generation = 1 + h.stats.flushTotal;
  return {
    commit: {
      id: createHash('md5').update(`${h.uuid}/${generation}/${seqNo}`).digest('base64'),
      generation,
      user_data: {
        local_checkpoint: String(seqNo), max_seq_no: String(seqNo), max_unsafe_auto_id_timestamp: '-1', min_retained_seq_no: String(seqNo + 1),
        history_uuid: h.uuid, translog_uuid: h.uuid,
      },
      num_docs: h.isOpen ? h.docCount : 0,
    },
    seq_no: { max_seq_no: seqNo, local_checkpoint: seqNo, global_checkpoint: seqNo },
  };
}

export const statsRoutes: Route[] = [
  { id: 'indices.stats', handler: stats },
];
