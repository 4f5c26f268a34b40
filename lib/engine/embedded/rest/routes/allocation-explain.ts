import { EsError, errors } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { requestBody } from '../body.js';
import { speaksOpenSearch, nodeAttributes } from '../dialect.js';
import { booleanParam } from '../params.js';
import { numberOfReplicas, numberOfShards, shardCopies } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const BODY_FIELDS = new Set(['index', 'shard', 'primary', 'current_node']);

/** The shard the request names, or (without a body) the first unassigned one: a replica, as the one node holds every primary. */
interface Target {
  handle: IndexHandle;
  shard: number;
  primary: boolean;
}

/** The allocation id of a started primary, as the cluster state's routing table gives it. */
const allocationId = (h: IndexHandle, shard: number) => `${h.uuid.slice(0, 20)}${String(shard).padStart(2, '0')}`;

function requestText(includeYes: boolean, t?: { index: unknown; shard: unknown; primary: unknown }): string {
  const what = t ? `index=${String(t.index)},shard=${String(t.shard)},primary?=${String(t.primary)}` : 'useAnyUnassignedShard=true';
  return `ClusterAllocationExplainRequest[${what},includeYesDecisions?=${includeYes}]`;
}

function target(req: RestRequest, ctx: EngineContext, includeYes: boolean, openSearch: boolean): Target {
  const body = requestBody(req);
  if (body === undefined || Object.keys(body).length === 0) {
    const open = ctx.indices.resolve(undefined, { defaultStates: { open: true, closed: false, hidden: true } }).filter((h) => h.isOpen);
    const withReplica = open.find((h) => numberOfReplicas(h) > 0);
    if (withReplica) return { handle: withReplica, shard: 0, primary: false };
    throw new EsError(400, 'illegal_argument_exception', openSearch
      ? `unable to find any unassigned shards to explain [${requestText(includeYes)}]`
      : 'No shard was specified in the request which means the response should explain a randomly-chosen unassigned shard, but there are no unassigned shards in this cluster. To explain the allocation of an assigned shard you must specify the target shard in the request.');
  }
  for (const key of Object.keys(body)) {
    if (!BODY_FIELDS.has(key)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [cluster/allocation/explain] unknown field [${key}]`);
  }
  const problems = [
    ...(body.index === undefined ? ['index must be specified'] : []),
    ...(body.shard === undefined ? ['shard must be specified'] : []),
    ...(body.primary === undefined ? ['primary must be specified'] : []),
  ];
  if (problems.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  const name = String(body.index);
  // resolved through the caller's rights, then held to a concrete name (an alias or a pattern names no shard)
  const [handle] = ctx.indices.resolve(name, { defaultStates: { open: true, closed: true, hidden: true } });
  if (!handle || handle.name !== name) throw errors.indexNotFound(name);
  const shard = Number(body.shard);
  const primary = body.primary === true || body.primary === 'true';
  if (!Number.isInteger(shard) || shard < 0 || shard >= numberOfShards(handle) || (!primary && numberOfReplicas(handle) === 0)) {
    throw new EsError(400, 'illegal_argument_exception', `unable to find any shards to explain [${requestText(includeYes, { index: name, shard: body.shard, primary })}] in the routing table`);
  }
  return { handle, shard, primary };
}

/**
 * `GET|POST /_cluster/allocation/explain`: why a shard copy is where it is on the one node. Every
 * primary of an open index is started here and stays (no other node to move to); each replica is
 * unassigned, the same-shard decider refusing it the node its primary is on. The body names the
 * shard (`index`, `shard`, `primary`), or none: the first unassigned one.
 */
async function explain(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const includeYes = booleanParam(req.params, 'include_yes_decisions', false);
  const includeDisk = booleanParam(req.params, 'include_disk_info', false);
  const openSearch = speaksOpenSearch(req, ctx);
  const { handle, shard, primary } = target(req, ctx, includeYes, openSearch);
  const node = ctx.node;
  const name = openSearch ? 'OpenSearch' : 'Elasticsearch';
  const head = { index: handle.name, shard, primary, ...(includeDisk ? { cluster_info: await clusterInfo(ctx) } : {}) };
  if (primary) {
    const replicasActive = numberOfReplicas(handle) === 0;
    return {
      status: 200,
      body: {
        ...head,
        current_state: 'started',
        current_node: { id: node.id, name: node.name, transport_address: node.transportAddress, attributes: nodeAttributes(req, ctx), ...(openSearch ? {} : { roles: node.roles }), weight_ranking: 1 },
        can_remain_on_current_node: 'yes',
        can_rebalance_cluster: replicasActive ? 'yes' : 'no',
        ...(replicasActive ? {} : { can_rebalance_cluster_decisions: [{ decider: 'rebalance_only_when_active', decision: 'NO', explanation: 'rebalancing is not allowed until all replicas in the cluster are active' }] }),
        can_rebalance_to_other_node: 'no',
        rebalance_explanation: openSearch
          ? 'cannot rebalance as no target node exists that can both allocate this shard and improve the cluster balance'
          : `${name} cannot rebalance this shard to another node since there is no node to which allocation is permitted which would improve the cluster balance. If you expect this shard to be rebalanced to another node, find this node in the node-by-node explanation and address the reasons which prevent ${name} from rebalancing this shard there.`,
      },
    };
  }
  const primaryCopy = startedPrimary(handle, shard, node.id);
  return {
    status: 200,
    body: {
      ...head,
      current_state: 'unassigned',
      unassigned_info: { reason: 'INDEX_CREATED', at: new Date(Number(handle.meta.settings['index.creation_date'] ?? Date.now())).toISOString(), last_allocation_status: 'no_attempt' },
      can_allocate: 'no',
      allocate_explanation: openSearch
        ? 'cannot allocate because allocation is not permitted to any of the nodes'
        : `${name} isn't allowed to allocate this shard to any of the nodes in the cluster. Choose a node to which you expect this shard to be allocated, find this node in the node-by-node explanation, and address the reasons which prevent ${name} from allocating this shard there.`,
      node_allocation_decisions: [
        {
          node_id: node.id, node_name: node.name, transport_address: node.transportAddress, node_attributes: nodeAttributes(req, ctx),
          ...(openSearch ? {} : { roles: node.roles }),
          node_decision: 'no', weight_ranking: 1,
          deciders: [{ decider: 'same_shard', decision: 'NO', explanation: `a copy of this shard is already allocated to this node [${primaryCopy}]` }],
        },
      ],
    },
  };
}

/** A started primary as ShardRouting.toString writes it. */
const startedPrimary = (h: IndexHandle, shard: number, nodeId: string) => `[${h.name}][${shard}], node[${nodeId}], [P], s[STARTED], a[id=${allocationId(h, shard)}]`;

/**
 * `include_disk_info`: the cluster info the allocation deciders read (ClusterInfo): the one node's
 * data path disk as its least and most available, each started primary's size and path; no
 * reserved space.
 */
async function clusterInfo(ctx: EngineContext): Promise<Record<string, unknown>> {
  const { fs } = await ctx.node.figures();
  const used = fs.total - fs.available;
  const freePercent = fs.total > 0 ? (100 * fs.available) / fs.total : 0;
  const disk = { path: fs.path, total_bytes: fs.total, used_bytes: used, free_bytes: fs.available, free_disk_percent: freePercent, used_disk_percent: 100 - freePercent };
  const started = shardCopies(ctx.indices.all()).filter((c) => c.started);
  return {
    nodes: { [ctx.node.id]: { node_name: ctx.node.name, least_available: disk, most_available: disk } },
    shard_sizes: Object.fromEntries(started.map((c) => [`[${c.index.name}][${c.shard}][p]_bytes`, c.storeBytes])),
    shard_data_set_sizes: Object.fromEntries(started.map((c) => [`[${c.index.name}][${c.shard}]_bytes`, c.storeBytes])),
    shard_paths: Object.fromEntries(started.map((c) => [startedPrimary(c.index, c.shard, ctx.node.id), fs.path])),
    reserved_sizes: [],
  };
}

export const allocationExplainRoutes: Route[] = [{ id: 'cluster.allocation_explain', handler: explain }];
