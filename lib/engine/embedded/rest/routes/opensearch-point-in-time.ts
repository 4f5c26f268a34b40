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
 */
import { EsError } from '../../../../errors/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { openPointInTime } from './point-in-time.js';
import { pointInTimeContexts } from './scroll-contexts.js';

async function createPit(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const opened = await openPointInTime(req, ctx);
  const { id, _shards } = opened.body as { id: string; _shards: unknown };
  const entry = pointInTimeContexts(ctx).list().find((p) => p.id === id);
  return { status: 200, body: { pit_id: id, _shards, creation_time: entry?.createdAt ?? Date.now() } };
}

function listPits(_req: RestRequest, ctx: EngineContext): RestResponse {
  const pits = pointInTimeContexts(ctx).list().map((p) => ({ pit_id: p.id, creation_time: p.createdAt, keep_alive: p.keepAliveMs }));
  return { status: 200, body: { pits } };
}

function deletePits(req: RestRequest, ctx: EngineContext): RestResponse {
  const body = requestBody(req);
  const raw = body?.pit_id;
  const ids = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  if (ids.length === 0 || ids.some((id) => typeof id !== 'string' || id === '')) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no pit ids specified;');
  }
  const contexts = pointInTimeContexts(ctx);
  return { status: 200, body: { pits: (ids as string[]).map((id) => ({ successful: contexts.free(id), pit_id: id })) } };
}

function deleteAllPits(_req: RestRequest, ctx: EngineContext): RestResponse {
  const contexts = pointInTimeContexts(ctx);
  return { status: 200, body: { pits: contexts.list().map(({ id }) => ({ successful: contexts.free(id), pit_id: id })) } };
}

export const openSearchPointInTimeRoutes: Route[] = [
  { id: 'opensearch.create_pit', handler: createPit },
  { id: 'opensearch.get_all_pits', handler: listPits },
  { id: 'opensearch.delete_all_pits', handler: deleteAllPits },
  { id: 'opensearch.delete_pit', handler: deletePits },
];
