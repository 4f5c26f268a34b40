/** Mapping shapes as Elasticsearch shows them in `GET /{index}/_mapping`. */
/** `strict_allow_templates` is OpenSearch 2.16's: strict, except for new fields a dynamic template maps. */
export type DynamicSetting = true | false | 'strict' | 'runtime' | 'strict_allow_templates';

export interface FieldMapping {
  type?: string;
  properties?: Record<string, FieldMapping>;
  fields?: Record<string, FieldMapping>;
  dynamic?: DynamicSetting | 'true' | 'false';
  enabled?: boolean;
  analyzer?: string;
  search_analyzer?: string;
  normalizer?: string;
  ignore_above?: number;
  format?: string;
  index?: boolean;
  [param: string]: unknown;
}

export interface Mappings {
  dynamic?: DynamicSetting | 'true' | 'false';
  properties?: Record<string, FieldMapping>;
  date_detection?: boolean;
  numeric_detection?: boolean;
  /** Told of each field path looked up and not found (resolveFieldMapping): a view's own mappings only, never stored. */
  [UNMAPPED_LOOKUP]?: (path: string) => void;
  [param: string]: unknown;
}

/**
 * The member of a mappings value told of lookups that found nothing: a request's view of an index
 * (field rules) learns that the request named a field it hides. A symbol, so that the mappings'
 * text, keys and copies for storage never show it (a spread copy keeps it, as a view's should).
 */
export const UNMAPPED_LOOKUP: unique symbol = Symbol('unmapped lookup');

export const OBJECT_TYPES = new Set(['object', 'nested']);

export const LEAF_TYPES = new Set([
  'text', 'keyword', 'constant_keyword', 'wildcard', 'match_only_text',
  'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long',
  'boolean', 'date', 'date_nanos', 'ip', 'binary', 'geo_point', 'geo_shape', 'point', 'shape',
  'completion', 'search_as_you_type', 'token_count', 'flattened', 'dense_vector', 'sparse_vector',
  'rank_feature', 'rank_features', 'integer_range', 'float_range', 'long_range', 'double_range',
  'date_range', 'ip_range', 'alias', 'version', 'histogram', 'percolator', 'join',
]);

/** OpenSearch 2's Cartesian field types (its geo module's xy_point and xy_shape), in its mapping dialect only. */
export const OPENSEARCH_LEAF_TYPES = new Set(['xy_point', 'xy_shape', 'knn_vector']);

/** token_count is an integer field whose value is the number of tokens its text analyzes to. */
export const NUMERIC_TYPES = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long', 'token_count']);
export const INTEGER_TYPES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long', 'token_count']);

/** The effective type of a mapping node: objects carry no explicit type in ES output. */
export function fieldType(m: FieldMapping): string {
  return m.type ?? (m.properties !== undefined ? 'object' : 'object');
}

export function normalizeDynamic(d: unknown): DynamicSetting | undefined {
  if (d === undefined || d === null) return undefined;
  if (d === true || d === 'true') return true;
  if (d === false || d === 'false') return false;
  if (d === 'strict') return 'strict';
  if (d === 'runtime') return 'runtime';
  if (d === 'strict_allow_templates') return 'strict_allow_templates';
  return undefined;
}
