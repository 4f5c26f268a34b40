import { explainQuery, parseQuery, queryContextOf } from '../../search/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS } from './resolve.js';
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

const VALIDATE_PARAMS = [...INDICES_OPTIONS, 'explain', 'rewrite', 'all_shards', 'q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient'];
const EXPLAIN_PARAMS = ['q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'stored_fields', '_source', '_source_includes', '_source_excludes'];

export const validateExplainRoutes: Route[] = [
  { methods: ['GET', 'POST'], pattern: '/_validate/query', params: VALIDATE_PARAMS, handler: validateQuery },
  { methods: ['GET', 'POST'], pattern: '/{index}/_validate/query', params: VALIDATE_PARAMS, handler: validateQuery },
  { methods: ['GET', 'POST'], pattern: '/{index}/_explain/{id}', params: EXPLAIN_PARAMS, handler: explain },
];
