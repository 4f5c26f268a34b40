import { errors } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { ByteSize, Duration, catResponse, column, type CatColumn, type TablePage } from '../cat-table.js';
import { shardCopies, type ShardCopy } from '../shard-copies.js';
import { recoveredShards, type RecoveredShard } from '../shard-recoveries.js';
import { ACTIVITY_COLUMNS, NO_ACTIVITY, SEARCH_SEGMENT_COLUMNS, activityOf, statsColumns, type ActivityCounters } from '../stats-columns.js';
import { luceneVersion, speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

export function shardTargets(req: RestRequest, ctx: EngineContext): IndexHandle[] {
  return ctx.indices.resolve(req.pathParams.index, {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    defaultStates: { open: true, closed: true, hidden: true },
  });
}

interface ShardRow extends ShardCopy {
  /** The index's activity, shown on its first shard (the engine does not count per shard). */
  activity: ActivityCounters | null;
}

function shardRows(ctx: EngineContext, copies: ShardCopy[]): ShardRow[] {
  return copies.map((c) => ({
    ...c,
    activity: !c.started ? null : c.shard === 0 ? activityOf([c.index], ctx) : NO_ACTIVITY,
  }));
}

/** `_cat/shards`' columns; Elasticsearch 8 (8.11) has `dataset`, OpenSearch 2 does not. */
function shardColumns(ctx: EngineContext, openSearch: boolean): Array<CatColumn<ShardRow>> {
  const node = ctx.node;
  const started = <T>(r: ShardRow, v: T): T | null => (r.started ? v : null);
  const unassigned = <T>(r: ShardRow, v: T): T | null => (r.started ? null : v);
  return [
    column<ShardRow>('index', 'default:true;alias:i,idx;desc:index name', (r) => r.index.name),
    column<ShardRow>('shard', 'default:true;alias:s,sh;desc:shard name', (r) => r.shard),
    column<ShardRow>('prirep', 'alias:p,pr,primaryOrReplica;default:true;desc:primary or replica', (r) => (r.primary ? 'p' : 'r')),
    column<ShardRow>('state', 'default:true;alias:st;desc:shard state', (r) => (r.started ? 'STARTED' : 'UNASSIGNED')),
    column<ShardRow>('docs', 'alias:d,dc;text-align:right;desc:number of docs in shard', (r) => r.docs),
    column<ShardRow>('store', 'alias:sto;text-align:right;desc:store size of shard (how much disk it uses)', (r) => (r.storeBytes === null ? null : new ByteSize(r.storeBytes))),
    ...(openSearch ? [] : [column<ShardRow>('dataset', 'text-align:right;desc:total size of dataset', (r) => (r.storeBytes === null ? null : new ByteSize(r.storeBytes)))]),
    column<ShardRow>('ip', 'default:true;desc:ip of node where it lives', (r) => started(r, node.ip)),
    column<ShardRow>('id', 'default:false;desc:unique id of node where it lives', (r) => started(r, node.id)),
    column<ShardRow>('node', 'default:true;alias:n;desc:name of node where it lives', (r) => started(r, node.name)),
    column<ShardRow>('sync_id', 'alias:sync_id;default:false;desc:sync id', () => null),
    column<ShardRow>('unassigned.reason', 'alias:ur;default:false;desc:reason shard became unassigned', (r) => unassigned(r, 'INDEX_CREATED')),
    column<ShardRow>('unassigned.at', 'alias:ua;default:false;desc:time shard became unassigned (UTC)', (r) => unassigned(r, new Date(r.index.meta.creationDate).toISOString())),
    column<ShardRow>('unassigned.for', 'alias:uf;default:false;text-align:right;desc:time has been unassigned', (r) => unassigned(r, Duration.ofMillis(Math.max(0, Date.now() - r.index.meta.creationDate)))),
    column<ShardRow>('unassigned.details', 'alias:ud;default:false;desc:additional details as to why the shard became unassigned', () => null),
    column<ShardRow>('recoverysource.type', 'alias:rs;default:false;desc:recovery source type', (r) => unassigned(r, 'peer')),
    ...statsColumns<ShardRow>([
      ['completion.size', 'alias:cs,completionSize;default:false;text-align:right;desc:size of completion'],
      ['fielddata.memory_size', 'alias:fm,fielddataMemory;default:false;text-align:right;desc:used fielddata cache'],
      ['fielddata.evictions', 'alias:fe,fielddataEvictions;default:false;text-align:right;desc:fielddata evictions'],
      ['query_cache.memory_size', 'alias:qcm,queryCacheMemory;default:false;text-align:right;desc:used query cache'],
      ['query_cache.evictions', 'alias:qce,queryCacheEvictions;default:false;text-align:right;desc:query cache evictions'],
      ...ACTIVITY_COLUMNS,
      ...SEARCH_SEGMENT_COLUMNS,
    ], (r) => r.activity),
    column<ShardRow>('seq_no.max', 'alias:sqm,maxSeqNo;default:false;text-align:right;desc:max sequence number', () => null),
    column<ShardRow>('seq_no.local_checkpoint', 'alias:sql,localCheckpoint;default:false;text-align:right;desc:local checkpoint', () => null),
    column<ShardRow>('seq_no.global_checkpoint', 'alias:sqg,globalCheckpoint;default:false;text-align:right;desc:global checkpoint', () => null),
    ...statsColumns<ShardRow>([
      ['warmer.current', 'alias:wc,warmerCurrent;default:false;text-align:right;desc:current warmer ops'],
      ['warmer.total', 'alias:wto,warmerTotal;default:false;text-align:right;desc:total warmer ops'],
      ['warmer.total_time', 'alias:wtt,warmerTotalTime;default:false;text-align:right;desc:time spent in warmers'],
    ], (r) => r.activity),
    column<ShardRow>('path.data', 'alias:pd,dataPath;default:false;text-align:right;desc:shard data path', () => null),
    column<ShardRow>('path.state', 'alias:ps,statsPath;default:false;text-align:right;desc:shard state path', () => null),
    column<ShardRow>('refresh.is_search_idle', 'alias:rsi,refreshSearchIdle;default:false;text-align:right;desc:shard idle state', (r) => started(r, false)),
    ...statsColumns<ShardRow>([
      ['bulk.total_operations', 'alias:bto,bulkTotalOperations;default:false;text-align:right;desc:number of bulk shard ops'],
      ['bulk.total_time', 'alias:btti,bulkTotalTime;default:false;text-align:right;desc:time spend in shard bulk'],
      ['bulk.total_size_in_bytes', 'alias:btsi,bulkTotalSizeInBytes;default:false;text-align:right;desc:total size in bytes of shard bulk'],
      ['bulk.avg_time', 'alias:bati,bulkAvgTime;default:false;text-align:right;desc:average time spend in shard bulk'],
      ['bulk.avg_size_in_bytes', 'alias:basi,bulkAvgSizeInBytes;default:false;text-align:right;desc:avg size in bytes of shard bulk'],
      ['dense_vector.value_count', 'alias:dvc,denseVectorCount;default:false;text-align:right;desc:number of indexed dense vectors in shard'],
      ['sparse_vector.value_count', 'alias:svc,sparseVectorCount;default:false;text-align:right;desc:number of indexed sparse vectors in shard'],
    ], (r) => r.activity),
  ];
}

/** `_cat/shards[/{index}]`: every copy of every open index (hidden ones too), primaries started here, replicas unassigned. */
function catShards(req: RestRequest, ctx: EngineContext): RestResponse {
  return catShardsOf(req, ctx, speaksOpenSearch(req, ctx), () => shardCopies(shardTargets(req, ctx)));
}

/** The `_cat/shards` table of the copies given (OpenSearch's columns or Elasticsearch's); one page of them for OpenSearch's `_list/shards`. */
export function catShardsOf(req: RestRequest, ctx: EngineContext, openSearch: boolean, copies: () => ShardCopy[], page?: TablePage): RestResponse {
  return catResponse(req, shardColumns(ctx, openSearch), () => shardRows(ctx, copies()), page);
}

const SEGMENT_COLUMNS: Array<CatColumn<ShardCopy & { ctx: EngineContext; lucene: string }>> = [
  column('index', 'default:true;alias:i,idx;desc:index name', (r) => r.index.name),
  column('shard', 'default:true;alias:s,sh;desc:shard name', (r) => r.shard),
  column('prirep', 'alias:p,pr,primaryOrReplica;default:true;desc:primary or replica', () => 'p'),
  column('ip', 'default:true;desc:ip of node where it lives', (r) => r.ctx.node.ip),
  column('id', 'default:false;desc:unique id of node where it lives', (r) => r.ctx.node.id),
  column('segment', 'default:true;alias:seg;desc:segment name', () => '_0'),
  column('generation', 'default:true;alias:g,gen;text-align:right;desc:segment generation', () => 0),
  column('docs.count', 'default:true;alias:dc,docsCount;text-align:right;desc:number of docs in segment', (r) => r.docs),
  column('docs.deleted', 'default:true;alias:dd,docsDeleted;text-align:right;desc:number of deleted docs in segment', () => 0),
  column('size', 'default:true;alias:si;text-align:right;desc:segment size in bytes', (r) => new ByteSize(r.storeBytes ?? 0)),
  column('size.memory', 'default:true;alias:sm,sizeMemory;text-align:right;desc:segment memory in bytes', () => 0),
  column('committed', 'default:true;alias:ic,isCommitted;desc:is segment committed', () => true),
  column('searchable', 'default:true;alias:is,isSearchable;desc:is segment searched', () => true),
  column('version', 'default:true;alias:v,ver;desc:version', (r) => r.lucene),
  column('compound', 'default:true;alias:ico,isCompound;desc:is segment compound', () => true),
];

/**
 * `_cat/segments[/{index}]`: the engine keeps each index as one in-memory structure, shown as one
 * segment per started shard that holds documents (an empty shard has none, as in Lucene).
 */
function catSegments(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = shardTargets(req, ctx);
  const named = req.pathParams.index !== undefined;
  const closed = handles.find((h) => !h.isOpen);
  if (named && closed) throw errors.indexClosed(closed.name, closed.uuid);
  return catSegmentsOf(req, ctx, handles);
}

/** The segments of indices' frozen views: one per started shard copy that holds documents. */
export function catSegmentsOf(req: RestRequest, ctx: EngineContext, handles: IndexHandle[]): RestResponse {
  const lucene = luceneVersion(req, ctx);
  return catResponse(req, SEGMENT_COLUMNS, () =>
    shardCopies(handles).filter((c) => c.started && (c.docs ?? 0) > 0).map((c) => ({ ...c, ctx, lucene })),
  );
}

interface RecoveryRow extends RecoveredShard {
  ctx: EngineContext;
}

/**
 * Elasticsearch's recovered files/bytes percent: 0.0% while no file is known (an empty store), else
 * the share recovered, reused files counting as recovered (100.0% here: every file was reused).
 */
const recoveredPercent = (r: RecoveryRow): string => (r.files > 0 ? '100.0%' : '0.0%');

const RECOVERY_COLUMNS: Array<CatColumn<RecoveryRow>> = [
  column('index', 'alias:i,idx;desc:index name', (r) => r.index.name),
  column('shard', 'alias:s,sh;desc:shard name', (r) => r.shard),
  column('start_time', 'default:false;alias:start;desc:recovery start time', (r) => new Date(r.start).toISOString()),
  column('start_time_millis', 'default:false;alias:start_millis;desc:recovery start time in epoch milliseconds', (r) => r.start),
  column('stop_time', 'default:false;alias:stop;desc:recovery stop time', (r) => new Date(r.start).toISOString()),
  column('stop_time_millis', 'default:false;alias:stop_millis;desc:recovery stop time in epoch milliseconds', (r) => r.start),
  column('time', 'alias:t,ti;desc:recovery time', () => Duration.ofMillis(0)),
  column('type', 'alias:ty;desc:recovery type', (r) => (r.fresh ? 'empty_store' : 'existing_store')),
  column('stage', 'alias:st;desc:recovery stage', () => 'done'),
  column('priority', 'alias:pr;desc:recovery priority', () => 'normal'),
  column('source_host', 'alias:shost;desc:source host', () => 'n/a'),
  column('source_node', 'alias:snode;desc:source node name', () => 'n/a'),
  column('target_host', 'alias:thost;desc:target host', (r) => r.ctx.node.host),
  column('target_node', 'alias:tnode;desc:target node name', (r) => r.ctx.node.name),
  column('repository', 'alias:rep;desc:repository', () => 'n/a'),
  column('snapshot', 'alias:snap;desc:snapshot', () => 'n/a'),
  column('files', 'alias:f;desc:number of files to recover', () => 0),
  column('files_recovered', 'alias:fr;desc:files recovered', () => 0),
  column('files_percent', 'alias:fp;desc:percent of files recovered', recoveredPercent),
  column('files_total', 'alias:tf;desc:total number of files', (r) => r.files),
  column('bytes', 'alias:b;desc:number of bytes to recover', () => new ByteSize(0)),
  column('bytes_recovered', 'alias:br;desc:bytes recovered', () => new ByteSize(0)),
  column('bytes_percent', 'alias:bp;desc:percent of bytes recovered', recoveredPercent),
  column('bytes_total', 'alias:tb;desc:total number of bytes', (r) => new ByteSize(r.bytes)),
  column('translog_ops', 'alias:to;desc:number of translog ops to recover', () => 0),
  column('translog_ops_recovered', 'alias:tor;desc:translog ops recovered', () => 0),
  column('translog_ops_percent', 'alias:top;desc:percent of translog ops recovered', () => '100.0%'),
];

/** `_cat/recovery[/{index}]`: each primary's recovery, done (closed indices' too); `active_only` shows none. */
function catRecovery(req: RestRequest, ctx: EngineContext): RestResponse {
  const activeOnly = req.params.get('active_only');
  return catResponse(req, RECOVERY_COLUMNS, () => {
    if (activeOnly === '' || activeOnly === 'true') return [];
    return recoveredShards(ctx, shardTargets(req, ctx)).map((r) => ({ ...r, ctx }));
  });
}

/** OpenSearch's `_cat/segment_replication` table (RestCatSegmentReplicationAction), its default columns. */
const SEGMENT_REPLICATION_COLUMNS: Array<CatColumn<never>> = [
  column('shardId', 'alias:s;desc:shard id', () => null),
  column('target_node', 'alias:tnode;desc:target node name', () => null),
  column('target_host', 'alias:thost;desc:target host', () => null),
  column('checkpoints_behind', 'alias:cpb;desc:checkpoints behind primary', () => null),
  column('bytes_behind', 'alias:bb;desc:bytes behind primary', () => null),
  column('current_lag', 'alias:clag;desc:ongoing time elapsed waiting for replica to catch up to primary', () => null),
  column('last_completed_lag', 'alias:lcl;desc:time taken for replica to catch up to latest primary refresh', () => null),
  column('rejected_requests', 'alias:rr;desc:count of rejected requests for the replication group', () => null),
];

/**
 * OpenSearch's `_cat/segment_replication[/{index}]`: one row per replica shard copying segments from
 * its primary. The one node holds primaries only (replicas stay unassigned): no rows, once the
 * indices named are known to exist.
 */
function catSegmentReplication(req: RestRequest, ctx: EngineContext): RestResponse {
  shardTargets(req, ctx);
  return catResponse(req, SEGMENT_REPLICATION_COLUMNS, []);
}

export const catShardRoutes: Route[] = [
  { id: 'opensearch.cat_segment_replication', handler: catSegmentReplication },
  { id: 'cat.shards', handler: catShards },
  { id: 'cat.segments', handler: catSegments },
  { id: 'cat.recovery', handler: catRecovery },
];
