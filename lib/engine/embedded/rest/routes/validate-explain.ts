import { explainQuery, parseQuery, queryContextOf } from '../../search/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { validateQuery } from './validate-query.js';
import { effectiveQuery, withQueryRules } from './search-target.js';

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

export const validateExplainRoutes: Route[] = [
  { id: 'indices.validate_query', handler: validateQuery },
  { id: 'explain', handler: explain },
];
