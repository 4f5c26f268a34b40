import { EsError } from '../../../../errors/index.js';
import { parseCountQuery, parseSearchRequest, runCount, runSearch } from '../../search/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS, resolveIndices } from './resolve.js';

function refuseUnsupported(req: RestRequest): void {
  for (const p of ['q', 'scroll', 'sort']) {
    if (req.params.has(p)) throw new EsError(400, 'illegal_argument_exception', `[${p}] is not supported by the embedded engine yet`);
  }
}

function search(req: RestRequest, ctx: EngineContext): RestResponse {
  refuseUnsupported(req);
  const body = requestBody(req);
  const handles = resolveIndices(req, ctx);
  const maxWindow = Math.min(...handles.map((h) => Number(h.meta.settings['index.max_result_window'] ?? '10000')), 10_000 * 1000);
  const request = parseSearchRequest(body, req.params, handles.length ? maxWindow : 10_000);
  return { status: 200, body: runSearch(handles, request, req.started) };
}

function count(req: RestRequest, ctx: EngineContext): RestResponse {
  refuseUnsupported(req);
  const query = parseCountQuery(requestBody(req));
  return { status: 200, body: runCount(resolveIndices(req, ctx), query) };
}

const SEARCH_PARAMS = [
  ...INDICES_OPTIONS, 'q', 'from', 'size', '_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude',
  'track_total_hits', 'rest_total_hits_as_int', 'routing', 'preference', 'timeout', 'search_type', 'request_cache', 'typed_keys',
  'batched_reduce_size', 'pre_filter_shard_size', 'ccs_minimize_roundtrips', 'allow_partial_search_results', 'track_scores', 'version',
  'seq_no_primary_term', 'explain', 'stored_fields', 'docvalue_fields', 'sort', 'analyzer', 'analyze_wildcard', 'default_operator', 'df',
  'lenient', 'terminate_after', 'stats', 'scroll', 'max_concurrent_shard_requests', 'ignore_throttled', 'include_named_queries_score',
];
const COUNT_PARAMS = [...INDICES_OPTIONS, 'min_score', 'preference', 'routing', 'q', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'terminate_after', 'ignore_throttled'];

export const searchRoutes: Route[] = [
  { methods: ['GET', 'POST'], pattern: '/_search', params: SEARCH_PARAMS, handler: search },
  { methods: ['GET', 'POST'], pattern: '/{index}/_search', params: SEARCH_PARAMS, handler: search },
  { methods: ['GET', 'POST'], pattern: '/_count', params: COUNT_PARAMS, handler: count },
  { methods: ['GET', 'POST'], pattern: '/{index}/_count', params: COUNT_PARAMS, handler: count },
];
