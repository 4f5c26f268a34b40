import type { RouteAuth } from './route-auth.js';

/**
 * Elasticsearch's REST API as the embedded engine serves it, one entry per API (Elasticsearch's
 * rest-api-spec names: `search`, `indices.create`): its paths (methods and pattern) and the URL
 * parameters each path takes besides the ones every route takes (`COMMON_PARAMS`). It is half of
 * the one route table (`API_TABLE`, api-table.ts): the embedded engine registers a handler for
 * each id (lib/engine's router: an id not in this table does not compile, an entry without a
 * handler stops the engine at startup), and the gateway reads a request by matching it here.
 */

/** Parameters every route accepts. */
export const COMMON_PARAMS: ReadonlySet<string> = new Set(['pretty', 'human', 'error_trace', 'filter_path', 'format', 'source', 'source_content_type']);

/** Parameter lists several APIs share. */
const CAT_SHARD_PARAMS = ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'expand_wildcards'];
const CAT_PARAMS = ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout'];
const CAT_INDICES_PARAMS = [...CAT_PARAMS, 'health', 'pri', 'expand_wildcards', 'include_unloaded_segments'];
/** OpenSearch's `_list` pages (`size` is the page's size there, a `_cat` parameter besides). */
const LIST_PARAMS = ['next_token', 'sort'];
/** A resize's parameters; `copy_settings` is OpenSearch 2's (RestResizeHandler, deprecated: settings are always copied). */
const RESIZE_PARAMS = ['timeout', 'master_timeout', 'wait_for_active_shards', 'wait_for_completion', 'task_execution_timeout', 'copy_settings'];
const INDICES_TIMEOUT_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'timeout', 'master_timeout'];
const INDICES_LOCAL_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local', 'master_timeout'];
const INDICES_OPEN_CLOSE_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'timeout', 'master_timeout', 'wait_for_active_shards'];
const DOC_READ_PARAMS = ['preference', 'realtime', 'refresh', 'routing', '_source', '_source_excludes', '_source_includes', '_source_exclude', '_source_include', 'stored_fields', 'version', 'version_type'];
/** A search's parameters (`_search`, `_search/template`); OpenSearch's own two are the plain search's. */
const SEARCH_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'q', 'from', 'size', '_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude', 'track_total_hits', 'rest_total_hits_as_int', 'routing', 'preference', 'timeout', 'search_type', 'request_cache', 'typed_keys', 'batched_reduce_size', 'pre_filter_shard_size', 'ccs_minimize_roundtrips', 'allow_partial_search_results', 'track_scores', 'version', 'seq_no_primary_term', 'explain', 'stored_fields', 'docvalue_fields', 'sort', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'terminate_after', 'stats', 'scroll', 'max_concurrent_shard_requests', 'ignore_throttled', 'include_named_queries_score', 'suggest_field', 'suggest_mode', 'suggest_size', 'suggest_text', 'force_synthetic_source'];
const MSEARCH_PARAMS = ['rest_total_hits_as_int', 'typed_keys', 'max_concurrent_searches', 'max_concurrent_shard_requests', 'pre_filter_shard_size', 'search_type', 'ccs_minimize_roundtrips', 'ignore_throttled', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'routing', 'include_named_queries_score'];
const BY_QUERY_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'from', 'lenient', 'preference', 'q', 'routing', 'scroll', 'search_type', 'search_timeout', 'max_docs', 'size', 'sort', 'terminate_after', 'stats', 'version', 'request_cache', 'refresh', 'timeout', 'wait_for_active_shards', 'scroll_size', 'wait_for_completion', 'requests_per_second', 'slices', 'conflicts', 'pipeline', 'version_type'];
const TEMPLATE_GET_PARAMS = ['flat_settings', 'local', 'master_timeout', 'include_defaults'];

/** A search: every index unless the path names some (or a body's `pit` names them), lookups in its body; a live stream with `stream=true`. */
const SEARCH = { category: 'search', operation: 'read', action: 'indices:data/read/search', every: 0, body: 'search', pointInTime: true, streams: 'any' } as const;
/** A resize reads its source and writes the new index, with the aliases and settings its body gives it. */
/**
 * OpenSearch's list and delete of every point in time: they reach the points in time of every
 * index, so only a credential that reads every index may ask (not narrowable: a scoped credential
 * is refused, rather than shown or let close another's). The embedded engine also keeps each to
 * the points in time whose indices the caller reads.
 */
const ALL_POINTS_IN_TIME = { category: 'search', operation: 'read', action: 'indices:data/read/point_in_time/readall', every: 'strict' } as const;
const RESIZE = { category: 'indices', operation: 'write', action: 'indices:admin/resize', sourceOperation: 'read', names: { target: 'write' }, creates: ['target'], body: 'index_creation', bodyPerIndex: true } as const;
/** Rethrottling a by-scroll task changes a running task of any tenant's: the cluster's. */
const RETHROTTLE = { category: 'cluster', operation: 'write', action: 'cluster:admin/reindex/rethrottle' } as const;

/** `_cat/indices` and `_cat/shards` (and OpenSearch's `_list` of them): index monitoring, of every index unless the path names some. */
const CAT_INDEX_STATS = { category: 'indices', operation: 'read', action: 'indices:monitor/stats', every: 2 } as const;
/** A cluster-level `_cat` listing: read by any credential with `cluster`. */
const CAT_CLUSTER = (action: string) => ({ category: 'cluster', operation: 'read', action }) as const;
/**
 * Cluster-level resources shared by every tenant: managing them (reading them too) needs the
 * named privilege, admin-equivalent for what it names; a template written is checked for the
 * index patterns and aliases it applies to.
 */
const INGEST = { category: 'cluster', action: { read: 'cluster:admin/ingest/pipeline/get', write: 'cluster:admin/ingest/pipeline/put', delete: 'cluster:admin/ingest/pipeline/delete' }, privilege: 'manage_pipeline' } as const;
/** OpenSearch's search pipelines: cluster-level like ingest pipelines, managed (and read) with the same privilege. */
const SEARCH_PIPELINES = { category: 'cluster', action: { read: 'cluster:admin/search/pipeline/get', write: 'cluster:admin/search/pipeline/put', delete: 'cluster:admin/search/pipeline/delete' }, privilege: 'manage_pipeline' } as const;
/** The index-management plugin's rollup and transform jobs: each would read its source and write its target, any tenant's: `manage`, reading too. */
const INDEX_MANAGEMENT_JOB = (kind: 'rollup' | 'transform') => ({ category: 'cluster', action: { read: `cluster:admin/opendistro/${kind}/get`, write: `cluster:admin/opendistro/${kind}/index`, delete: `cluster:admin/opendistro/${kind}/delete` }, privilege: 'manage' }) as const;
/** The Learning to Rank plugin's feature stores and their elements: cluster-level configuration every tenant shares (reading too: manage). */
const LTR_STORES = { category: 'cluster', action: { read: 'cluster:admin/ltr/store/list', write: 'cluster:admin/ltr/store/create', delete: 'cluster:admin/ltr/store/delete' }, privilege: 'manage' } as const;
const LTR_DATA = { category: 'cluster', action: 'cluster:admin/ltr/featurestore/data', privilege: 'manage' } as const;
/** OpenSearch's asynchronous searches: a search of the indices named; a kept result, by id, only for a credential reading every index. */
const ASYNCHRONOUS_SEARCH = { category: 'search', operation: 'read', every: 'strict' } as const;
const ISM_POLICIES = { category: 'cluster', action: { read: 'cluster:admin/opendistro/ism/policy/get', write: 'cluster:admin/opendistro/ism/policy/write', delete: 'cluster:admin/opendistro/ism/policy/delete' }, privilege: 'manage' } as const;
const ISM_MANAGED_INDEX = (action: string) => ({ category: 'indices', operation: 'write', action, every: 'strict', indexParam: true }) as const;
const ISM_MANAGED_INDEX_PATHS = (name: string) => [
  { methods: ['POST'], pattern: `/_plugins/_ism/${name}` },
  { methods: ['POST'], pattern: `/_plugins/_ism/${name}/{index}` },
] as const;
const SCRIPTS = { category: 'cluster', action: { read: 'cluster:admin/script/get', write: 'cluster:admin/script/put', delete: 'cluster:admin/script/delete' }, privilege: 'manage_scripts' } as const;
const INDEX_TEMPLATES = { category: 'cluster', action: { read: 'indices:admin/index_template/get', write: 'indices:admin/index_template/put', delete: 'indices:admin/index_template/delete' }, privilege: 'manage_index_templates' } as const;
const COMPONENT_TEMPLATES = { category: 'cluster', action: { read: 'cluster:admin/component_template/get', write: 'cluster:admin/component_template/put', delete: 'cluster:admin/component_template/delete' }, privilege: 'manage_index_templates' } as const;
const LEGACY_TEMPLATES = { category: 'cluster', action: { read: 'indices:admin/template/get', write: 'indices:admin/template/put', delete: 'indices:admin/template/delete' }, privilege: 'manage_index_templates' } as const;
const SYNONYMS = { category: 'cluster', action: { read: 'cluster:admin/synonyms/get', write: 'cluster:admin/synonyms/put', delete: 'cluster:admin/synonyms/delete' }, privilege: 'manage_search_synonyms' } as const;
const QUERY_RULES = { category: 'cluster', action: { read: 'cluster:admin/xpack/query_rules/get', write: 'cluster:admin/xpack/query_rules/put', delete: 'cluster:admin/xpack/query_rules/delete' }, privilege: 'manage_search_query_rules' } as const;

/**
 * Elasticsearch's APIs the embedded engine does not implement (`engine: false`): the gateway knows
 * what they do, the embedded engine answers them as paths it has no handler for, the HTTP backend
 * forwards them. Snapshots hold (and list) every tenant's indices: the admin's (`manage`).
 */
const SNAPSHOTS = (action: string, extra: Partial<RouteAuth> = {}): RouteAuth => ({ category: 'cluster', action, privilege: 'manage', ...extra });
/** The indices of SQL and ES|QL are inside the query text: every index, so that authorization stays strict. */
const SQL = { category: 'search', operation: 'read', action: 'indices:data/read/sql', every: 'strict' } as const;
const ESQL = { ...SQL, action: 'indices:data/read/esql' } as const;
const ASYNC_SEARCH_GET = { category: 'search', operation: 'read', action: 'indices:data/read/async_search/get' } as const;

export const ES_API = [
  {
    id: 'info',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/main' },
    params: [],
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/' },
    ],
  },
  {
    id: 'cluster.health',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/health', every: 2, perIndexLevel: 'narrowed' },
    params: ['wait_for_status', 'wait_for_nodes', 'wait_for_active_shards', 'wait_for_no_relocating_shards', 'wait_for_no_initializing_shards', 'wait_for_events', 'timeout', 'master_timeout', 'level', 'local', 'expand_wildcards', 'return_200_for_cluster_health_timeout', 'awareness_attribute'],
    paths: [
      { methods: ['GET'], pattern: '/_cluster/health' },
      { methods: ['GET'], pattern: '/_cluster/health/{index}' },
    ],
  },
  {
    id: 'cat.help',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/state'),
    params: ['help', 's'],
    paths: [
      { methods: ['GET'], pattern: '/_cat' },
    ],
  },
  {
    id: 'cat.indices',
    bodyless: true,
    auth: CAT_INDEX_STATS,
    params: CAT_INDICES_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/indices' },
      { methods: ['GET'], pattern: '/_cat/indices/{index}' },
    ],
  },
  {
    id: 'cat.aliases',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/aliases/get', names: { name: true }, every: 2, everyHolds: 'aliases' },
    params: CAT_SHARD_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/aliases' },
      { methods: ['GET'], pattern: '/_cat/aliases/{name}' },
    ],
  },
  {
    id: 'cat.count',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:data/read/search', every: 2 },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/count' },
      { methods: ['GET'], pattern: '/_cat/count/{index}' },
    ],
  },
  {
    id: 'cat.health',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/health'),
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/health' },
    ],
  },
  {
    id: 'cat.master',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/state'),
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/master' },
    ],
  },
  {
    id: 'cat.pending_tasks',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/task', privilege: 'manage' },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/pending_tasks' },
    ],
  },
  {
    id: 'cat.plugins',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/nodes/info'),
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'include_bootstrap'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/plugins' },
    ],
  },
  {
    id: 'cat.repositories',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/repository/get', privilege: 'manage' },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/repositories' },
    ],
  },
  {
    id: 'cat.templates',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'indices:admin/template/get', privilege: 'manage_index_templates' },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/templates' },
      { methods: ['GET'], pattern: '/_cat/templates/{name}' },
    ],
  },
  {
    id: 'cat.tasks',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/tasks/lists'),
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'actions', 'detailed', 'nodes', 'parent_task_id', 'full_id'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/tasks' },
    ],
  },
  {
    id: 'cat.nodes',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/nodes/info'),
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'full_id', 'include_unloaded_segments'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/nodes' },
    ],
  },
  {
    id: 'cat.nodeattrs',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/nodes/info'),
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'full_id'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/nodeattrs' },
    ],
  },
  {
    id: 'cat.allocation',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/state'),
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/allocation' },
      { methods: ['GET'], pattern: '/_cat/allocation/{node_id}' },
    ],
  },
  {
    id: 'cat.fielddata',
    bodyless: true,
    // one row per field of every index, named, with its size: no index list narrows it
    auth: { ...CAT_CLUSTER('cluster:monitor/nodes/stats'), privilege: 'manage' },
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'fields'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/fielddata' },
      { methods: ['GET'], pattern: '/_cat/fielddata/{fields}' },
    ],
  },
  {
    id: 'cat.thread_pool',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/nodes/stats'),
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'thread_pool_patterns'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/thread_pool' },
      { methods: ['GET'], pattern: '/_cat/thread_pool/{thread_pool_patterns}' },
    ],
  },
  {
    id: 'cat.shards',
    bodyless: true,
    auth: CAT_INDEX_STATS,
    params: CAT_SHARD_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/shards' },
      { methods: ['GET'], pattern: '/_cat/shards/{index}' },
    ],
  },
  {
    id: 'cat.segments',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/segments', every: 2 },
    params: CAT_SHARD_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/segments' },
      { methods: ['GET'], pattern: '/_cat/segments/{index}' },
    ],
  },
  {
    id: 'cat.recovery',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/recovery', every: 2 },
    params: ['v', 'h', 's', 'help', 'bytes', 'time', 'size', 'ts', 'local', 'master_timeout', 'expand_wildcards', 'active_only', 'detailed', 'index'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/recovery' },
      { methods: ['GET'], pattern: '/_cat/recovery/{index}' },
    ],
  },
  {
    id: 'cluster.get_settings',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/settings' },
    params: ['flat_settings', 'include_defaults', 'master_timeout', 'timeout', 'local'],
    paths: [
      { methods: ['GET'], pattern: '/_cluster/settings' },
    ],
  },
  {
    id: 'cluster.put_settings',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/settings/update' },
    params: ['flat_settings', 'master_timeout', 'timeout'],
    paths: [
      { methods: ['PUT'], pattern: '/_cluster/settings' },
    ],
  },
  {
    id: 'cluster.state',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/state', every: 3, explicit: ['_cluster', 'state', '_all'] },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local', 'master_timeout', 'flat_settings', 'wait_for_metadata_version', 'wait_for_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_cluster/state' },
      { methods: ['GET'], pattern: '/_cluster/state/{metric}' },
      { methods: ['GET'], pattern: '/_cluster/state/{metric}/{index}' },
    ],
  },
  {
    id: 'cluster.pending_tasks',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/task', privilege: 'manage' },
    params: ['local', 'master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_cluster/pending_tasks' },
    ],
  },
  {
    id: 'cluster.remote_info',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/remote/info' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_remote/info' },
    ],
  },
  {
    id: 'cluster.stats',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/stats' },
    params: ['flat_settings', 'timeout', 'include_remotes'],
    paths: [
      { methods: ['GET'], pattern: '/_cluster/stats' },
      { methods: ['GET'], pattern: '/_cluster/stats/nodes/{node_id}' },
      // OpenSearch 2.18's metric filters
      { methods: ['GET'], pattern: '/_cluster/stats/{metric}/nodes/{node_id}' },
      { methods: ['GET'], pattern: '/_cluster/stats/{metric}/{index_metric}/nodes/{node_id}' },
    ],
  },
  {
    id: 'indices.clone',
    auth: RESIZE,
    params: RESIZE_PARAMS,
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_clone/{target}' },
    ],
  },
  {
    id: 'indices.split',
    auth: RESIZE,
    params: RESIZE_PARAMS,
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_split/{target}' },
    ],
  },
  {
    id: 'indices.shrink',
    auth: RESIZE,
    params: RESIZE_PARAMS,
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_shrink/{target}' },
    ],
  },
  {
    id: 'nodes.info',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/info', perIndexLevel: 'manage' },
    params: ['flat_settings', 'timeout', 'master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_nodes' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/{metric}' },
    ],
  },
  {
    id: 'nodes.hot_threads',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/hot_threads' },
    params: ['interval', 'snapshots', 'threads', 'ignore_idle_threads', 'type', 'sort', 'timeout', 'master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_nodes/hot_threads' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/hot_threads' },
      // OpenSearch 2's deprecated spellings under `_cluster/nodes` (RestNodesHotThreadsAction), gone from Elasticsearch 8
      { methods: ['GET'], pattern: '/_cluster/nodes/hot_threads' },
      { methods: ['GET'], pattern: '/_cluster/nodes/hotthreads' },
      { methods: ['GET'], pattern: '/_cluster/nodes/{node_id}/hot_threads' },
      { methods: ['GET'], pattern: '/_cluster/nodes/{node_id}/hotthreads' },
    ],
  },
  {
    id: 'nodes.stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/stats', perIndexLevel: 'manage' },
    params: ['completion_fields', 'fielddata_fields', 'fields', 'groups', 'include_segment_file_sizes', 'include_unloaded_segments', 'level', 'timeout', 'types'],
    paths: [
      { methods: ['GET'], pattern: '/_nodes/stats' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/stats' },
      { methods: ['GET'], pattern: '/_nodes/stats/{metric}' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/stats/{metric}' },
      { methods: ['GET'], pattern: '/_nodes/stats/{metric}/{index_metric}' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/stats/{metric}/{index_metric}' },
    ],
  },
  {
    id: 'search_shards',
    auth: { category: 'search', operation: 'read', action: 'indices:admin/shards/search_shards', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable', 'local', 'preference', 'routing', 'master_timeout'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_search_shards' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_search_shards' },
    ],
  },
  {
    id: 'indices.segments',
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/segments', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable', 'verbose'],
    paths: [
      { methods: ['GET'], pattern: '/_segments' },
      { methods: ['GET'], pattern: '/{index}/_segments' },
    ],
  },
  {
    id: 'indices.recovery',
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/recovery', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable', 'active_only', 'detailed'],
    paths: [
      { methods: ['GET'], pattern: '/_recovery' },
      { methods: ['GET'], pattern: '/{index}/_recovery' },
    ],
  },
  {
    id: 'indices.shard_stores',
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/shard_stores', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable', 'status'],
    paths: [
      { methods: ['GET'], pattern: '/_shard_stores' },
      { methods: ['GET'], pattern: '/{index}/_shard_stores' },
    ],
  },
  {
    id: 'indices.get_upgrade',
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/upgrade', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable'],
    paths: [
      { methods: ['GET'], pattern: '/_upgrade' },
      { methods: ['GET'], pattern: '/{index}/_upgrade' },
    ],
  },
  {
    id: 'indices.upgrade',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/upgrade', every: 0 },
    params: ['allow_no_indices', 'expand_wildcards', 'ignore_unavailable', 'wait_for_completion', 'only_ancient_segments'],
    paths: [
      { methods: ['POST'], pattern: '/_upgrade' },
      { methods: ['POST'], pattern: '/{index}/_upgrade' },
    ],
  },
  {
    id: 'indices.create',
    auth: { category: 'indices', action: 'indices:admin/create', creates: ['index'], body: 'index_creation' },
    params: RESIZE_PARAMS,
    paths: [
      { methods: ['PUT'], pattern: '/{index}' },
    ],
  },
  {
    id: 'indices.get',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/get' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings', 'include_defaults', 'local', 'master_timeout', 'features'],
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/{index}' },
    ],
  },
  {
    id: 'indices.delete',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/delete' },
    params: INDICES_TIMEOUT_PARAMS,
    paths: [
      { methods: ['DELETE'], pattern: '/{index}' },
    ],
  },
  {
    id: 'indices.get_mapping',
    bodyless: true,
    // without an index in the path, the `index` parameter names them (RestGetMappingAction reads request.param("index"))
    auth: { category: 'indices', action: 'indices:admin/mappings/get', every: 0, indexParam: true },
    params: INDICES_LOCAL_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_mapping', params: [...INDICES_LOCAL_PARAMS, 'index'] },
      { methods: ['GET'], pattern: '/{index}/_mapping' },
      // Elasticsearch's own routes take the plural as well (RestGetMappingAction)
      { methods: ['GET'], pattern: '/_mappings', params: [...INDICES_LOCAL_PARAMS, 'index'] },
      { methods: ['GET'], pattern: '/{index}/_mappings' },
    ],
  },
  {
    id: 'indices.get_field_mapping',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/mappings/fields/get', every: 0 },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local', 'include_defaults'],
    paths: [
      { methods: ['GET'], pattern: '/_mapping/field/{fields}' },
      { methods: ['GET'], pattern: '/{index}/_mapping/field/{fields}' },
    ],
  },
  {
    id: 'indices.put_mapping',
    auth: { category: 'indices', action: 'indices:admin/mapping/put' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'timeout', 'master_timeout', 'write_index_only'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_mapping' },
      { methods: ['PUT', 'POST'], pattern: '/{index}/_mappings' },
    ],
  },
  {
    id: 'indices.get_settings',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:monitor/settings/get', every: 0 },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings', 'include_defaults', 'local', 'master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_settings' },
      { methods: ['GET'], pattern: '/{index}/_settings' },
      { methods: ['GET'], pattern: '/_settings/{name}' },
      { methods: ['GET'], pattern: '/{index}/_settings/{name}' },
    ],
  },
  {
    id: 'indices.put_settings',
    auth: { category: 'indices', action: 'indices:admin/settings/update', every: 0, body: 'settings' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'timeout', 'master_timeout', 'preserve_existing', 'flat_settings', 'reopen'],
    paths: [
      { methods: ['PUT'], pattern: '/_settings' },
      { methods: ['PUT'], pattern: '/{index}/_settings' },
    ],
  },
  {
    id: 'indices.add_block',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/block/add' },
    params: INDICES_TIMEOUT_PARAMS,
    paths: [
      { methods: ['PUT'], pattern: '/{index}/_block/{block}' },
    ],
  },
  {
    id: 'indices.remove_block',
    auth: { category: 'indices', operation: 'delete', action: 'indices:admin/block/add' },
    params: INDICES_TIMEOUT_PARAMS,
    paths: [
      { methods: ['DELETE'], pattern: '/{index}/_block/{block}' },
    ],
  },
  {
    id: 'indices.close',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/close' },
    params: INDICES_OPEN_CLOSE_PARAMS,
    paths: [
      { methods: ['POST'], pattern: '/{index}/_close' },
    ],
  },
  {
    id: 'indices.open',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/open' },
    // OpenSearch 2.7's `wait_for_completion=false` (and its task's `task_execution_timeout`): the answer is a task
    params: [...INDICES_OPEN_CLOSE_PARAMS, 'wait_for_completion', 'task_execution_timeout'],
    paths: [
      { methods: ['POST'], pattern: '/{index}/_open' },
    ],
  },
  {
    id: 'indices.refresh',
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/refresh', every: 0 },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_refresh' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_refresh' },
    ],
  },
  {
    id: 'indices.flush',
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/flush', every: 0 },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'force', 'wait_if_ongoing'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_flush' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_flush' },
    ],
  },
  {
    id: 'indices.forcemerge',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/forcemerge', every: 0 },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flush', 'max_num_segments', 'only_expunge_deletes', 'wait_for_completion', 'primary_only'],
    paths: [
      { methods: ['POST'], pattern: '/_forcemerge' },
      { methods: ['POST'], pattern: '/{index}/_forcemerge' },
    ],
  },
  {
    id: 'indices.clear_cache',
    // without an index: every index's caches, which a scoped credential may not clear (as `_forcemerge`)
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/cache/clear', every: 0, indexParam: true },
    paths: [
      // `file`: OpenSearch's file cache (of searchable snapshots), which the engine has none of
      { methods: ['POST'], pattern: '/_cache/clear', params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'fielddata', 'fields', 'query', 'request', 'index', 'file'] },
      { methods: ['POST'], pattern: '/{index}/_cache/clear', params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'fielddata', 'fields', 'query', 'request', 'file'] },
    ],
  },
  {
    id: 'index',
    auth: { category: 'docs', action: 'indices:data/write/index', id: 'id' },
    params: ['if_seq_no', 'if_primary_term', 'pipeline', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'wait_for_active_shards', 'require_alias', 'require_data_stream', 'op_type'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_doc/{id}' },
      { methods: ['POST'], pattern: '/{index}/_doc' },
    ],
  },
  {
    id: 'create',
    auth: { category: 'docs', operation: 'write', action: 'indices:data/write/index', id: 'id' },
    params: ['if_seq_no', 'if_primary_term', 'pipeline', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'wait_for_active_shards', 'require_alias', 'require_data_stream'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_create/{id}' },
    ],
  },
  {
    id: 'get',
    bodyless: true,
    auth: { category: 'docs', action: 'indices:data/read/get', id: 'id', streams: 'GET' },
    params: DOC_READ_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/{index}/_doc/{id}' },
    ],
  },
  {
    id: 'delete',
    bodyless: true,
    auth: { category: 'docs', action: 'indices:data/write/delete', id: 'id' },
    params: ['if_seq_no', 'if_primary_term', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'wait_for_active_shards', 'require_alias', 'require_data_stream'],
    paths: [
      { methods: ['DELETE'], pattern: '/{index}/_doc/{id}' },
    ],
  },
  {
    id: 'get_source',
    bodyless: true,
    auth: { category: 'docs', operation: 'read', action: 'indices:data/read/get', id: 'id' },
    params: DOC_READ_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/{index}/_source/{id}' },
    ],
  },
  {
    id: 'update',
    auth: { category: 'docs', operation: 'write', action: 'indices:data/write/update', id: 'id' },
    params: ['if_seq_no', 'if_primary_term', 'lang', 'refresh', 'require_alias', 'retry_on_conflict', 'routing', 'timeout', 'wait_for_active_shards', '_source', '_source_excludes', '_source_includes'],
    paths: [
      { methods: ['POST'], pattern: '/{index}/_update/{id}' },
    ],
  },
  {
    id: 'mget',
    auth: { category: 'docs', operation: 'read', action: 'indices:data/read/mget', body: 'docs', itemsDefault: true },
    params: DOC_READ_PARAMS,
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_mget' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_mget' },
    ],
  },
  {
    id: 'bulk',
    auth: { category: 'docs', action: 'indices:data/write/bulk', body: 'bulk', bodyPerIndex: true, itemsDefault: true },
    params: ['pipeline', 'refresh', 'routing', 'timeout', 'wait_for_active_shards', 'require_alias', 'require_data_stream', '_source', '_source_excludes', '_source_includes', 'list_executed_pipelines'],
    paths: [
      { methods: ['POST', 'PUT'], pattern: '/_bulk' },
      { methods: ['POST', 'PUT'], pattern: '/{index}/_bulk' },
    ],
  },
  {
    // OpenSearch 2.17's streaming bulk: a bulk whose items are answered by batches (`batch_size` chunks
    // of the body, or what `batch_interval` gathers); authorized and applied as `_bulk`
    id: 'opensearch.bulk_stream',
    auth: { category: 'docs', action: 'indices:data/write/bulk', body: 'bulk', bodyPerIndex: true, itemsDefault: true },
    params: ['pipeline', 'refresh', 'routing', 'timeout', 'wait_for_active_shards', 'require_alias', '_source', '_source_excludes', '_source_includes', 'batch_interval', 'batch_size'],
    paths: [
      { methods: ['POST', 'PUT'], pattern: '/_bulk/stream' },
      { methods: ['POST', 'PUT'], pattern: '/{index}/_bulk/stream' },
    ],
  },
  {
    id: 'search',
    auth: SEARCH,
    params: [...SEARCH_PARAMS, 'cancel_after_time_interval', 'phase_took', 'search_pipeline'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_search' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_search' },
    ],
  },
  {
    id: 'count',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/search', every: 0, body: 'search' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'min_score', 'preference', 'routing', 'q', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'terminate_after', 'ignore_throttled'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_count' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_count' },
    ],
  },
  {
    id: 'scroll',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/scroll' },
    params: ['scroll', 'scroll_id', 'rest_total_hits_as_int'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_search/scroll' },
      { methods: ['GET', 'POST'], pattern: '/_search/scroll/{scroll_id}' },
    ],
  },
  {
    id: 'clear_scroll',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/scroll/clear' },
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_search/scroll' },
      { methods: ['DELETE'], pattern: '/_search/scroll/{scroll_id}' },
    ],
  },
  {
    id: 'msearch',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/msearch', body: 'msearch' },
    // OpenSearch's RestMultiSearchAction also reads `cancel_after_time_interval`, for each search whose header names none
    params: [...MSEARCH_PARAMS, 'cancel_after_time_interval'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_msearch' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_msearch' },
    ],
  },
  {
    id: 'indices.put_alias',
    // the body may name the indices and the alias (`index`, `alias`), replacing the path's: the forms without them in the path are OpenSearch's (and Elasticsearch 7's)
    auth: { category: 'indices', action: 'indices:admin/aliases', names: { name: true }, single: ['name'], body: 'alias_body' },
    params: ['timeout', 'master_timeout'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/{index}/_alias/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/{index}/_aliases/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/{index}/_alias' },
      { methods: ['PUT', 'POST'], pattern: '/{index}/_aliases' },
      { methods: ['PUT', 'POST'], pattern: '/_alias/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_aliases/{name}' },
      { methods: ['PUT'], pattern: '/_alias' },
    ],
  },
  {
    id: 'indices.delete_alias',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/aliases', names: { name: true } },
    params: ['timeout', 'master_timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/{index}/_alias/{name}' },
      { methods: ['DELETE'], pattern: '/{index}/_aliases/{name}' },
    ],
  },
  {
    id: 'indices.get_alias',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/aliases/get', names: { name: true }, every: 0 },
    params: INDICES_LOCAL_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/_alias' },
      { methods: ['GET', 'HEAD'], pattern: '/_alias/{name}' },
      { methods: ['GET', 'HEAD'], pattern: '/{index}/_alias' },
      { methods: ['GET', 'HEAD'], pattern: '/{index}/_alias/{name}' },
    ],
  },
  {
    id: 'indices.update_aliases',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/aliases', body: 'alias_actions', bodyPerIndex: true },
    params: ['timeout', 'master_timeout'],
    paths: [
      { methods: ['POST'], pattern: '/_aliases' },
    ],
  },
  {
    id: 'indices.analyze',
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/analyze' },
    params: ['index', 'text', 'analyzer', 'tokenizer', 'filter', 'char_filter', 'normalizer', 'field', 'explain', 'attributes'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_analyze' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_analyze' },
    ],
  },
  {
    id: 'delete_by_query',
    auth: { category: 'docs', operation: 'delete', action: 'indices:data/write/delete/byquery', body: 'search' },
    params: BY_QUERY_PARAMS,
    paths: [
      { methods: ['POST'], pattern: '/{index}/_delete_by_query' },
    ],
  },
  {
    id: 'update_by_query',
    auth: { category: 'docs', operation: 'write', action: 'indices:data/write/update/byquery', body: 'search' },
    params: BY_QUERY_PARAMS,
    paths: [
      { methods: ['POST'], pattern: '/{index}/_update_by_query' },
    ],
  },
  {
    id: 'indices.validate_query',
    auth: { category: 'search', operation: 'read', action: 'indices:admin/validate/query', every: 0, body: 'search' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'explain', 'rewrite', 'all_shards', 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_validate/query' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_validate/query' },
    ],
  },
  {
    id: 'explain',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/explain', id: 'id', body: 'search' },
    params: ['q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'stored_fields', '_source', '_source_includes', '_source_excludes'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_explain/{id}' },
    ],
  },
  {
    id: 'field_caps',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/field_caps', every: 0, body: 'search' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'fields', 'include_unmapped', 'filters', 'types', 'include_empty_fields'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_field_caps' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_field_caps' },
    ],
  },
  {
    id: 'termvectors',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/tv', id: 'id', body: 'termvectors' },
    params: ['fields', 'field_statistics', 'offsets', 'payloads', 'positions', 'preference', 'realtime', 'routing', 'term_statistics', 'version', 'version_type'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_termvectors/{id}' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_termvectors' },
    ],
  },
  {
    id: 'mtermvectors',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/mtv', body: 'docs', itemsDefault: true },
    params: ['fields', 'field_statistics', 'offsets', 'payloads', 'positions', 'preference', 'realtime', 'routing', 'term_statistics', 'version', 'version_type', 'ids'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_mtermvectors' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_mtermvectors' },
    ],
  },
  {
    id: 'indices.put_index_template',
    auth: { ...INDEX_TEMPLATES, body: 'index_template' },
    params: ['master_timeout', 'timeout', 'create', 'cause'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_index_template/{name}' },
    ],
  },
  {
    id: 'indices.get_index_template',
    bodyless: true,
    auth: INDEX_TEMPLATES,
    params: TEMPLATE_GET_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/_index_template/{name}' },
      { methods: ['GET'], pattern: '/_index_template' },
    ],
  },
  {
    id: 'indices.delete_index_template',
    bodyless: true,
    auth: INDEX_TEMPLATES,
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_index_template/{name}' },
    ],
  },
  {
    id: 'cluster.put_component_template',
    auth: { ...COMPONENT_TEMPLATES, body: 'index_template' },
    params: ['master_timeout', 'timeout', 'create'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_component_template/{name}' },
    ],
  },
  {
    id: 'cluster.get_component_template',
    bodyless: true,
    auth: COMPONENT_TEMPLATES,
    params: TEMPLATE_GET_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/_component_template/{name}' },
      { methods: ['GET'], pattern: '/_component_template' },
    ],
  },
  {
    id: 'cluster.delete_component_template',
    bodyless: true,
    auth: COMPONENT_TEMPLATES,
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_component_template/{name}' },
    ],
  },
  {
    id: 'indices.put_template',
    auth: { ...LEGACY_TEMPLATES, body: 'index_template' },
    params: ['master_timeout', 'timeout', 'create', 'order', 'cause'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_template/{name}' },
    ],
  },
  {
    id: 'indices.get_template',
    bodyless: true,
    auth: LEGACY_TEMPLATES,
    params: TEMPLATE_GET_PARAMS,
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/_template/{name}' },
      { methods: ['GET'], pattern: '/_template' },
    ],
  },
  {
    id: 'indices.delete_template',
    bodyless: true,
    auth: LEGACY_TEMPLATES,
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_template/{name}' },
    ],
  },
  {
    id: 'indices.stats',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/stats', every: 0 },
    params: ['completion_fields', 'fielddata_fields', 'fields', 'groups', 'level', 'types', 'include_segment_file_sizes', 'include_unloaded_segments', 'expand_wildcards', 'forbid_closed_indices', 'ignore_unavailable', 'allow_no_indices'],
    paths: [
      { methods: ['GET'], pattern: '/_stats' },
      { methods: ['GET'], pattern: '/_stats/{metric}' },
      { methods: ['GET'], pattern: '/{index}/_stats' },
      { methods: ['GET'], pattern: '/{index}/_stats/{metric}' },
    ],
  },
  {
    id: 'indices.resolve_index',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/resolve/index', index: 'name' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'mode'],
    paths: [
      { methods: ['GET'], pattern: '/_resolve/index/{name}' },
    ],
  },
  {
    id: 'synonyms.get_synonyms_sets',
    bodyless: true,
    auth: SYNONYMS,
    params: ['from', 'size'],
    paths: [
      { methods: ['GET'], pattern: '/_synonyms' },
    ],
  },
  {
    id: 'synonyms.put_synonym',
    auth: SYNONYMS,
    params: [],
    paths: [
      { methods: ['PUT'], pattern: '/_synonyms/{set}' },
    ],
  },
  {
    id: 'synonyms.get_synonym',
    bodyless: true,
    auth: SYNONYMS,
    params: ['from', 'size'],
    paths: [
      { methods: ['GET'], pattern: '/_synonyms/{set}' },
    ],
  },
  {
    id: 'synonyms.delete_synonym',
    bodyless: true,
    auth: SYNONYMS,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_synonyms/{set}' },
    ],
  },
  {
    id: 'synonyms.put_synonym_rule',
    auth: SYNONYMS,
    params: [],
    paths: [
      { methods: ['PUT'], pattern: '/_synonyms/{set}/{rule}' },
    ],
  },
  {
    id: 'synonyms.get_synonym_rule',
    bodyless: true,
    auth: SYNONYMS,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_synonyms/{set}/{rule}' },
    ],
  },
  {
    id: 'synonyms.delete_synonym_rule',
    bodyless: true,
    auth: SYNONYMS,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_synonyms/{set}/{rule}' },
    ],
  },
  {
    id: 'indices.reload_search_analyzers',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/reload_analyzers' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'resource'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_reload_search_analyzers' },
    ],
  },
  {
    id: 'query_rules.list_rulesets',
    bodyless: true,
    auth: QUERY_RULES,
    params: ['from', 'size'],
    paths: [
      { methods: ['GET'], pattern: '/_query_rules' },
    ],
  },
  {
    id: 'query_rules.put_ruleset',
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['PUT'], pattern: '/_query_rules/{ruleset_id}' },
    ],
  },
  {
    id: 'query_rules.get_ruleset',
    bodyless: true,
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_query_rules/{ruleset_id}' },
    ],
  },
  {
    id: 'query_rules.delete_ruleset',
    bodyless: true,
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_query_rules/{ruleset_id}' },
    ],
  },
  {
    id: 'query_rules.put_rule',
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['PUT'], pattern: '/_query_rules/{ruleset_id}/_rule/{rule_id}' },
    ],
  },
  {
    id: 'query_rules.get_rule',
    bodyless: true,
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_query_rules/{ruleset_id}/_rule/{rule_id}' },
    ],
  },
  {
    id: 'query_rules.delete_rule',
    bodyless: true,
    auth: QUERY_RULES,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_query_rules/{ruleset_id}/_rule/{rule_id}' },
    ],
  },
  {
    id: 'query_rules.test',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/xpack/query_rules/test', privilege: 'manage_search_query_rules' },
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_query_rules/{ruleset_id}/_test' },
    ],
  },
  {
    id: 'put_script',
    auth: SCRIPTS,
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_scripts/{id}', params: ['master_timeout', 'timeout', 'context'] },
      { methods: ['PUT', 'POST'], pattern: '/_scripts/{id}/{context}', params: ['master_timeout', 'timeout'] },
    ],
  },
  {
    id: 'get_script',
    bodyless: true,
    auth: SCRIPTS,
    params: ['master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_scripts/{id}' },
    ],
  },
  {
    id: 'delete_script',
    bodyless: true,
    auth: SCRIPTS,
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_scripts/{id}' },
    ],
  },
  {
    id: 'get_script_context',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/script_context/get' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_script_context' },
    ],
  },
  {
    // Painless's contexts (Elasticsearch's and OpenSearch's painless module): their names, or one's API
    id: 'scripts_painless_context',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/scripts/painless/context' },
    params: ['context'],
    paths: [
      { methods: ['GET'], pattern: '/_scripts/painless/_context' },
    ],
  },
  {
    id: 'get_script_languages',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/script_language/get' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_script_language' },
    ],
  },
  {
    id: 'search_template',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/search/template', every: 0, body: 'search_template' },
    // OpenSearch's RestSearchTemplateAction reads the search's parameters as _search does, its own two included
    params: [...SEARCH_PARAMS, 'cancel_after_time_interval', 'phase_took'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_search/template' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_search/template' },
    ],
  },
  {
    id: 'render_search_template',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/search/template', body: 'search_template' },
    params: [],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_render/template' },
      { methods: ['GET', 'POST'], pattern: '/_render/template/{id}' },
    ],
  },
  {
    id: 'msearch_template',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/msearch/template', body: 'msearch_template' },
    params: MSEARCH_PARAMS,
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_msearch/template' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_msearch/template' },
    ],
  },
  {
    id: 'rank_eval',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/rank_eval', every: 0, body: 'search' },
    params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'search_type'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_rank_eval' },
      { methods: ['GET', 'POST'], pattern: '/{index}/_rank_eval' },
    ],
  },
  {
    id: 'scripts_painless_execute',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/scripts/painless/execute', body: 'painless_context' },
    params: [],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_scripts/painless/_execute' },
    ],
  },
  {
    id: 'open_point_in_time',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/open_point_in_time', body: 'search' },
    params: ['keep_alive', 'routing', 'preference', 'allow_partial_search_results', 'max_concurrent_shard_requests', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
    paths: [
      { methods: ['POST'], pattern: '/{index}/_pit' },
    ],
  },
  {
    id: 'close_point_in_time',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/close_point_in_time', body: 'close_pit' },
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_pit' },
    ],
  },
  {
    id: 'opensearch.create_pit',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/search', body: 'search', pointInTime: true, streams: 'any' },
    params: ['keep_alive', 'routing', 'preference', 'allow_partial_pit_creation', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
    paths: [
      { methods: ['POST'], pattern: '/{index}/_search/point_in_time' },
    ],
  },
  {
    id: 'opensearch.get_all_pits',
    auth: ALL_POINTS_IN_TIME,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_search/point_in_time/_all' },
    ],
  },
  {
    id: 'opensearch.delete_all_pits',
    auth: ALL_POINTS_IN_TIME,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_search/point_in_time/_all' },
    ],
  },
  {
    id: 'opensearch.delete_pit',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/point_in_time/delete', body: 'pit_ids' },
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_search/point_in_time' },
    ],
  },
  {
    id: 'opensearch.cat_pit_segments',
    auth: { category: 'search', operation: 'read', action: 'indices:monitor/point_in_time/segments', body: 'pit_ids' },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/pit_segments' },
    ],
  },
  {
    // OpenSearch 2's segment replication events of each replica shard
    id: 'opensearch.cat_segment_replication',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/segment_replication', every: 2 },
    params: [...CAT_PARAMS, 'active_only', 'completed_only', 'detailed', 'shards', 'timeout', 'allow_no_indices', 'expand_wildcards', 'ignore_throttled', 'ignore_unavailable', 'index'],
    paths: [
      { methods: ['GET'], pattern: '/_cat/segment_replication' },
      { methods: ['GET'], pattern: '/_cat/segment_replication/{index}' },
    ],
  },
  {
    // OpenSearch 2's name of `_cat/master`: the same table
    id: 'opensearch.cat_cluster_manager',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/state'),
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/cluster_manager' },
    ],
  },
  {
    // OpenSearch 2.18's `_list` APIs: `_cat/indices` and `_cat/shards` in pages (`next_token`, `size`, `sort`)
    id: 'opensearch.list_help',
    bodyless: true,
    auth: CAT_CLUSTER('cluster:monitor/state'),
    params: ['help', 's'],
    paths: [
      { methods: ['GET'], pattern: '/_list' },
    ],
  },
  {
    id: 'opensearch.list_indices',
    bodyless: true,
    auth: CAT_INDEX_STATS,
    params: [...CAT_INDICES_PARAMS, ...LIST_PARAMS],
    paths: [
      { methods: ['GET'], pattern: '/_list/indices' },
      { methods: ['GET'], pattern: '/_list/indices/{index}' },
    ],
  },
  {
    id: 'opensearch.list_shards',
    bodyless: true,
    auth: CAT_INDEX_STATS,
    params: [...CAT_SHARD_PARAMS, ...LIST_PARAMS],
    paths: [
      { methods: ['GET'], pattern: '/_list/shards' },
      { methods: ['GET'], pattern: '/_list/shards/{index}' },
    ],
  },
  {
    id: 'opensearch.cat_all_pit_segments',
    auth: { ...ALL_POINTS_IN_TIME, action: 'indices:monitor/point_in_time/segments' },
    params: CAT_PARAMS,
    paths: [
      { methods: ['GET'], pattern: '/_cat/pit_segments/_all' },
    ],
  },
  {
    // the k-NN plugin's stats: its cluster's and each node's (indices_in_cache names every tenant's indices: manage)
    id: 'opensearch.knn_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/knn_stats_action', privilege: 'manage' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_knn/stats' },
      { methods: ['GET'], pattern: '/_plugins/_knn/stats/{stat}' },
      { methods: ['GET'], pattern: '/_plugins/_knn/{node_id}/stats' },
      { methods: ['GET'], pattern: '/_plugins/_knn/{node_id}/stats/{stat}' },
    ],
  },
  {
    // the k-NN plugin's warmup: loads the named indices' graphs (a read of those indices)
    id: 'opensearch.knn_warmup',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/knn_warmup' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_knn/warmup/{index}' },
    ],
  },
  {
    // the notifications plugin's channel types (none here: no channel can be made)
    id: 'opensearch.notifications_features',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/notifications/features' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_notifications/features' },
    ],
  },
  {
    // the notifications plugin's channels, which other plugins send through (none: no channel can be made)
    id: 'opensearch.notifications_channels',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/notifications/channels/get' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_notifications/channels' },
    ],
  },
  {
    // the index-management plugin's rollup and transform jobs: they would read their source and write their target index, whichever tenant's (manage)
    id: 'opensearch.rollup_put',
    auth: { ...INDEX_MANAGEMENT_JOB('rollup'), body: 'management_job' },
    params: ['if_seq_no', 'if_primary_term'],
    paths: [
      { methods: ['PUT'], pattern: '/_plugins/_rollup/jobs/{id}' },
    ],
  },
  {
    id: 'opensearch.rollup_get',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('rollup'),
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_rollup/jobs/{id}' },
    ],
  },
  {
    id: 'opensearch.rollup_delete',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('rollup'),
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_plugins/_rollup/jobs/{id}' },
    ],
  },
  {
    id: 'opensearch.rollup_start',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('rollup'),
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_rollup/jobs/{id}/_start' },
    ],
  },
  {
    id: 'opensearch.rollup_stop',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('rollup'),
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_rollup/jobs/{id}/_stop' },
    ],
  },
  {
    id: 'opensearch.rollup_explain',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('rollup'),
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_rollup/jobs/{id}/_explain' },
    ],
  },
  {
    id: 'opensearch.transform_put',
    auth: { ...INDEX_MANAGEMENT_JOB('transform'), body: 'management_job' },
    params: ['if_seq_no', 'if_primary_term'],
    paths: [
      { methods: ['PUT'], pattern: '/_plugins/_transform/{id}' },
    ],
  },
  {
    id: 'opensearch.transform_get',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_transform/{id}' },
    ],
  },
  {
    // a preview reads the source index its body names: only an admin-equivalent credential may name any;
    // the plugin (RestPreviewTransformAction) previews on POST to the base path too, and on no GET
    id: 'opensearch.transform_preview',
    auth: { ...INDEX_MANAGEMENT_JOB('transform'), action: 'cluster:admin/opendistro/transform/preview', body: 'management_job' },
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_transform/_preview' },
      { methods: ['POST'], pattern: '/_plugins/_transform' },
    ],
  },
  {
    id: 'opensearch.transform_list',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: ['from', 'size', 'search', 'sortField', 'sortDirection'],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_transform' },
    ],
  },
  {
    id: 'opensearch.transform_delete',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: ['force'],
    paths: [
      { methods: ['DELETE'], pattern: '/_plugins/_transform/{id}' },
    ],
  },
  {
    id: 'opensearch.transform_start',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_transform/{id}/_start' },
    ],
  },
  {
    id: 'opensearch.transform_stop',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_transform/{id}/_stop' },
    ],
  },
  {
    id: 'opensearch.transform_explain',
    bodyless: true,
    auth: INDEX_MANAGEMENT_JOB('transform'),
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_transform/{id}/_explain' },
    ],
  },
  {
    // the Learning to Rank plugin's feature stores and what they hold: cluster-level configuration every tenant shares (reading too: manage)
    id: 'opensearch.ltr_put_store',
    auth: LTR_STORES,
    params: [],
    paths: [
      { methods: ['PUT'], pattern: '/_ltr' },
      { methods: ['PUT'], pattern: '/_ltr/{store}' },
    ],
  },
  {
    id: 'opensearch.ltr_get_stores',
    bodyless: true,
    auth: LTR_STORES,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_ltr' },
      { methods: ['GET'], pattern: '/_ltr/{store}' },
    ],
  },
  {
    id: 'opensearch.ltr_delete_store',
    bodyless: true,
    auth: LTR_STORES,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_ltr' },
      { methods: ['DELETE'], pattern: '/_ltr/{store}' },
    ],
  },
  {
    id: 'opensearch.ltr_list_elements',
    bodyless: true,
    auth: LTR_DATA,
    params: ['prefix', 'from', 'size'],
    paths: [
      { methods: ['GET'], pattern: '/_ltr/_feature' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_feature' },
      { methods: ['GET'], pattern: '/_ltr/_featureset' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_featureset' },
      { methods: ['GET'], pattern: '/_ltr/_model' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_model' },
    ],
  },
  {
    id: 'opensearch.ltr_get_element',
    bodyless: true,
    auth: LTR_DATA,
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_ltr/_feature/{name}' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_feature/{name}' },
      { methods: ['GET'], pattern: '/_ltr/_featureset/{name}' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_featureset/{name}' },
      { methods: ['GET'], pattern: '/_ltr/_model/{name}' },
      { methods: ['GET'], pattern: '/_ltr/{store}/_model/{name}' },
    ],
  },
  {
    id: 'opensearch.ltr_put_element',
    auth: LTR_DATA,
    params: ['routing'],
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_ltr/_feature/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_ltr/{store}/_feature/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_ltr/_featureset/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_ltr/{store}/_featureset/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_ltr/_model/{name}' },
      { methods: ['PUT', 'POST'], pattern: '/_ltr/{store}/_model/{name}' },
    ],
  },
  {
    id: 'opensearch.ltr_delete_element',
    bodyless: true,
    auth: LTR_DATA,
    params: ['routing'],
    paths: [
      { methods: ['DELETE'], pattern: '/_ltr/_feature/{name}' },
      { methods: ['DELETE'], pattern: '/_ltr/{store}/_feature/{name}' },
      { methods: ['DELETE'], pattern: '/_ltr/_featureset/{name}' },
      { methods: ['DELETE'], pattern: '/_ltr/{store}/_featureset/{name}' },
      { methods: ['DELETE'], pattern: '/_ltr/_model/{name}' },
      { methods: ['DELETE'], pattern: '/_ltr/{store}/_model/{name}' },
    ],
  },
  {
    id: 'opensearch.ltr_add_features',
    auth: { ...LTR_DATA, action: 'cluster:admin/ltr/store/add-features-to-set' },
    params: ['merge', 'routing'],
    paths: [
      { methods: ['POST'], pattern: '/_ltr/_featureset/{name}/_addfeatures' },
      { methods: ['POST'], pattern: '/_ltr/{store}/_featureset/{name}/_addfeatures' },
      { methods: ['POST'], pattern: '/_ltr/_featureset/{name}/_addfeatures/{query}' },
      { methods: ['POST'], pattern: '/_ltr/{store}/_featureset/{name}/_addfeatures/{query}' },
    ],
  },
  {
    id: 'opensearch.ltr_create_model',
    auth: { ...LTR_DATA, action: 'cluster:admin/ltr/store/create-model-from-set' },
    params: ['routing'],
    paths: [
      { methods: ['POST'], pattern: '/_ltr/_featureset/{name}/_createmodel' },
      { methods: ['POST'], pattern: '/_ltr/{store}/_featureset/{name}/_createmodel' },
    ],
  },
  {
    // the plugin's caches (empty here: no model runs) and counters: cluster reads; clearing a store's cache, a change of it
    id: 'opensearch.ltr_cache_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/ltr/caches/stats' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_ltr/_cachestats' },
    ],
  },
  {
    id: 'opensearch.ltr_clear_cache',
    bodyless: true,
    auth: { ...LTR_DATA, action: 'cluster:admin/ltr/caches' },
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_ltr/_clearcache' },
      { methods: ['POST'], pattern: '/_ltr/{store}/_clearcache' },
    ],
  },
  {
    id: 'opensearch.ltr_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/ltr/stats' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_ltr/stats' },
      { methods: ['GET'], pattern: '/_plugins/_ltr/stats/{stat}' },
      { methods: ['GET'], pattern: '/_plugins/_ltr/{node_id}/stats' },
      { methods: ['GET'], pattern: '/_plugins/_ltr/{node_id}/stats/{stat}' },
    ],
  },
  {
    // the asynchronous search plugin's submit: a search of the indices `index=` names (every index when none, which cannot be narrowed)
    id: 'opensearch.asynchronous_search_submit',
    auth: { ...ASYNCHRONOUS_SEARCH, action: 'cluster:admin/opendistro/asynchronous_search/submit', indexParam: true, body: 'search' },
    params: [...SEARCH_PARAMS, 'index', 'wait_for_completion_timeout', 'keep_on_completion', 'keep_alive', 'search_pipeline'],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_asynchronous_search' },
    ],
  },
  {
    // a kept result, by id: it holds what its submitter read, so only a credential reading every index reaches it
    id: 'opensearch.asynchronous_search_get',
    bodyless: true,
    auth: { ...ASYNCHRONOUS_SEARCH, action: 'cluster:admin/opendistro/asynchronous_search/get' },
    params: ['keep_alive', 'wait_for_completion_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_asynchronous_search/{id}' },
    ],
  },
  {
    id: 'opensearch.asynchronous_search_delete',
    bodyless: true,
    auth: { ...ASYNCHRONOUS_SEARCH, action: 'cluster:admin/opendistro/asynchronous_search/delete' },
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_plugins/_asynchronous_search/{id}' },
    ],
  },
  {
    // each node's counts of asynchronous searches (no index named)
    id: 'opensearch.asynchronous_search_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opendistro/asynchronous_search/stats' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_asynchronous_search/stats' },
    ],
  },
  {
    // the Index State Management plugin's policies: cluster-level configuration every tenant shares (changing one: manage)
    id: 'opensearch.ism_put_policy',
    auth: ISM_POLICIES,
    params: ['if_seq_no', 'if_primary_term', 'policyID'],
    paths: [
      { methods: ['PUT'], pattern: '/_plugins/_ism/policies/{policy_id}' },
      { methods: ['PUT'], pattern: '/_plugins/_ism/policies' },
    ],
  },
  {
    id: 'opensearch.ism_get_policies',
    bodyless: true,
    auth: ISM_POLICIES,
    params: ['from', 'size', 'sortField', 'sortOrder', 'queryString'],
    paths: [
      { methods: ['GET', 'HEAD'], pattern: '/_plugins/_ism/policies/{policy_id}' },
      { methods: ['GET'], pattern: '/_plugins/_ism/policies' },
    ],
  },
  {
    id: 'opensearch.ism_delete_policy',
    bodyless: true,
    auth: ISM_POLICIES,
    params: [],
    paths: [
      { methods: ['DELETE'], pattern: '/_plugins/_ism/policies/{policy_id}' },
    ],
  },
  {
    // which policy manages an index: a change of the indices named (path or `index=`); naming none is the plugin's 400
    id: 'opensearch.ism_add_policy',
    auth: ISM_MANAGED_INDEX('indices:admin/opendistro/ism/managedindex/add'),
    params: ['index', 'expand_wildcards'],
    paths: ISM_MANAGED_INDEX_PATHS('add'),
  },
  {
    id: 'opensearch.ism_remove_policy',
    auth: ISM_MANAGED_INDEX('indices:admin/opendistro/ism/managedindex/remove'),
    params: ['index', 'expand_wildcards'],
    paths: ISM_MANAGED_INDEX_PATHS('remove'),
  },
  {
    id: 'opensearch.ism_change_policy',
    auth: ISM_MANAGED_INDEX('indices:admin/opendistro/ism/managedindex/change'),
    params: ['index', 'expand_wildcards'],
    paths: ISM_MANAGED_INDEX_PATHS('change_policy'),
  },
  {
    id: 'opensearch.ism_retry',
    auth: ISM_MANAGED_INDEX('indices:admin/opendistro/ism/managedindex/retry'),
    params: ['index', 'expand_wildcards'],
    paths: ISM_MANAGED_INDEX_PATHS('retry'),
  },
  {
    // explain: of the indices named; naming none, of every managed index (every tenant's: strict)
    id: 'opensearch.ism_explain',
    auth: { ...ISM_MANAGED_INDEX('indices:admin/opendistro/ism/managedindex/explain'), operation: 'read' },
    params: ['index', 'expand_wildcards', 'from', 'size', 'sortField', 'sortOrder', 'queryString', 'show_policy', 'validate_action', 'show_applied_policy', 'local', 'cluster_manager_timeout'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_plugins/_ism/explain' },
      { methods: ['GET', 'POST'], pattern: '/_plugins/_ism/explain/{index}' },
    ],
  },
  {
    id: 'opensearch.put_search_pipeline',
    auth: SEARCH_PIPELINES,
    params: ['cluster_manager_timeout', 'master_timeout', 'timeout'],
    paths: [
      { methods: ['PUT'], pattern: '/_search/pipeline/{id}' },
    ],
  },
  {
    id: 'opensearch.get_search_pipeline',
    bodyless: true,
    auth: SEARCH_PIPELINES,
    params: ['cluster_manager_timeout', 'master_timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_search/pipeline' },
      { methods: ['GET'], pattern: '/_search/pipeline/{id}' },
    ],
  },
  {
    id: 'opensearch.delete_search_pipeline',
    bodyless: true,
    auth: SEARCH_PIPELINES,
    params: ['cluster_manager_timeout', 'master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_search/pipeline/{id}' },
    ],
  },
  {
    id: 'ingest.put_pipeline',
    auth: INGEST,
    params: ['master_timeout', 'timeout', 'if_version'],
    paths: [
      { methods: ['PUT'], pattern: '/_ingest/pipeline/{id}' },
    ],
  },
  {
    id: 'ingest.get_pipeline',
    bodyless: true,
    auth: INGEST,
    params: ['master_timeout', 'summary'],
    paths: [
      { methods: ['GET'], pattern: '/_ingest/pipeline' },
      { methods: ['GET'], pattern: '/_ingest/pipeline/{id}' },
    ],
  },
  {
    id: 'ingest.delete_pipeline',
    bodyless: true,
    auth: INGEST,
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_ingest/pipeline/{id}' },
    ],
  },
  {
    id: 'ingest.simulate',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/ingest/pipeline/simulate', privilege: 'manage_pipeline' },
    params: ['verbose'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_ingest/pipeline/_simulate' },
      { methods: ['GET', 'POST'], pattern: '/_ingest/pipeline/{id}/_simulate' },
    ],
  },
  {
    id: 'ingest.processor_grok',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/ingest/processor/grok/get', privilege: 'manage_pipeline' },
    params: ['s', 'ecs_compatibility'],
    paths: [
      { methods: ['GET'], pattern: '/_ingest/processor/grok' },
    ],
  },
  {
    id: 'tasks.list',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/tasks/lists' },
    params: ['nodes', 'actions', 'detailed', 'parent_task_id', 'wait_for_completion', 'group_by', 'timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_tasks' },
    ],
  },
  {
    id: 'tasks.get',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/task/get' },
    params: ['wait_for_completion', 'timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_tasks/{task_id}' },
    ],
  },
  {
    id: 'tasks.cancel',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/tasks/cancel' },
    params: ['nodes', 'actions', 'parent_task_id', 'wait_for_completion', 'group_by'],
    paths: [
      { methods: ['POST'], pattern: '/_tasks/_cancel' },
      { methods: ['POST'], pattern: '/_tasks/{task_id}/_cancel' },
    ],
  },
  {
    id: 'reindex_rethrottle',
    auth: RETHROTTLE,
    params: ['requests_per_second', 'group_by'],
    paths: [
      { methods: ['POST'], pattern: '/_reindex/{task_id}/_rethrottle' },
    ],
  },
  {
    id: 'update_by_query_rethrottle',
    auth: RETHROTTLE,
    params: ['requests_per_second', 'group_by'],
    paths: [
      { methods: ['POST'], pattern: '/_update_by_query/{task_id}/_rethrottle' },
    ],
  },
  {
    id: 'delete_by_query_rethrottle',
    auth: RETHROTTLE,
    params: ['requests_per_second', 'group_by'],
    paths: [
      { methods: ['POST'], pattern: '/_delete_by_query/{task_id}/_rethrottle' },
    ],
  },
  {
    id: 'reindex',
    auth: { category: 'docs', operation: 'write', action: 'indices:data/write/reindex', body: 'reindex', bodyPerIndex: true },
    params: ['refresh', 'timeout', 'wait_for_active_shards', 'wait_for_completion', 'requests_per_second', 'scroll', 'slices', 'max_docs', 'require_alias'],
    paths: [
      { methods: ['POST'], pattern: '/_reindex' },
    ],
  },
  {
    id: 'indices.create_data_stream',
    auth: { category: 'indices', action: 'indices:admin/data_stream/create', names: { name: true }, single: ['name'] },
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['PUT'], pattern: '/_data_stream/{name}' },
    ],
  },
  {
    id: 'indices.get_data_stream',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/data_stream/get', names: { name: true }, every: 'strict' },
    params: ['expand_wildcards', 'include_defaults', 'master_timeout', 'verbose'],
    paths: [
      { methods: ['GET'], pattern: '/_data_stream' },
      { methods: ['GET'], pattern: '/_data_stream/{name}' },
    ],
  },
  {
    id: 'indices.delete_data_stream',
    bodyless: true,
    auth: { category: 'indices', action: 'indices:admin/data_stream/delete', names: { name: true } },
    params: ['expand_wildcards', 'master_timeout'],
    paths: [
      { methods: ['DELETE'], pattern: '/_data_stream/{name}' },
    ],
  },
  {
    id: 'indices.data_streams_stats',
    bodyless: true,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/data_stream/stats', names: { name: true }, every: 'strict' },
    params: ['expand_wildcards'],
    paths: [
      { methods: ['GET'], pattern: '/_data_stream/_stats' },
      { methods: ['GET'], pattern: '/_data_stream/{name}/_stats' },
    ],
  },
  {
    id: 'indices.modify_data_stream',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/data_stream/modify', every: 'strict' },
    params: ['master_timeout', 'timeout'],
    paths: [
      { methods: ['POST'], pattern: '/_data_stream/_modify' },
    ],
  },
  {
    id: 'indices.rollover',
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/rollover', sourceOperation: 'write', names: { new_index: 'write' }, creates: ['new_index'], body: 'index_creation', bodyPerIndex: true },
    params: ['dry_run', 'lazy', 'master_timeout', 'timeout', 'wait_for_active_shards'],
    paths: [
      { methods: ['POST'], pattern: '/{index}/_rollover' },
      { methods: ['POST'], pattern: '/{index}/_rollover/{new_index}' },
    ],
  },
  // Elasticsearch's APIs the embedded engine does not implement (see SNAPSHOTS)
  {
    id: 'snapshot.get_repository',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/repository/get', { operation: 'read' }),
    paths: [
      { methods: ['GET'], pattern: '/_snapshot' },
      { methods: ['GET'], pattern: '/_snapshot/{repository}' },
    ],
  },
  {
    id: 'snapshot.create_repository',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/repository/put', { operation: 'write' }),
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_snapshot/{repository}' },
    ],
  },
  {
    id: 'snapshot.delete_repository',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/repository/delete', { operation: 'delete' }),
    paths: [
      { methods: ['DELETE'], pattern: '/_snapshot/{repository}' },
    ],
  },
  {
    id: 'snapshot.verify_repository',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/repository/verify', { operation: 'read' }),
    paths: [
      { methods: ['POST'], pattern: '/_snapshot/{repository}/_verify' },
    ],
  },
  {
    id: 'snapshot.cleanup_repository',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/repository/_cleanup', { operation: 'write' }),
    paths: [
      { methods: ['POST'], pattern: '/_snapshot/{repository}/_cleanup' },
    ],
  },
  {
    id: 'snapshot.get',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/snapshot/get', { operation: 'read' }),
    paths: [
      { methods: ['GET'], pattern: '/_snapshot/{repository}/{snapshot}' },
    ],
  },
  {
    id: 'snapshot.create',
    engine: false,
    // creating a snapshot reads every index
    auth: SNAPSHOTS('cluster:admin/snapshot/create', { operation: 'write', every: 'strict' }),
    paths: [
      { methods: ['PUT', 'POST'], pattern: '/_snapshot/{repository}/{snapshot}' },
    ],
  },
  {
    id: 'snapshot.delete',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/snapshot/delete', { operation: 'delete' }),
    paths: [
      { methods: ['DELETE'], pattern: '/_snapshot/{repository}/{snapshot}' },
    ],
  },
  {
    id: 'snapshot.status',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/snapshot/status', { operation: 'read' }),
    paths: [
      { methods: ['GET'], pattern: '/_snapshot/_status' },
      { methods: ['GET'], pattern: '/_snapshot/{repository}/_status' },
      { methods: ['GET'], pattern: '/_snapshot/{repository}/{snapshot}/_status' },
    ],
  },
  {
    id: 'snapshot.restore',
    engine: false,
    // restoring one writes every index it holds
    auth: SNAPSHOTS('cluster:admin/snapshot/restore', { operation: 'write', every: 'strict' }),
    paths: [
      { methods: ['POST'], pattern: '/_snapshot/{repository}/{snapshot}/_restore' },
    ],
  },
  {
    id: 'snapshot.clone',
    engine: false,
    auth: SNAPSHOTS('cluster:admin/snapshot/clone', { operation: 'write', every: 'strict' }),
    paths: [
      { methods: ['PUT'], pattern: '/_snapshot/{repository}/{snapshot}/_clone/{target_snapshot}' },
    ],
  },
  {
    id: 'cat.snapshots',
    engine: false,
    bodyless: true,
    auth: SNAPSHOTS('cluster:admin/snapshot/get', { operation: 'read' }),
    paths: [
      { methods: ['GET'], pattern: '/_cat/snapshots' },
      { methods: ['GET'], pattern: '/_cat/snapshots/{repository}' },
    ],
  },
  {
    id: 'sql.query',
    engine: false,
    auth: SQL,
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_sql' },
      { methods: ['POST'], pattern: '/_sql/close' },
      { methods: ['GET', 'POST'], pattern: '/_sql/translate' },
      { methods: ['GET', 'DELETE'], pattern: '/_sql/async/{id}' },
      { methods: ['GET'], pattern: '/_sql/async/status/{id}' },
    ],
  },
  {
    id: 'esql.query',
    engine: false,
    auth: ESQL,
    paths: [
      { methods: ['POST'], pattern: '/_query' },
      { methods: ['POST'], pattern: '/_query/async' },
      { methods: ['GET', 'DELETE'], pattern: '/_query/async/{id}' },
    ],
  },
  {
    id: 'async_search.submit',
    engine: false,
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/async_search/submit', every: 0, body: 'search' },
    paths: [
      { methods: ['POST'], pattern: '/_async_search' },
      { methods: ['POST'], pattern: '/{index}/_async_search' },
    ],
  },
  {
    id: 'async_search.get',
    engine: false,
    auth: ASYNC_SEARCH_GET,
    paths: [
      { methods: ['GET', 'DELETE'], pattern: '/_async_search/{id}' },
      { methods: ['GET'], pattern: '/_async_search/status/{id}' },
    ],
  },
  {
    id: 'eql.search',
    engine: false,
    // `/_eql/search/{id}` reads a search by id: no index list can be put in front of it
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/eql', every: 'strict', body: 'search' },
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_eql/search' },
      { methods: ['GET', 'DELETE'], pattern: '/_eql/search/{id}' },
      { methods: ['GET'], pattern: '/_eql/search/status/{id}' },
    ],
  },
  {
    id: 'knn_search',
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/knn_search', body: 'search' },
    params: ['routing'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_knn_search' },
    ],
  },
  {
    id: 'terms_enum',
    engine: false,
    auth: { category: 'search', operation: 'read', action: 'indices:data/read/xpack/termsenum/list', body: 'search' },
    paths: [
      { methods: ['GET', 'POST'], pattern: '/{index}/_terms_enum' },
    ],
  },
  {
    id: 'indices.disk_usage',
    engine: false,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/analyze_disk_usage' },
    paths: [
      { methods: ['POST'], pattern: '/{index}/_disk_usage' },
    ],
  },
  {
    id: 'indices.field_usage_stats',
    engine: false,
    auth: { category: 'indices', operation: 'read', action: 'indices:monitor/field_usage_stats' },
    paths: [
      { methods: ['GET'], pattern: '/{index}/_field_usage_stats' },
    ],
  },
  {
    id: 'indices.resolve_cluster',
    engine: false,
    auth: { category: 'indices', operation: 'read', action: 'indices:admin/resolve/cluster', index: 'name' },
    paths: [
      { methods: ['GET'], pattern: '/_resolve/cluster/{name}' },
    ],
  },
  {
    id: 'indices.migrate_to_data_stream',
    engine: false,
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/data_stream/modify', names: { name: true } },
    paths: [
      { methods: ['POST'], pattern: '/_data_stream/_migrate/{name}' },
    ],
  },
  {
    id: 'indices.promote_data_stream',
    engine: false,
    auth: { category: 'indices', operation: 'write', action: 'indices:admin/data_stream/modify', names: { name: true } },
    paths: [
      { methods: ['POST'], pattern: '/_data_stream/_promote/{name}' },
    ],
  },
  {
    id: 'cluster.reroute',
    engine: false,
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/reroute', body: 'reroute' },
    paths: [
      { methods: ['POST'], pattern: '/_cluster/reroute' },
    ],
  },
  {
    id: 'cluster.allocation_explain',
    // without a body it explains the first unassigned shard of any index
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/allocation/explain', privilege: 'manage', body: 'allocation_explain' },
    params: ['include_yes_decisions', 'include_disk_info', 'master_timeout'],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_cluster/allocation/explain' },
    ],
  },
  {
    id: 'cluster.voting_config_exclusions',
    engine: false,
    auth: { category: 'cluster', action: { write: 'cluster:admin/voting_config/add_exclusions', delete: 'cluster:admin/voting_config/clear_exclusions' } },
    paths: [
      { methods: ['POST', 'DELETE'], pattern: '/_cluster/voting_config_exclusions' },
    ],
  },
  {
    // the one node has no dangling index: it lists none, and has none to import or delete (not served)
    id: 'dangling_indices.list_dangling_indices',
    bodyless: true,
    auth: { category: 'cluster', privilege: 'manage', operation: 'read', action: 'cluster:admin/indices/dangling/list' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_dangling' },
    ],
  },
  {
    id: 'dangling_indices',
    engine: false,
    auth: { category: 'cluster', privilege: 'manage', action: { write: 'cluster:admin/indices/dangling/import', delete: 'cluster:admin/indices/dangling/delete' } },
    paths: [
      { methods: ['POST', 'DELETE'], pattern: '/_dangling/{index_uuid}' },
    ],
  },
  {
    id: 'indices.simulate_template',
    auth: { ...INDEX_TEMPLATES, operation: 'read', action: 'indices:admin/index_template/simulate' },
    params: ['create', 'cause', 'master_timeout', 'include_defaults'],
    paths: [
      // the literal `_simulate` wins over `/_index_template/{name}` (a template name may not start with `_`)
      { methods: ['POST'], pattern: '/_index_template/_simulate' },
      { methods: ['POST'], pattern: '/_index_template/_simulate/{name}' },
      { methods: ['POST'], pattern: '/_index_template/_simulate_index/{name}' },
    ],
  },
  {
    id: 'nodes.reload_secure_settings',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/nodes/reload_secure_settings', perIndexLevel: 'manage' },
    params: ['timeout'],
    paths: [
      { methods: ['POST'], pattern: '/_nodes/reload_secure_settings' },
      { methods: ['POST'], pattern: '/_nodes/{node_id}/reload_secure_settings' },
    ],
  },
  {
    id: 'nodes.usage',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/nodes/usage', perIndexLevel: 'manage' },
    params: ['timeout'],
    paths: [
      { methods: ['GET'], pattern: '/_nodes/usage' },
      { methods: ['GET'], pattern: '/_nodes/usage/{metric}' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/usage' },
      { methods: ['GET'], pattern: '/_nodes/{node_id}/usage/{metric}' },
    ],
  },
  {
    id: 'license',
    engine: false,
    auth: { category: 'cluster', action: { read: 'cluster:monitor/xpack/license/get', write: 'cluster:admin/xpack/license/put', delete: 'cluster:admin/xpack/license/put' } },
    paths: [
      { methods: ['GET', 'PUT', 'POST', 'DELETE'], pattern: '/_license' },
      { methods: ['GET'], pattern: '/_license/basic_status' },
      { methods: ['GET'], pattern: '/_license/trial_status' },
      { methods: ['POST'], pattern: '/_license/start_basic' },
      { methods: ['POST'], pattern: '/_license/start_trial' },
    ],
  },
  {
    id: 'xpack.info',
    engine: false,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/xpack/info' },
    paths: [
      { methods: ['GET'], pattern: '/_xpack' },
      { methods: ['GET'], pattern: '/_xpack/usage' },
    ],
  },
  {
    // the Observability plugin's saved objects (Dashboards' panels, saved queries and visualizations): documents of its own index, shared by every tenant (manage)
    id: 'opensearch.observability_objects',
    auth: { category: 'cluster', action: { read: 'cluster:admin/opensearch/observability/get', write: 'cluster:admin/opensearch/observability/create', delete: 'cluster:admin/opensearch/observability/delete' }, privilege: 'manage' },
    params: ['objectId', 'objectIdList', 'objectType', 'sortField', 'sortOrder', 'fromIndex', 'maxItems', 'name'],
    paths: [
      { methods: ['GET', 'POST', 'DELETE'], pattern: '/_plugins/_observability/object' },
      { methods: ['GET', 'PUT', 'DELETE'], pattern: '/_plugins/_observability/object/{object_id}' },
    ],
  },
  {
    // the Flow Framework plugin's workflow templates, kept in its own system index: cluster admin actions (manage); provisioning
    // (`provision=true`, `reprovision=true`) runs the template's steps, which create indices the request does not name: every index
    id: 'opensearch.flow_framework_workflows',
    auth: { category: 'cluster', action: { read: 'cluster:admin/opensearch/flow_framework/workflow/get', write: 'cluster:admin/opensearch/flow_framework/workflow/create', delete: 'cluster:admin/opensearch/flow_framework/workflow/delete' }, privilege: 'manage', unnamedIndices: ['provision', 'reprovision'] },
    params: [],
    paths: [
      { methods: ['POST'], pattern: '/_plugins/_flow_framework/workflow', params: ['provision', 'reprovision', 'update_fields', 'use_case', 'validation'] },
      { methods: ['PUT'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}', params: ['provision', 'reprovision', 'update_fields', 'use_case', 'validation'] },
      { methods: ['GET'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}' },
      { methods: ['DELETE'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}', params: ['clear_status'] },
    ],
  },
  {
    id: 'opensearch.flow_framework_provision',
    // runs the stored template's steps, which create indices the request does not name: every index
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/opensearch/flow_framework/workflow/provision', privilege: 'manage', unnamedIndices: true },
    params: [],
    paths: [{ methods: ['POST'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}/_provision' }],
  },
  {
    id: 'opensearch.flow_framework_deprovision',
    // deletes what provisioning created, indices the request does not name: every index
    auth: { category: 'cluster', operation: 'delete', action: 'cluster:admin/opensearch/flow_framework/workflow/deprovision', privilege: 'manage', unnamedIndices: true },
    bodyless: true,
    params: ['allow_delete'],
    paths: [{ methods: ['POST'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}/_deprovision' }],
  },
  {
    id: 'opensearch.flow_framework_status',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/flow_framework/workflow_state/get', privilege: 'manage' },
    bodyless: true,
    params: ['all'],
    paths: [{ methods: ['GET'], pattern: '/_plugins/_flow_framework/workflow/{workflow_id}/_status' }],
  },
  {
    id: 'opensearch.flow_framework_steps',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/flow_framework/workflow_step/get', privilege: 'manage' },
    bodyless: true,
    params: ['workflow_step'],
    paths: [{ methods: ['GET'], pattern: '/_plugins/_flow_framework/workflow/_steps' }],
  },
  {
    id: 'opensearch.flow_framework_search',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/flow_framework/workflow/search', privilege: 'manage', body: 'search' },
    params: [],
    paths: [{ methods: ['GET', 'POST'], pattern: '/_plugins/_flow_framework/workflow/_search' }],
  },
  {
    id: 'opensearch.flow_framework_search_state',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/flow_framework/workflow_state/search', privilege: 'manage', body: 'search' },
    params: [],
    paths: [{ methods: ['GET', 'POST'], pattern: '/_plugins/_flow_framework/workflow/state/_search' }],
  },
  {
    // ML Commons' model groups (a name and description the models it would hold are registered under; the engine runs
    // no model): documents of the plugin's own index, every tenant's (manage); the plugin's actions by operation
    id: 'opensearch.ml_model_groups',
    auth: { category: 'cluster', action: { read: 'cluster:admin/opensearch/ml/model_groups/get', write: 'cluster:admin/opensearch/ml/update_model_group', delete: 'cluster:admin/opensearch/ml/model_groups/delete' }, privilege: 'manage' },
    params: [],
    paths: [
      { methods: ['GET', 'PUT', 'DELETE'], pattern: '/_plugins/_ml/model_groups/{model_group_id}' },
    ],
  },
  {
    id: 'opensearch.ml_model_groups_register',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/opensearch/ml/register_model_group', privilege: 'manage' },
    params: [],
    paths: [{ methods: ['POST'], pattern: '/_plugins/_ml/model_groups/_register' }],
  },
  {
    // a search of the plugin's index: its query's lookups read other indices, the caller's to read
    id: 'opensearch.ml_model_groups_search',
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/opensearch/ml/model_groups/search', privilege: 'manage', body: 'search' },
    params: [],
    paths: [{ methods: ['GET', 'POST'], pattern: '/_plugins/_ml/model_groups/_search' }],
  },
  {
    // the Observability plugin's metrics of its object requests (answered by the REST handler, no transport action, so no
    // privilege OpenSearch names for it): every tenant's object requests counted, as the objects are every tenant's (manage)
    id: 'opensearch.observability_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/observability/stats', privilege: 'manage' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/_observability/_local/stats' },
    ],
  },
  {
    // the geospatial plugin's GeoJSON upload: creates or writes the index its body names (its `index`, written as the caller: a
    // `manage` credential of some indices wrote any other's through it), as the plugin's bulk runs with the caller's rights
    id: 'opensearch.geospatial_geojson_upload',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/upload_geojson_action', privilege: 'manage', body: 'upload_index' },
    params: [],
    paths: [
      { methods: ['POST', 'PUT'], pattern: '/_plugins/geospatial/geojson/_upload' },
    ],
  },
  {
    // the geospatial plugin's upload statistics (UploadStatsAction)
    id: 'opensearch.geospatial_upload_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:admin/geospatial/stats' },
    params: [],
    paths: [
      { methods: ['GET'], pattern: '/_plugins/geospatial/_upload/stats' },
    ],
  },
  {
    // the SQL plugin's node metrics, SQL's and PPL's (answered by the REST handler, no transport action)
    id: 'opensearch.sql_stats',
    bodyless: true,
    auth: { category: 'cluster', operation: 'read', action: 'cluster:monitor/sql/stats' },
    params: [],
    paths: [
      { methods: ['GET', 'POST'], pattern: '/_plugins/_sql/stats' },
      { methods: ['GET', 'POST'], pattern: '/_plugins/_ppl/stats' },
      { methods: ['GET', 'POST'], pattern: '/_opendistro/_sql/stats' },
      { methods: ['GET', 'POST'], pattern: '/_opendistro/_ppl/stats' },
    ],
  },
  {
    // the SQL plugin's settings endpoint: a cluster settings update of its own namespaces
    id: 'opensearch.query_settings',
    auth: { category: 'cluster', operation: 'write', action: 'cluster:admin/settings/update' },
    params: ['timeout', 'cluster_manager_timeout'],
    paths: [
      { methods: ['PUT'], pattern: '/_plugins/_query/settings' },
      { methods: ['PUT'], pattern: '/_opendistro/_sql/settings' },
    ],
  },
] as const satisfies readonly EsApi[];

/** One path of an API: the methods it takes at a pattern, and its own parameters when they differ from the API's. */
export interface EsPath {
  readonly methods: readonly string[];
  readonly pattern: string;
  readonly params?: readonly string[];
}

export interface EsApi {
  readonly id: string;
  /** What the API does, for authorization (read by lib/auth's classifier, `classifyRoute`). */
  readonly auth: RouteAuth;
  /**
   * `false`: an API of Elasticsearch's the embedded engine does not implement (`_snapshot`, `_sql`):
   * in the table so that the gateway knows what it is, with no engine handler — the embedded engine
   * answers it as any path it has no handler for, the HTTP backend forwards it.
   */
  readonly engine?: false;
  /** The API reads no body: one sent is refused (`request [GET /] does not support having a body`), as Elasticsearch refuses it. */
  readonly bodyless?: true;
  /** The URL parameters of every path of the API that names none of its own. */
  readonly params?: readonly string[];
  readonly paths: readonly EsPath[];
}

/** An API of the table, by its Elasticsearch name. */
export type EsRouteId = (typeof ES_API)[number]['id'];

/**
 * OpenSearch 2's name for `master_timeout` (its clients send it, and its API spec names it): a path
 * that takes one takes the other. No Elasticsearch client sends it, so accepting it changes
 * nothing for them.
 */
const CLUSTER_MANAGER_TIMEOUT = 'cluster_manager_timeout';

/** The parameters a path takes, besides the common ones. */
export const paramsOf = (api: EsApi, path: EsPath): readonly string[] => {
  const params = path.params ?? api.params ?? [];
  return params.includes('master_timeout') && !params.includes(CLUSTER_MANAGER_TIMEOUT) ? [...params, CLUSTER_MANAGER_TIMEOUT] : params;
};
