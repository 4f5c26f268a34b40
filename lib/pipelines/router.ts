import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Authorizer, Principal } from '../auth/index.js';
import { patternsCover, patternsCoverPattern } from '../auth/classify/index.js';
import type { InterceptedBackend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { bufferBody, byRoute, patternSegments, readJsonBody, type Classification, type GatewayRequest } from '../request/index.js';

/** What the edge put in the state before this step (lib/server/state.ts): the request as read. */
type GatewayRequestState = { gatewayRequest: GatewayRequest };
import { queryOf, type Caller, type PipelineContext, type PipelineRequest } from './context.js';
import { parseDefinitionText, scriptTooDeep, validatePipeline, type SyntaxCheck, type Pipeline, type PipelineOwner, type PipelineRoute } from './definition.js';
import { readForm } from './multipart.js';
import type { PipelineMatch, PipelineRegistry } from './registry.js';
import { runPipeline, type StageOutcome } from './runner.js';
import type { SandboxLimits } from './sandbox.js';
import type { ScriptPool } from './script-pool.js';
import type { DeclarativeStageApi, StageServices } from './stages.js';

export interface PipelineRouterOptions {
  registry: PipelineRegistry;
  backend: InterceptedBackend;
  authorizer: Authorizer;
  limits: SandboxLimits;
  /** The worker threads script stages run on. */
  scripts: ScriptPool;
  maxContentLength: number;
  declarative?: DeclarativeStageApi;
  /** Told of each stage that ran (ok or failed), for metrics. */
  stageRan?: (pipeline: string, outcome: StageOutcome) => void;
}

/** Scripts are compiled on the script pool's threads, within the run's time limit. */
const syntaxOf = (options: PipelineRouterOptions): SyntaxCheck => (source, name, scanned) => options.scripts.check(source, name, options.limits, scanned);

/** Headers a script never sees: the caller's secrets. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Headers the response takes from the HTTP layer, not from a stage. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

function callerOf(ctx: Context): Caller {
  return {
    principal: ctx.state.principal as Principal,
    ip: ctx.request.ip || ctx.req.socket.remoteAddress || '',
    referer: ctx.get('referer') || undefined,
  };
}

function newContext(pipeline: Pipeline, route: PipelineRoute, request: PipelineRequest, clientIp: string): PipelineContext {
  return {
    request,
    response: {},
    envs: {
      ...pipeline.envs,
      index: request.params.index,
      category: route.classify?.category,
      method: request.method,
      path: request.path,
      clientIp,
    },
    errors: [],
  };
}

/**
 * Runs the pipeline that claims a request (method and path), in place of the built-in route.
 * Mounted after `authenticate` and before `authorize`: the pipeline's `authorization` stage is the
 * access-control check of its route. A request no pipeline claims goes on unchanged.
 */
export function pipelineRoutes(options: PipelineRouterOptions): Middleware {
  const { registry, maxContentLength } = options;
  const run = async (ctx: Context, match: PipelineMatch) => {
    const body = await bufferBody(ctx, maxContentLength);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined && !HIDDEN_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const request: PipelineRequest = {
      method: ctx.method,
      path: ctx.path,
      params: match.params,
      query: queryOf((ctx.state as GatewayRequestState).gatewayRequest.params),
      headers,
      body: body ? body.toString('utf8') : '',
    };
    const caller = callerOf(ctx);
    const run = await runPipeline(match.pipeline, newContext(match.pipeline, match.route, request, caller.ip), services(options, caller, match, false), options.limits);
    ctx.status = run.status;
    for (const [name, value] of Object.entries(run.headers)) {
      if (!FRAMING_HEADERS.has(name.toLowerCase())) ctx.set(name, value);
    }
    ctx.body = run.body;
  };
  return (ctx, next) => {
    if (registry.size === 0) return next();
    const match = registry.match(ctx.method, (ctx.state as GatewayRequestState).gatewayRequest.segments);
    return match && claims(match, ctx.state.request as Classification | undefined) ? run(ctx, match) : next();
  };
}

function services(options: PipelineRouterOptions, caller: Caller, match: Pick<PipelineMatch, 'route'> & { pipeline?: Pipeline }, dryRun: boolean): StageServices {
  return {
    backend: options.backend,
    authorizer: options.authorizer,
    caller,
    category: match.route.classify?.category,
    dryRun,
    declarative: options.declarative,
    owner: match.pipeline?.owner,
    scripts: options.scripts,
    stageRan: options.stageRan,
  };
}

const notFound = (id: string) => new EsError(404, 'resource_not_found_exception', `pipeline [${id}] not found`, { 'resource.type': 'pipeline', 'resource.id': id });

/** A pipeline as the API shows it. */
const view = (p: Pipeline) => ({ ...p });

/**
 * A tenant's pipeline claims only requests to that tenant's own indices: the request's first path
 * segment (as classified) is a list of index names within the owner's patterns — no API (`_…`), no
 * wildcard — and so is every other index the request reaches (its body's: `_bulk`, `_msearch` and
 * `_mget` lines, lookups). A request that also reaches another index (the admin's `_bulk` to
 * `/{own}/_bulk` with lines for another tenant) is not the tenant's to see: its stages would read,
 * and could copy, what it carries for that index. It goes on to its built-in route.
 */
function claims(match: PipelineMatch, info: Classification | undefined): boolean {
  const owner = match.pipeline.owner;
  if (!owner) return true;
  const first = info?.segments[0];
  if (info === undefined || first === undefined || (match.params.index !== undefined && match.params.index !== first)) return false;
  const own = (name: string) => name !== '' && !name.startsWith('_') && !name.includes('*') && patternsCover(owner.indices, name);
  // the path's index list as the classification read it (its expressions, one by one), and every other index reached
  return info.sources.some((s) => s.from === 'path') && !info.allIndices && info.indices.every(own);
}

/**
 * What a scoped credential may register: routes whose index part (the first segment) is the
 * `{index}` parameter or index names within its patterns. A route of an API (`/_security/user/{name}`),
 * one whose first segment is another parameter, or names reaching beyond its patterns would let its
 * stages see (and copy) other principals' requests: refused (403).
 */
function checkOwnRoutes(pipeline: Pipeline, owner: PipelineOwner): void {
  pipeline.routes.forEach((route, i) => {
    const first = patternSegments(route.path)[0];
    const refuse = (why: string) => {
      throw new EsError(403, 'security_exception',
        `action [cluster:admin/gateway/pipelines] is unauthorized for user [${owner.username}]: [routes][${i}][path] [${route.path}] ${why}; a pipeline of a scoped credential claims only requests to its own indices`);
    };
    if (first === '{index}') return;
    if (first === undefined) return refuse('names no index');
    if (first.startsWith('{')) return refuse('does not start with the {index} parameter or an index name');
    for (const name of first.split(',')) {
      if (name === '' || name.startsWith('_') || name.startsWith('-') || !patternsCoverPattern(owner.indices, name)) return refuse(`reaches [${name}], not within [${owner.indices.join(',')}]`);
    }
  });
}

/** The admin manages every pipeline; a scoped credential only the ones it registered. */
function mayManage(principal: Principal, pipeline: Pipeline | undefined): boolean {
  return principal.role === 'admin' || (pipeline?.owner?.username === principal.username);
}

function ownerOf(principal: Principal): Pipeline['owner'] {
  if (principal.role === 'admin') return undefined;
  const { credential } = principal;
  const owner: PipelineOwner = { username: principal.username, indices: [...credential.indices], categories: [...credential.categories], ops: [...credential.ops], allow_raw_dsl: credential.allow_raw_dsl };
  if (credential.include_fields !== undefined) owner.include_fields = [...credential.include_fields];
  if (credential.exclude_fields !== undefined) owner.exclude_fields = [...credential.exclude_fields];
  if (credential.max_size !== undefined) owner.max_size = credential.max_size;
  return owner;
}

const notYours = (id: string, principal: Principal) =>
  new EsError(403, 'security_exception', `action [cluster:admin/gateway/pipelines] on pipeline [${id}] is unauthorized for user [${principal.username}]`);

/**
 * The management API (category `pipelines`, authorized by the normal `authorize` middleware):
 * `POST /_pipeline`, `GET /_pipelines`, `GET|PUT|DELETE /_pipeline/{id}`, `POST /_pipeline/validate`,
 * dispatched on their ids in the route table (lib/request's `GATEWAY_ROUTES`).
 */
export function pipelineApi(options: PipelineRouterOptions): Middleware {
  const { registry, maxContentLength } = options;
  const principalOf = (ctx: Context) => ctx.state.principal as Principal;
  /** The stored pipeline `id`, which the caller may manage (a missing one: undefined). */
  const managed = (ctx: Context, id: string) => {
    const existing = registry.get(id);
    if (existing && !mayManage(principalOf(ctx), existing)) throw notYours(id, principalOf(ctx));
    return existing;
  };
  return byRoute({
    'pipelines.list': (ctx) => {
      ctx.body = { pipelines: registry.list().filter((p) => mayManage(principalOf(ctx), p)).map(view) };
    },
    'pipelines.validate': async (ctx) => {
      ctx.body = await validate(ctx, options);
    },
    'pipelines.create': async (ctx) => {
      const { definition, files, scanned } = await readDefinition(ctx, maxContentLength);
      const raw = definition as Record<string, unknown>;
      const pipeline = await validatePipeline(definition, files, syntaxOf(options), raw && typeof raw === 'object' && raw.id === undefined ? randomUUID() : undefined, scanned);
      if (registry.get(pipeline.id)) throw new EsError(409, 'resource_already_exists_exception', `pipeline [${pipeline.id}] already exists; PUT /_pipeline/${pipeline.id} replaces it`);
      pipeline.owner = ownerOf(principalOf(ctx));
      if (pipeline.owner) checkOwnRoutes(pipeline, pipeline.owner);
      await registry.put(pipeline);
      ctx.status = 201;
      ctx.body = { _id: pipeline.id, result: 'created', pipeline: view(pipeline) };
    },
    'pipelines.get': (ctx, { id }) => {
      const pipeline = managed(ctx, id);
      if (!pipeline) throw notFound(id);
      ctx.body = { _id: id, found: true, pipeline: view(pipeline) };
    },
    'pipelines.put': async (ctx, { id }) => {
      const existing = managed(ctx, id);
      const principal = principalOf(ctx);
      const { definition, files, scanned } = await readDefinition(ctx, maxContentLength);
      const given = (definition as Record<string, unknown> | null)?.id;
      if (given !== undefined && given !== id) throw new EsError(400, 'illegal_argument_exception', `the definition's [id] [${String(given)}] is not the path's [${id}]`);
      const pipeline = await validatePipeline(definition, files, syntaxOf(options), id, scanned);
      pipeline.owner = principal.role === 'admin' ? existing?.owner : ownerOf(principal);
      if (pipeline.owner) checkOwnRoutes(pipeline, pipeline.owner);
      const created = await registry.put(pipeline);
      ctx.status = created ? 201 : 200;
      ctx.body = { _id: id, result: created ? 'created' : 'updated', pipeline: view(pipeline) };
    },
    'pipelines.delete': async (ctx, { id }) => {
      managed(ctx, id);
      if (!(await registry.delete(id))) throw notFound(id);
      ctx.body = { _id: id, result: 'deleted' };
    },
  });
}

/**
 * The definition and its script files: `multipart/form-data` (form key `pipeline`, one key per
 * script file), or a JSON body that is the definition itself (inline scripts).
 */
async function readDefinition(ctx: Context, limit: number, extra?: string[]): Promise<{ definition: unknown; files: Record<string, string>; form: Record<string, string>; scanned: boolean }> {
  if (ctx.is('multipart/form-data')) {
    // a script file nested too deeply is refused as soon as the definition names its stage
    const form = await readForm(ctx, limit, {
      refuseTooDeep: (file, read) => (read.pipeline === undefined ? undefined : scriptTooDeep(parseDefinitionText(read.pipeline), file)),
      notScripts: ['pipeline', ...(extra ?? [])],
    });
    if (form.pipeline === undefined) throw new EsError(400, 'illegal_argument_exception', 'form key [pipeline] (the definition file) is required');
    const files: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) if (key !== 'pipeline' && !extra?.includes(key)) files[key] = value;
    // every file's nesting was scanned as it was read: the script pool need not scan it again
    return { definition: parseDefinitionText(form.pipeline), files, form, scanned: true };
  }
  const body = await readJsonBody(ctx, limit);
  if (body === undefined) throw new EsError(400, 'parse_exception', 'request body is required: a multipart form with the pipeline and its scripts, or the definition as JSON');
  return { definition: body, files: {}, form: {}, scanned: false };
}

interface SampleRequest {
  method?: string;
  path?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/**
 * Dry run: validates the definition and runs it over a sample request (form key `request`, or
 * `{"pipeline": …, "request": …}` as JSON) as the caller, without sending anything to the engine.
 */
async function validate(ctx: Context, options: PipelineRouterOptions): Promise<unknown> {
  let definition: unknown;
  let files: Record<string, string> = {};
  let sample: SampleRequest = {};
  let scanned = false;
  if (ctx.is('multipart/form-data')) {
    const read = await readDefinition(ctx, options.maxContentLength, ['request']);
    definition = read.definition;
    files = read.files;
    scanned = read.scanned;
    if (read.form.request !== undefined) {
      try {
        sample = JSON.parse(read.form.request) as SampleRequest;
      } catch {
        throw new EsError(400, 'parse_exception', 'form key [request] must be a JSON object');
      }
    }
  } else {
    const body = (await readJsonBody(ctx, options.maxContentLength)) as { pipeline?: unknown; scripts?: Record<string, string>; request?: SampleRequest } | undefined;
    if (!body || typeof body !== 'object') throw new EsError(400, 'parse_exception', 'request body must be {"pipeline": {…}, "request": {…}}');
    definition = body.pipeline;
    files = body.scripts ?? {};
    sample = body.request ?? {};
  }
  const raw = definition as Record<string, unknown> | undefined;
  const pipeline = await validatePipeline(definition, files, syntaxOf(options), raw && typeof raw === 'object' && raw.id === undefined ? 'validate' : undefined, scanned);
  const route = pipeline.routes[0];
  const method = (sample.method ?? route.method ?? 'GET').toUpperCase();
  const path = sample.path ?? route.path;
  const params: Record<string, string> = {};
  const names = [...route.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
  const values = new RegExp(`^${route.path.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, '([^/]+)')}/?$`).exec(path);
  names.forEach((n, i) => values && (params[n] = values[i + 1]));
  const request: PipelineRequest = {
    method,
    path,
    params,
    query: sample.query ?? {},
    headers: sample.headers ?? {},
    body: sample.body === undefined ? '' : typeof sample.body === 'string' ? sample.body : JSON.stringify(sample.body),
  };
  const caller = callerOf(ctx);
  const run = await runPipeline(pipeline, newContext(pipeline, route, request, caller.ip), services(options, caller, { route }, true), options.limits);
  return {
    valid: true,
    pipeline: pipeline.id,
    stages: run.outcomes,
    response: { code: run.status, body: run.body },
    context: { request: run.context.request, envs: run.context.envs, errors: run.context.errors },
  };
}
