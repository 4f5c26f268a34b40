import { ES_VERSION } from './es-version.js';

/** Who speaks in a `Warning` header: Elasticsearch's agent text (`Elasticsearch-{version}-{build hash}`). */
const WARN_AGENT = `Elasticsearch-${ES_VERSION.number}${ES_VERSION.build_snapshot ? '-SNAPSHOT' : ''}-${ES_VERSION.build_hash}`;

/**
 * The deprecation warnings of the compatibility mode as one `Warning` header value (RFC 7234: code
 * 299, agent, quoted text; several join as a list), as Elasticsearch's HeaderWarning writes them
 * (OpenSearch's writes its own agent, `OpenSearch-{version}-{build hash}`).
 */
export function warningHeader(messages: readonly string[], agent: string = WARN_AGENT): string {
  return messages.map((m) => `299 ${agent} "${m.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(', ');
}

/** Elasticsearch 8's texts for typed requests in compatibility mode (its REST actions' TYPES_DEPRECATION_MESSAGE). */
export const TYPES_REMOVAL = {
  index: '[types removal] Specifying types in document index requests is deprecated, use the typeless endpoints instead (/{index}/_doc/{id}, /{index}/_doc, or /{index}/_create/{id}).',
  get: '[types removal] Specifying types in document get requests is deprecated, use the /{index}/_doc/{id} endpoint instead.',
  delete: '[types removal] Specifying types in document index requests is deprecated, use the /{index}/_doc/{id} endpoint instead.',
  update: '[types removal] Specifying types in document update requests is deprecated, use the endpoint /{index}/_update/{id} instead.',
  source: '[types removal] Specifying types in get_source and exist_source requests is deprecated.',
  explain: '[types removal] Specifying a type in explain requests is deprecated.',
  termvectors: '[types removal] Specifying types in term vector requests is deprecated.',
  mtermvectors: '[types removal] Specifying types in multi term vector requests is deprecated.',
  search: '[types removal] Specifying types in search requests is deprecated.',
  searchTemplate: '[types removal] Specifying types in search template requests is deprecated.',
  msearch: '[types removal] Specifying types in multi search requests is deprecated.',
  msearchTemplate: '[types removal] Specifying types in multi search template requests is deprecated.',
  count: '[types removal] Specifying types in count requests is deprecated.',
  validate: '[types removal] Specifying types in validate query requests is deprecated.',
  mget: '[types removal] Specifying types in multi get requests is deprecated.',
  bulk: '[types removal] Specifying types in bulk requests is deprecated.',
  deleteByQuery: '[types removal] Specifying types in delete_by_query requests is deprecated.',
  updateByQuery: '[types removal] Specifying types in update_by_query requests is deprecated.',
  getMapping: '[types removal] Specifying types in get mapping request is deprecated. Use typeless api instead',
  putMapping: '[types removal] Specifying types in put mapping request is deprecated. Use typeless api instead',
  getFieldMapping: '[types removal] Specifying types in get field mapping request is deprecated. Use typeless api instead',
} as const;

/** Elasticsearch 8's texts for `include_type_name` in compatibility mode, by API. */
export const INCLUDE_TYPE_NAME = {
  createIndex: '[types removal] Using include_type_name in create index requests is deprecated. The parameter will be removed in the next major version.',
  putTemplate: '[types removal] Specifying include_type_name in put index template requests is deprecated. The parameter will be removed in the next major version.',
  getIndex: '[types removal] Using `include_type_name` in get indices requests is deprecated. The parameter will be removed in the next major version.',
  getMapping: '[types removal] Using include_type_name in get mapping requests is deprecated. The parameter will be removed in the next major version.',
  putMapping: '[types removal] Using include_type_name in put mapping requests is deprecated. The parameter will be removed in the next major version.',
  getFieldMapping: '[types removal] Using include_type_name in get field mapping requests is deprecated. The parameter will be removed in the next major version.',
  rollover: '[types removal] Using include_type_name in rollover index requests is deprecated. The parameter will be removed in the next major version.',
} as const;

/** Elasticsearch 8's text for `local` on get field mapping in compatibility mode (RestGetFieldMappingAction; the parameter is gone from 8.0 otherwise). */
export const FIELD_MAPPING_LOCAL = 'Use [local] in get field mapping requests is deprecated. The parameter will be removed in the next major version';
