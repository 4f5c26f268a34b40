/**
 * The ML Commons plugin's model groups (`_plugins/_ml/model_groups`): registered, read, updated,
 * searched and deleted as the plugin does, each a document of its `.plugins-ml-model-group` index
 * (id: the group's; source: `name`, `description`, `latest_version`, `created_time`,
 * `last_updated_time`). A group only names and describes the models it would hold: the engine runs
 * no model (registering one is refused as any unknown route), so no group ever holds one and its
 * `latest_version` stays 0. The engine has no model access control (the plugin's
 * `model_access_control_enabled` off), so a request naming an access mode or backend roles is
 * refused as the plugin refuses it then. Group names are unique in the cluster, as the plugin's.
 */
import { EsError } from '../../../../errors/index.js';
import type { JsonObject } from '../../indices/index.js';
import { pluginContext } from './plugin-context.js';
import { requestBody, requireBody } from '../body.js';
import { generateId, UrlParams, writeParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { executeSearch } from './search.js';

/** The plugin's index (CommonValue.ML_MODEL_GROUP_INDEX). */
export const MODEL_GROUP_INDEX = '.plugins-ml-model-group';

const INDEX_BODY: JsonObject = {
  settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1', hidden: true } },
  mappings: { properties: { name: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } }, description: { type: 'text' }, latest_version: { type: 'integer' }, created_time: { type: 'date', format: 'strict_date_time||epoch_millis' }, last_updated_time: { type: 'date', format: 'strict_date_time||epoch_millis' } } },
};

/** The fields of the plugin's model access control, refused while it is off (MLModelGroupManager). */
const ACCESS_FIELDS = ['access_mode', 'backend_roles', 'add_all_backend_roles'];

const notFound = (id: string): EsError => new EsError(404, 'status_exception', `Failed to find model group with the provided model group id: ${id}`);

function stored(ctx: EngineContext, id: string): JsonObject | undefined {
  return ctx.indices.get(MODEL_GROUP_INDEX)?.get(id)?.source;
}

async function write(ctx: EngineContext, id: string, source: JsonObject): Promise<void> {
  if (!ctx.indices.get(MODEL_GROUP_INDEX)) await ctx.indices.commit([], ctx.indices.createInMemory(MODEL_GROUP_INDEX, INDEX_BODY, false).writes);
  const { handle, writes } = ctx.indices.writeTarget(MODEL_GROUP_INDEX);
  if (writes.length) await ctx.indices.commit([], writes);
  await ctx.indices.commit([handle.indexDocument(id, source, JSON.stringify(source), writeParams(UrlParams.NONE))]);
}

/** The body's name and description, checked as the plugin's input parser and group manager check them. */
function groupInput(body: JsonObject, nameRequired: boolean): { name?: string; description?: string } {
  const access = ACCESS_FIELDS.find((f) => body[f] !== undefined);
  if (access) throw new EsError(400, 'illegal_argument_exception', 'You cannot specify model access control parameters because the Security plugin or model access control is disabled on your cluster.');
  const { name, description } = body;
  if (name !== undefined && typeof name !== 'string') throw new EsError(400, 'illegal_argument_exception', 'name must be a string');
  if (description !== undefined && description !== null && typeof description !== 'string') throw new EsError(400, 'illegal_argument_exception', 'description must be a string');
  const trimmed = typeof name === 'string' ? name.trim() : undefined;
  if (nameRequired && !trimmed) throw new EsError(400, 'illegal_argument_exception', 'Model group name is required');
  if (trimmed === '') throw new EsError(400, 'illegal_argument_exception', 'Model group name cannot be empty or null');
  return { name: trimmed, description: typeof description === 'string' ? description : undefined };
}

/**
 * The ids of the groups of each name, by the plugin's index (its handle: another after the index is
 * reopened): read from the documents once, then kept by the writes of this module, the index's
 * only writer. A name is checked before a refresh shows the group; reading every group's source for
 * each check held the event loop for all of them (ten groups of 8 MB descriptions: 0.85 s a register).
 */
const namesByIndex = new WeakMap<object, Map<string, Set<string>>>();

function groupNames(ctx: EngineContext): Map<string, Set<string>> | undefined {
  const handle = ctx.indices.get(MODEL_GROUP_INDEX);
  if (!handle) return undefined;
  let names = namesByIndex.get(handle);
  if (!names) {
    names = new Map();
    for (const id of handle.liveIds()) {
      const name = handle.get(id)?.source.name;
      if (typeof name === 'string') names.set(name, (names.get(name) ?? new Set()).add(id));
    }
    namesByIndex.set(handle, names);
  }
  return names;
}

/** The group `id` is now of `name` (undefined: deleted), having been of `was`. */
function renamed(ctx: EngineContext, id: string, was: unknown, name: unknown): void {
  const names = groupNames(ctx);
  if (!names) return;
  if (typeof was === 'string') {
    const ids = names.get(was);
    ids?.delete(id);
    if (ids?.size === 0) names.delete(was);
  }
  if (typeof name === 'string') names.set(name, (names.get(name) ?? new Set()).add(id));
}

/** The group already of that name, other than `except`. */
function sameName(ctx: EngineContext, name: string, except?: string): string | undefined {
  for (const id of groupNames(ctx)?.get(name) ?? []) if (id !== except) return id;
  return undefined;
}

function refuseTakenName(ctx: EngineContext, name: string, except?: string): void {
  const taken = sameName(ctx, name, except);
  if (taken) throw new EsError(400, 'illegal_argument_exception', `The name you provided is already being used by a model group with ID: ${taken}.`);
}

async function register(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const { name, description } = groupInput(requireBody(req), true);
  refuseTakenName(ctx, name!);
  const id = generateId();
  const now = Date.now();
  await write(ctx, id, { name: name!, latest_version: 0, ...(description !== undefined ? { description } : {}), created_time: now, last_updated_time: now });
  renamed(ctx, id, undefined, name);
  return { status: 200, body: { model_group_id: id, status: 'CREATED' } };
}

function get(req: RestRequest, ctx: EngineContext): RestResponse {
  const source = stored(ctx, req.pathParams.model_group_id);
  if (!source) throw notFound(req.pathParams.model_group_id);
  return { status: 200, body: source };
}

async function update(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.model_group_id;
  const { name, description } = groupInput(requireBody(req), false);
  const current = stored(ctx, id);
  if (!current) throw notFound(id);
  if (name !== undefined) refuseTakenName(ctx, name, id);
  await write(ctx, id, { ...current, ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}), last_updated_time: Date.now() });
  if (name !== undefined) renamed(ctx, id, current.name, name);
  return { status: 200, body: { status: 'Updated' } };
}

async function remove(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.model_group_id;
  const handle = ctx.indices.get(MODEL_GROUP_INDEX);
  const doc = handle?.get(id);
  if (!handle || !doc) throw notFound(id);
  await ctx.indices.commit([handle.delete(id, writeParams(UrlParams.NONE))]);
  renamed(ctx, id, doc.source.name, undefined);
  return {
    status: 200,
    body: { _index: MODEL_GROUP_INDEX, _id: id, _version: doc.version + 1, result: 'deleted', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: doc.seqNo + 1, _primary_term: doc.primaryTerm },
  };
}

/** A search of the groups: the body a search takes, over the plugin's index (no index yet: no group). */
async function search(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = (requestBody(req) as JsonObject | undefined) ?? {};
  if (!ctx.indices.get(MODEL_GROUP_INDEX)) {
    return { status: 200, body: { took: 0, timed_out: false, _shards: { total: 0, successful: 0, skipped: 0, failed: 0 }, hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] } } };
  }
  return { status: 200, body: await executeSearch(ctx, MODEL_GROUP_INDEX, req.params, body, Date.now()) };
}

/**
 * The group writes of each engine, one after another: a write's name check and its document (and the
 * plugin's index, created by the first) land before the next write checks its own name, so that
 * requests sent together never make two groups of one name.
 */
const writing = new WeakMap<object, Promise<unknown>>();

function oneAtATime<T>(ctx: EngineContext, action: () => Promise<T>): Promise<T> {
  const turn = (writing.get(ctx.indices) ?? Promise.resolve()).then(action);
  writing.set(ctx.indices, turn.catch(() => undefined));
  return turn;
}

/** A group by id: read, updated or deleted (writes one at a time, each name unique). */
function group(req: RestRequest, callers: EngineContext): Promise<RestResponse> | RestResponse {
  const ctx = pluginContext(callers);
  switch (req.method) {
    case 'PUT': return oneAtATime(ctx, () => update(req, ctx));
    case 'DELETE': return oneAtATime(ctx, () => remove(req, ctx));
    default: return get(req, ctx);
  }
}

export const mlModelGroupRoutes: Route[] = [
  { id: 'opensearch.ml_model_groups', handler: group },
  { id: 'opensearch.ml_model_groups_register', handler: (req, callers) => { const ctx = pluginContext(callers); return oneAtATime(ctx, () => register(req, ctx)); } },
  { id: 'opensearch.ml_model_groups_search', handler: (req, callers) => search(req, pluginContext(callers)) },
];
