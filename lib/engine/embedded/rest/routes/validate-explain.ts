import { EsError } from '../../../../errors/index.js';
import { checkRoutingGiven, type JsonObject } from '../../indices/index.js';
import { explainQuery, parseQuery, queryContextOf, sourceFilterFromParams } from '../../search/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { updateGetResult } from './documents.js';
import { validateQuery } from './validate-query.js';
import { effectiveQuery, withQueryRules } from './search-target.js';

const SOURCE_PARAMS = ['_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude'];

/**
 * `_explain/{id}`: whether one document matches, and Lucene's explanation of its score. The body
 * holds `query` alone (anything else is Elasticsearch's `request does not support [x]`); `_source`
 * parameters asking for the source add the document under `get`, as Elasticsearch's explain does.
 */
function explain(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const id = req.pathParams.id;
  const body = requestBody(req);
  for (const k of Object.keys(body ?? {})) {
    if (k !== 'query') throw new EsError(400, 'parsing_exception', `request does not support [${k}]`, { line: 1, col: 1 });
  }
  checkRoutingGiven(handle, id, req.params.get('routing') ?? undefined);
  const head = { _index: handle.name, _type: '_doc', _id: id };
  if (!handle.getCounted(id)) return { status: 404, body: { ...head, matched: false } };
  const query = effectiveQuery(body?.query, req.params, [handle], req.pathParams.index) ?? { match_all: {} };
  const ord = handle.inverted!.ordOf(id)!;
  const { matched, explanation } = explainQuery(withQueryRules(ctx, parseQuery(query)), ord, queryContextOf(handle));
  const response: JsonObject = { ...head, matched, explanation };
  if (SOURCE_PARAMS.some((p) => req.params.has(p))) {
    const get = updateGetResult(handle, id, sourceFilterFromParams(req.params));
    if (get) response.get = get;
  }
  return { status: 200, body: response };
}

export const validateExplainRoutes: Route[] = [
  { id: 'indices.validate_query', handler: validateQuery },
  { id: 'explain', handler: explain },
];
