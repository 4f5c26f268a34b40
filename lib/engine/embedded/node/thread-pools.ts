import os from 'node:os';

/**
 * The thread pools an Elasticsearch 8.15 node with X-Pack declares, sized as ES sizes them for
 * this machine's processors. The engine runs on Node.js's event loop and worker threads, so none
 * of them exists: they are what clients and tools (`_cat/thread_pool`, `_nodes/thread_pool`)
 * expect to find, each idle (no active, queued or rejected task).
 */
export interface ThreadPool {
  name: string;
  type: 'fixed' | 'scaling';
  /** fixed: the size; scaling: the core. */
  min: number;
  max: number;
  /** -1: unbounded. */
  queueSize: number;
  /** scaling pools only. */
  keepAlive?: string;
}

export function threadPools(processors = os.availableParallelism()): ThreadPool[] {
  const n = processors;
  const half = Math.max(1, Math.floor(n / 2));
  const searchSize = Math.floor((n * 3) / 2) + 1;
  const fixed = (name: string, size: number, queueSize: number): ThreadPool => ({ name, type: 'fixed', min: size, max: size, queueSize });
  const scaling = (name: string, core: number, max: number, keepAlive = '5m'): ThreadPool => ({ name, type: 'scaling', min: core, max, queueSize: -1, keepAlive });
  const pools: ThreadPool[] = [
    fixed('analyze', 1, 16),
    fixed('auto_complete', Math.max(1, Math.floor(n / 4)), 100),
    fixed('ccr', 32, 100),
    fixed('cluster_coordination', 1, -1),
    fixed('downsample_indexing', Math.max(1, Math.floor(n / 2)), -1),
    fixed('esql_worker', searchSize, 1000),
    scaling('fetch_shard_started', 1, 2 * n),
    scaling('fetch_shard_store', 1, 2 * n),
    scaling('flush', 1, Math.min(5, half)),
    fixed('force_merge', Math.max(1, Math.floor(n / 8)), -1),
    scaling('generic', 4, Math.max(128, 4 * n), '30s'),
    fixed('get', searchSize, 1000),
    scaling('management', 1, 5),
    fixed('ml_datafeed', 512, -1),
    fixed('ml_job_comms', 2048, -1),
    fixed('ml_native_inference_comms', 2048, -1),
    fixed('ml_utility', 2048, -1),
    scaling('profiling', 0, 1),
    scaling('refresh', 1, Math.min(10, half)),
    fixed('rollup_indexing', 1, -1),
    fixed('search', searchSize, 1000),
    fixed('search_coordination', half, 1000),
    fixed('search_throttled', 1, 100),
    fixed('search_worker', searchSize, -1),
    scaling('searchable_snapshots_cache_fetch_async', 0, 28, '30s'),
    scaling('searchable_snapshots_cache_prewarming', 0, 16, '30s'),
    fixed('security-crypto', half, 1000),
    fixed('security-token-key', 1, 1000),
    scaling('snapshot', 1, Math.min(5, half)),
    scaling('snapshot_meta', 1, Math.min(50, 3 * n), '30s'),
    fixed('system_critical_read', half, 2000),
    fixed('system_critical_write', half, 1500),
    fixed('system_read', Math.min(5, half), 2000),
    fixed('system_write', Math.min(5, half), 1000),
    scaling('warmer', 1, Math.min(5, half)),
    fixed('watcher', Math.min(5 * n, 50), 1000),
    fixed('write', n, 10000),
  ];
  return pools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
