/**
 * OpenSearch's point in time API (`/_search/point_in_time`), served beside Elasticsearch's `_pit`:
 * the paths exist only in OpenSearch, so answering them cannot mislead an Elasticsearch client.
 * The points in time are the same ones (an id from either API searches with `pit`, and either API
 * closes it); only the shapes of the requests and answers are OpenSearch's:
 *
 *   POST   /{index}/_search/point_in_time?keep_alive=1h  → {pit_id, _shards, creation_time}
 *   GET    /_search/point_in_time/_all                   → {pits: [{pit_id, creation_time, keep_alive}]}
 *   DELETE /_search/point_in_time  {"pit_id": [ids]}     → {pits: [{pit_id, successful}]}
 *   DELETE /_search/point_in_time/_all                   → {pits: [{pit_id, successful}]}
 *   GET    /_cat/pit_segments  {"pit_id": [ids]}         → the segments those points in time hold (as _cat/segments)
 *   GET    /_cat/pit_segments/_all                       → the segments every point in time holds
 */
import { EsError } from '../../../../errors/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { catSegmentsOf } from './cat-shards.js';
import { openPointInTime } from './point-in-time.js';
import { pointInTimeContexts } from './scroll-contexts.js';

async function createPit(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const opened = await openPointInTime(req, ctx);
  const { id, _shards } = opened.body as { id: string; _shards: unknown };
  const entry = pointInTimeContexts(ctx).list().find((p) => p.id === id);
  return { status: 200, body: { pit_id: id, _shards, creation_time: entry?.createdAt ?? Date.now() } };
}

/**
 * The points in time the caller may see: those whose every index it reads (all of them for an
 * unrestricted caller). The gateway lets only a reader of every index list or delete them all;
 * this keeps any other caller of the engine to its own.
 */
function visiblePits(ctx: EngineContext) {
  const access = ctx.access;
  const contexts = pointInTimeContexts(ctx);
  const all = contexts.list();
  if (!access) return all;
  return all.filter(({ id }) => contexts.find(id, undefined)?.views.every((v) => access.allows(v.name, 'read')) ?? false);
}

function listPits(_req: RestRequest, ctx: EngineContext): RestResponse {
  const pits = visiblePits(ctx).map((p) => ({ pit_id: p.id, creation_time: p.createdAt, keep_alive: p.keepAliveMs }));
  return { status: 200, body: { pits } };
}

/** The `pit_id` of a body (one id or a list), each a non-empty string; 400 as OpenSearch's validation otherwise. */
function pitIds(req: RestRequest): string[] {
  const raw = requestBody(req)?.pit_id;
  const ids = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  if (ids.length === 0 || ids.some((id) => typeof id !== 'string' || id === '')) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no pit ids specified;');
  }
  return ids as string[];
}

/** The frozen views of points in time (each one's indices read by the caller), in id order; 404 for an id that names none. */
function viewsOf(ctx: EngineContext, ids: string[], action: string) {
  const contexts = pointInTimeContexts(ctx);
  return ids.flatMap((id) => {
    const views = contexts.find(id, undefined)?.views;
    if (!views) throw new EsError(404, 'search_context_missing_exception', `No search context found for id [${id}]`);
    ctx.access?.require(views.map((v) => v.name), 'read', action);
    return views;
  });
}

function pitSegments(req: RestRequest, ctx: EngineContext): RestResponse {
  return catSegmentsOf(req, ctx, viewsOf(ctx, pitIds(req), 'indices:monitor/point_in_time/segments'));
}

function allPitSegments(req: RestRequest, ctx: EngineContext): RestResponse {
  return catSegmentsOf(req, ctx, viewsOf(ctx, visiblePits(ctx).map((p) => p.id), 'indices:monitor/point_in_time/segments'));
}

/** `DELETE /_search/point_in_time` with `{"pit_id": [ids]}`: a read of each one's indices, as Elasticsearch's close. */
function deletePits(req: RestRequest, ctx: EngineContext): RestResponse {
  const ids = pitIds(req);
  const contexts = pointInTimeContexts(ctx);
  for (const id of ids) {
    const views = contexts.find(id, undefined)?.views;
    if (views) ctx.access?.require(views.map((v) => v.name), 'read', 'indices:data/read/point_in_time/delete');
  }
  return { status: 200, body: { pits: ids.map((id) => ({ successful: contexts.free(id), pit_id: id })) } };
}

function deleteAllPits(_req: RestRequest, ctx: EngineContext): RestResponse {
  const contexts = pointInTimeContexts(ctx);
  return { status: 200, body: { pits: visiblePits(ctx).map(({ id }) => ({ successful: contexts.free(id), pit_id: id })) } };
}

export const openSearchPointInTimeRoutes: Route[] = [
  { id: 'opensearch.create_pit', handler: createPit },
  { id: 'opensearch.get_all_pits', handler: listPits },
  { id: 'opensearch.delete_all_pits', handler: deleteAllPits },
  { id: 'opensearch.delete_pit', handler: deletePits },
  { id: 'opensearch.cat_pit_segments', handler: pitSegments },
  { id: 'opensearch.cat_all_pit_segments', handler: allPitSegments },
];
