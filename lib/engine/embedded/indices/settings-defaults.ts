import type { FlatSettings } from '../store/index.js';
import { INDEX_VERSION_CREATED } from './settings.js';

/**
 * Index settings the engine honours or reports, with Elasticsearch 8's default values, as
 * `include_defaults=true` lists them under `defaults` (those the index does not set itself).
 */
export const INDEX_SETTING_DEFAULTS: FlatSettings = {
  'index.analyze.max_token_count': '10000',
  'index.auto_expand_replicas': 'false',
  'index.blocks.metadata': 'false',
  'index.blocks.read': 'false',
  'index.blocks.read_only': 'false',
  'index.blocks.read_only_allow_delete': 'false',
  'index.blocks.write': 'false',
  'index.codec': 'default',
  'index.hidden': 'false',
  'index.highlight.max_analyzed_offset': '1000000',
  'index.mapping.depth.limit': '20',
  'index.mapping.field_name_length.limit': '9223372036854775807',
  'index.mapping.nested_fields.limit': '50',
  'index.mapping.nested_objects.limit': '10000',
  'index.mapping.total_fields.limit': '1000',
  'index.max_docvalue_fields_search': '100',
  'index.max_inner_result_window': '100',
  'index.max_ngram_diff': '1',
  'index.max_refresh_listeners': '1000',
  'index.max_regex_length': '1000',
  'index.max_rescore_window': '10000',
  'index.max_result_window': '10000',
  'index.max_script_fields': '32',
  'index.max_shingle_diff': '3',
  'index.max_slices_per_scroll': '1024',
  'index.max_terms_count': '65536',
  'index.query.default_field': ['*'],
  'index.priority': '1',
  'index.refresh_interval': '1s',
  'index.store.preload': [],
  'index.store.stats_refresh_interval': '10s',
  'index.store.type': '',
  'index.translog.durability': 'REQUEST',
  'index.write.wait_for_active_shards': '1',
};

/**
 * OpenSearch 2's defaults: Elasticsearch's, and what OpenSearch's IndexModule registers besides:
 * `index.store.hybrid.mmap.extensions`, the Lucene files hybridfs memory-maps (the k-NN plugin
 * reads it from `include_defaults`).
 */
const OPENSEARCH_INDEX_SETTING_DEFAULTS: FlatSettings = Object.fromEntries(Object.entries({
  ...INDEX_SETTING_DEFAULTS,
  'index.store.hybrid.mmap.extensions': ['nvd', 'dvd', 'tim', 'tip', 'dim', 'kdd', 'kdi', 'cfs', 'doc'],
}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The defaults an index does not override, as Elasticsearch 8 or OpenSearch 2 lists them. */
export function defaultsFor(settings: FlatSettings, openSearch = false): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(openSearch ? OPENSEARCH_INDEX_SETTING_DEFAULTS : INDEX_SETTING_DEFAULTS)) if (!(k in settings)) out[k] = v;
  return out;
}

/** ES 8.15 prints its index version 8512000 as this release. */
const VERSION_STRINGS: Record<string, string> = { [INDEX_VERSION_CREATED]: '8.15.0' };

/** The `*_string` companions `?human` adds: the creation date as ISO text and the created version. */
export function humanSettings(settings: FlatSettings): FlatSettings {
  const out: FlatSettings = {};
  const created = settings['index.creation_date'];
  if (typeof created === 'string' && /^\d+$/.test(created)) out['index.creation_date_string'] = new Date(Number(created)).toISOString();
  const version = settings['index.version.created'];
  if (typeof version === 'string') out['index.version.created_string'] = VERSION_STRINGS[version] ?? version;
  return out;
}
