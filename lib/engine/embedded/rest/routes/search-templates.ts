import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { readMsearch } from '../../../../ndjson/index.js';
import { checkHasTemplate, parseSearchTemplateRequest, renderSearchTemplate, templateSearchParams, type SearchTemplateRequest } from '../../scripts/index.js';
import { jsonObject, jsonValue, requestBody, withExactSearchAfter } from '../body.js';
import { booleanParam, type ParamReader } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { rankEvalRoutes } from './rank-eval.js';
import { checkCancelAfter, executeSearch, msearchTarget, requireMsearchBody, validationError, withPhaseTookIfAsked } from './search.js';

/** The template request of a `_search/template` or `_render/template` body (required, as in Elasticsearch). */
function templateRequest(req: RestRequest): SearchTemplateRequest {
  const body = requestBody(req);
  if (!body) throw new EsError(400, 'parse_exception', 'request body or source parameter is required');
  return parseSearchTemplateRequest(body);
}

/** The search a rendered template stands for: its source, with the template request's `explain` and `profile`. */
function searchBodyOf(rendered: string, request: SearchTemplateRequest): Record<string, unknown> {
  const { explain: _explain, profile: _profile, ...body } = jsonObject(rendered);
  void _explain;
  void _profile;
  if (request.explain) body.explain = true;
  if (request.profile) body.profile = true;
  return withExactSearchAfter(body, rendered);
}

/** One templated search: rendered, read as a search body, run. */
function runTemplate(ctx: EngineContext, index: string | undefined, params: ParamReader, request: SearchTemplateRequest, started: number): Promise<Record<string, unknown>> {
  checkHasTemplate(request);
  const body = searchBodyOf(renderSearchTemplate(ctx.storedScripts, request), request);
  return executeSearch(ctx, index, templateSearchParams(params, body), body, started);
}

async function searchTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const request = templateRequest(req);
  // the URL's explain wins over the body's
  if (req.params.has('explain')) request.explain = booleanParam(req.params, 'explain', false);
  checkCancelAfter(req.params);
  return { status: 200, body: withPhaseTookIfAsked(ctx, req.params, await runTemplate(ctx, req.pathParams.index, req.params, request, req.started)) };
}

/** `_render/template[/{id}]`: the rendered template, as JSON, without searching. */
function renderTemplate(req: RestRequest, ctx: EngineContext): RestResponse {
  const request = templateRequest(req);
  if (req.pathParams.id !== undefined) {
    request.id = req.pathParams.id;
    request.source = undefined;
  }
  checkHasTemplate(request);
  return { status: 200, body: { template_output: jsonValue(renderSearchTemplate(ctx.storedScripts, request)) } };
}

/**
 * `_msearch/template`: header/body pairs read as `_msearch` reads them (a body that does not parse
 * fails the whole request, as does an item without a template); each template then rendered and
 * run on its own, its failure an item of the answer with its status.
 */
async function msearchTemplate(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  requireMsearchBody(req);
  const items = readMsearch(req.body).map(({ header, body }) => {
    const request = parseSearchTemplateRequest(body);
    if (request.id === undefined && request.source === undefined) throw new EsError(400, 'illegal_argument_exception', 'Malformed search template');
    const target = msearchTarget(req, header);
    checkCancelAfter(target.params);
    booleanParam(target.params, 'phase_took', false);
    return { ...target, request };
  });
  if (!items.length) throw validationError('no requests added');
  // MultiSearchTemplateRequest.validate: an item without a template fails the whole request
  const missing = items.filter((item) => !item.request.id && !item.request.source);
  if (missing.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${missing.map((_, i) => `${i + 1}: template is missing;`).join('')}`);
  const responses: Record<string, unknown>[] = [];
  for (const item of items) {
    try {
      const answer = await runTemplate(ctx, item.index, item.params, item.request, performance.now());
      responses.push({ ...withPhaseTookIfAsked(ctx, item.params, answer), status: 200 });
    } catch (err) {
      responses.push({ ...errorBody(toEsError(err)) });
    }
  }
  return { status: 200, body: { took: Math.max(0, Math.round(performance.now() - req.started)), responses } };
}

/** Search templates (Mustache): run, rendered, and run many at once. */
export const searchTemplateRoutes: Route[] = [
  { id: 'search_template', handler: searchTemplate },
  { id: 'render_search_template', handler: renderTemplate },
  { id: 'msearch_template', handler: msearchTemplate },
  // `_rank_eval` runs rated searches, templated or not (rank-eval.ts); served with the templated searches
  ...rankEvalRoutes,
];
