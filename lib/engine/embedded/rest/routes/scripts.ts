import { EsError } from '../../../../errors/index.js';
import { painlessContexts, scriptContexts, scriptLanguages } from '../../scripts/index.js';
import { requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

/** PUT|POST _scripts/{id}[/{context}]: the context from the path, or the `context` parameter. */
async function putScript(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  const context = req.pathParams.context ?? req.params.get('context') ?? undefined;
  await ctx.storedScripts.put(req.pathParams.id, body, Buffer.byteLength(req.body), context);
  return ACK;
}

/** GET _scripts/{id}: `{_id, found, script: {lang, source, options?}}`, or 404 with `found: false`. */
function getScript(req: RestRequest, ctx: EngineContext): RestResponse {
  const id = req.pathParams.id;
  const script = ctx.storedScripts.get(id);
  if (!script) return { status: 404, body: { _id: id, found: false } };
  return { status: 200, body: { _id: id, found: true, script } };
}

async function deleteScript(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.storedScripts.delete(req.pathParams.id);
  return ACK;
}

/** The stored scripts API, and what the engine tells of its script languages and contexts. */
export const scriptRoutes: Route[] = [
  { id: 'put_script', handler: putScript },
  { id: 'get_script', handler: getScript },
  { id: 'delete_script', handler: deleteScript },
  { id: 'get_script_context', handler: () => ({ status: 200, body: scriptContexts() }) },
  { id: 'get_script_languages', handler: () => ({ status: 200, body: scriptLanguages() }) },
  { id: 'scripts_painless_context', handler: (req) => ({ status: 200, body: painlessContexts(req.params.get('context') ?? undefined) }) },
];
