import type { StageOutcome } from './runner.js';
import { checkSystemIndices, type Authorizer, type Principal } from '../auth/index.js';
import { readRequest, renderTemplateRequest } from '../auth/classify/index.js';
import { checkFieldRules, fieldVisibilityOf } from '../auth/index.js';
import { engineAccessOf } from '../auth/index.js';
import type { PipelineOwner } from './definition.js';
import type { ScriptPool } from './script-pool.js';
import { readBody, type InterceptedBackend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { requestTarget, type GatewayRequest, type RequestTarget } from '../request/index.js';
import { queryOf, querystringOf, type Caller, type PipelineContext } from './context.js';
import { changeHitLists, changeSearchBodies, constrainQuery, rewriteSearchText } from './search-bodies.js';

/** What pre-built stages reach outside the context. */
export interface StageServices {
  backend: InterceptedBackend;
  authorizer: Authorizer;
  caller: Caller;
  /** The route's `classify.category`, if it names one. */
  category?: string;
  /** `POST /_pipeline/validate`: nothing is sent to the engine. */
  dryRun: boolean;
  /** The scoped credential that registered the pipeline: its stages never reach more than it may. */
  owner?: PipelineOwner;
  /** Where script stages run: worker threads, off the event loop. */
  scripts: ScriptPool;
  /** Turns the declarative body of `context.request` into its `_msearch` (lib/declarative). */
  declarative?: DeclarativeStageApi;
  /** Told of each stage that ran (ok or failed) in a real run, for metrics. */
  stageRan?: (pipeline: string, outcome: StageOutcome) => void;
}

export interface DeclarativeStageApi {
  /**
   * Replaces the request by the engine request; returns what shaping the engine's reply needs. The
   * indices its queries look up are authorized for the caller and for `owner` (the pipeline's).
   */
  translate(context: PipelineContext, caller: Caller, owner?: Principal): Promise<unknown>;
  /** The engine's `_msearch` reply → the declarative response body. */
  shape(plan: unknown, engineBody: string, tookMs: number): string;
}

export type PrebuiltStage = (context: PipelineContext, inputs: Record<string, unknown>, services: StageServices) => Promise<void> | void;

/** What stages note for each other, out of the scripts' sight (symbols do not cross into the sandbox). */
const marksOf = (context: PipelineContext) => context as unknown as Record<symbol, unknown>;

/** The request (method, path, query, body) the caller was last authorized for. */
const AUTHORIZED = Symbol.for('pipelines.authorized');
/** Set by `useCache`: the engine query's answer is kept and served by the search cache, whatever its preferences say. */
const USE_CACHE = Symbol.for('pipelines.useCache');
const fingerprint = (context: PipelineContext) => {
  const r = context.request;
  return `${r.method} ${r.path}?${querystringOf(r.query)}\n${r.body}`;
};

/** The access-control check of the caller for the request as it stands (narrowing it like `authorize`). */
const authorization: PrebuiltStage = async (context, _inputs, services) => {
  await authorize(context, services);
};

/**
 * Whose rights a stage's request is checked against: the caller's (the admin needs no check), and
 * the pipeline owner's when a scoped credential registered it — so that a stage never reaches
 * more than both may, whoever calls the pipeline.
 */
function principalsOf(services: StageServices): Principal[] {
  const out: Principal[] = [];
  if (services.caller.principal.role !== 'admin') out.push(services.caller.principal);
  const owner = ownerPrincipal(services);
  if (owner) out.push(owner);
  return out;
}

/**
 * The pipeline's owner, with the caller's rights narrowed to the owner's: its indices, categories,
 * operations and raw-DSL permission, and the owner's own field rules and size limit (the caller,
 * unless the admin, is checked with its own beside it: `principalsOf`).
 */
function ownerPrincipal({ caller, owner }: StageServices): Principal | undefined {
  if (!owner) return undefined;
  const own = caller.principal.credential;
  const credential = {
    ...own,
    username: owner.username,
    role: 'user' as const,
    indices: [...owner.indices],
    categories: owner.categories ? own.categories.filter((c) => owner.categories!.includes(c)) : own.categories,
    ops: owner.ops ? own.ops.filter((o) => owner.ops!.includes(o)) : own.ops,
    allow_raw_dsl: own.allow_raw_dsl && owner.allow_raw_dsl !== false,
    include_fields: owner.include_fields,
    exclude_fields: owner.exclude_fields,
    max_size: owner.max_size,
  };
  return { username: owner.username, role: 'user', credential };
}

/**
 * The stage's request target read once, as an HTTP request's (`requestTarget`): a query string a
 * script wrote into `path` (`?pipeline=…`) joins `query` (where `query` names a parameter too, its
 * value wins), the path is decoded once and re-encoded one way (no `.`/`..`), and a `source`
 * parameter becomes the body — so that the request classified and authorized is the very one the
 * engine gets.
 */
function readTarget(context: PipelineContext): RequestTarget {
  const req = context.request;
  const path = String(req.path ?? '/');
  const q = path.indexOf('?');
  const rawQuery = [q < 0 ? '' : path.slice(q + 1), querystringOf(req.query)].filter((part) => part !== '').join('&');
  const written = q < 0 ? path : path.slice(0, q);
  const target = requestTarget(written.startsWith('/') ? written : `/${written}`, rawQuery, req.body !== '');
  req.method = String(req.method ?? 'GET').toUpperCase();
  req.path = target.path;
  req.query = queryOf(target.params);
  if (target.source) {
    req.body = target.source.text;
    req.headers = { ...req.headers, 'content-type': target.source.contentType };
  }
  return target;
}

/** The request value of a stage's call (the one builder's, as for an HTTP request), for its target as read. */
function requestOf(context: PipelineContext, target: Pick<RequestTarget, 'path' | 'segments' | 'querystring' | 'params'>): GatewayRequest {
  const req = context.request;
  return readRequest({ method: req.method, target, body: req.body === '' ? undefined : req.body });
}

/** The value the stage's request was last authorized as, with the fingerprint it was for: the engine call carries it. */
const AUTHORIZED_REQUEST = Symbol.for('pipelines.authorizedRequest');

/** Actions whose answers hold index mappings (or alias filters, which may read hidden fields). */
const MAPPING_READS = new Set(['indices:admin/mappings/get', 'indices:admin/mappings/fields/get', 'indices:admin/get', 'cluster:monitor/state', 'indices:admin/aliases/get']);

async function authorize(context: PipelineContext, services: StageServices): Promise<void> {
  const { authorizer, caller, category } = services;
  const req = context.request;
  let asked = requestOf(context, readTarget(context));
  const principals = principalsOf(services);
  // a scoped caller's (or owner's) search template is the search it renders to, as on the HTTP path:
  // that search is what is authorized, field rules included, and what the engine gets
  const plain = principals.length ? await renderTemplateRequest(asked, services.backend) : undefined;
  if (plain) {
    req.path = plain.path;
    req.query = queryOf(plain.params);
    req.body = plain.info.forward ?? plain.body ?? '';
    asked = plain;
  }
  checkSystemIndices(asked.info);
  for (const principal of principals) {
    const { info } = asked;
    if (category !== undefined && !principal.credential.categories.includes(category as never)) {
      throw new EsError(403, 'security_exception', `action [${category}] is unauthorized for user [${principal.username}]`);
    }
    const decision = await authorizer.authorize(principal, asked, { ip: caller.ip, referer: caller.referer });
    // the credential's field rules hold for a stage's call as for a client's request
    checkFieldRules(principal, decision, await authorizer.derivedFieldsFor(principal, info));
    // an answer holding mappings is narrowed to the visible fields on the HTTP path only: a stage's
    // call would hand it on whole, so a caller with field rules gets none
    if (MAPPING_READS.has(info.action) && fieldVisibilityOf(principal.credential)) {
      throw new EsError(403, 'security_exception', `action [${info.action}] is unauthorized for user [${principal.username}]: a pipeline stage does not narrow mappings to the credential's field rules`);
    }
    if (decision.path === asked.path && decision.querystring === asked.querystring) continue;
    // narrowed: the next principal is asked about the request as it now stands
    req.path = decision.path;
    req.query = queryOf(decision.params);
    asked = requestOf(context, decision);
  }
  const marks = marksOf(context);
  marks[AUTHORIZED] = fingerprint(context);
  marks[AUTHORIZED_REQUEST] = { fingerprint: marks[AUTHORIZED], request: asked };
}

const DECLARATIVE_PLAN = Symbol.for('pipelines.declarativePlan');

/**
 * The declarative body becomes its `_msearch`. The declarative request is what a scoped caller is
 * authorized for (here, unless an `authorization` stage approved it as it stands); the translation
 * the gateway makes of it is then approved with it.
 */
const declarativeQuery: PrebuiltStage = async (context, _inputs, services) => {
  const { declarative, caller } = services;
  if (!declarative) throw new Error('the declarative API is not available');
  const marks = marksOf(context);
  const approved = marks[AUTHORIZED] === fingerprint(context);
  if (!approved) await authorize(context, services);
  marks[DECLARATIVE_PLAN] = await declarative.translate(context, caller, ownerPrincipal(services));
  readTarget(context);
  marks[AUTHORIZED] = fingerprint(context);
};

/**
 * Sends the request to the engine; its reply becomes the response (shaped back for a declarative
 * request). A scoped caller never reaches more than it may: a request that no `authorization`
 * stage approved as it now stands (none ran, or a later stage changed it) is authorized here.
 */
const engineQuery: PrebuiltStage = async (context, _inputs, services) => {
  const { backend, dryRun, declarative } = services;
  const req = context.request;
  if (marksOf(context)[AUTHORIZED] !== fingerprint(context)) await authorize(context, services);
  if (dryRun) return;
  const started = Date.now();
  const headers: Record<string, string> = {};
  if (req.body !== '') headers['content-type'] = req.headers['content-type'] || 'application/json';
  const cache = marksOf(context)[USE_CACHE] === true ? true : undefined;
  // the caller's rights go with the call: the embedded engine checks them where it acts, as for a client's request
  const access = engineAccessOf(services.caller.principal);
  // the value authorized, when the request still stands as it was (else the Backend edge reads it)
  const authorized = marksOf(context)[AUTHORIZED_REQUEST] as { fingerprint: string; request: GatewayRequest } | undefined;
  const request = authorized?.fingerprint === fingerprint(context) ? authorized.request : undefined;
  const reply = await backend.request({
    method: req.method, path: req.path, querystring: querystringOf(req.query), headers, body: req.body === '' ? undefined : req.body, cache, request, ...(access ? { access } : {}),
  });
  let body = (await readBody(reply.body)).toString('utf8');
  const plan = marksOf(context)[DECLARATIVE_PLAN];
  if (plan !== undefined && declarative && reply.status === 200) body = declarative.shape(plan, body, Date.now() - started);
  const contentType = reply.headers['content-type'];
  context.response = {
    body,
    code: reply.status,
    headers: {
      'content-type': (Array.isArray(contentType) ? contentType[0] : contentType) || 'application/json',
      ...(reply.headers['x-request-cache'] === 'true' ? { 'x-request-cache': 'true' } : {}),
    },
  };
};

const useCache: PrebuiltStage = (context) => {
  marksOf(context)[USE_CACHE] = true;
};

const passThrough: PrebuiltStage = () => {};

const listOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const dataOf = (inputs: Record<string, unknown>, stage: string): unknown => {
  if (inputs.data === undefined) throw new EsError(400, 'illegal_argument_exception', `${stage}: [inputs.data] is required`);
  return inputs.data;
};

/** Puts `inputs.data` (hits, or documents taken as `_source`) at the top of every hit list. */
const promoteResults: PrebuiltStage = (context, inputs) => {
  const promoted = listOf(dataOf(inputs, 'promoteResults')).map((d) => {
    const doc = d as Record<string, unknown> | null;
    return doc !== null && typeof doc === 'object' && '_source' in doc ? { _promoted: true, ...doc } : { _promoted: true, _source: doc };
  });
  if (context.response.code === undefined) throw new EsError(400, 'illegal_argument_exception', 'promoteResults works on a search result: place it after engineQuery');
  const ids = new Set<unknown>(promoted.map((p) => (p as { _id?: unknown })._id).filter((id) => id !== undefined));
  changeHitLists(context, 'promoteResults', (hits) => [...(promoted as Array<Record<string, unknown>>), ...hits.filter((h) => !ids.has(h._id))]);
};

/** Keeps the documents with the ids in `inputs.data` out of the results (before or after the engine). */
const hideResults: PrebuiltStage = (context, inputs) => {
  const ids = listOf(dataOf(inputs, 'hideResults')).map(String);
  if (context.response.code !== undefined) {
    const hidden = new Set(ids);
    changeHitLists(context, 'hideResults', (hits) => hits.filter((h) => !hidden.has(String(h._id))));
  } else {
    changeSearchBodies(context, 'hideResults', (body) => constrainQuery(body, [], [{ ids: { values: ids } }]));
  }
};

/** Adds `inputs.data` (a query DSL clause or a list of them) as filters of the search. */
const addFilter: PrebuiltStage = (context, inputs) => {
  const clauses = listOf(dataOf(inputs, 'addFilter'));
  changeSearchBodies(context, 'addFilter', (body) => constrainQuery(body, clauses));
};

const replaceSearchTerm: PrebuiltStage = (context, inputs) => {
  const term = dataOf(inputs, 'replaceSearchTerm');
  if (typeof term !== 'string') throw new EsError(400, 'illegal_argument_exception', 'replaceSearchTerm: [inputs.data] must be a string');
  rewriteSearchText(context, 'replaceSearchTerm', () => term);
};

const words = (text: string, map: (word: string) => string | undefined) =>
  text.split(/\s+/).map((w) => (w === '' ? w : map(w))).filter((w): w is string => w !== undefined && w !== '').join(' ');

const removeWords: PrebuiltStage = (context, inputs) => {
  const removed = new Set(listOf(dataOf(inputs, 'removeWords')).map((w) => String(w).toLowerCase()));
  rewriteSearchText(context, 'removeWords', (text) => words(text, (w) => (removed.has(w.toLowerCase()) ? undefined : w)));
};

const replaceWords: PrebuiltStage = (context, inputs) => {
  const data = dataOf(inputs, 'replaceWords');
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new EsError(400, 'illegal_argument_exception', 'replaceWords: [inputs.data] must map words to their replacements');
  const table = new Map(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), String(v)]));
  rewriteSearchText(context, 'replaceWords', (text) => words(text, (w) => table.get(w.toLowerCase()) ?? w));
};

/** Adds `inputs.data` to the context (`customData`) and, once there is a JSON response, to it. */
const customData: PrebuiltStage = (context, inputs) => {
  const data = dataOf(inputs, 'customData');
  context.customData = data;
  if (context.response.code === undefined || !context.response.body) return;
  try {
    const body = JSON.parse(context.response.body) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) context.response.body = JSON.stringify({ ...body, customData: data });
  } catch {
    /* not a JSON response: the data stays in the context */
  }
};

export const PREBUILT_STAGES: ReadonlyMap<string, PrebuiltStage> = new Map([
  ['authorization', authorization],
  ['declarativeQuery', declarativeQuery],
  ['engineQuery', engineQuery],
  ['useCache', useCache],
  ['recordAnalytics', passThrough],
  ['promoteResults', promoteResults],
  ['hideResults', hideResults],
  ['replaceSearchTerm', replaceSearchTerm],
  ['addFilter', addFilter],
  ['removeWords', removeWords],
  ['replaceWords', replaceWords],
  ['customData', customData],
]);
