import os from 'node:os';
import v8 from 'node:v8';
import { EsError } from '../../../../errors/index.js';
import { percentOf, threadPools, type NodeFigures } from '../../node/index.js';
import { INDEX_VERSION_CREATED } from '../../indices/settings.js';
import { requireBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import { timeValue } from './search-target.js';
import { unrecognizedMessage } from '../unknown-field.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { ES_VERSION } from './cluster.js';
import { STATS_SECTIONS, statsInputOf } from './stats.js';
import { OPENSEARCH_STATS_METRICS, openSearchStatsSection } from './opensearch-node-stats.js';
import { OPENSEARCH_VERSION, nodeAttributes, nodeRoleAbbreviations, nodeRoles, speaksOpenSearch } from '../dialect.js';

type Json = Record<string, unknown>;

const INFO_METRICS = ['settings', 'os', 'process', 'jvm', 'thread_pool', 'transport', 'http', 'remote_cluster_server', 'plugins', 'ingest', 'aggregations', 'indices'];
const STATS_METRICS = [
  'indices', 'os', 'process', 'jvm', 'thread_pool', 'fs', 'transport', 'http', 'breaker', 'script', 'discovery', 'ingest',
  'adaptive_selection', 'script_cache', 'indexing_pressure', 'repositories', 'allocations',
];
/** Index metrics of node stats → the sections they select (`merge` names `merges`). */
const INDEX_METRICS: Record<string, string> = {
  docs: 'docs', store: 'store', indexing: 'indexing', get: 'get', search: 'search', merge: 'merges', refresh: 'refresh', flush: 'flush',
  warmer: 'warmer', query_cache: 'query_cache', fielddata: 'fielddata', completion: 'completion', segments: 'segments', translog: 'translog',
  request_cache: 'request_cache', recovery: 'recovery', bulk: 'bulk', shard_stats: 'shard_stats', mappings: 'mappings',
  dense_vector: 'dense_vector', sparse_vector: 'sparse_vector',
};

function list(v: string | undefined): string[] {
  return (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** The fields every node entry has, whatever the metrics (NodeInfo / NodeStats headers). */
function nodeHeader(req: RestRequest, ctx: EngineContext): Json {
  const n = ctx.node;
  return { name: n.name, transport_address: n.transportAddress, host: n.host, ip: n.ip, roles: nodeRoles(req, ctx), attributes: nodeAttributes(req, ctx) };
}

/** Elasticsearch's modules whose features the engine has (name, description), as nodes info lists them. */
const ES_MODULES: readonly (readonly [string, string])[] = [
  ['ingest-common', 'Module for ingest processors that do not require additional security permissions or have large dependencies and resources'],
  ['ingest-user-agent', 'Ingest processor that extracts information from a user agent'],
  ['lang-expression', 'Lucene expressions integration for Elasticsearch'],
  ['lang-mustache', 'Mustache scripting integration for Elasticsearch'],
  ['lang-painless', 'An easy, safe and fast scripting language for Elasticsearch'],
];

/**
 * What NodeInfo writes after the node's address: Elasticsearch 8's versions (transport, index,
 * components) and build; OpenSearch 2's version and build only (NodesInfoResponse.toXContent).
 */
function nodeBuild(req: RestRequest, ctx: EngineContext): Json {
  if (speaksOpenSearch(req, ctx)) return { version: OPENSEARCH_VERSION.number, build_type: OPENSEARCH_VERSION.build_type, build_hash: OPENSEARCH_VERSION.build_hash };
  return {
    version: ES_VERSION.number, transport_version: '8702002', index_version: Number(INDEX_VERSION_CREATED),
    component_versions: { transform_config_version: 10000099, ml_config_version: 12000099 },
    build_flavor: ES_VERSION.build_flavor, build_type: ES_VERSION.build_type, build_hash: ES_VERSION.build_hash,
  };
}

export function nodesResponse(ctx: EngineContext, nodeFilter: string[], entry: () => Json | Promise<Json>): Promise<RestResponse> | RestResponse {
  const selected = ctx.node.matches(nodeFilter);
  const answer = (nodes: Json): RestResponse => ({
    status: 200,
    body: { _nodes: { total: selected ? 1 : 0, successful: selected ? 1 : 0, failed: 0 }, cluster_name: ctx.clusterName, nodes },
  });
  if (!selected) return answer({});
  const e = entry();
  return e instanceof Promise ? e.then((v) => answer({ [ctx.node.id]: v })) : answer({ [ctx.node.id]: e });
}

function infoSection(metric: string, req: RestRequest, ctx: EngineContext): unknown {
  const cpus = os.availableParallelism();
  const heap = v8.getHeapStatistics();
  const http = ctx.node.httpAddress(req.headers.host);
  switch (metric) {
    case 'settings':
      return {
        cluster: { name: ctx.clusterName }, node: { name: ctx.node.name, attr: nodeAttributes(req, ctx), roles: nodeRoles(req, ctx) },
        discovery: { type: 'single-node' }, http: { type: { default: 'netty4' } }, transport: { type: { default: 'netty4' } },
      };
    case 'os':
      return { refresh_interval_in_millis: 1000, name: os.type(), pretty_name: os.version(), arch: os.arch(), version: os.release(), available_processors: cpus, allocated_processors: cpus };
    case 'process':
      return { refresh_interval_in_millis: 1000, id: process.pid, mlockall: false };
    case 'jvm':
      return {
        pid: process.pid, version: process.versions.node, vm_name: 'Node.js', vm_version: process.versions.v8, vm_vendor: 'Node.js',
        bundled_jdk: false, using_bundled_jdk: null, start_time_in_millis: ctx.node.startedAt,
        mem: { heap_init_in_bytes: 0, heap_max_in_bytes: heap.heap_size_limit, non_heap_init_in_bytes: 0, non_heap_max_in_bytes: 0, direct_max_in_bytes: 0 },
        gc_collectors: [], memory_pools: [], using_compressed_ordinary_object_pointers: 'unknown', input_arguments: process.execArgv,
      };
    case 'thread_pool':
      return Object.fromEntries(threadPools(cpus).map((p) => [p.name, p.type === 'fixed'
        ? { type: 'fixed', size: p.max, queue_size: p.queueSize }
        : { type: 'scaling', core: p.min, max: p.max, keep_alive: p.keepAlive, queue_size: -1 }]));
    case 'transport':
      return { bound_address: [ctx.node.transportAddress], publish_address: ctx.node.transportAddress, profiles: {} };
    case 'http':
      return { bound_address: [http], publish_address: http, max_content_length_in_bytes: 100 * 1024 * 1024 };
    case 'remote_cluster_server':
      return undefined;
    case 'plugins':
      return undefined;
    case 'ingest':
      return { processors: [] };
    case 'aggregations':
      return Object.fromEntries(['avg', 'cardinality', 'composite', 'date_histogram', 'filter', 'filters', 'histogram', 'max', 'min', 'range', 'sum', 'terms', 'top_hits', 'value_count'].map((a) => [a, { types: ['other'] }]));
    case 'indices':
      return undefined;
    default:
      return undefined;
  }
}

/** `GET _nodes[/{node_id}][/{metric}]`: the node's description; `/_nodes/{x}` is metrics when every part of x is one. */
function nodesInfo(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  let nodeIds = list(req.pathParams.node_id);
  let metrics = list(req.pathParams.metric);
  if (req.pathParams.node_id !== undefined && req.pathParams.metric === undefined) {
    const parts = list(req.pathParams.node_id);
    if (parts.every((p) => INFO_METRICS.includes(p) || p === '_all' || p === '_none')) {
      metrics = parts;
      nodeIds = [];
    }
  }
  const all = !metrics.length || metrics.includes('_all');
  const wanted = all ? INFO_METRICS : metrics.filter((m) => INFO_METRICS.includes(m));
  const flat = booleanParam(req.params, 'flat_settings', false);
  return nodesResponse(ctx, nodeIds, () => {
    const entry: Json = { ...nodeHeader(req, ctx), ...nodeBuild(req, ctx) };
    if (wanted.includes('indices')) entry.total_indexing_buffer = Math.floor(v8.getHeapStatistics().heap_size_limit / 10);
    // keys in ES's order: roles and attributes after the build, then the sections
    const { roles, attributes } = entry;
    delete entry.roles;
    delete entry.attributes;
    entry.roles = roles;
    entry.attributes = attributes;
    for (const m of wanted) {
      if (m === 'plugins') {
        entry.plugins = [];
        entry.modules = speaksOpenSearch(req, ctx) ? [] : ES_MODULES.map(([name, description]) => ({
          name, version: ES_VERSION.number, elasticsearch_version: ES_VERSION.number, java_version: '17',
          description, classname: '', extended_plugins: [], has_native_controller: false, licensed: false,
        }));
        continue;
      }
      const section = infoSection(m, req, ctx);
      if (section === undefined) continue;
      entry[m] = m === 'settings' && flat ? flatten(section as Json) : section;
    }
    return entry;
  });
}

function flatten(obj: Json, prefix = '', out: Json = {}): Json {
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Json, `${prefix}${k}.`, out);
    else out[prefix + k] = v;
  }
  return out;
}

function indicesStats(req: RestRequest, ctx: EngineContext, indexMetrics: string[]): Json {
  const open = ctx.indices.all().filter((h) => h.isOpen);
  const all = !indexMetrics.length || indexMetrics.includes('_all');
  const sections = new Set(all ? Object.values(INDEX_METRICS) : indexMetrics.map((m) => {
    const s = INDEX_METRICS[m];
    if (!s) throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains unrecognized index metric: [${m}]`);
    return s;
  }));
  const sectionsFor = (handles: typeof open): Json => {
    const input = statsInputOf(handles, ctx);
    const out: Json = {};
    for (const s of sections) {
      if (STATS_SECTIONS[s]) out[s] = STATS_SECTIONS[s](input);
      else if (s === 'mappings') out.mappings = { total_count: 0, total_estimated_overhead_in_bytes: 0 };
      else if (s === 'dense_vector' || s === 'sparse_vector') out[s] = { value_count: 0 };
    }
    return out;
  };
  const out = sectionsFor(open);
  const level = req.params.get('level') ?? 'node';
  if (!['node', 'indices', 'shards'].includes(level)) {
    throw new EsError(400, 'illegal_argument_exception', `level parameter must be one of [node] or [indices] or [shards] but was [${level}]`);
  }
  if (level === 'indices') out.indices = Object.fromEntries(open.map((h) => [h.name, sectionsFor([h])]));
  return out;
}

function statsSection(metric: string, f: NodeFigures, req: RestRequest, ctx: EngineContext, indexMetrics: string[]): unknown {
  const usedRam = f.ramTotal - f.ramFree;
  switch (metric) {
    case 'indices':
      return indicesStats(req, ctx, indexMetrics);
    case 'os':
      return {
        timestamp: f.at,
        cpu: { percent: f.cpuPercent, ...(f.load ? { load_average: { '1m': f.load[0], '5m': f.load[1], '15m': f.load[2] } } : {}) },
        mem: { total_in_bytes: f.ramTotal, adjusted_total_in_bytes: f.ramTotal, free_in_bytes: f.ramFree, used_in_bytes: usedRam, free_percent: percentOf(f.ramFree, f.ramTotal), used_percent: percentOf(usedRam, f.ramTotal) },
        swap: { total_in_bytes: 0, free_in_bytes: 0, used_in_bytes: 0 },
      };
    case 'process':
      return {
        timestamp: f.at, open_file_descriptors: f.openFileDescriptors, max_file_descriptors: f.maxFileDescriptors,
        cpu: { percent: f.cpuPercent, total_in_millis: f.processCpuMillis }, mem: { total_virtual_in_bytes: process.memoryUsage().rss },
      };
    case 'jvm':
      return {
        timestamp: f.at, uptime_in_millis: f.uptimeMillis,
        mem: {
          heap_used_in_bytes: f.heapUsed, heap_used_percent: Math.floor((f.heapUsed * 100) / f.heapMax), heap_committed_in_bytes: f.heapCommitted,
          heap_max_in_bytes: f.heapMax, non_heap_used_in_bytes: f.nonHeapUsed, non_heap_committed_in_bytes: f.nonHeapUsed, pools: {},
        },
        threads: { count: 1, peak_count: 1 }, gc: { collectors: {} }, buffer_pools: {}, classes: { current_loaded_count: 0, total_loaded_count: 0, total_unloaded_count: 0 },
      };
    case 'thread_pool':
      return Object.fromEntries(threadPools(os.availableParallelism()).map((p) => [p.name, { threads: 0, queue: 0, active: 0, rejected: 0, largest: 0, completed: 0 }]));
    case 'fs':
      return {
        timestamp: f.at, total: { total_in_bytes: f.fs.total, free_in_bytes: f.fs.free, available_in_bytes: f.fs.available },
        data: [{ path: f.fs.path, mount: f.fs.path, type: 'unknown', total_in_bytes: f.fs.total, free_in_bytes: f.fs.free, available_in_bytes: f.fs.available }],
      };
    case 'transport':
      return { server_open: 0, total_outbound_connections: 0, rx_count: 0, rx_size_in_bytes: 0, tx_count: 0, tx_size_in_bytes: 0, inbound_handling_time_histogram: [], outbound_handling_time_histogram: [], actions: {} };
    case 'http':
      return { current_open: 0, total_opened: 0, clients: [], routes: {} };
    case 'breaker': {
      const b = (limit: number, overhead: number) => ({ limit_size_in_bytes: limit, limit_size: '', estimated_size_in_bytes: 0, estimated_size: '0b', overhead, tripped: 0 });
      return { request: b(Math.floor(f.heapMax * 0.6), 1), fielddata: b(Math.floor(f.heapMax * 0.4), 1.03), in_flight_requests: b(f.heapMax, 2), parent: b(Math.floor(f.heapMax * 0.95), 1) };
    }
    case 'script':
      return { compilations: 0, cache_evictions: 0, compilation_limit_triggered: 0 };
    case 'discovery':
      return { cluster_state_queue: { total: 0, pending: 0, committed: 0 }, published_cluster_states: { full_states: 0, incompatible_diffs: 0, compatible_diffs: 0 } };
    case 'ingest':
      return { total: { count: 0, time_in_millis: 0, current: 0, failed: 0 }, pipelines: {} };
    case 'adaptive_selection':
      return {};
    case 'script_cache':
      return { sum: { compilations: 0, cache_evictions: 0, compilation_limit_triggered: 0 }, contexts: [] };
    case 'indexing_pressure':
      return { memory: { current: { combined_coordinating_and_primary_in_bytes: 0, coordinating_in_bytes: 0, primary_in_bytes: 0, replica_in_bytes: 0, all_in_bytes: 0 }, total: { combined_coordinating_and_primary_in_bytes: 0, coordinating_in_bytes: 0, primary_in_bytes: 0, replica_in_bytes: 0, all_in_bytes: 0, coordinating_rejections: 0, primary_rejections: 0, replica_rejections: 0 }, limit_in_bytes: Math.floor(f.heapMax / 10) } };
    case 'repositories':
      return {};
    case 'allocations':
      return {};
    default:
      return undefined;
  }
}

/** `GET _nodes[/{node_id}]/stats[/{metric}[/{index_metric}]]`: the node's live figures and its indices' stats. */
function nodesStats(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const metrics = list(req.pathParams.metric);
  const indexMetrics = list(req.pathParams.index_metric);
  const known = speaksOpenSearch(req, ctx) ? [...STATS_METRICS, ...OPENSEARCH_STATS_METRICS] : STATS_METRICS;
  const invalid = metrics.filter((m) => m !== '_all' && !known.includes(m));
  if (invalid.length) throw new EsError(400, 'illegal_argument_exception', unrecognizedMessage(req.path, invalid, known, 'metric'));
  if (indexMetrics.length && metrics.length && !metrics.includes('indices') && !metrics.includes('_all')) {
    throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains index metrics [${indexMetrics.join(',')}] but indices stats not requested`);
  }
  const wanted = !metrics.length || metrics.includes('_all') ? known : known.filter((m) => metrics.includes(m));
  return nodesResponse(ctx, list(req.pathParams.node_id), async () => {
    const f = await ctx.node.figures();
    const entry: Json = { timestamp: f.at, ...nodeHeader(req, ctx) };
    for (const m of wanted) {
      const section = OPENSEARCH_STATS_METRICS.includes(m) ? openSearchStatsSection(m, f, ctx) : statsSection(m, f, req, ctx, indexMetrics);
      if (section !== undefined) entry[m === 'breaker' ? 'breakers' : m] = section;
    }
    return entry;
  });
}

const USAGE_METRICS = ['rest_actions', 'aggregations'];

/**
 * `GET /_nodes[/{node_id}]/usage[/{metric}]`: the node's usage since it started. The engine keeps
 * no count of REST actions or aggregations used, so both are empty, as a node that served none.
 */
function nodesUsage(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const metrics = list(req.pathParams.metric);
  if (metrics.length > 1 && metrics.includes('_all')) {
    throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains _all and individual metrics [${req.pathParams.metric}]`);
  }
  const invalid = metrics.filter((m) => m !== '_all' && !USAGE_METRICS.includes(m));
  if (invalid.length) throw new EsError(400, 'illegal_argument_exception', unrecognizedMessage(req.path, invalid, USAGE_METRICS, 'metric'));
  const wanted = !metrics.length || metrics.includes('_all') ? USAGE_METRICS : metrics;
  return nodesResponse(ctx, list(req.pathParams.node_id), () => ({
    timestamp: Date.now(),
    since: ctx.node.startedAt,
    ...Object.fromEntries(wanted.map((m) => [m, {}])),
  }));
}

const HOT_THREAD_TYPES = ['cpu', 'wait', 'block', 'mem'];

/**
 * `GET /_nodes[/{node_id}]/hot_threads`: the text report of the node's busiest threads. The engine
 * runs on Node.js's one event loop, not on threads a JVM samples: the report names the node and
 * its sampling, and lists no busy thread. Its parameters are checked as Elasticsearch checks them.
 */
function nodesHotThreads(req: RestRequest, ctx: EngineContext): RestResponse {
  const threads = integerParam(req.params, 'threads') ?? 3;
  integerParam(req.params, 'snapshots');
  const ignoreIdle = booleanParam(req.params, 'ignore_idle_threads', true);
  const type = req.params.get('type') ?? 'cpu';
  if (!HOT_THREAD_TYPES.includes(type)) throw new EsError(400, 'illegal_argument_exception', `type not supported [${type}]`);
  const sort = req.params.get('sort') ?? 'total';
  if (sort !== 'total' && sort !== 'cpu') throw new EsError(400, 'illegal_argument_exception', `sort order not supported [${sort}]`);
  const interval = req.params.get('interval') ?? '500ms';
  timeValue('interval', interval);
  if (!ctx.node.matches(list(req.pathParams.node_id))) return { status: 200, text: '' };
  const n = ctx.node;
  const attributes = Object.entries(nodeAttributes(req, ctx)).map(([k, v]) => `${k}=${v}`).join(', ');
  const header = `::: {${n.name}}{${n.id}}{${n.ephemeralId}}{${n.host}}{${n.ip}}{${n.transportAddress}}{${nodeRoleAbbreviations(req, ctx)}}{${attributes}}\n`;
  const at = new Date().toISOString();
  return { status: 200, text: `${header}   Hot threads at ${at}, interval=${interval}, busiestThreads=${threads}, ignoreIdleThreads=${ignoreIdle}:\n   \n` };
}

/**
 * `POST _nodes[/{node_id}]/reload_secure_settings`: the node reloads its secure settings. The
 * engine keeps none (no keystore, no reloadable plugin), so each selected node answers with its
 * name alone, as a node that reloaded without error; `secure_settings_password` must be a string.
 */
function reloadSecureSettings(req: RestRequest, ctx: EngineContext): RestResponse | Promise<RestResponse> {
  const body = req.body.trim() ? requireBody(req) : {};
  for (const k of Object.keys(body)) {
    if (k !== 'secure_settings_password') throw new EsError(400, 'x_content_parse_exception', `[1:2] [reload_secure_settings] unknown field [${k}]`);
  }
  if (body.secure_settings_password !== undefined && typeof body.secure_settings_password !== 'string') {
    throw new EsError(400, 'x_content_parse_exception', '[1:29] [reload_secure_settings] failed to parse field [secure_settings_password]');
  }
  // the node's keystore is an empty one with no password: any other password fails to decrypt it,
  // which Elasticsearch reports per node (KeyStoreWrapper.decrypt's SecurityException)
  const password = body.secure_settings_password;
  const wrong = typeof password === 'string' && password !== '';
  return nodesResponse(ctx, list(req.pathParams.node_id), () => (wrong
    ? { name: ctx.node.name, reload_exception: { type: 'security_exception', reason: 'Provided keystore password was incorrect' } }
    : { name: ctx.node.name }));
}

export const nodesRoutes: Route[] = [
  { id: 'nodes.reload_secure_settings', handler: reloadSecureSettings },
  { id: 'nodes.hot_threads', handler: nodesHotThreads },
  { id: 'nodes.usage', handler: nodesUsage },
  { id: 'nodes.info', handler: nodesInfo },
  { id: 'nodes.stats', handler: nodesStats },
];
