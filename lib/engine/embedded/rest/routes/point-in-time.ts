import { EsError } from '../../../../errors/index.js';
import { fieldSubsetView } from '../../access/index.js';
import { decodePitId, encodePitId } from '../../../../point-in-time/index.js';
import { holdPointInTimeView, type IndexHandle, type PointInTimeHold } from '../../indices/index.js';
import { parseSort } from '../../search/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS } from './resolve.js';
import { pointInTimeContexts, type PointInTimeContext } from './scroll-contexts.js';
import { leftByIndexFilter, resolveTarget, timeValue } from './search-target.js';
import { type ParamReader } from '../params.js';

function validationFailed(reasons: string[]): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: ${reasons.map((r, i) => `${i + 1}: ${r};`).join('')}`);
}

/** The 404 of a point in time that expired, was closed, or never was: a search whose every shard failed. */
function contextMissing(id: string): EsError {
  const cause = { type: 'search_context_missing_exception', reason: `No search context found for id [${decodePitId(id)?.key ?? id}]` };
  return new EsError(404, 'search_phase_execution_exception', 'all shards failed', {
    root_cause: [cause], phase: 'query', grouped: true, failed_shards: [{ shard: -1, index: null, reason: cause }],
  });
}

function invalidId(id: unknown): EsError {
  return new EsError(400, 'illegal_argument_exception', `invalid id: [${typeof id === 'string' ? id : JSON.stringify(id)}]`);
}

/** `POST /{index}/_pit?keep_alive=…`: a frozen view of each index the expression resolves to, under a new id. */
export async function openPointInTime(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const keepAlive = req.params.get('keep_alive');
  if (keepAlive === null) throw validationFailed(['[keep_alive] is not specified']);
  const keepAliveMs = timeValue('keep_alive', keepAlive);
  let handles = resolveTarget(ctx, req.pathParams.index, req.params);
  const body = requestBody(req);
  for (const k of Object.keys(body ?? {})) {
    if (k !== 'index_filter') throw new EsError(400, 'parsing_exception', `[open_point_in_time] unknown field [${k}]`, { line: 1, col: 1 });
  }
  // an index where the filter rewrites to match_none is left out
  handles = leftByIndexFilter(ctx, handles, body?.index_filter);
  const holds: PointInTimeHold[] = [];
  const release = () => holds.forEach((h) => h.release());
  try {
    for (const h of handles) holds.push(await holdPointInTimeView(h));
    const id = encodePitId(handles.map((h) => h.name));
    pointInTimeContexts(ctx).add({ views: holds.map((h) => h.view), release, uuids: handles.map((h) => h.uuid), stats: handles.map((h) => h.stats) }, keepAliveMs, id);
    return { status: 200, body: { id, _shards: shardsOf(handles) } };
  } catch (e) {
    release();
    throw e;
  }
}

function shardsOf(handles: IndexHandle[]) {
  const shards = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1'), 0);
  return { total: shards, successful: shards, skipped: 0, failed: 0 };
}

/** `DELETE /_pit` with `{"id": …}`: frees it (an unknown id frees nothing, and is no failure). */
function closePointInTime(req: RestRequest, ctx: EngineContext): RestResponse {
  const body = requestBody(req);
  const id = body?.id;
  if (id === undefined || id === null || id === '') throw validationFailed(['id is empty']);
  if (typeof id !== 'string' || !decodePitId(id)) throw invalidId(id);
  const views = pointInTimeContexts(ctx).find(id, undefined)?.views;
  if (views) ctx.access?.require(views.map((v) => v.name), 'read', 'indices:data/read/close_point_in_time');
  const freed = pointInTimeContexts(ctx).free(id) ? 1 : 0;
  return { status: 200, body: { succeeded: true, num_freed: freed } };
}

/**
 * What a search request may not say next to a `pit` (Elasticsearch's REST layer checks it before
 * anything runs; an `_msearch` with such an item fails whole).
 */
export function checkPointInTimeSearch(expression: string | undefined, params: ParamReader): void {
  const reasons: string[] = [];
  if (expression !== undefined && expression !== '') reasons.push('[indices] cannot be used with point in time. Do not specify any index with point in time.');
  if (INDICES_OPTIONS.some((o) => params.has(o))) reasons.push('[indicesOptions] cannot be used with point in time');
  if (params.has('routing')) reasons.push('[routing] cannot be used with point in time');
  if (params.has('preference')) reasons.push('[preference] cannot be used with point in time');
  if (params.get('ccs_minimize_roundtrips') === 'true') reasons.push('[ccs_minimize_roundtrips] cannot be used with point in time');
  if (params.has('scroll')) reasons.push('using [point in time] is not allowed in a scroll context');
  if (reasons.length) throw validationFailed(reasons);
}

/** A search over a point in time: the frozen views it reads, and the body to run (without `pit`, with the tiebreaker). */
export interface PointInTimeSearch {
  id: string;
  handles: IndexHandle[];
  body: Record<string, unknown>;
}

/**
 * The point in time a search body names (`"pit": {"id", "keep_alive"}`), its keep-alive renewed;
 * 404 when it is gone. A search that sorts gets the implicit `_shard_doc` tiebreaker, unless its
 * sort ends with one or its `search_after` leaves it out (as Elasticsearch's SearchRequest.rewrite).
 */
export function pointInTimeSearch(ctx: EngineContext, expression: string | undefined, params: ParamReader, body: Record<string, unknown>): PointInTimeSearch {
  checkPointInTimeSearch(expression, params);
  const pit = body.pit;
  if (pit === null || typeof pit !== 'object' || Array.isArray(pit)) throw new EsError(400, 'parsing_exception', '[pit] must be an object', { line: 1, col: 1 });
  const { id, keep_alive: keepAlive, ...rest } = pit as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new EsError(400, 'x_content_parse_exception', `[1:1] [pit] unknown field [${unknown}]`, { line: 1, col: 1 });
  if (id === undefined) throw new EsError(400, 'x_content_parse_exception', '[1:1] [pit] Required [id]', { line: 1, col: 1 });
  if (typeof id !== 'string' || !decodePitId(id)) throw invalidId(id);
  if (keepAlive !== undefined && typeof keepAlive !== 'string') throw new EsError(400, 'illegal_argument_exception', `failed to parse [keep_alive] with value [${String(keepAlive)}]`);
  const context: PointInTimeContext | undefined = pointInTimeContexts(ctx).find(id, keepAlive === undefined ? undefined : timeValue('keep_alive', keepAlive));
  if (!context) throw contextMissing(id);
  // An index deleted (or recreated) since: its context is gone with it, as in Elasticsearch.
  if (context.views.some((v, i) => ctx.indices.get(v.name)?.uuid !== context.uuids[i])) {
    pointInTimeContexts(ctx).free(id);
    throw contextMissing(id);
  }
  const { pit: _pit, ...search } = body;
  void _pit;
  // frozen when opened, perhaps by a caller who sees every field: read with this caller's field rules
  const fields = ctx.access?.fields;
  return { id, handles: fields ? context.views.map((v) => fieldSubsetView(v, fields, ctx.onHiddenField)) : context.views, body: withTiebreaker(search) };
}

function withTiebreaker(body: Record<string, unknown>): Record<string, unknown> {
  if (body.sort === undefined) return body;
  const sorts = parseSort(body.sort);
  if (!sorts.length) return body;
  const after = body.search_after;
  if (Array.isArray(after) && after.length !== sorts.length + 1) return body;
  const last = sorts[sorts.length - 1];
  if (last.kind === 'doc' && last.shard) return body;
  const list = Array.isArray(body.sort) ? body.sort : [body.sort];
  return { ...body, sort: [...list, { _shard_doc: 'asc' }] };
}

/** `_shard_doc` numbers documents within a point in time: without one it means nothing. */
export function checkShardDocSort(body: Record<string, unknown> | undefined): void {
  if (body?.sort === undefined || body.pit !== undefined) return;
  if (parseSort(body.sort).some((s) => s.kind === 'doc' && s.shard)) {
    throw validationFailed(['[_shard_doc] sort field cannot be used without [point in time]']);
  }
}

export const pointInTimeRoutes: Route[] = [
  { id: 'open_point_in_time', handler: openPointInTime },
  { id: 'close_point_in_time', handler: closePointInTime },
];
