import { simpleMatch } from '../../../wildcard/index.js';
import { OBJECT_TYPES, fieldType, type FieldMapping, type Mappings } from './types.js';

/** Defaults `include_defaults` adds per type (the ones clients look at). */
const TYPE_DEFAULTS: Record<string, FieldMapping> = {
  text: { analyzer: 'default', search_analyzer: 'default', search_quote_analyzer: 'default', index: true, store: false, norms: true, fielddata: false, index_options: 'positions', position_increment_gap: 100, eager_global_ordinals: false, similarity: 'BM25' },
  keyword: { index: true, doc_values: true, store: false, norms: false, ignore_above: 2147483647, eager_global_ordinals: false, split_queries_on_whitespace: false, index_options: 'docs', similarity: 'BM25' },
  date: { index: true, doc_values: true, store: false, format: 'strict_date_optional_time||epoch_millis', locale: 'ENGLISH', ignore_malformed: false },
  boolean: { index: true, doc_values: true, store: false },
  token_count: { index: true, doc_values: true, store: false, null_value: null, enable_position_increments: true },
};
const NUMERIC_DEFAULTS: FieldMapping = { index: true, doc_values: true, store: false, coerce: true, ignore_malformed: false };

function withDefaults(m: FieldMapping): FieldMapping {
  const type = fieldType(m);
  const defaults = TYPE_DEFAULTS[type] ?? (['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float'].includes(type) ? NUMERIC_DEFAULTS : {});
  return { ...defaults, ...m };
}

/** Elasticsearch's metadata fields (each index has them; get field mapping finds them by exact name). */
const METADATA_FIELDS = new Set([
  '_id', '_index', '_source', '_routing', '_seq_no', '_version', '_ignored', '_field_names', '_doc_count', '_nested_path', '_data_stream_timestamp', '_tier', '_feature',
]);
const METADATA_DEFAULTS: Record<string, FieldMapping> = {
  _source: { enabled: true, includes: [], excludes: [] },
  _routing: { required: false },
  _field_names: { enabled: true },
};

/**
 * `GET /{index}/_mapping/field/{fields}` for one index: each leaf field (multi-fields included)
 * named by a pattern, as `{full_name, mapping: {leaf: definition}}`.
 */
export function fieldMappings(mappings: Mappings, patterns: string[], includeDefaults: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (full: string, leaf: string, m: FieldMapping) => {
    if (!patterns.some((p) => simpleMatch(p, full))) return;
    out[full] = { full_name: full, mapping: { [leaf]: includeDefaults ? withDefaults(m) : m } };
  };
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      const full = prefix + name;
      if (OBJECT_TYPES.has(fieldType(m))) {
        // an object is no field mapper: ES's get field mapping finds it neither by name nor by pattern
        walk(m.properties, full + '.');
        continue;
      }
      add(full, name, m);
      for (const [sub, sm] of Object.entries(m.fields ?? {})) add(`${full}.${sub}`, sub, sm);
    }
  };
  walk(mappings.properties, '');
  // Metadata fields named exactly: their configured parameters (none configured: an empty mapping), as ES's metadata mappers print
  for (const name of patterns) {
    if (!METADATA_FIELDS.has(name) || out[name] !== undefined) continue;
    const configured = mappings[name];
    const own = configured !== null && typeof configured === 'object' ? (configured as FieldMapping) : undefined;
    const defaults = includeDefaults ? METADATA_DEFAULTS[name] : undefined;
    out[name] = { full_name: name, mapping: own || defaults ? { [name]: { ...defaults, ...own } } : {} };
  }
  return out;
}
