import { EsError } from '../../../errors/index.js';
import { didYouMean } from '../rest/unknown-field.js';

/**
 * The index settings Elasticsearch 8.15 registers (IndexScopedSettings and its plugins: ILM, CCR,
 * searchable snapshots, data streams…), plus those OpenSearch 2 registers that clients of either
 * send (k-NN, replication, the index-management plugins). Keys are flat and `index.`-prefixed.
 */
const KNOWN_KEYS = new Set([
  'index.allocation.existing_shards_allocator', 'index.analyze.max_token_count', 'index.auto_expand_replicas',
  'index.blocks.metadata', 'index.blocks.read', 'index.blocks.read_only', 'index.blocks.read_only_allow_delete',
  'index.blocks.write', 'index.blocks.search_only', 'index.bloom_filter_for_id_field.enabled', 'index.codec',
  'index.compound_format', 'index.creation_date', 'index.data_path', 'index.default_pipeline', 'index.dimensions',
  'index.dimensions_tsid_strategy_enabled', 'index.fast_refresh', 'index.fielddata.cache', 'index.final_pipeline',
  'index.flush_after_merge', 'index.format', 'index.frozen', 'index.gc_deletes', 'index.hidden',
  'index.highlight.max_analyzed_offset', 'index.highlight.weight_matches_mode.enabled',
  'index.indexing.slowlog.include.user', 'index.indexing.slowlog.level', 'index.indexing.slowlog.reformat',
  'index.indexing.slowlog.source', 'index.knn', 'index.load_fixed_bitset_filters_eagerly', 'index.look_ahead_time',
  'index.look_back_time', 'index.mapper.dynamic', 'index.mapping.coerce', 'index.mapping.depth.limit',
  'index.mapping.dimension_fields.limit', 'index.mapping.field_name_length.limit', 'index.mapping.ignore_above',
  'index.mapping.ignore_malformed', 'index.mapping.nested_fields.limit', 'index.mapping.nested_objects.limit',
  'index.mapping.nested_parents.limit', 'index.mapping.source.mode', 'index.mapping.synthetic_source_keep',
  'index.mapping.total_fields.ignore_dynamic_beyond_limit', 'index.mapping.total_fields.limit',
  'index.max_adjacency_matrix_filters', 'index.max_docvalue_fields_search', 'index.max_inner_result_window',
  'index.max_ngram_diff', 'index.max_refresh_listeners', 'index.max_regex_length', 'index.max_rescore_window',
  'index.max_result_window', 'index.max_script_fields', 'index.max_shingle_diff', 'index.max_slices_per_scroll',
  'index.max_terms_count', 'index.merge.scheduler.auto_throttle', 'index.merge.scheduler.max_merge_count',
  'index.merge.scheduler.max_thread_count', 'index.mode', 'index.number_of_replicas', 'index.number_of_routing_shards',
  'index.number_of_shards', 'index.optimize_auto_generated_id', 'index.priority', 'index.provided_name',
  'index.queries.cache.enabled', 'index.query.default_field', 'index.query.parse.allow_unmapped_fields',
  'index.query_string.lenient', 'index.recovery.type', 'index.refresh_interval', 'index.replication.type',
  'index.requests.cache.enable', 'index.rollup.source.name', 'index.rollup.source.uuid', 'index.routing_partition_size',
  'index.routing_path', 'index.routing.allocation.enable', 'index.routing.allocation.disk.watermark.ignore',
  'index.routing.allocation.max_retries', 'index.routing.allocation.total_shards_per_node',
  'index.routing.rebalance.enable', 'index.search.idle.after', 'index.search.default_pipeline', 'index.search.slowlog.include.user',
  'index.search.slowlog.level', 'index.search.throttled', 'index.shard.check_on_startup', 'index.shard_limit.group',
  'index.soft_deletes.enabled', 'index.soft_deletes.retention.operations', 'index.soft_deletes.retention_lease.period',
  'index.source_only', 'index.store.fs.fs_lock', 'index.store.preload', 'index.store.stats_refresh_interval',
  'index.store.type', 'index.time_series.end_time', 'index.time_series.start_time', 'index.translog.durability',
  'index.translog.flush_threshold_age', 'index.translog.flush_threshold_size', 'index.translog.generation_threshold_size',
  'index.translog.retention.age', 'index.translog.retention.size', 'index.translog.sync_interval',
  'index.unassigned.node_left.delayed_timeout', 'index.uuid', 'index.verified_before_close', 'index.version.compatibility',
  'index.version.created', 'index.version.upgraded', 'index.warmer.enabled', 'index.write.wait_for_active_shards',
  'index.xpack.version', 'index.xpack.watcher.template.version', 'index.lifecycle.name', 'index.lifecycle.rollover_alias',
  'index.lifecycle.indexing_complete', 'index.lifecycle.origination_date', 'index.lifecycle.parse_origination_date',
  'index.lifecycle.step.wait_time_threshold', 'index.lifecycle.skip', 'index.lifecycle.prefer_ilm',
  'index.xpack.ccr.following_index', 'index.routing.allocation.include._tier_preference',
  'index.resize.source.name', 'index.resize.source.uuid', 'index.shrink.source.name', 'index.shrink.source.uuid',
  'index.downsample.source.name', 'index.downsample.source.uuid', 'index.downsample.origin.name',
  'index.downsample.origin.uuid', 'index.downsample.status', 'index.downsample.interval', 'index.merge.policy', 'index.append_only.enabled',
  'index.number_of_search_only_replicas', 'index.auto_expand_search_replicas', 'index.max_slices_per_pit',
  'index.sort.field', 'index.sort.order', 'index.sort.mode', 'index.sort.missing',
]);

/**
 * Families Elasticsearch matches by prefix (group and affix settings: analysis definitions,
 * similarities, allocation filters, slow-log thresholds…), and plugin namespaces.
 */
const KNOWN_PREFIXES = [
  'index.analysis.', 'index.similarity.', 'index.routing.', 'index.search.slowlog.threshold.',
  'index.indexing.slowlog.threshold.', 'index.merge.', 'index.translog.', 'index.store.', 'index.mapping.', 'index.highlight.',
  'index.query.', 'index.soft_deletes.', 'index.shard.', 'index.recovery.', 'index.blocks.', 'index.version.', 'index.lifecycle.',
  'index.xpack.ccr.', 'index.time_series.', 'index.downsample.', 'index.percolator.', 'index.dense_vector.', 'index.codec.',
  // OpenSearch's: k-NN, plugins, remote store, concurrent search, derived source, doc id lookup, star tree
  'index.knn.', 'index.plugins.', 'index.opendistro.', 'index.remote_store.', 'index.search.concurrent_segment_search.',
  'index.search.concurrent.', 'index.derived_source.', 'index.optimize_doc_id_lookup.', 'index.composite_index',
];

function isKnown(key: string): boolean {
  return KNOWN_KEYS.has(key) || KNOWN_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * Why Elasticsearch refuses each index setting it does not register (AbstractScopedSettings.validate),
 * in the keys' sorted order: `unknown setting [k]` with its close registered keys (similarity above
 * 0.7) as `did you mean`. Keys ending in `*` (a wildcard reset) are not validated.
 */
export function unknownSettingReasons(keys: Iterable<string>): string[] {
  return [...keys].filter((k) => !k.endsWith('*') && !isKnown(k)).sort().map((key) => {
    const hint = didYouMean(key, KNOWN_KEYS, 0.7)
      || ' please check that any required plugins are installed, or check the breaking changes documentation for removed settings';
    return `unknown setting [${key}]${hint}`;
  });
}

/** Creating an index or updating its settings: the first unknown setting refused (the others are only suppressed in ES). */
export function refuseUnknownSettings(keys: Iterable<string>): void {
  const [first] = unknownSettingReasons(keys);
  if (first !== undefined) throw new EsError(400, 'illegal_argument_exception', first);
}
