import { requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

async function putPipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.searchPipelines.put(req.pathParams.id, requireBody(req));
  return ACK;
}

/** GET _search/pipeline[/{id}]: `{id: definition}` for each match; 404 with `{}` when an id names none (OpenSearch's answer). */
function getPipelines(req: RestRequest, ctx: EngineContext): RestResponse {
  const found = ctx.searchPipelines.definitions(req.pathParams.id);
  return { status: found.length || req.pathParams.id === undefined ? 200 : 404, body: Object.fromEntries(found) };
}

async function deletePipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.searchPipelines.delete(req.pathParams.id);
  return ACK;
}

/** OpenSearch's search pipelines: CRUD (what a search runs through is search.ts's). */
export const searchPipelineRoutes: Route[] = [
  { id: 'opensearch.put_search_pipeline', handler: putPipeline },
  { id: 'opensearch.get_search_pipeline', handler: getPipelines },
  { id: 'opensearch.delete_search_pipeline', handler: deletePipeline },
];
