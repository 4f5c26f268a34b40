import os from 'node:os';
import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { NODE_ROLES, percentOf } from '../../node/index.js';
import { mappedFields, runtimeFields } from '../mapped-fields.js';
import { numberOfShards } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { unrecognizedMessage } from '../unknown-field.js';
import { ES_VERSION, clusterHealth } from './cluster.js';
import { STATS_SECTIONS, statsInputOf } from './stats.js';

type Json = Record<string, unknown>;

function minMaxAvg(values: number[]): Json {
  if (!values.length) return { min: 0, max: 0, avg: 0 };
  return { min: Math.min(...values), max: Math.max(...values), avg: values.reduce((a, b) => a + b, 0) / values.length };
}

function countBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    out.set(k, [...(out.get(k) ?? []), i]);
  }
  return out;
}

/** `indices.mappings` of cluster stats: field types and runtime field types, by type name, with the indices using each. */
function mappingStats(open: IndexHandle[]): Json {
  const fields = open.flatMap((h) => mappedFields(h.mappings).map((f) => ({ ...f, index: h.name })));
  const fieldTypes = [...countBy(fields, (f) => f.type)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, fs]) => ({
    name, count: fs.length, index_count: new Set(fs.map((f) => f.index)).size,
  }));
  const runtime = open.flatMap((h) => {
    const paths = new Set(mappedFields(h.mappings).map((f) => f.path));
    return runtimeFields(h.mappings).map((r) => ({ ...r, index: h.name, shadowed: paths.has(r.name) }));
  });
  const runtimeTypes = [...countBy(runtime, (r) => String(r.mapping.type ?? 'keyword'))].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, rs]) => {
    const scripts = rs.map((r) => r.mapping.script).map((s) => (typeof s === 'string' ? s : s && typeof s === 'object' ? String((s as Json).source ?? '') : null));
    const withScript = scripts.filter((s): s is string => s !== null);
    const per = (f: (s: string) => number) => withScript.map(f);
    const lines = per((s) => s.split('\n').length);
    const chars = per((s) => s.length);
    const sources = per((s) => (s.match(/params\._source/g) ?? []).length);
    const docs = per((s) => (s.match(/doc\[/g) ?? []).length);
    const max = (v: number[]) => (v.length ? Math.max(...v) : 0);
    const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
    return {
      name, count: rs.length, index_count: new Set(rs.map((r) => r.index)).size, scriptless_count: rs.length - withScript.length,
      shadowed_count: rs.filter((r) => r.shadowed).length, lang: withScript.length ? ['painless'] : [],
      lines_max: max(lines), lines_total: total(lines), chars_max: max(chars), chars_total: total(chars),
      source_max: max(sources), source_total: total(sources), doc_max: max(docs), doc_total: total(docs),
    };
  });
  const mappingBytes = open.reduce((n, h) => n + JSON.stringify(h.mappings).length, 0);
  return {
    total_field_count: fields.length, total_deduplicated_field_count: fields.length, total_deduplicated_mapping_size_in_bytes: mappingBytes,
    field_types: fieldTypes, runtime_field_types: runtimeTypes,
  };
}

/** `GET _cluster/stats`: indices (count, shards, docs, store, mappings…) and the one node's figures, in ES's shape. */
async function clusterStats(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const filter = metricFilter(req);
  const open = ctx.indices.all().filter((h) => h.isOpen);
  const input = statsInputOf(open, ctx);
  const f = await ctx.node.figures();
  const cpus = os.availableParallelism();
  // active shards: the primaries (replicas cannot be assigned on one node)
  const primaries = open.map(numberOfShards);
  const totals = primaries;
  const usedRam = f.ramTotal - f.ramFree;
  const roleCounts: Json = { total: 1, coordinating_only: 0 };
  for (const [role] of [...NODE_ROLES, ['index', ''], ['search', ''], ['voting_only', '']]) roleCounts[role] = NODE_ROLES.some(([r]) => r === role) ? 1 : 0;
  const body: Json = {
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: ctx.clusterName,
    cluster_uuid: ctx.clusterUuid,
    timestamp: Date.now(),
    status: clusterHealth(ctx).status,
    indices: {
      count: open.length,
      shards: open.length
        ? {
          total: totals.reduce((a, b) => a + b, 0), primaries: primaries.reduce((a, b) => a + b, 0), replication: 0,
          index: { shards: minMaxAvg(totals), primaries: minMaxAvg(primaries), replication: minMaxAvg(open.map(() => 0)) },
        }
        : {},
      docs: STATS_SECTIONS.docs(input),
      store: STATS_SECTIONS.store(input),
      fielddata: STATS_SECTIONS.fielddata(input),
      query_cache: STATS_SECTIONS.query_cache(input),
      completion: STATS_SECTIONS.completion(input),
      segments: {
        count: input.activity.segments, memory_in_bytes: 0, terms_memory_in_bytes: 0, stored_fields_memory_in_bytes: 0, term_vectors_memory_in_bytes: 0,
        norms_memory_in_bytes: 0, points_memory_in_bytes: 0, doc_values_memory_in_bytes: 0, index_writer_memory_in_bytes: 0,
        version_map_memory_in_bytes: 0, fixed_bit_set_memory_in_bytes: 0, max_unsafe_auto_id_timestamp: -1, file_sizes: {},
      },
      mappings: mappingStats(open),
      analysis: {
        char_filter_types: [], tokenizer_types: [], filter_types: [], analyzer_types: [],
        built_in_char_filters: [], built_in_tokenizers: [], built_in_filters: [], built_in_analyzers: [], synonyms: {},
      },
      versions: open.length
        ? [{ version: ES_VERSION.number, index_count: open.length, primary_shard_count: primaries.reduce((a, b) => a + b, 0), total_primary_bytes: input.storeBytes }]
        : [],
      search: { total: 0, queries: {}, rescorers: {}, sections: {} },
      dense_vector: { value_count: 0 },
      sparse_vector: { value_count: 0 },
    },
    nodes: {
      count: roleCounts,
      versions: [ES_VERSION.number],
      os: {
        available_processors: cpus, allocated_processors: cpus,
        names: [{ name: os.type(), count: 1 }], pretty_names: [{ pretty_name: os.version(), count: 1 }], architectures: [{ arch: os.arch(), count: 1 }],
        mem: {
          total_in_bytes: f.ramTotal, adjusted_total_in_bytes: f.ramTotal, free_in_bytes: f.ramFree, used_in_bytes: usedRam,
          free_percent: percentOf(f.ramFree, f.ramTotal), used_percent: percentOf(usedRam, f.ramTotal),
        },
      },
      process: {
        cpu: { percent: f.cpuPercent },
        open_file_descriptors: { min: f.openFileDescriptors, max: f.openFileDescriptors, avg: f.openFileDescriptors },
      },
      jvm: {
        max_uptime_in_millis: f.uptimeMillis,
        versions: [{ version: process.versions.node, vm_name: 'Node.js', vm_version: process.versions.v8, vm_vendor: 'Node.js', bundled_jdk: false, using_bundled_jdk: null, count: 1 }],
        mem: { heap_used_in_bytes: f.heapUsed, heap_max_in_bytes: f.heapMax },
        threads: 1,
      },
      fs: { total_in_bytes: f.fs.total, free_in_bytes: f.fs.free, available_in_bytes: f.fs.available },
      plugins: [],
      network_types: { transport_types: { netty4: 1 }, http_types: { netty4: 1 } },
      discovery_types: { 'single-node': 1 },
      packaging_types: [{ flavor: ES_VERSION.build_flavor, type: ES_VERSION.build_type, count: 1 }],
      ingest: { number_of_pipelines: 0, processor_stats: {} },
      indexing_pressure: {
        memory: {
          current: { combined_coordinating_and_primary_in_bytes: 0, coordinating_in_bytes: 0, primary_in_bytes: 0, replica_in_bytes: 0, all_in_bytes: 0 },
          total: { combined_coordinating_and_primary_in_bytes: 0, coordinating_in_bytes: 0, primary_in_bytes: 0, replica_in_bytes: 0, all_in_bytes: 0, coordinating_rejections: 0, primary_rejections: 0, replica_rejections: 0 },
          limit_in_bytes: Math.floor(f.heapMax / 10),
        },
      },
    },
    snapshots: {
      current_counts: { snapshots: 0, shard_snapshots: 0, snapshot_deletions: 0, concurrent_operations: 0, cleanups: 0 },
      repositories: {},
    },
  };
  if (filter) applyMetricFilter(body, filter);
  return { status: 200, body };
}

/** OpenSearch 2.18's metric groups of `_cluster/stats/{metric}[/{index_metric}]/nodes/{node_id}`. */
const CLUSTER_STATS_METRICS = ['os', 'jvm', 'fs', 'process', 'ingest', 'plugins', 'network_types', 'discovery_types', 'packaging_types', 'indices'];
const CLUSTER_STATS_INDEX_METRICS = ['shards', 'docs', 'store', 'fielddata', 'query_cache', 'completion', 'segments', 'analysis', 'mappings'];

/** The metrics and index metrics a request's path names (undefined: every section), checked as OpenSearch does. */
function metricFilter(req: RestRequest): { metrics: string[]; indexMetrics: string[] } | undefined {
  if (req.pathParams.metric === undefined) return undefined;
  const split = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const metrics = split(req.pathParams.metric);
  const indexMetrics = split(req.pathParams.index_metric);
  if (metrics.includes('_all')) {
    if (metrics.length > 1) throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains _all and individual metrics [${req.pathParams.metric}]`);
  } else {
    const invalid = metrics.filter((m) => !CLUSTER_STATS_METRICS.includes(m));
    if (invalid.length) throw new EsError(400, 'illegal_argument_exception', unrecognizedMessage(req.path, invalid, CLUSTER_STATS_METRICS, 'metric'));
  }
  const all = metrics.includes('_all');
  if (indexMetrics.length && !all && !metrics.includes('indices')) {
    throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains index metrics [${req.pathParams.index_metric}] but indices stats not requested`);
  }
  if (!indexMetrics.includes('_all')) {
    const invalid = indexMetrics.filter((m) => !CLUSTER_STATS_INDEX_METRICS.includes(m));
    if (invalid.length) throw new EsError(400, 'illegal_argument_exception', unrecognizedMessage(req.path, invalid, CLUSTER_STATS_INDEX_METRICS, 'index metric'));
  }
  return {
    metrics: all ? CLUSTER_STATS_METRICS : metrics,
    indexMetrics: !indexMetrics.length || indexMetrics.includes('_all') ? CLUSTER_STATS_INDEX_METRICS : indexMetrics,
  };
}

/** Keeps the sections asked for: `indices` (its count and the index metrics) and, of `nodes`, its count and versions and the metrics. */
function applyMetricFilter(body: Json, filter: { metrics: string[]; indexMetrics: string[] }): void {
  const indices = body.indices as Json;
  if (filter.metrics.includes('indices')) {
    for (const key of Object.keys(indices)) if (key !== 'count' && !filter.indexMetrics.includes(key)) delete indices[key];
  } else {
    delete body.indices;
  }
  const nodes = body.nodes as Json;
  for (const key of Object.keys(nodes)) if (key !== 'count' && key !== 'versions' && !filter.metrics.includes(key)) delete nodes[key];
  delete body.snapshots;
}

export const clusterStatsRoutes: Route[] = [
  { id: 'cluster.stats', handler: clusterStats },
];
