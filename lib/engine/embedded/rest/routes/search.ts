import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { lookUpRequestCache, requestCacheable, type IndexHandle } from '../../indices/index.js';
import { checkExpensiveQueries, parseCountQuery, parseQuery, parseSearchRequest, resolveBodyLookups, resolveTermsLookups, withLookupsUnread, runCount, runSearch, validateExecutionParams, type CancelAfter, type DocumentLookup, type Query, type SearchRequest } from '../../search/index.js';
import { readMsearch } from '../../../../ndjson/index.js';
import { requestBody, searchRequestBody, withExactSearchAfter } from '../body.js';
import { booleanParam, integerParam, type ParamReader, type UrlParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { checkPointInTimeSearch, checkShardDocSort, pointInTimeSearch } from './point-in-time.js';
import { searchThroughPipeline } from './pipelined-search.js';
import { scrollContexts, timeValueText } from './scroll-contexts.js';
import { effectiveQuery, resolveReadTarget, timeValue, withQuery, withQueryRules } from './search-target.js';

function maxWindowOf(handles: IndexHandle[]): number {
  if (!handles.length) return 10_000;
  return Math.min(...handles.map((h) => Number(h.meta.settings['index.max_result_window'] ?? '10000')));
}

/**
 * Document lookups resolved: terms lookups replaced by the looked-up document's values,
 * more_like_this documents given their source (those naming no index read the first one searched).
 */
function withTermsLookups(ctx: EngineContext, query: unknown, handles: IndexHandle[]): unknown {
  if (query === undefined) return undefined;
  return resolveTermsLookups(query, documentLookup(ctx), handles[0]?.name);
}

function documentLookup(ctx: EngineContext): DocumentLookup {
  return (index, id, _routing, version) => {
    const handle = ctx.indices.readTarget(index);
    const doc = handle.getCounted(id);
    if (doc && version !== undefined && doc.version !== version) {
      throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, current version [${doc.version}] is different than the one provided [${version}]`,
        { index_uuid: handle.uuid, shard: '0', index: handle.name });
    }
    return doc?.source as Record<string, unknown> | undefined;
  };
}

/** The request's query and post_filter with their `rule` queries resolved. */
function withRequestRules(ctx: EngineContext, request: SearchRequest): SearchRequest {
  const resolved = { ...request, query: withQueryRules(ctx, request.query) };
  if (request.postFilter) resolved.postFilter = withQueryRules(ctx, request.postFilter);
  return resolved;
}

export function validationError(reason: string): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${reason};`);
}

/**
 * One search: resolve the indices, build the effective query (`q=`, query strings, alias
 * filters), run it. With `scroll`, the full result is kept as a scroll context and the first
 * page returned with its `_scroll_id`.
 */
export async function executeSearch(ctx: EngineContext, expression: string | undefined, params: ParamReader, body: Record<string, unknown> | undefined, started: number): Promise<Record<string, unknown>> {
  checkShardDocSort(body);
  validateExecutionParams(params);
  if (body?.pit !== undefined) {
    // A point in time: its frozen views are the indices searched; its id leads the answer.
    const pit = pointInTimeSearch(ctx, expression, params, body);
    // frozen when opened (perhaps by someone else): read now, so checked now
    ctx.access?.require(pit.handles.map((h) => h.name), 'read', 'indices:data/read/search');
    const result = await searchHandles(ctx, pit.handles, undefined, params, pit.body, started, true);
    return { pit_id: pit.id, ...result };
  }
  return searchHandles(ctx, resolveReadTarget(ctx, expression, params), expression, params, body, started);
}

/**
 * The budget of a search that names no `timeout`: the dynamic cluster setting
 * `search.default_search_timeout` when set (`PUT _cluster/settings`, `-1` for none), else the
 * engine's option (30 s by default).
 */
export function defaultSearchTimeoutMs(ctx: EngineContext): number | undefined {
  const set = ctx.clusterSettings.get('search.default_search_timeout');
  if (typeof set !== 'string') return ctx.defaultSearchTimeoutMs;
  return set.trim() === '-1' ? -1 : timeValue('search.default_search_timeout', set);
}

/** `search.max_buckets` (a dynamic cluster setting): the buckets a search's aggregations may answer; undefined: the default. */
function maxBucketsOf(ctx: EngineContext): number | undefined {
  const set = ctx.clusterSettings.get('search.max_buckets');
  return set === undefined || set === null ? undefined : Number(set);
}

/** `search.aggs.rewrite_to_filter_by_filter` (a dynamic cluster setting, true by default): whether aggregations may run filter by filter. */
function rewriteToFilterByFilter(ctx: EngineContext): boolean {
  return String(ctx.clusterSettings.get('search.aggs.rewrite_to_filter_by_filter') ?? 'true') !== 'false';
}

/** `search.allow_expensive_queries: false` (cluster setting): the search's expensive queries refused as Elasticsearch refuses them. */
function refuseExpensiveQueries(ctx: EngineContext, handles: IndexHandle[], queries: Array<Query | undefined>): void {
  if (String(ctx.clusterSettings.get('search.allow_expensive_queries') ?? 'true') !== 'false') return;
  checkExpensiveQueries(queries, handles.map((h) => h.mappings));
}

async function searchHandles(
  ctx: EngineContext, handles: IndexHandle[], expression: string | undefined, params: ParamReader, body: Record<string, unknown> | undefined, started: number,
  pointInTime = false,
): Promise<Record<string, unknown>> {
  const effective = withQuery(resolveBodyLookups(body, documentLookup(ctx), handles[0]?.name), withTermsLookups(ctx, effectiveQuery(body?.query, params, handles, expression), handles));
  const scroll = params.get('scroll');
  if (scroll === null) {
    const knownIndexOrAlias = booleanParam(params, 'ignore_unavailable', false) ? undefined : (name: string) => ctx.indices.get(name) !== undefined || ctx.indices.aliasTargets(name).length > 0;
    const request = withRequestRules(ctx, parseSearchRequest(effective, params, maxWindowOf(handles), pointInTime));
    refuseExpensiveQueries(ctx, handles, [request.query, request.postFilter]);
    const answer = await runSearch(handles, request, started, {
      knownIndexOrAlias, defaultTimeoutMs: defaultSearchTimeoutMs(ctx), storedScripts: ctx.storedScripts, nodeId: ctx.node.id, maxBuckets: maxBucketsOf(ctx),
      rewriteToFilterByFilter: rewriteToFilterByFilter(ctx), cancelAfter: cancelAfterOf(ctx, params),
    });
    if (!pointInTime) countRequestCache(handles, effective, params, request.size, answer);
    return answer;
  }

  const keepAlive = timeValue('scroll', scroll);
  const request = withRequestRules(ctx, parseSearchRequest(effective, params, Number.MAX_SAFE_INTEGER, pointInTime));
  refuseExpensiveQueries(ctx, handles, [request.query, request.postFilter]);
  if (request.trackTotalHits === false) throw validationError('disabling [track_total_hits] is not allowed in a scroll context');
  if (request.size === 0) throw validationError('[size] cannot be [0] in a scroll context');
  if (booleanParam(params, 'request_cache', false)) throw validationError('[request_cache] cannot be used in a scroll context');
  const maxWindow = maxWindowOf(handles);
  if (request.size > maxWindow) {
    throw new EsError(400, 'illegal_argument_exception',
      `Batch size is too large, size must be less than or equal to: [${maxWindow}] but was [${request.size}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.`);
  }
  const full = await runSearch(handles, { ...request, size: Number.MAX_SAFE_INTEGER }, started, { defaultTimeoutMs: defaultSearchTimeoutMs(ctx), storedScripts: ctx.storedScripts, nodeId: ctx.node.id, maxBuckets: maxBucketsOf(ctx), rewriteToFilterByFilter: rewriteToFilterByFilter(ctx), cancelAfter: cancelAfterOf(ctx, params) });
  const hitsObj = full.hits as Record<string, unknown>;
  const all = hitsObj.hits as unknown[];
  const { hits: _omitted, ...header } = hitsObj;
  void _omitted;
  const id = scrollContexts(ctx).add({ hits: all, header, shards: full._shards, next: request.size, size: request.size, stats: handles.map((h) => h.stats) }, keepAlive);
  return { _scroll_id: id, ...full, hits: { ...header, hits: all.slice(0, request.size) } };
}

/** URL parameters that do not change a search's shard results (its request cache key leaves them out). */
const NOT_IN_CACHE_KEY = new Set(['request_cache', 'pretty', 'human', 'error_trace', 'filter_path', 'typed_keys', 'rest_total_hits_as_int']);

/**
 * The JSON text of a request cache key or answer. Exact numbers (search_after's, an unsigned_long's)
 * are BigInts, written as their digits: JSON.stringify refuses them, and only then is the value
 * written again with a replacer (a replacer on every value made each size-0 search's key and answer
 * cost 2.5 times as much: 2.5% of a gateway's CPU under 5,000 live aggregation dashboards).
 */
function cacheJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(value, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  }
}

/** The shard request cache lookups of a search that may be cached (request-cache.ts), for each index it searched. */
function countRequestCache(handles: IndexHandle[], body: Record<string, unknown> | undefined, params: ParamReader, size: number, answer: Record<string, unknown>): void {
  const asked = params.get('request_cache') === null ? undefined : booleanParam(params, 'request_cache', true);
  // a search of hits is not cached unless asked (its key is not written for each search)
  if (asked === false || (asked === undefined && size !== 0)) return;
  const key = cacheJson([body ?? {}, [...params].filter(([k]) => !NOT_IN_CACHE_KEY.has(k)).sort()]);
  let answerBytes: number | undefined;
  const measure = () => (answerBytes ??= Buffer.byteLength(cacheJson(answer)));
  for (const h of handles) {
    if (requestCacheable(h, asked, size, key)) lookUpRequestCache(h, key, measure);
  }
}

async function search(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkCancelAfter(req.params);
  const pipelined = searchThroughPipeline(ctx, req.pathParams.index, req.params, searchRequestBody(req));
  const body = pipelined.answer(await executeSearch(ctx, req.pathParams.index, pipelined.params, pipelined.body, req.started));
  return { status: 200, body: withPhaseTookIfAsked(ctx, req.params, body) };
}

/**
 * OpenSearch's `cancel_after_time_interval` (a search's parameter, or a multi search's and its headers'):
 * a time value, or -1 for none, checked as OpenSearch's paramAsTime reads it.
 */
export function checkCancelAfter(params: ParamReader): void {
  cancelAfterText('cancel_after_time_interval', params.get('cancel_after_time_interval'));
}

/**
 * When the search is cancelled (search/cancel-after.ts): its `cancel_after_time_interval`, else the
 * dynamic cluster setting `search.cancel_after_time_interval` (-1 by default: never), as
 * TimeoutTaskCancellationUtility takes the request's value first.
 */
export function cancelAfterOf(ctx: EngineContext, params: ParamReader): CancelAfter | undefined {
  const asked = params.get('cancel_after_time_interval');
  const set = ctx.clusterSettings.get('search.cancel_after_time_interval');
  return asked !== null ? cancelAfterText('cancel_after_time_interval', asked)
    : typeof set === 'string' ? cancelAfterText('search.cancel_after_time_interval', set) : undefined;
}

/** A time value, or -1 for none; 0 here is none too (a search would never have its turn before it). */
export function cancelAfterText(name: string, v: string | null): CancelAfter | undefined {
  if (v === null || v.trim() === '-1' || v.trim() === '0') return undefined;
  const ms = timeValue(name, v);
  return { ms, text: timeValueText(ms) };
}

/**
 * OpenSearch's `phase_took` (2.12): the time of each search phase; one shard, no DFS: all of it is
 * the query phase's. Asked by the search's `phase_took`, or else by the dynamic cluster setting
 * `search.phase_took_enabled` (TransportSearchAction: the request's value wins).
 */
export function withPhaseTookIfAsked(ctx: EngineContext, params: ParamReader, body: Record<string, unknown>): Record<string, unknown> {
  const asked = params.has('phase_took') ? booleanParam(params, 'phase_took', false) : String(ctx.clusterSettings.get('search.phase_took_enabled')) === 'true';
  if (!asked) return body;
  const { took, timed_out, ...rest } = body;
  const phases = { dfs_pre_query: 0, query: took, fetch: 0, dfs_query: 0, expand: 0, can_match: 0 };
  return took === undefined ? body : { took, timed_out, phase_took: phases, ...rest };
}

async function count(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handles = resolveReadTarget(ctx, req.pathParams.index, req.params);
  const body = requestBody(req);
  const query = withQueryRules(ctx, parseCountQuery(withQuery(body, withTermsLookups(ctx, effectiveQuery(body?.query, req.params, handles, req.pathParams.index), handles))));
  refuseExpensiveQueries(ctx, handles, [query]);
  return { status: 200, body: await runCount(handles, query, ctx.storedScripts) };
}

function scrollIds(req: RestRequest): { ids: string[]; keepAlive?: string } {
  const body = requestBody(req);
  let ids: string[] = [];
  let keepAlive = req.params.get('scroll') ?? undefined;
  const raw = req.body.trim();
  if (body) {
    const id = body.scroll_id;
    if (id !== undefined) ids = Array.isArray(id) ? id.map(String) : String(id).split(',');
    if (typeof body.scroll === 'string') keepAlive = body.scroll;
  } else if (raw && !raw.startsWith('{')) {
    ids = raw.split(',');
  }
  if (!ids.length) {
    const fromParam = req.pathParams.scroll_id ?? req.params.get('scroll_id');
    if (fromParam) ids = fromParam.split(',');
  }
  return { ids: ids.map((s) => s.trim()).filter(Boolean), keepAlive };
}

function scroll(req: RestRequest, ctx: EngineContext): RestResponse {
  const { ids, keepAlive } = scrollIds(req);
  if (!ids.length) throw validationError('scrollId is missing');
  const c = scrollContexts(ctx).take(ids[0], keepAlive === undefined ? undefined : timeValue('scroll', keepAlive));
  const page = c.hits.slice(c.next, c.next + c.size);
  c.next += page.length;
  const totalAsInt = booleanParam(req.params, 'rest_total_hits_as_int', false);
  const header = { ...c.header };
  if (totalAsInt && header.total !== null && typeof header.total === 'object') header.total = (header.total as { value: number }).value;
  return {
    status: 200,
    body: { _scroll_id: ids[0], took: Math.max(0, Math.round(performance.now() - req.started)), timed_out: false, _shards: c.shards, hits: { ...header, hits: page } },
  };
}

function clearScroll(req: RestRequest, ctx: EngineContext): RestResponse {
  const { ids } = scrollIds(req);
  const contexts = scrollContexts(ctx);
  if (ids.length === 1 && ids[0] === '_all') return { status: 200, body: { succeeded: true, num_freed: contexts.freeAll() } };
  if (!ids.length) throw validationError('no scroll ids specified');
  let freed = 0;
  for (const id of ids) if (contexts.free(id)) freed++;
  return { status: freed > 0 || ids.length === 0 ? 200 : 404, body: { succeeded: true, num_freed: freed } };
}

interface MsearchItem {
  index: string | undefined;
  params: UrlParams;
  body: Record<string, unknown>;
}

/** One search's target in a multi search: the header's index (or the path's), and the URL's parameters overridden by the header's. */
export function msearchTarget(req: RestRequest, header: Record<string, unknown>): { index: string | undefined; params: UrlParams } {
  const options: Array<[string, string]> = [];
  let index = req.pathParams.index;
  for (const [k, v] of Object.entries(header)) {
    if (k === 'index' || k === 'indices') index = Array.isArray(v) ? v.map(String).join(',') : String(v);
    else if (k !== 'type' && k !== 'types') options.push([k, Array.isArray(v) ? v.map(String).join(',') : String(v)]);
  }
  return { index, params: options.length ? req.params.with(options) : req.params };
}

/** A multi search body must have something in it, as Elasticsearch's REST layer checks first. */
export function requireMsearchBody(req: RestRequest): void {
  if (!/[^ \t\r\n]/.test(req.body)) throw new EsError(400, 'parse_exception', 'request body or source parameter is required');
}

/** NDJSON header/body pairs (read by lib/ndjson, as the gateway's access check reads them); header options override the URL's. */
function msearchItems(req: RestRequest): MsearchItem[] {
  // read before the body, as RestMultiSearchAction does
  const maxConcurrent = integerParam(req.params, 'max_concurrent_searches');
  if (maxConcurrent !== undefined && maxConcurrent < 1) throw new EsError(400, 'illegal_argument_exception', 'maxConcurrentSearchRequests must be positive');
  requireMsearchBody(req);
  const items: MsearchItem[] = [];
  // readMsearch checked the header keys and kept the body line's text for exact integers
  for (const { header, body, bodyText } of readMsearch(req.body)) {
    const { index, params } = msearchTarget(req, header);
    // a header's own cancel_after_time_interval or phase_took is read with the request, as OpenSearch parses it
    checkCancelAfter(params);
    booleanParam(params, 'phase_took', false);
    const track = body.track_total_hits;
    if (booleanParam(req.params, 'rest_total_hits_as_int', false) && track !== undefined && track !== true && track !== 'true' && track !== false && track !== -1) {
      // checked while reading the request, so it fails the whole msearch as in ES
      throw new EsError(400, 'illegal_argument_exception', `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${String(track)}`);
    }
    // every search's query is read before any runs: one that does not parse fails the whole request, as in ES
    if (body.query !== undefined) parseQuery(withLookupsUnread(body.query));
    if (body.pit !== undefined) checkPointInTimeSearch(index, params);
    items.push({ index, params, body: withExactSearchAfter(body, bodyText) });
  }
  if (!items.length) throw validationError('no requests added');
  return items;
}

async function msearch(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const items = msearchItems(req);
  const responses: Record<string, unknown>[] = [];
  for (const item of items) {
    const started = performance.now();
    try {
      const pipelined = searchThroughPipeline(ctx, item.index, item.params, item.body);
      const answer = pipelined.answer(await executeSearch(ctx, item.index, pipelined.params, pipelined.body, started));
      responses.push({ ...withPhaseTookIfAsked(ctx, item.params, answer), status: 200 });
    } catch (err) {
      const e = toEsError(err);
      responses.push({ ...errorBody(e) });
    }
  }
  return { status: 200, body: { took: Math.max(0, Math.round(performance.now() - req.started)), responses } };
}

export const searchRoutes: Route[] = [
  { id: 'search', handler: search },
  { id: 'count', handler: count },
  { id: 'scroll', handler: scroll },
  { id: 'clear_scroll', handler: clearScroll },
  { id: 'msearch', handler: msearch },
];
