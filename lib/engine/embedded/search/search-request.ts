import { EsError } from '../../../errors/index.js';
import { parseQuery, type Query } from './query/index.js';
import { sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from './source-filter.js';

export interface SearchRequest {
  query: Query;
  from: number;
  size: number;
  source: SourceFilter;
  /** true: exact; false: none; a number: exact up to it. */
  trackTotalHits: boolean | number;
  totalAsInt: boolean;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  minScore?: number;
}

const IMPLEMENTED = new Set(['query', 'from', 'size', '_source', 'track_total_hits', 'version', 'seq_no_primary_term', 'stored_fields', 'timeout', 'min_score', 'track_scores', 'explain', 'profile', 'stats', 'terminate_after']);
/** Known to Elasticsearch, not yet to this engine: refused clearly rather than ignored. */
const NOT_YET = new Set(['sort', 'aggs', 'aggregations', 'highlight', 'post_filter', 'search_after', 'collapse', 'suggest', 'rescore', 'script_fields', 'docvalue_fields', 'fields', 'runtime_mappings', 'pit', 'indices_boost', 'knn', 'rank', 'retriever', 'slice', 'ext']);

function intParam(name: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${String(raw)}]`);
  return n;
}

function trackTotalHitsOf(v: unknown): boolean | number {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  const n = intParam('track_total_hits', v);
  if (n < -1) throw new EsError(400, 'illegal_argument_exception', `[track_total_hits] parameter must be positive or equals to -1, got ${n}`);
  return n === -1 ? true : n;
}

/** A search (or count) request from its body and URL parameters, with ES's validation. */
export function parseSearchRequest(body: Record<string, unknown> | undefined, params: URLSearchParams, maxResultWindow: number): SearchRequest {
  const b = body ?? {};
  for (const [k, v] of Object.entries(b)) {
    if (IMPLEMENTED.has(k)) continue;
    if (NOT_YET.has(k)) throw new EsError(400, 'illegal_argument_exception', `[${k}] is not supported by the embedded engine yet`);
    const token = v !== null && typeof v === 'object' ? (Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT') : 'VALUE_STRING';
    throw new EsError(400, 'parsing_exception', `Unknown key for a ${token} in [${k}].`, { line: 1, col: 1 });
  }
  const query: Query = b.query === undefined ? { type: 'match_all', boost: 1 } : parseQuery(b.query);
  let from = b.from !== undefined ? intParam('from', b.from) : 0;
  let size = b.size !== undefined ? intParam('size', b.size) : 10;
  if (params.has('from')) from = intParam('from', params.get('from'));
  if (params.has('size')) size = intParam('size', params.get('size'));
  if (from < 0) throw new EsError(400, 'illegal_argument_exception', `[from] parameter cannot be negative, found [${from}]`);
  if (size < 0) throw new EsError(400, 'illegal_argument_exception', `[size] parameter cannot be negative, found [${size}]`);
  if (from + size > maxResultWindow) {
    throw new EsError(400, 'illegal_argument_exception',
      `Result window is too large, from + size must be less than or equal to: [${maxResultWindow}] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`);
  }
  let trackTotalHits: boolean | number = b.track_total_hits !== undefined ? trackTotalHitsOf(b.track_total_hits) : 10_000;
  if (params.has('track_total_hits')) trackTotalHits = trackTotalHitsOf(params.get('track_total_hits'));
  const totalAsInt = params.get('rest_total_hits_as_int') === 'true' || params.get('rest_total_hits_as_int') === '';
  if (totalAsInt && trackTotalHits !== true && trackTotalHits !== false) {
    if (b.track_total_hits !== undefined || params.has('track_total_hits')) {
      throw new EsError(400, 'illegal_argument_exception', `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${trackTotalHits}`);
    }
    trackTotalHits = true;
  }
  const source = sourceFilterFromParams(params, sourceFilterFromBody(b._source));
  const flag = (k: string) => b[k] === true || params.get(k) === 'true';
  return {
    query, from, size, source, trackTotalHits, totalAsInt,
    version: flag('version'),
    seqNoPrimaryTerm: flag('seq_no_primary_term'),
    minScore: typeof b.min_score === 'number' ? b.min_score : undefined,
  };
}

/** A `_count` body: only `query` is accepted. */
export function parseCountQuery(body: Record<string, unknown> | undefined): Query {
  const b = body ?? {};
  for (const k of Object.keys(b)) {
    if (k !== 'query') throw new EsError(400, 'parsing_exception', `request does not support [${k}]`, { line: 1, col: 1 });
  }
  return b.query === undefined ? { type: 'match_all', boost: 1 } : parseQuery(b.query);
}
