import { EsError } from '../../../../errors/index.js';
import { DEFAULT_GROK_PATTERNS, pipelineUsers, simulate } from '../../ingest/index.js';
import { requireBody } from '../body.js';
import { booleanParam, integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };
const MASTER = ['master_timeout', 'timeout'];

async function putPipeline(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await ctx.ingestPipelines.put(req.pathParams.id, requireBody(req), integerParam(req.params, 'if_version'));
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

function simulatePipeline(req: RestRequest, ctx: EngineContext): RestResponse {
  const body = requireBody(req);
  return { status: 200, body: simulate(ctx.ingestPipelines, ctx.storedScripts, { id: req.pathParams.id, body, verbose: booleanParam(req.params, 'verbose', false) }) };
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
  { methods: ['PUT'], pattern: '/_ingest/pipeline/{id}', params: [...MASTER, 'if_version'], handler: putPipeline },
  { methods: ['GET'], pattern: '/_ingest/pipeline', params: ['master_timeout', 'summary'], handler: getPipelines },
  { methods: ['GET'], pattern: '/_ingest/pipeline/{id}', params: ['master_timeout', 'summary'], handler: getPipelines },
  { methods: ['DELETE'], pattern: '/_ingest/pipeline/{id}', params: MASTER, handler: deletePipeline },
  { methods: ['GET', 'POST'], pattern: '/_ingest/pipeline/_simulate', params: ['verbose'], handler: simulatePipeline },
  { methods: ['GET', 'POST'], pattern: '/_ingest/pipeline/{id}/_simulate', params: ['verbose'], handler: simulatePipeline },
  { methods: ['GET'], pattern: '/_ingest/processor/grok', params: ['s', 'ecs_compatibility'], handler: grokPatterns },
];
