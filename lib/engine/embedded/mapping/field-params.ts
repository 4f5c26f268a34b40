import { EsError } from '../../../errors/index.js';
import { isValidDateFormat } from './date-format.js';
import { NUMERIC_TYPES, type FieldMapping } from './types.js';

/** Parameters every field type accepts. */
const COMMON = ['type', 'meta', 'fields', 'copy_to', 'boost'];

const NUMERIC = [...COMMON, 'index', 'doc_values', 'store', 'coerce', 'ignore_malformed', 'null_value', 'on_script_error', 'script', 'time_series_metric', 'time_series_dimension'];

/** The parameters ES 8 accepts per field type (unknown ones are refused at mapping time). */
const PARAMS: Record<string, string[]> = {
  text: [...COMMON, 'analyzer', 'search_analyzer', 'search_quote_analyzer', 'index', 'index_options', 'index_phrases', 'index_prefixes', 'norms', 'position_increment_gap', 'store', 'similarity', 'term_vector', 'fielddata', 'fielddata_frequency_filter', 'eager_global_ordinals'],
  match_only_text: [...COMMON],
  search_as_you_type: [...COMMON, 'analyzer', 'search_analyzer', 'search_quote_analyzer', 'index', 'index_options', 'norms', 'store', 'similarity', 'term_vector', 'max_shingle_size'],
  keyword: [...COMMON, 'index', 'doc_values', 'store', 'ignore_above', 'normalizer', 'null_value', 'norms', 'similarity', 'index_options', 'eager_global_ordinals', 'split_queries_on_whitespace', 'script', 'on_script_error', 'time_series_dimension'],
  boolean: [...COMMON, 'index', 'doc_values', 'store', 'null_value', 'script', 'on_script_error'],
  date: [...COMMON, 'index', 'doc_values', 'store', 'format', 'locale', 'null_value', 'ignore_malformed', 'script', 'on_script_error', 'print_format'],
  scaled_float: [...NUMERIC, 'scaling_factor'],
  object: ['type', 'properties', 'dynamic', 'enabled', 'subobjects'],
  nested: ['type', 'properties', 'dynamic', 'enabled', 'include_in_parent', 'include_in_root'],
};
PARAMS.date_nanos = PARAMS.date;

/**
 * OpenSearch 2's parameters where they differ from ES 8's: its match_only_text is a text field
 * without positions, frequencies and norms, and takes text's other parameters (analyzers included).
 */
const OPENSEARCH_PARAMS: Record<string, string[]> = {
  xy_point: ['type', 'ignore_malformed', 'ignore_z_value', 'null_value'],
  xy_shape: ['type', 'ignore_malformed', 'ignore_z_value', 'orientation', 'coerce'],
  match_only_text: [...COMMON, 'analyzer', 'search_analyzer', 'search_quote_analyzer', 'index', 'position_increment_gap', 'store', 'similarity', 'term_vector', 'fielddata', 'fielddata_frequency_filter', 'eager_global_ordinals'],
};
for (const t of ['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'unsigned_long']) PARAMS[t] = NUMERIC;

/** Parameter values equal to ES's default are not shown by `GET _mapping`. */
const DEFAULTS: Record<string, unknown> = {
  index: true, doc_values: true, store: false, coerce: true, ignore_malformed: false, eager_global_ordinals: false,
  fielddata: false, index_phrases: false, enabled: true, include_in_parent: false, include_in_root: false, split_queries_on_whitespace: false,
};

const BOOLEAN_PARAMS = new Set(['index', 'doc_values', 'store', 'coerce', 'ignore_malformed', 'eager_global_ordinals', 'fielddata', 'index_phrases', 'norms', 'enabled', 'include_in_parent', 'include_in_root', 'split_queries_on_whitespace', 'time_series_dimension']);
const INT_PARAMS = new Set(['ignore_above', 'position_increment_gap', 'max_shingle_size']);
const INDEX_OPTIONS = new Set(['docs', 'freqs', 'positions', 'offsets']);

export function mapperParsing(reason: string, causedBy?: { type: string; reason: string }): EsError {
  return new EsError(400, 'mapper_parsing_exception', reason, causedBy ? { caused_by: causedBy } : {});
}

function typeName(v: unknown): string {
  return typeof v === 'string' ? 'java.lang.String' : typeof v === 'number' ? 'java.lang.Integer' : typeof v === 'boolean' ? 'java.lang.Boolean' : Array.isArray(v) ? 'java.util.ArrayList' : 'java.util.LinkedHashMap';
}

/**
 * Checks one leaf field definition's parameters for its type and returns it as ES stores and shows
 * it: booleans and numbers given as strings are converted, parameters at their default dropped.
 */
export function normalizeLeafParams(name: string, type: string, m: FieldMapping, knownAnalyzer?: (name: string) => boolean, knownNormalizer?: (name: string) => boolean, openSearch = false): FieldMapping {
  const allowed = (openSearch ? OPENSEARCH_PARAMS[type] : undefined) ?? PARAMS[type];
  const out: FieldMapping = {};
  for (const [k, raw] of Object.entries(m)) {
    if (allowed && !allowed.includes(k)) {
      throw mapperParsing(`Failed to parse mapping: unknown parameter [${k}] on mapper [${name}] of type [${type}]`);
    }
    let v = raw;
    if (BOOLEAN_PARAMS.has(k)) {
      if (v === 'true') v = true;
      else if (v === 'false') v = false;
      if (typeof v !== 'boolean') {
        throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(raw)}] as only [true] or [false] are allowed.`);
      }
    } else if (INT_PARAMS.has(k)) {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isInteger(n)) throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(raw)}] for parameter [${k}] of field [${name}]`);
      if (k === 'ignore_above' && n < 0) throw mapperParsing(`Failed to parse mapping: [ignore_above] must be positive, got [${n}]`);
      v = n;
    } else if (k === 'scaling_factor') {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n) || n <= 0) throw mapperParsing(`Failed to parse mapping: [scaling_factor] must be a positive number, got [${String(raw)}]`);
      v = n;
    } else if (k === 'index_options' && (typeof v !== 'string' || !INDEX_OPTIONS.has(v))) {
      throw mapperParsing(`Failed to parse mapping: Unknown value [${String(v)}] for field [index_options] - accepted values are [docs, freqs, positions, offsets]`);
    } else if ((k === 'analyzer' || k === 'search_analyzer' || k === 'search_quote_analyzer') && knownAnalyzer) {
      if (typeof v !== 'string' || !knownAnalyzer(v)) throw mapperParsing(`Failed to parse mapping: analyzer [${String(v)}] has not been configured in mappings`);
    } else if (k === 'normalizer' && knownNormalizer && v !== null) {
      if (typeof v !== 'string' || !knownNormalizer(v)) throw mapperParsing(`Failed to parse mapping: normalizer [${String(v)}] not found for field [${name}]`);
    } else if (k === 'format' && (type === 'date' || type === 'date_nanos')) {
      if (typeof v !== 'string' || !isValidDateFormat(v)) {
        throw mapperParsing(`Failed to parse mapping: Invalid format: [${String(v)}]: Unknown pattern letter`, { type: 'illegal_argument_exception', reason: `Invalid format: [${String(v)}]` });
      }
    } else if (k === 'copy_to') {
      if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
        throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(raw)}] for parameter [copy_to] of field [${name}]`);
      }
      v = typeof v === 'string' ? [v] : v;
    } else if (k === 'meta' && (v === null || typeof v !== 'object' || Array.isArray(v))) {
      throw mapperParsing(`Failed to parse mapping: [meta] must be an object, got ${typeName(v)}[${String(v)}] for field [${name}]`);
    } else if (k === 'null_value' && v !== null && NUMERIC_TYPES.has(type) && typeof v !== 'number' && !(typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))) {
      throw mapperParsing(`Failed to parse mapping: Error parsing [null_value] on field [${name}]: For input string: "${String(v)}"`);
    }
    if (k in DEFAULTS && DEFAULTS[k] === v) continue;
    if (k === 'norms' && v === (type === 'text')) continue;
    out[k] = v;
  }
  if (type === 'scaled_float' && out.scaling_factor === undefined) throw mapperParsing('Failed to parse mapping: Field [scaling_factor] is required');
  // TokenCountFieldMapper's builder: the analyzer has no default
  if (type === 'token_count' && (out.analyzer === undefined || out.analyzer === null)) throw mapperParsing(`Failed to parse mapping: Analyzer must be set for field [${name}] but wasn't.`);
  return out;
}

/** `index: false` and `doc_values: false` as effective flags. */
export function isIndexed(m: FieldMapping): boolean {
  return m.index !== false && (m.index as unknown) !== 'false';
}

export function hasDocValues(m: FieldMapping): boolean {
  return m.doc_values !== false && m.doc_values !== ('false' as unknown);
}
