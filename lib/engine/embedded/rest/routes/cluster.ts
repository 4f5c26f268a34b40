import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { OPENSEARCH_TAGLINE, OPENSEARCH_VERSION, speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

export { ES_VERSION } from '../../../../rest-compat/index.js';
import { ES_VERSION } from '../../../../rest-compat/index.js';

function root(req: RestRequest, ctx: EngineContext): RestResponse {
  const openSearch = speaksOpenSearch(req, ctx);
  return {
    status: 200,
    body: {
      name: ctx.nodeName,
      cluster_name: ctx.clusterName,
      cluster_uuid: ctx.clusterUuid,
      version: openSearch ? OPENSEARCH_VERSION : ES_VERSION,
      tagline: openSearch ? OPENSEARCH_TAGLINE : 'You Know, for Search',
    },
  };
}

const STATUS_RANK: Record<string, number> = { green: 0, yellow: 1, red: 2 };

/** Health of an index on a single node: replicas can never be assigned, so any replica → yellow. */
export function indexHealth(h: IndexHandle): 'green' | 'yellow' {
  return Number(h.meta.settings['index.number_of_replicas'] ?? '1') > 0 ? 'yellow' : 'green';
}

export interface HealthSummary {
  status: 'green' | 'yellow' | 'red';
  /** Active shards: on one node, the primaries. */
  primaries: number;
  /** Replicas, which can never be assigned beside their primaries. */
  unassigned: number;
  activeShardsPercent: number;
}

/** The health of open indices on the one node (and of the cluster, given all of them). */
export function healthOf(indices: IndexHandle[]): HealthSummary {
  let primaries = 0;
  let unassigned = 0;
  let status: 'green' | 'yellow' | 'red' = 'green';
  for (const h of indices) {
    const shards = Number(h.meta.settings['index.number_of_shards'] ?? '1');
    primaries += shards;
    unassigned += shards * Number(h.meta.settings['index.number_of_replicas'] ?? '1');
    if (STATUS_RANK[indexHealth(h)] > STATUS_RANK[status]) status = indexHealth(h);
  }
  return { status, primaries, unassigned, activeShardsPercent: primaries + unassigned === 0 ? 100.0 : (primaries / (primaries + unassigned)) * 100 };
}

/**
 * The cluster's health, as `GET _cluster/health` reports it. A closed index counts as an open one:
 * since Elasticsearch 7.2 a closed index keeps its shards allocated (and replicated), so its
 * primaries are active and its replicas, on one node, unassigned.
 */
export function clusterHealth(ctx: EngineContext): HealthSummary {
  return healthOf(ctx.indices.resolve(undefined, { defaultStates: HEALTH_STATES }));
}

/** The indices a health request reads by default (Elasticsearch's `lenientExpandHidden`): open, closed and hidden. */
const HEALTH_STATES = { open: true, closed: true, hidden: true };

function health(req: RestRequest, ctx: EngineContext): RestResponse {
  let handles: IndexHandle[];
  let missing = false;
  try {
    handles = ctx.indices.resolve(req.pathParams.index, { defaultStates: HEALTH_STATES, expandWildcards: req.params.get('expand_wildcards') ?? undefined });
  } catch (e) {
    if (!(e instanceof EsError) || e.status !== 404) throw e;
    handles = [];
    missing = true;
  }
  const summary = healthOf(handles);
  const { primaries, unassigned } = summary;
  const status = missing ? 'red' : summary.status;
  const wanted = req.params.get('wait_for_status');
  if (wanted !== null && !(wanted in STATUS_RANK)) {
    throw new EsError(400, 'illegal_argument_exception', `unknown cluster health status [${wanted}]`);
  }
  const timedOut = missing || (wanted !== null && STATUS_RANK[status] > STATUS_RANK[wanted]);
  const body: Record<string, unknown> = {
    cluster_name: ctx.clusterName,
    status,
    timed_out: timedOut,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: primaries,
    active_shards: primaries,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: unassigned,
    unassigned_primary_shards: 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: summary.activeShardsPercent,
  };
  const level = req.params.get('level');
  // OpenSearch's health by awareness attribute: the one node has none (`cluster.routing.allocation.awareness.attributes` is unset)
  const attribute = req.params.get('awareness_attribute');
  if (level === 'awareness_attributes') {
    if (req.pathParams.index !== undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: awareness_attribute is not a supported parameter with index health;');
    body.awareness_attributes = attribute === null ? {} : Object.fromEntries(attribute.split(',').map((name) => [name, {}]));
  } else if (attribute !== null) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: level=awareness_attributes is required with awareness_attribute parameter;');
  }
  if (level === 'indices' || level === 'shards') {
    const indices: Record<string, unknown> = {};
    for (const h of handles) {
      const shards = Number(h.meta.settings['index.number_of_shards'] ?? '1');
      const replicas = Number(h.meta.settings['index.number_of_replicas'] ?? '1');
      const view: Record<string, unknown> = {
        status: indexHealth(h), number_of_shards: shards, number_of_replicas: replicas, active_primary_shards: shards,
        active_shards: shards, relocating_shards: 0, initializing_shards: 0, unassigned_shards: shards * replicas,
        unassigned_primary_shards: 0,
      };
      // level=shards: each shard's health (ClusterShardHealth), its primary active here, its replicas unassigned
      if (level === 'shards') {
        const perShard: Record<string, unknown> = {};
        for (let id = 0; id < shards; id++) {
          perShard[String(id)] = {
            status: indexHealth(h), primary_active: true, active_shards: 1, relocating_shards: 0, initializing_shards: 0,
            unassigned_shards: replicas, unassigned_primary_shards: 0,
          };
        }
        view.shards = perShard;
      }
      indices[h.name] = view;
    }
    body.indices = indices;
  }
  const return200 = req.params.get('return_200_for_cluster_health_timeout') === 'true';
  return { status: timedOut && !return200 ? 408 : 200, body };
}

export const clusterRoutes: Route[] = [
  { id: 'info', handler: root },
  { id: 'cluster.health', handler: health },
];
