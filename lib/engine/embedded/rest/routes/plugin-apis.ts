/**
 * OpenSearch 2 plugins' own APIs the engine answers. The notifications plugin's
 * `_plugins/_notifications/features`: the channel types a channel can be made of — none, as the
 * engine sends no notifications — and `_plugins/_notifications/channels`: none either. The k-NN plugin's `_plugins/_knn/stats` — its cluster stats and
 * each node's, all or the named ones — and `_plugins/_knn/warmup/{index}`, which loads the
 * indices' native graphs into memory. The engine searches vectors exactly, from columns already in memory:
 * it has no native library, graph cache or training, so its counters stay at zero and a warmup has
 * nothing to load (it answers for every shard of the indices, as a warmup that loaded them all).
 * The SQL plugin's `_plugins/_sql/stats` and `_plugins/_ppl/stats` (its node's metrics, as text:
 * all at zero, no SQL or PPL query being run here) and `_plugins/_query/settings`, which updates the
 * cluster settings of its own namespaces and drops any other.
 */
import { EsError } from '../../../../errors/index.js';
import { numberOfShards } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { putSettings } from './cluster-settings.js';
import { nodesResponse } from './nodes.js';
import { shardTargets } from './cat-shards.js';

type Stats = Record<string, unknown>;

/** The cluster-level stats (KNNStatsConfig's cluster stats). */
const CLUSTER_STATS: Stats = { circuit_breaker_triggered: false, model_index_status: null };

/** Each node's stats, by the names the plugin reports them (KNNStatsConfig). */
const NODE_STATS: Stats = {
  max_distance_query_with_filter_requests: 0, graph_memory_usage_percentage: 0, graph_query_requests: 0, graph_memory_usage: 0,
  cache_capacity_reached: false, load_success_count: 0, training_memory_usage: 0, indices_in_cache: {}, script_query_errors: 0,
  hit_count: 0, knn_query_requests: 0, total_load_time: 0, miss_count: 0, min_score_query_requests: 0, knn_query_with_filter_requests: 0,
  training_memory_usage_percentage: 0, max_distance_query_requests: 0, lucene_initialized: true, graph_index_requests: 0,
  faiss_initialized: false, load_exception_count: 0, training_errors: 0, eviction_count: 0, nmslib_initialized: false,
  script_compilations: 0, script_query_requests: 0, graph_query_errors: 0, training_requests: 0, graph_index_errors: 0,
  min_score_query_with_filter_requests: 0,
};

function knnStats(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const asked = (req.pathParams.stat ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = asked.filter((s) => !Object.hasOwn(NODE_STATS, s) && !Object.hasOwn(CLUSTER_STATS, s));
  if (unknown.length) throw new EsError(400, 'illegal_argument_exception', `request [${req.path}] contains unrecognized stats: [${unknown.join(', ')}]`);
  const pick = (stats: Stats) => (asked.length ? Object.fromEntries(Object.entries(stats).filter(([k]) => asked.includes(k))) : stats);
  const nodeIds = (req.pathParams.node_id ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const answer = nodesResponse(ctx, nodeIds, () => pick(NODE_STATS));
  const withCluster = (r: RestResponse): RestResponse => {
    const { nodes, ...header } = r.body as Record<string, unknown>;
    return { ...r, body: { ...header, ...pick(CLUSTER_STATS), nodes } };
  };
  return answer instanceof Promise ? answer.then(withCluster) : withCluster(answer);
}

function knnWarmup(req: RestRequest, ctx: EngineContext): RestResponse {
  const shards = shardTargets(req, ctx).reduce((n, h) => n + numberOfShards(h), 0);
  return { status: 200, body: { _shards: { total: shards, successful: shards, failed: 0 } } };
}

/**
 * The SQL plugin's metrics (MetricName), one set for SQL and PPL: counters of the queries it ran,
 * and `circuit_breaker` (0 while healthy). None runs here, so all stay at zero.
 */
const QUERY_METRICS = [
  'request_total', 'request_count', 'failed_request_count_syserr', 'failed_request_count_cuserr', 'failed_request_count_cb',
  'default_cursor_request_total', 'default_cursor_request_count', 'circuit_breaker', 'default',
  'ppl_request_total', 'ppl_request_count', 'ppl_failed_request_count_syserr', 'ppl_failed_request_count_cuserr',
  'datasource_create_request_count', 'datasource_get_request_count', 'datasource_put_request_count',
  'datasource_patch_request_count', 'datasource_delete_request_count', 'datasource_failed_request_count_syserr',
  'datasource_failed_request_count_cuserr', 'async_query_create_api_request_count', 'async_query_get_api_request_count',
  'async_query_cancel_api_request_count', 'async_query_get_api_failed_request_count_syserr',
  'async_query_get_api_failed_request_count_cuserr', 'async_query_create_api_failed_request_count_syserr',
  'async_query_create_api_failed_request_count_cuserr', 'async_query_cancel_api_failed_request_count_syserr',
  'async_query_cancel_api_failed_request_count_cuserr', 'emr_start_job_request_failure_count',
  'emr_get_job_request_failure_count', 'emr_cancel_job_request_failure_count', 'emr_streaming_jobs_creation_count',
  'emr_interactive_jobs_creation_count', 'emr_batch_jobs_creation_count', 'streaming_job_housekeeper_task_failure_count',
];

/** The namespaces `_plugins/_query/settings` passes on (RestQuerySettingsAction); other keys are dropped. */
const QUERY_SETTING_PREFIXES = ['plugins.sql.', 'plugins.ppl.', 'plugins.query.', 'opendistro.sql.', 'opendistro.ppl.', 'opendistro.query.'];

export const pluginRoutes: Route[] = [
  { id: 'opensearch.notifications_features', handler: () => ({ status: 200, body: { allowed_config_type_list: [], plugin_features: {} } }) },
  // GetChannelListResponse: the channels a notification could go through — none, there being no channel type
  { id: 'opensearch.notifications_channels', handler: () => ({ status: 200, body: { start_index: 0, total_hits: 0, total_hit_relation: 'eq', channel_list: [] } }) },
  { id: 'opensearch.knn_stats', handler: knnStats },
  { id: 'opensearch.knn_warmup', handler: knnWarmup },
  // Metrics.collectToJSON sent as a plain-text answer, as the plugin sends it
  { id: 'opensearch.sql_stats', handler: () => ({ status: 200, text: JSON.stringify(Object.fromEntries(QUERY_METRICS.map((m) => [m, 0]))) }) },
  { id: 'opensearch.query_settings', handler: (req, ctx) => putSettings(req, ctx, (key) => QUERY_SETTING_PREFIXES.some((p) => key.startsWith(p))) },
];
