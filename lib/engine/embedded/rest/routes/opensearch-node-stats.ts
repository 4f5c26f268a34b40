import type { NodeFigures } from '../../node/index.js';
import type { EngineContext } from '../types.js';

/**
 * The node stats metrics OpenSearch 2 has beside Elasticsearch's (NodesStatsRequest.Metric): asked of
 * an engine that speaks OpenSearch, each answers its section as a default OpenSearch 2 node with
 * nothing of the feature in use does (shard indexing pressure off, search backpressure monitoring
 * only, no throttled or cancelled tasks, no search pipelines run, no file cache: not a search node).
 */
export const OPENSEARCH_STATS_METRICS = [
  'shard_indexing_pressure', 'search_backpressure', 'cluster_manager_throttling', 'weighted_routing', 'file_cache',
  'task_cancellation', 'search_pipeline', 'resource_usage_stats', 'segment_replication_backpressure', 'admission_control', 'caches',
];

const zeroTimed = () => ({ count: 0, time_in_millis: 0, current: 0, failed: 0 });

/** A metric's section; undefined where OpenSearch leaves it out (a file cache only a search node has). */
export function openSearchStatsSection(metric: string, f: NodeFigures, ctx: EngineContext): unknown {
  switch (metric) {
    case 'shard_indexing_pressure':
      return { stats: {}, total_rejections_breakup_shadow_mode: { node_limits: 0, no_successful_request_limits: 0, throughput_degradation_limits: 0 }, enabled: false, enforced: false };
    case 'search_backpressure': {
      const tasks = () => ({ resource_tracker_stats: {}, cancellation_stats: { cancellation_count: 0, cancellation_limit_reached_count: 0 } });
      return { search_task: tasks(), search_shard_task: tasks(), mode: 'monitor_only' };
    }
    case 'cluster_manager_throttling':
      return { stats: { total_throttled_tasks: 0, throttled_tasks_per_task_type: {} } };
    case 'weighted_routing':
      return { stats: { fail_open_count: 0 } };
    case 'file_cache':
      return undefined;
    case 'task_cancellation':
      return { search_shard_task: { current_count_post_cancel: 0, total_count_post_cancel: 0 } };
    case 'search_pipeline':
      return { total_request: zeroTimed(), total_response: zeroTimed(), pipelines: {} };
    case 'resource_usage_stats':
      return {
        [ctx.node.id]: {
          timestamp: f.at, cpu_utilization_percent: f.cpuPercent.toFixed(1),
          memory_utilization_percent: ((f.heapUsed * 100) / f.heapMax).toFixed(1), io_usage_stats: { max_io_utilization_percent: '0.0' },
        },
      };
    case 'segment_replication_backpressure':
      return { total_rejected_requests: 0 };
    case 'admission_control':
      return { global_cpu_usage: { transport: { rejection_count: {} } }, global_io_usage: { transport: { rejection_count: {} } } };
    case 'caches':
      return { request_cache: { size_in_bytes: 0, evictions: 0, hit_count: 0, miss_count: 0, item_count: 0, store_name: 'opensearch_onheap' } };
    default:
      return undefined;
  }
}
