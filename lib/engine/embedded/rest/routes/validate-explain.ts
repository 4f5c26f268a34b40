import { toEsError } from '../../../../errors/index.js';
import { explainQuery, parseQuery, queryContextOf } from '../../search/index.js';
import { requestBody } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS } from './resolve.js';
import { effectiveQuery, resolveTarget, withQueryRules } from './search-target.js';

/** `_validate/query`: whether the query parses (and, for query strings, expands) on the target indices. */
function validateQuery(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveTarget(ctx, req.pathParams.index, req.params);
  const shards = { total: handles.length, successful: handles.length, failed: 0 };
  const explain = booleanParam(req.params, 'explain', false);
  let error: string | undefined;
  try {
    const body = requestBody(req);
    const query = effectiveQuery(body?.query, req.params, handles, req.pathParams.index);
    withQueryRules(ctx, parseQuery(query ?? { match_all: {} }));
  } catch (err) {
    const e = toEsError(err);
    if (e.status >= 500) throw err;
    error = `[${e.type}] ${e.reason}`;
  }
  const out: Record<string, unknown> = { _shards: shards, valid: error === undefined };
  if (explain) {
    out.explanations = handles.map((h) => (error === undefined ? { index: h.name, valid: true, explanation: '' } : { index: h.name, valid: false, error }));
  }
  return { status: 200, body: out };
}

/** `_explain/{id}`: whether one document matches, and Lucene's explanation of its score. */
function explain(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const id = req.pathParams.id;
  const head = { _index: handle.name, _id: id };
  if (!handle.getCounted(id)) return { status: 404, body: { ...head, matched: false } };
  const body = requestBody(req);
  const query = effectiveQuery(body?.query, req.params, [handle], req.pathParams.index) ?? { match_all: {} };
  const ord = handle.inverted!.ordOf(id)!;
  const { matched, explanation } = explainQuery(withQueryRules(ctx, parseQuery(query)), ord, queryContextOf(handle));
  return { status: 200, body: { ...head, matched, explanation } };
}

const VALIDATE_PARAMS = [...INDICES_OPTIONS, 'explain', 'rewrite', 'all_shards', 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient'];
const EXPLAIN_PARAMS = ['q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'stored_fields', '_source', '_source_includes', '_source_excludes'];

export const validateExplainRoutes: Route[] = [
  { methods: ['GET', 'POST'], pattern: '/_validate/query', params: VALIDATE_PARAMS, handler: validateQuery },
  { methods: ['GET', 'POST'], pattern: '/{index}/_validate/query', params: VALIDATE_PARAMS, handler: validateQuery },
  { methods: ['GET', 'POST'], pattern: '/{index}/_explain/{id}', params: EXPLAIN_PARAMS, handler: explain },
];
