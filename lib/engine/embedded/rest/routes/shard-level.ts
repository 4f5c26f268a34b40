import { EsError, errors } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { ByteSize, Duration } from '../cat-table.js';
import { booleanParam } from '../params.js';
import { docsPerShard, numberOfReplicas, numberOfShards, shardCopies } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { OPENSEARCH_VERSION, luceneVersion, speaksOpenSearch } from '../dialect.js';
import { discoveryNode } from '../discovery-node.js';
import { recoveredShards } from '../shard-recoveries.js';
import { ES_VERSION } from './cluster.js';
import { resolveOpenTarget, resolveTarget } from './search-target.js';

/**
 * Index shard-level monitoring APIs, as Elasticsearch 8.15 (and OpenSearch 2) answer them for
 * the one node: `_segments` (one Lucene segment per started primary that holds documents),
 * `_recovery` (each primary recovered, DONE: from an empty store when the index was created since
 * the node started, else from the existing store), `_shard_stores` (the primary's store on this
 * node, for the shards whose health `status` names) and OpenSearch's `_upgrade` (nothing is ever
 * older than the running version: nothing to upgrade; a POST upgrades nothing and says so).
 */

type Json = Record<string, unknown>;

/** The indices named, sorted by name (closed ones refused unless `ignore_unavailable`). */
function targets(req: RestRequest, ctx: EngineContext): IndexHandle[] {
  return resolveOpenTarget(ctx, req.pathParams.index, req.params).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A broadcast action's `_shards`: every copy counts, the started ones answered. */
function broadcastShards(handles: IndexHandle[]): Json {
  const copies = shardCopies(handles);
  return { total: copies.length, successful: copies.filter((c) => c.started).length, failed: 0 };
}

function nodeRouting(ctx: EngineContext): Json {
  return { state: 'STARTED', primary: true, node: ctx.node.id };
}

/** `GET [/{index}]/_segments`. */
function segments(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = targets(req, ctx);
  const lucene = luceneVersion(req, ctx);
  const indices: Json = {};
  for (const copy of shardCopies(handles)) {
    if (!copy.started) continue;
    const docs = copy.docs ?? 0;
    const segs: Json = {};
    if (docs > 0) {
      segs._0 = {
        generation: 0, num_docs: docs, deleted_docs: 0, size_in_bytes: copy.storeBytes ?? 0, committed: true, search: true,
        version: lucene, compound: true, attributes: { 'Lucene90StoredFieldsFormat.mode': 'BEST_SPEED' },
      };
    }
    const count = Object.keys(segs).length;
    const index = (indices[copy.index.name] ??= { shards: {} }) as { shards: Json };
    index.shards[String(copy.shard)] = [{ routing: nodeRouting(ctx), num_committed_segments: count, num_search_segments: count, segments: segs }];
  }
  return { status: 200, body: { _shards: broadcastShards(handles), indices } };
}

/**
 * A field as Elasticsearch's XContentBuilder writes it: the raw value, and with `human=true` its
 * readable form first (timeField: the date, humanReadableField: a TimeValue or a ByteSizeValue).
 */
function fieldsOf(human: boolean) {
  const both = (raw: string, readable: string, value: number, text: string): Json => (human ? { [readable]: text, [raw]: value } : { [raw]: value });
  return {
    date: (raw: string, readable: string, ms: number) => both(raw, readable, ms, new Date(ms).toISOString()),
    time: (raw: string, readable: string, ms: number) => both(raw, readable, ms, Duration.ofMillis(ms).toString()),
    bytes: (raw: string, readable: string, n: number) => both(raw, readable, n, new ByteSize(n).toString()),
  };
}


/** `GET [/{index}]/_recovery`: each primary's last recovery, done (closed indices' too: recoveredShards). */
function recovery(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveTarget(ctx, req.pathParams.index, req.params, { expandWildcards: 'open,closed' })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Every recovery here is over: `active_only` lists none.
  if (booleanParam(req.params, 'active_only', false)) return { status: 200, body: {} };
  const node = ctx.node;
  const { date, time, bytes: size } = fieldsOf(booleanParam(req.params, 'human', false));
  const detailed = booleanParam(req.params, 'detailed', false);
  const openSearch = speaksOpenSearch(req, ctx);
  const recovered = recoveredShards(ctx, handles);
  const body: Json = {};
  for (const h of handles) body[h.name] = { shards: [] };
  for (const { index: h, shard: id, fresh, start, files, bytes } of recovered) {
    const shard: Json = {
      id, type: fresh ? 'EMPTY_STORE' : 'EXISTING_STORE', stage: 'DONE', primary: true,
      ...date('start_time_in_millis', 'start_time', start), ...date('stop_time_in_millis', 'stop_time', start), ...time('total_time_in_millis', 'total_time', 0),
      source: fresh ? {} : { bootstrap_new_history_uuid: false },
      target: { id: node.id, host: node.host, transport_address: node.transportAddress, ip: node.ip, name: node.name },
      index: {
        size: {
          ...size('total_in_bytes', 'total', bytes), ...size('reused_in_bytes', 'reused', bytes), ...size('recovered_in_bytes', 'recovered', 0),
          // Elasticsearch 7.13's snapshot-based recoveries; OpenSearch 2's ReplicationLuceneIndex writes no such field
          ...(openSearch ? {} : size('recovered_from_snapshot_in_bytes', 'recovered_from_snapshot', 0)), percent: '100.0%',
        },
        files: { total: files, reused: files, recovered: 0, percent: '100.0%', ...(detailed ? { details: [] } : {}) },
        ...time('total_time_in_millis', 'total_time', 0), ...time('source_throttle_time_in_millis', 'source_throttle_time', 0),
        ...time('target_throttle_time_in_millis', 'target_throttle_time', 0),
      },
      translog: { recovered: 0, total: 0, percent: '100.0%', total_on_start: 0, ...time('total_time_in_millis', 'total_time', 0) },
      verify_index: { ...time('check_index_time_in_millis', 'check_index_time', 0), ...time('total_time_in_millis', 'total_time', 0) },
    };
    (body[h.name] as { shards: Json[] }).shards.push(shard);
  }
  for (const h of handles) if (!(body[h.name] as { shards: Json[] }).shards.length) delete body[h.name];
  return { status: 200, body };
}

const HEALTH = new Set(['green', 'yellow', 'red', 'all']);

/** `GET [/{index}]/_shard_stores`: the shards whose health `status` names (default yellow and red), with the store on this node. */
function shardStores(req: RestRequest, ctx: EngineContext): RestResponse {
  const statuses = (req.params.get('status') ?? 'yellow,red').split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of statuses) {
    if (!HEALTH.has(s)) throw new EsError(400, 'illegal_argument_exception', `unknown health status [${s}]`);
  }
  const wanted = (health: string) => statuses.includes('all') || statuses.includes(health);
  const handles = resolveTarget(ctx, req.pathParams.index, req.params).filter((h) => h.isOpen).sort((a, b) => (a.name < b.name ? -1 : 1));
  const node = discoveryNode(req, ctx);
  const indices: Json = {};
  for (const h of handles) {
    // A replica never sits beside its primary on the one node: a shard with replicas is yellow.
    const health = numberOfReplicas(h) > 0 ? 'yellow' : 'green';
    if (!wanted(health)) continue;
    const shards: Json = {};
    for (let shard = 0; shard < numberOfShards(h); shard++) {
      shards[String(shard)] = {
        stores: [{
          [ctx.node.id]: node,
          allocation_id: `${h.uuid.slice(0, 20)}${String(shard).padStart(2, '0')}`,
          allocation: 'primary',
        }],
      };
    }
    indices[h.name] = { shards };
  }
  return { status: 200, body: { indices } };
}

/** OpenSearch's `GET [/{index}]/_upgrade`: the bytes of each index, none of them needing an upgrade. */
function upgradeStatus(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = targets(req, ctx);
  const indices: Json = {};
  let total = 0;
  for (const h of handles) {
    const bytes = docsPerShard(h).length ? shardCopies([h]).reduce((n, c) => n + (c.storeBytes ?? 0), 0) : 0;
    total += bytes;
    indices[h.name] = { size_in_bytes: bytes, size_to_upgrade_in_bytes: 0, size_to_upgrade_ancient_in_bytes: 0 };
  }
  return { status: 200, body: { size_in_bytes: total, size_to_upgrade_in_bytes: 0, size_to_upgrade_ancient_in_bytes: 0, indices } };
}

/** OpenSearch's `POST [/{index}]/_upgrade`: every index is at the running version already. */
function upgrade(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = targets(req, ctx);
  const upgraded: Json = {};
  const version = speaksOpenSearch(req, ctx) ? OPENSEARCH_VERSION.number : ES_VERSION.number;
  for (const h of handles) upgraded[h.name] = { upgrade_version: version, oldest_lucene_segment_version: luceneVersion(req, ctx) };
  return { status: 200, body: { _shards: broadcastShards(handles), upgraded_indices: upgraded } };
}

export const shardLevelRoutes: Route[] = [
  { id: 'indices.segments', handler: segments },
  { id: 'indices.recovery', handler: recovery },
  { id: 'indices.shard_stores', handler: shardStores },
  { id: 'indices.get_upgrade', handler: upgradeStatus },
  { id: 'indices.upgrade', handler: upgrade },
];
