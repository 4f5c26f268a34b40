import { EsError } from '../../../../errors/index.js';
import { blocksView } from '../../indices/index-blocks.js';
import { nestSettings, type IndexHandle } from '../../indices/index.js';
import { speaksOpenSearch } from '../dialect.js';
import { discoveryNode } from '../discovery-node.js';
import { numberOfShards } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { resolveIndices } from './resolve.js';

type Json = Record<string, unknown>;

/** The metrics `GET _cluster/state/{metric}` knows (ClusterState.Metric). */
const METRICS = ['version', 'master_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes', 'customs'];
/** OpenSearch 2's: also `cluster_manager_node`, the same id under the name meant to replace `master_node`. */
const OPENSEARCH_METRICS = ['version', 'master_node', 'cluster_manager_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes', 'customs'];

function metricsOf(raw: string | undefined, openSearch: boolean): Set<string> {
  const known = openSearch ? OPENSEARCH_METRICS : METRICS;
  if (raw === undefined || raw === '_all') return new Set(known);
  const asked = raw.split(',').map((m) => m.trim()).filter(Boolean);
  for (const m of asked) {
    if (m !== '_all' && !known.includes(m)) throw new EsError(400, 'illegal_argument_exception', `Unknown metric [${m}] for cluster state`);
  }
  return asked.includes('_all') ? new Set(known) : new Set(asked);
}

function shardRouting(h: IndexHandle, nodeId: string, shard: number): Json {
  const started = h.isOpen;
  return {
    state: started ? 'STARTED' : 'UNASSIGNED', primary: true, node: started ? nodeId : null, relocating_node: null, shard, index: h.name,
    ...(started ? { allocation_id: { id: `${h.uuid.slice(0, 20)}${String(shard).padStart(2, '0')}` } } : { recovery_source: { type: 'EXISTING_STORE' } }),
  };
}

function indexMetadata(h: IndexHandle): Json {
  const shards = numberOfShards(h);
  const settings = h.meta.state === 'close' ? { ...h.meta.settings, 'index.verified_before_close': 'true' } : h.meta.settings;
  return {
    version: 1, mapping_version: 1, settings_version: 1, aliases_version: 1,
    routing_num_shards: Number(h.meta.settings['index.number_of_routing_shards'] ?? shards),
    state: h.meta.state === 'close' ? 'close' : 'open',
    settings: nestSettings(settings),
    mappings: Object.keys(h.meta.mappings).length ? { _doc: h.meta.mappings } : {},
    aliases: Object.keys(h.meta.aliases ?? {}).sort(),
    primary_terms: Object.fromEntries([...Array(shards).keys()].map((s) => [String(s), 1])),
    in_sync_allocations: Object.fromEntries([...Array(shards).keys()].map((s) => [String(s), [`${h.uuid.slice(0, 20)}${String(s).padStart(2, '0')}`]])),
    rollover_info: {},
    system: h.name.startsWith('.'),
    timestamp_range: { shards: [] },
  };
}

/**
 * `GET _cluster/state[/{metric}[/{index}]]`: the single node's cluster state as Elasticsearch
 * shows it — the indices' metadata (settings, mappings, aliases, state), their blocks, the
 * routing of their shards (all on this node) and the node — filtered by metric and index.
 */
function clusterState(req: RestRequest, ctx: EngineContext): RestResponse {
  const metrics = metricsOf(req.pathParams.metric, speaksOpenSearch(req, ctx));
  // a caller with rights sees the indices it may reach (every state), read through its field rules
  const handles = req.pathParams.index === undefined && !ctx.access
    ? ctx.indices.all()
    : resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: true }, ...(req.pathParams.index === undefined ? { expandWildcards: 'all' } : {}) });
  const node = ctx.node;
  const body: Json = { cluster_name: ctx.clusterName, cluster_uuid: ctx.clusterUuid };
  if (metrics.has('version')) {
    body.version = 1;
    body.state_uuid = ctx.clusterUuid;
  }
  if (metrics.has('master_node')) body.master_node = node.id;
  if (metrics.has('cluster_manager_node')) body.cluster_manager_node = node.id;
  if (metrics.has('blocks')) {
    const indices = Object.fromEntries(handles.map((h) => [h.name, blocksView(h.meta.settings, h.isOpen)]).filter(([, b]) => b !== undefined));
    body.blocks = Object.keys(indices).length ? { indices } : {};
  }
  if (metrics.has('nodes')) {
    body.nodes = {
      [node.id]: discoveryNode(req, ctx, false),
    };
  }
  if (metrics.has('metadata')) {
    body.metadata = {
      cluster_uuid: ctx.clusterUuid, cluster_uuid_committed: true,
      cluster_coordination: { term: 1, last_committed_config: [node.id], last_accepted_config: [node.id], voting_config_exclusions: [] },
      templates: {},
      indices: Object.fromEntries(handles.map((h) => [h.name, indexMetadata(h)])),
      'index-graveyard': { tombstones: [] },
    };
  }
  if (metrics.has('routing_table')) {
    body.routing_table = {
      indices: Object.fromEntries(handles.map((h) => [h.name, { shards: Object.fromEntries([...Array(numberOfShards(h)).keys()].map((s) => [String(s), [shardRouting(h, node.id, s)]])) }])),
    };
  }
  if (metrics.has('routing_nodes')) {
    const open = handles.filter((h) => h.isOpen);
    body.routing_nodes = {
      unassigned: handles.filter((h) => !h.isOpen).flatMap((h) => [...Array(numberOfShards(h)).keys()].map((s) => shardRouting(h, node.id, s))),
      nodes: { [node.id]: open.flatMap((h) => [...Array(numberOfShards(h)).keys()].map((s) => shardRouting(h, node.id, s))) },
    };
  }
  return { status: 200, body };
}

export const clusterStateRoutes: Route[] = [
  { id: 'cluster.state', handler: clusterState },
  { id: 'cluster.pending_tasks', handler: () => ({ status: 200, body: { tasks: [] } }) },
  { id: 'cluster.remote_info', handler: () => ({ status: 200, body: {} }) },
];
