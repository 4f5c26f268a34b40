import { EsError } from '../../../../errors/index.js';
import { warningHeader } from '../../../../rest-compat/index.js';
import { isPlainObject } from '../../indices/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { executeSearch } from './search.js';

const BODY_KEYS = ['knn', 'filter', '_source', 'fields', 'docvalue_fields', 'stored_fields'];
const KNN_KEYS = ['field', 'query_vector', 'k', 'num_candidates'];
const MAX_CANDIDATES = 10_000;
const DEPRECATION = 'The kNN search API has been replaced by the `knn` option in the search API.';

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function intOf(key: string, v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  throw new EsError(400, 'x_content_parse_exception', `[1:2] [knn] failed to parse field [${key}]`);
}

/**
 * The kNN search API (`/{index}/_knn_search`, deprecated since 8.4), as Elasticsearch's
 * KnnSearchRequestParser turns it into a search: a `knn` query of `num_candidates` per shard with
 * the request's filters, `size` k, the total counted exactly, and the fetch options kept.
 */
async function knnSearch(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) ?? {};
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.includes(key)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [knn-search] unknown field [${key}]`);
  }
  const { knn, filter, ...fetch } = body;
  if (knn === undefined) throw illegal('missing required [knn] section in search body');
  if (!isPlainObject(knn)) throw new EsError(400, 'x_content_parse_exception', '[1:2] [knn-search] knn doesn\'t support values of type: VALUE_STRING');
  for (const key of Object.keys(knn)) {
    if (!KNN_KEYS.includes(key)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [knn] unknown field [${key}]`);
  }
  const missing = KNN_KEYS.filter((key) => knn[key] === undefined || knn[key] === null);
  if (missing.length) throw illegal(`Required [${missing.join(', ')}]`);
  const k = intOf('k', knn.k);
  const numCandidates = intOf('num_candidates', knn.num_candidates);
  if (k < 1) throw illegal('[k] must be greater than 0');
  if (numCandidates < k) throw illegal('[num_candidates] cannot be less than [k]');
  if (numCandidates > MAX_CANDIDATES) throw illegal(`[num_candidates] cannot exceed [${MAX_CANDIDATES}]`);
  const query = { knn: { field: knn.field, query_vector: knn.query_vector, k: numCandidates, num_candidates: numCandidates, ...(filter === undefined ? {} : { filter }) } };
  const search = { ...fetch, query, size: k, track_total_hits: true };
  const answer = await executeSearch(ctx, req.pathParams.index, req.params, search, req.started);
  return { status: 200, body: answer, headers: { warning: warningHeader([DEPRECATION]) } };
}

export const knnSearchRoutes: Route[] = [{ id: 'knn_search', handler: knnSearch }];
