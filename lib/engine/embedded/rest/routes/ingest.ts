import { EsError } from '../../../../errors/index.js';
import { DEFAULT_GROK_PATTERNS, pipelineUsers, simulate } from '../../ingest/index.js';
import { requireBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };

async function putPipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.ingestPipelines.put(req.pathParams.id, requireBody(req), integerParam(req.params, 'if_version'), req.body);
  return ACK;
}

/** GET _ingest/pipeline[/{id}]: `{id: definition}` for each match; 404 with `{}` when none (ES's answer). */
function getPipelines(req: RestRequest, ctx: EngineContext): RestResponse {
  const summary = booleanParam(req.params, 'summary', false);
  const found = ctx.ingestPipelines.definitions(req.pathParams.id);
  const body = Object.fromEntries(found.map(([id, definition]) => [id, summary ? {} : definition]));
  return { status: found.length || req.pathParams.id === undefined ? 200 : 404, body };
}

async function deletePipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.ingestPipelines.delete(req.pathParams.id, (id) => pipelineUsers(ctx.indices, id));
  return ACK;
}

async function simulatePipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  return { status: 200, body: await simulate(ctx.ingestPipelines, { id: req.pathParams.id, body, verbose: booleanParam(req.params, 'verbose', false) }) };
}

/** GET _ingest/processor/grok: the default pattern bank (`s`: sorted by name). */
function grokPatterns(req: RestRequest): RestResponse {
  const ecs = req.params.get('ecs_compatibility') ?? 'disabled';
  if (ecs !== 'disabled' && ecs !== 'v1') throw new EsError(400, 'illegal_argument_exception', `unsupported ECS compatibility mode [${ecs}]`);
  if (ecs === 'v1') throw new EsError(400, 'illegal_argument_exception', 'ECS compatibility mode [v1] is not supported by the embedded engine (only [disabled])');
  const names = Object.keys(DEFAULT_GROK_PATTERNS);
  if (booleanParam(req.params, 's', false)) names.sort();
  return { status: 200, body: { patterns: Object.fromEntries(names.map((n) => [n, DEFAULT_GROK_PATTERNS[n]])) } };
}

/** Ingest pipelines: CRUD, simulation, and the grok pattern bank. */
export const ingestRoutes: Route[] = [
  { id: 'ingest.put_pipeline', handler: putPipeline },
  { id: 'ingest.get_pipeline', handler: getPipelines },
  { id: 'ingest.delete_pipeline', handler: deletePipeline },
  { id: 'ingest.simulate', handler: simulatePipeline },
  { id: 'ingest.processor_grok', handler: grokPatterns },
];
