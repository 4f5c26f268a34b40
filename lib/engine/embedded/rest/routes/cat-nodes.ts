import os from 'node:os';
import { simpleMatch } from '../../../../wildcard/index.js';
import { percentOf, threadPools, type NodeFigures, type ThreadPool } from '../../node/index.js';
import { ByteSize, Duration, catResponse, column, type CatColumn } from '../cat-table.js';
import { mappedFields } from '../mapped-fields.js';
import { fielddataSection } from '../../indices/index.js';
import { shardCopies } from '../shard-copies.js';
import { ACTIVITY_COLUMNS, SEARCH_SEGMENT_COLUMNS, activityOf, statsColumns, type ActivityCounters } from '../stats-columns.js';
import { OPENSEARCH_VERSION, nodeAttributes, nodeRoleAbbreviations, speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { ES_VERSION } from './cluster.js';
import { bytesOf } from './cat.js';

/** The node as one row of a node-level table: its figures, measured when the request came. */
interface NodeRow {
  ctx: EngineContext;
  figures: NodeFigures;
  activity: ActivityCounters;
  httpAddress: string;
}

async function nodeRow(req: RestRequest, ctx: EngineContext): Promise<NodeRow> {
  const open = ctx.indices.all().filter((h) => h.isOpen);
  return { ctx, figures: await ctx.node.figures(), activity: activityOf(open, ctx), httpAddress: ctx.node.httpAddress(req.headers.host) };
}

const two = (n: number) => n.toFixed(2);

function nodeColumns(fullId: boolean, openSearch: boolean, roleAbbreviations: string): Array<CatColumn<NodeRow>> {
  const load = (i: number) => (r: NodeRow) => (r.figures.load === null ? null : two(r.figures.load[i]));
  const fs = (r: NodeRow) => r.figures.fs;
  return [
    column('id', 'default:false;alias:id,nodeId;desc:unique node id', (r) => (fullId ? r.ctx.node.id : r.ctx.node.id.slice(0, 4))),
    column('pid', 'default:false;alias:p;desc:process id', () => process.pid),
    column('ip', 'alias:i;desc:ip address', (r) => r.ctx.node.ip),
    column('port', 'default:false;alias:po;desc:bound transport port', () => 9300),
    column('http_address', 'default:false;alias:http;desc:bound http address', (r) => r.httpAddress),
    column('version', 'default:false;alias:v;desc:es version', () => (openSearch ? OPENSEARCH_VERSION.number : ES_VERSION.number)),
    column('flavor', 'default:false;alias:f;desc:es distribution flavor', () => ES_VERSION.build_flavor),
    column('type', 'default:false;alias:t;desc:es distribution type', () => ES_VERSION.build_type),
    column('build', 'default:false;alias:b;desc:es build hash', () => ES_VERSION.build_hash),
    column('jdk', 'default:false;alias:j;desc:jdk version', () => process.versions.node),
    column('disk.total', 'default:false;alias:dt,diskTotal;text-align:right;desc:total disk space', (r) => new ByteSize(fs(r).total)),
    column('disk.used', 'default:false;alias:du,diskUsed;text-align:right;desc:used disk space', (r) => new ByteSize(fs(r).total - fs(r).available)),
    column('disk.avail', 'default:false;alias:d,da,disk,diskAvail;text-align:right;desc:available disk space', (r) => new ByteSize(fs(r).available)),
    column('disk.used_percent', 'default:false;alias:dup,diskUsedPercent;text-align:right;desc:used disk space percentage', (r) =>
      (100 * (fs(r).total === 0 ? 1 : (fs(r).total - fs(r).available) / fs(r).total)).toFixed(2)),
    column('heap.current', 'default:false;alias:hc,heapCurrent;text-align:right;desc:used heap', (r) => new ByteSize(r.figures.heapUsed)),
    column('heap.percent', 'alias:hp,heapPercent;text-align:right;desc:used heap ratio', (r) => Math.floor((r.figures.heapUsed * 100) / r.figures.heapMax)),
    column('heap.max', 'default:false;alias:hm,heapMax;text-align:right;desc:max configured heap', (r) => new ByteSize(r.figures.heapMax)),
    column('ram.current', 'default:false;alias:rc,ramCurrent;text-align:right;desc:used machine memory', (r) => new ByteSize(r.figures.ramTotal - r.figures.ramFree)),
    column('ram.percent', 'alias:rp,ramPercent;text-align:right;desc:used machine memory ratio', (r) => percentOf(r.figures.ramTotal - r.figures.ramFree, r.figures.ramTotal)),
    column('ram.max', 'default:false;alias:rm,ramMax;text-align:right;desc:total machine memory', (r) => new ByteSize(r.figures.ramTotal)),
    column('file_desc.current', 'default:false;alias:fdc,fileDescriptorCurrent;text-align:right;desc:used file descriptors', (r) => r.figures.openFileDescriptors),
    column('file_desc.percent', 'default:false;alias:fdp,fileDescriptorPercent;text-align:right;desc:used file descriptor ratio', (r) =>
      percentOf(r.figures.openFileDescriptors, r.figures.maxFileDescriptors)),
    column('file_desc.max', 'default:false;alias:fdm,fileDescriptorMax;text-align:right;desc:max file descriptors', (r) => r.figures.maxFileDescriptors),
    column('cpu', 'alias:cpu;text-align:right;desc:recent cpu usage', (r) => String(r.figures.cpuPercent)),
    column('load_1m', 'alias:l;text-align:right;desc:1m load avg', load(0)),
    column('load_5m', 'alias:l;text-align:right;desc:5m load avg', load(1)),
    column('load_15m', 'alias:l;text-align:right;desc:15m load avg', load(2)),
    column('uptime', 'default:false;alias:u;text-align:right;desc:node uptime', (r) => Duration.ofMillis(r.figures.uptimeMillis)),
    column('node.role', 'alias:r,role,nodeRole;desc:m:master eligible node, d:data node, i:ingest node, -:coordinating node only', () => roleAbbreviations),
    // OpenSearch 2 names the column after the cluster manager (RestNodesAction), `master` an alias of it
    openSearch
      ? column('cluster_manager', 'alias:cm,m,master;desc:*:current cluster manager', () => '*')
      : column('master', 'alias:m;desc:*:current master', () => '*'),
    column('name', 'alias:n;desc:node name', (r) => r.ctx.node.name),
    ...statsColumns<NodeRow>([
      ['completion.size', 'alias:cs,completionSize;default:false;text-align:right;desc:size of completion'],
      ['fielddata.memory_size', 'alias:fm,fielddataMemory;default:false;text-align:right;desc:used fielddata cache'],
      ['fielddata.evictions', 'alias:fe,fielddataEvictions;default:false;text-align:right;desc:fielddata evictions'],
      ['query_cache.memory_size', 'alias:qcm,queryCacheMemory;default:false;text-align:right;desc:used query cache'],
      ['query_cache.evictions', 'alias:qce,queryCacheEvictions;default:false;text-align:right;desc:query cache evictions'],
      ['query_cache.hit_count', 'alias:qchc,queryCacheHitCount;default:false;text-align:right;desc:query cache hit counts'],
      ['query_cache.miss_count', 'alias:qcmc,queryCacheMissCount;default:false;text-align:right;desc:query cache miss counts'],
      ['request_cache.memory_size', 'alias:rcm,requestCacheMemory;default:false;text-align:right;desc:used request cache'],
      ['request_cache.evictions', 'alias:rce,requestCacheEvictions;default:false;text-align:right;desc:request cache evictions'],
      ['request_cache.hit_count', 'alias:rchc,requestCacheHitCount;default:false;text-align:right;desc:request cache hit counts'],
      ['request_cache.miss_count', 'alias:rcmc,requestCacheMissCount;default:false;text-align:right;desc:request cache miss counts'],
      ...ACTIVITY_COLUMNS,
      ['script.compilations', 'alias:scrcc,scriptCompilations;default:false;text-align:right;desc:script compilations'],
      ['script.cache_evictions', 'alias:scrce,scriptCacheEvictions;default:false;text-align:right;desc:script cache evictions'],
      ['script.compilation_limit_triggered', 'alias:scrclt,scriptCacheCompilationLimitTriggered;default:false;text-align:right;desc:script cache compilation limit triggered'],
      ...SEARCH_SEGMENT_COLUMNS,
      ['suggest.current', 'alias:suc,suggestCurrent;default:false;text-align:right;desc:number of current suggest ops'],
      ['suggest.time', 'alias:suti,suggestTime;default:false;text-align:right;desc:time spend in suggest'],
      ['suggest.total', 'alias:suto,suggestTotal;default:false;text-align:right;desc:number of suggest ops'],
      ['bulk.total_operations', 'alias:bto,bulkTotalOperations;default:false;text-align:right;desc:number of bulk shard ops'],
      ['bulk.total_time', 'alias:btti,bulkTotalTime;default:false;text-align:right;desc:time spend in shard bulk'],
      ['bulk.total_size_in_bytes', 'alias:btsi,bulkTotalSizeInBytes;default:false;text-align:right;desc:total size in bytes of shard bulk'],
      ['bulk.avg_time', 'alias:bati,bulkAvgTime;default:false;text-align:right;desc:average time spend in shard bulk'],
      ['bulk.avg_size_in_bytes', 'alias:basi,bulkAvgSizeInBytes;default:false;text-align:right;desc:average size in bytes of shard bulk'],
    ], (r) => r.activity),
  ];
}

const flag = (req: RestRequest, name: string) => req.params.get(name) === '' || req.params.get(name) === 'true';

/** `_cat/nodes`: the one node, the elected master (`*`), with its live figures. */
async function catNodes(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const columns = nodeColumns(flag(req, 'full_id'), speaksOpenSearch(req, ctx), nodeRoleAbbreviations(req, ctx));
  if (flag(req, 'help')) return catResponse(req, columns, []);
  return catResponse(req, columns, [await nodeRow(req, ctx)]);
}

interface AttrRow {
  ctx: EngineContext;
  attr: string;
  value: string;
  fullId: boolean;
}

const NODEATTR_COLUMNS: Array<CatColumn<AttrRow>> = [
  column('node', 'default:true;alias:name;desc:node name', (r) => r.ctx.node.name),
  column('id', 'default:false;alias:id,nodeId;desc:unique node id', (r) => (r.fullId ? r.ctx.node.id : r.ctx.node.id.slice(0, 4))),
  column('pid', 'default:false;alias:p;desc:process id', () => process.pid),
  column('host', 'alias:h;desc:host name', (r) => r.ctx.node.host),
  column('ip', 'alias:i;desc:ip address', (r) => r.ctx.node.ip),
  column('port', 'default:false;alias:po;desc:bound transport port', () => 9300),
  column('attr', 'default:true;alias:attr.name;desc:attribute description', (r) => r.attr),
  column('value', 'default:true;alias:attr.value;desc:attribute value', (r) => r.value),
];

/** `_cat/nodeattrs`: one row per attribute of the node. */
function catNodeAttrs(req: RestRequest, ctx: EngineContext): RestResponse {
  const fullId = flag(req, 'full_id');
  const attributes = nodeAttributes(req, ctx);
  return catResponse(req, NODEATTR_COLUMNS, () => Object.entries(attributes).map(([attr, value]) => ({ ctx, attr, value, fullId })));
}

interface AllocationRow {
  ctx: EngineContext | null;
  shards: number;
  indicesBytes: number;
  figures: NodeFigures | null;
}

const ALLOCATION_COLUMNS: Array<CatColumn<AllocationRow>> = [
  column('shards', 'alias:s;text-align:right;desc:number of shards on node', (r) => r.shards),
  column('disk.indices', 'alias:di,diskIndices;text-align:right;desc:disk used by ES indices', (r) => (r.figures ? new ByteSize(r.indicesBytes) : null)),
  column('disk.used', 'alias:du,diskUsed;text-align:right;desc:disk used (total, not just ES)', (r) => (r.figures ? new ByteSize(r.figures.fs.total - r.figures.fs.available) : null)),
  column('disk.avail', 'alias:da,diskAvail;text-align:right;desc:disk available', (r) => (r.figures ? new ByteSize(r.figures.fs.available) : null)),
  column('disk.total', 'alias:dt,diskTotal;text-align:right;desc:total capacity of all volumes', (r) => (r.figures ? new ByteSize(r.figures.fs.total) : null)),
  column('disk.percent', 'alias:dp,diskPercent;text-align:right;desc:percent disk used', (r) => {
    if (!r.figures || r.figures.fs.total <= 0) return null;
    const used = r.figures.fs.total - r.figures.fs.available;
    return Math.floor((used * 100) / (used + r.figures.fs.available));
  }),
  column('host', 'alias:h;desc:host of node', (r) => r.ctx?.node.host ?? null),
  column('ip', 'desc:ip of node', (r) => r.ctx?.node.ip ?? null),
  column('node', 'alias:n;desc:name of node', (r) => r.ctx?.node.name ?? 'UNASSIGNED'),
  column('node.role', 'default:false;alias:r,role,nodeRole;desc:node roles', (r) => r.ctx?.node.roleAbbreviations ?? null),
];

/**
 * `_cat/allocation[/{node_id}]`: the shards on the node and its data directory's filesystem, then
 * the unassigned replicas, as ES's last row.
 */
async function catAllocation(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  if (flag(req, 'help')) return catResponse(req, ALLOCATION_COLUMNS, []);
  const filter = (req.pathParams.node_id ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  const open = ctx.indices.all().filter((h) => h.isOpen);
  const copies = shardCopies(open);
  const rows: AllocationRow[] = [];
  if (ctx.node.matches(filter)) {
    const indicesBytes = open.reduce((n, h) => n + bytesOf(h), 0);
    rows.push({ ctx, shards: copies.filter((c) => c.started).length, indicesBytes, figures: await ctx.node.figures() });
  }
  const unassigned = copies.filter((c) => !c.started).length;
  if (unassigned > 0) rows.push({ ctx: null, shards: unassigned, indicesBytes: 0, figures: null });
  return catResponse(req, ALLOCATION_COLUMNS, rows);
}

interface FielddataRow {
  ctx: EngineContext;
  field: string;
  bytes: number;
}

const FIELDDATA_COLUMNS: Array<CatColumn<FielddataRow>> = [
  column('id', 'desc:node id', (r) => r.ctx.node.id),
  column('host', 'alias:h;desc:host name', (r) => r.ctx.node.host),
  column('ip', 'desc:ip address', (r) => r.ctx.node.ip),
  column('node', 'alias:n;desc:node name', (r) => r.ctx.node.name),
  column('field', 'alias:f;desc:field name', (r) => r.field),
  column('size', 'text-align:right;alias:s;desc:field data usage', (r) => new ByteSize(r.bytes)),
];

/**
 * `_cat/fielddata[/{fields}]`: the fields whose field data is loaded (by a sort, an aggregation:
 * what index stats' `fielddata` reports), one row per field with its size over the open indices.
 */
function catFielddata(req: RestRequest, ctx: EngineContext): RestResponse {
  const list = req.pathParams.fields ?? req.params.get('fields');
  const patterns = list === null || list === undefined ? ['*'] : list.split(',').map((f) => f.trim()).filter(Boolean);
  return catResponse(req, FIELDDATA_COLUMNS, () => {
    const bytes = new Map<string, number>();
    for (const h of ctx.indices.all()) {
      if (!h.isOpen) continue;
      const fields = fielddataSection(h, patterns).fields as Record<string, { memory_size_in_bytes: number }>;
      for (const [field, f] of Object.entries(fields)) bytes.set(field, (bytes.get(field) ?? 0) + f.memory_size_in_bytes);
    }
    return [...bytes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([field, n]) => ({ ctx, field, bytes: n }));
  });
}

interface PoolRow {
  ctx: EngineContext;
  pool: ThreadPool;
}

const THREAD_POOL_COLUMNS: Array<CatColumn<PoolRow>> = [
  column('node_name', 'default:true;alias:nn;desc:node name', (r) => r.ctx.node.name),
  column('node_id', 'default:false;alias:id;desc:persistent node id', (r) => r.ctx.node.id),
  column('ephemeral_node_id', 'default:false;alias:eid;desc:ephemeral node id', (r) => r.ctx.node.ephemeralId),
  column('pid', 'default:false;alias:p;desc:process id', () => process.pid),
  column('host', 'default:false;alias:h;desc:host name', (r) => r.ctx.node.host),
  column('ip', 'default:false;alias:i;desc:ip address', (r) => r.ctx.node.ip),
  column('port', 'default:false;alias:po;desc:bound transport port', () => 9300),
  column('name', 'default:true;alias:n;desc:thread pool name', (r) => r.pool.name),
  column('type', 'alias:t;default:false;desc:thread pool type', (r) => r.pool.type),
  column('active', 'alias:a;default:true;text-align:right;desc:number of active threads', () => 0),
  column('pool_size', 'alias:psz;default:false;text-align:right;desc:number of threads', () => 0),
  column('queue', 'alias:q;default:true;text-align:right;desc:number of tasks currently in queue', () => 0),
  column('queue_size', 'alias:qs;default:false;text-align:right;desc:maximum number of tasks permitted in queue', (r) => r.pool.queueSize),
  column('rejected', 'alias:r;default:true;text-align:right;desc:number of rejected tasks', () => 0),
  column('largest', 'alias:l;default:false;text-align:right;desc:highest number of seen active threads', () => 0),
  column('completed', 'alias:c;default:false;text-align:right;desc:number of completed tasks', () => 0),
  column('core', 'alias:cr;default:false;text-align:right;desc:core number of threads in a scaling thread pool', (r) => (r.pool.type === 'scaling' ? r.pool.min : null)),
  column('max', 'alias:mx;default:false;text-align:right;desc:maximum number of threads in a scaling thread pool', (r) => (r.pool.type === 'scaling' ? r.pool.max : null)),
  column('size', 'alias:sz;default:false;text-align:right;desc:number of threads in a fixed thread pool', (r) => (r.pool.type === 'fixed' ? r.pool.max : null)),
  column('keep_alive', 'alias:ka;default:false;text-align:right;desc:thread keep alive time', (r) => r.pool.keepAlive ?? null),
];

/** `_cat/thread_pool[/{thread_pool_patterns}]`: the node's pools by name, all idle. */
function catThreadPool(req: RestRequest, ctx: EngineContext): RestResponse {
  const list = req.pathParams.thread_pool_patterns ?? req.params.get('thread_pool_patterns') ?? '*';
  const patterns = list.split(',').map((p) => p.trim()).filter(Boolean);
  return catResponse(req, THREAD_POOL_COLUMNS, () =>
    threadPools(os.availableParallelism()).filter((p) => patterns.some((pat) => simpleMatch(pat, p.name))).map((pool) => ({ ctx, pool })),
  );
}

export const catNodeRoutes: Route[] = [
  { id: 'cat.nodes', handler: catNodes },
  { id: 'cat.nodeattrs', handler: catNodeAttrs },
  { id: 'cat.allocation', handler: catAllocation },
  { id: 'cat.fielddata', handler: catFielddata },
  { id: 'cat.thread_pool', handler: catThreadPool },
];
