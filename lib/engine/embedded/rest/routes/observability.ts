/**
 * OpenSearch's Observability plugin's saved objects (`_plugins/_observability/object`): the
 * operational panels, saved queries, saved visualizations, applications, notebooks and timestamps
 * OpenSearch Dashboards' observability pages keep. As the plugin does, each object is a document of
 * the `.opensearch-observability` index (id: the object's id; source: `createdTimeMs`,
 * `updatedTimeMs`, `tenant`, `access` and the object under its type's name). A read by id is
 * realtime (a get); the list is a search, so it sees what the index's last refresh made visible.
 * `_plugins/_observability/_local/stats` answers the plugin's metrics of those requests (Metrics),
 * as text: a total, and per-minute counts (RollingCounter: the last full minute's).
 */
import { EsError } from '../../../../errors/index.js';
import type { JsonObject } from '../../indices/index.js';
import { isMap } from '../../ingest/index.js';
import { pluginIndices } from '../../access/index.js';
import { pluginContext } from './plugin-context.js';
import { requestBody } from '../body.js';
import { generateId, intParam, UrlParams, validateId, writeParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { executeSearch } from './search.js';

/** The plugin's index (ObservabilityIndex.INDEX_NAME). */
export const OBSERVABILITY_INDEX = '.opensearch-observability';

/** The object types, by the tags their bodies and `objectType` name them (ObservabilityObjectType). */
const OBJECT_TYPES = ['notebook', 'savedQuery', 'savedVisualization', 'operationalPanel', 'application', 'timestamp'] as const;

/** The list's default and largest page (PluginSettings.defaultItemsQueryCount, and its cap). */
const DEFAULT_ITEMS = 100;
const MAX_ITEMS = 1000;

function notFound(id: string): EsError {
  return new EsError(404, 'status_exception', `ObservabilityObject ${id} not found`);
}

/** The object a create or update body carries: its first member named by an object type (others skipped, as the plugin's parser does). */
function objectOf(body: JsonObject | undefined): { type: string; data: JsonObject } {
  for (const [key, value] of Object.entries(body ?? {})) {
    if ((OBJECT_TYPES as readonly string[]).includes(key) && isMap(value)) return { type: key, data: value as JsonObject };
  }
  throw new EsError(400, 'illegal_argument_exception', 'Object type is required');
}

/** An object of the list, as ObservabilityObjectSearchResult writes it. */
function listItem(id: string, source: JsonObject): JsonObject {
  const type = OBJECT_TYPES.find((t) => isMap(source[t]));
  return {
    objectId: id,
    lastUpdatedTimeMs: source.updatedTimeMs ?? null,
    createdTimeMs: source.createdTimeMs ?? null,
    tenant: source.tenant ?? '',
    ...(type ? { [type]: source[type] } : {}),
  };
}

function listAnswer(from: number, total: number, relation: string, items: JsonObject[]): RestResponse {
  return { status: 200, body: { startIndex: from, totalHits: total, totalHitRelation: relation, observabilityObjectList: items } };
}

/** The index's settings (the plugin's observability-settings.yml): hidden, as a system index is. */
const INDEX_BODY: JsonObject = { settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-2', hidden: true } } };

async function write(ctx: EngineContext, id: string, source: JsonObject): Promise<void> {
  if (!ctx.indices.get(OBSERVABILITY_INDEX)) await ctx.indices.commit([], ctx.indices.createInMemory(OBSERVABILITY_INDEX, INDEX_BODY, false).writes);
  const { handle, writes } = ctx.indices.writeTarget(OBSERVABILITY_INDEX);
  if (writes.length) await ctx.indices.commit([], writes);
  const prepared = handle.indexDocument(id, source, JSON.stringify(source), writeParams(UrlParams.NONE));
  await ctx.indices.commit([prepared]);
}

function stored(ctx: EngineContext, id: string): JsonObject | undefined {
  return ctx.indices.get(OBSERVABILITY_INDEX)?.get(id)?.source;
}

async function createObject(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) as JsonObject | undefined;
  const { type, data } = objectOf(body);
  const id = typeof body?.objectId === 'string' && body.objectId ? body.objectId : generateId();
  validateId(id);
  if (stored(ctx, id)) throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists`);
  const now = Date.now();
  await write(ctx, id, { updatedTimeMs: now, createdTimeMs: now, tenant: typeof body?.tenant === 'string' ? body.tenant : '', access: [], [type]: data });
  return { status: 200, body: { objectId: id } };
}

async function updateObject(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.object_id;
  const body = requestBody(req) as JsonObject | undefined;
  const { type, data } = objectOf(body);
  const current = stored(ctx, id);
  if (!current) throw notFound(id);
  const kept = Object.fromEntries(Object.entries(current).filter(([k]) => !(OBJECT_TYPES as readonly string[]).includes(k)));
  await write(ctx, id, { ...kept, updatedTimeMs: Date.now(), tenant: typeof body?.tenant === 'string' ? body.tenant : current.tenant ?? '', [type]: data });
  return { status: 200, body: { objectId: id } };
}

function getObject(req: RestRequest, ctx: EngineContext): RestResponse {
  const id = req.pathParams.object_id;
  const source = stored(ctx, id);
  if (!source) throw notFound(id);
  return listAnswer(0, 1, 'eq', [listItem(id, source)]);
}

/** A comma-list parameter's items, trimmed, empty ones dropped. */
const listParam = (req: RestRequest, name: string): string[] => (req.params.get(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The objects a request names by id: `objectIdList` and `objectId`. */
const namedIds = (req: RestRequest): string[] => [...listParam(req, 'objectIdList'), (req.params.get('objectId') ?? '').trim()].filter(Boolean);

async function listObjects(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const ids = namedIds(req);
  if (ids.length) {
    const found = ids.flatMap((id) => {
      const source = stored(ctx, id);
      return source ? [listItem(id, source)] : [];
    });
    if (!found.length) throw notFound(ids.join(','));
    return listAnswer(0, found.length, 'eq', found);
  }
  const from = intParam(req.params, 'fromIndex') ?? 0;
  const size = Math.min(intParam(req.params, 'maxItems') ?? DEFAULT_ITEMS, MAX_ITEMS);
  if (!ctx.indices.get(OBSERVABILITY_INDEX)) return listAnswer(from, 0, 'eq', []);
  const types = listParam(req, 'objectType');
  const unknown = types.find((t) => !(OBJECT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new EsError(400, 'illegal_argument_exception', `Invalid objectType: ${unknown}`);
  const filter: JsonObject[] = [{ bool: { should: (types.length ? types : OBJECT_TYPES).map((t) => ({ exists: { field: t } })) } }];
  const name = req.params.get('name');
  if (name) filter.push({ bool: { should: (types.length ? types : OBJECT_TYPES).map((t) => ({ match_phrase: { [`${t}.name`]: name } })) } });
  const sortField = req.params.get('sortField') ?? 'updatedTimeMs';
  const order = (req.params.get('sortOrder') ?? 'desc').toLowerCase() === 'asc' ? 'asc' : 'desc';
  const answer = await executeSearch(ctx, OBSERVABILITY_INDEX, UrlParams.NONE, {
    from, size, query: { bool: { filter } }, sort: [{ [sortField === 'lastUpdatedTimeMs' ? 'updatedTimeMs' : sortField]: { order, unmapped_type: 'long' } }],
  }, Date.now());
  const hits = answer.hits as { total: { value: number; relation: string }; hits: Array<{ _id: string; _source: JsonObject }> };
  return listAnswer(from, hits.total.value, hits.total.relation, hits.hits.map((h) => listItem(h._id, h._source)));
}

async function deleteObjects(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const ids = req.pathParams.object_id
    ? [req.pathParams.object_id]
    : namedIds(req);
  if (!ids.length) throw new EsError(400, 'illegal_argument_exception', 'objectId or objectIdList is required');
  const handle = ctx.indices.get(OBSERVABILITY_INDEX);
  const present = ids.filter((id) => handle?.get(id));
  if (!handle || present.length < ids.length) throw notFound(ids.filter((id) => !present.includes(id)).join(','));
  await ctx.indices.commit(present.map((id) => handle.delete(id, writeParams(UrlParams.NONE))));
  return { status: 200, body: { deleteResponseList: Object.fromEntries(present.map((id) => [id, 'OK'])) } };
}

function objectRequest(req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  const byId = req.pathParams.object_id !== undefined;
  switch (req.method) {
    case 'POST': return createObject(req, ctx);
    case 'PUT': return updateObject(req, ctx);
    case 'DELETE': return deleteObjects(req, ctx);
    default: return byId ? getObject(req, ctx) : listObjects(req, ctx);
  }
}

/** A count per minute, read as the last full minute's (RollingCounter: 60 s intervals). */
class PerMinute {
  private readonly counts = new Map<number, number>();
  add(now: number): void {
    const key = Math.floor(now / 60_000);
    for (const k of this.counts.keys()) if (k < key - 60) this.counts.delete(k);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  value(now: number): number {
    return this.counts.get(Math.floor(now / 60_000) - 1) ?? 0;
  }
}

/** The exceptions the plugin counts, by the error types they answer as (the rest: internal_server_error). */
const COUNTED_EXCEPTIONS: Record<string, string> = {
  status_exception: 'opensearch_status', security_exception: 'opensearch_security', version_conflict_engine_exception: 'version_conflict_engine',
  index_not_found_exception: 'index_not_found', invalid_index_name_exception: 'invalid_index_name', illegal_argument_exception: 'illegal_argument',
  illegal_state_exception: 'illegal_state', io_exception: 'io',
};
const EXCEPTION_NAMES = [...Object.values(COUNTED_EXCEPTIONS), 'internal_server_error'];

interface Metrics { total: number; requests: PerMinute; success: PerMinute; userError: PerMinute; systemError: PerMinute; exceptions: Map<string, PerMinute> }

/** Each engine's metrics (by its own indices, whoever's view a request has), since it started. */
const METRICS = new WeakMap<object, Metrics>();

function metricsOf(ctx: EngineContext): Metrics {
  const engine = pluginIndices(ctx.indices);
  let m = METRICS.get(engine);
  if (!m) {
    m = { total: 0, requests: new PerMinute(), success: new PerMinute(), userError: new PerMinute(), systemError: new PerMinute(), exceptions: new Map(EXCEPTION_NAMES.map((n) => [n, new PerMinute()])) };
    METRICS.set(engine, m);
  }
  return m;
}

async function objects(req: RestRequest, callers: EngineContext): Promise<RestResponse> {
  const ctx = pluginContext(callers);
  const m = metricsOf(ctx);
  m.total++;
  m.requests.add(Date.now());
  try {
    const answer = await objectRequest(req, ctx);
    m.success.add(Date.now());
    return answer;
  } catch (err) {
    const status = err instanceof EsError ? err.status : 500;
    (status < 500 ? m.userError : m.systemError).add(Date.now());
    m.exceptions.get(err instanceof EsError ? COUNTED_EXCEPTIONS[err.type] ?? 'internal_server_error' : 'internal_server_error')!.add(Date.now());
    throw err;
  }
}

/** Metrics.collectToFlattenedJSON: the metric names' dotted parts as nested objects. */
function stats(_req: RestRequest, ctx: EngineContext): RestResponse {
  const m = metricsOf(ctx);
  const now = Date.now();
  const body = {
    request_total: m.total,
    request_count: m.requests.value(now),
    success_count: m.success.value(now),
    failed_request_count_user_error: m.userError.value(now),
    failed_request_count_system_error: m.systemError.value(now),
    exception: Object.fromEntries(EXCEPTION_NAMES.map((n) => [n, m.exceptions.get(n)!.value(now)])),
    security_permission_error: 0,
    permission_user_error: 0,
  };
  return { status: 200, text: JSON.stringify(body) };
}

export const observabilityRoutes: Route[] = [
  { id: 'opensearch.observability_objects', handler: objects },
  { id: 'opensearch.observability_stats', handler: stats },
];
