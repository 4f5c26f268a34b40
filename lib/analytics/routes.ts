import type { Context, Middleware } from 'koa';
import { from, map } from 'rxjs';
import type { Principal } from '../auth/index.js';
import { EsError } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import type { GatewayState } from '../auth/index.js';
import type { Backend } from '../engine/index.js';
import { framingFor, writeStream } from '../streams/index.js';
import { errorMessage, overflowMessage } from '../streams/index.js';
import { liveAnswers } from './live.js';
import { analyticsQuery, ANALYTICS_ENDPOINTS, type AnalyticsScope } from './queries.js';
import type { AnalyticsRecorder } from './recorder.js';

/** An events API body is a few fields: anything larger is not one. */
const MAX_EVENT_BYTES = 64 * 1024;
export const SEARCH_ID_HEADER = 'x-search-id';

export interface AnalyticsRouteOptions {
  /** How often a live answer (`stream=true`) is computed again, at most. */
  streamIntervalMs: number;
  /** A live answer's transport: heartbeats while idle, the bound of a slow client's buffer. */
  streams: { heartbeatMs: number; maxBufferedBytes: number };
  /** Rule usage per rule id (`/_analytics/rules/usage`), from the query rules. */
  ruleUsage?: () => Array<{ id: string; usage: number }>;
}

export const clientIp = (ctx: Context): string => ctx.request.ip || ctx.req.socket.remoteAddress || '';

/** What a caller's analytics may show: the admin's, every index; a scoped credential's, its own indices. */
export const scopeOf = (principal: Principal, index?: string): AnalyticsScope =>
  principal.role === 'admin' ? { index } : { index, patterns: principal.credential.indices };

/** `k1=v1,k2=v2` (X-Search-Filters, X-Search-Custom-Event) → `{k: v | [v…]}`. */
export function headerPairs(header: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pair of header.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    (out[pair.slice(0, at).trim()] ??= []).push(pair.slice(at + 1).trim());
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);
const optionalString = (body: Record<string, unknown>, name: string): string | undefined => {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`[${name}] must be a string`);
  return v;
};
const stringMap = (v: unknown, name: string): Record<string, unknown> | undefined => {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalid(`[${name}] must be an object`);
  return v;
};

/**
 * The analytics API (category `analytics`):
 * - events: `PUT|POST /{index}/_analytics/search|click|conversion` (appbase's body members), and
 *   `POST /{index}/_analytics` with `X-Search-Id` and `X-Search-Click`/`X-Search-ClickPosition`,
 *   `X-Search-Conversion`, `X-Search-Suggestions-Click[Position]`;
 * - queries: `GET /_analytics/{name}`, `GET /_analytics/{index}/{name}` (and `rules/usage`), each
 *   with `stream=true` for a live answer: pushed again whenever it changes.
 */
export function analyticsRoutes(engine: Backend, recorder: AnalyticsRecorder, options: AnalyticsRouteOptions): Middleware<GatewayState> {
  return async (ctx) => {
    const info = ctx.state.request;
    const principal = ctx.state.principal;
    const segments = info.segments;
    const at = segments.indexOf('_analytics');
    if (at === 1) return events(ctx, segments[0], segments.slice(2), recorder);
    // /_analytics/{name} and /_analytics/{index}/{name}
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [GET]`);
    const rest = segments.slice(1);
    if ((rest[0] === 'rules' && rest[1] === 'usage' && rest.length === 2) || (rest[0] === 'stats' && rest.length === 1)) {
      // what every index's rules and recording do: the admin's to see
      if (principal.role !== 'admin') throw new EsError(403, 'security_exception', `action [cluster:admin/gateway/analytics/get] on [${rest.join('/')}] is unauthorized for user [${principal.username}]`);
      ctx.body = rest[0] === 'stats' ? recorder.stats() : { rules: (options.ruleUsage?.() ?? []).map(({ id, usage }) => ({ key: id, count: usage })) };
      return;
    }
    const [index, name] = rest.length === 2 ? rest : [undefined, rest[0]];
    if (name === undefined || rest.length > 2 || !ANALYTICS_ENDPOINTS.includes(name)) {
      throw new EsError(404, 'resource_not_found_exception', `no analytics endpoint [${rest.join('/')}]; there are: ${ANALYTICS_ENDPOINTS.join(', ')}, rules/usage`);
    }
    const { params } = ctx.state.gatewayRequest;
    const scope = scopeOf(principal, index);
    const compute = () => analyticsQuery(engine, name, params, scope);
    if (params.get('stream') !== 'true') {
      ctx.body = await compute();
      return;
    }
    const first = await compute(); // a bad parameter is a 400, before any byte of stream
    const aborted = new AbortController();
    ctx.res.once('close', () => aborted.abort());
    // the first answer is the one computed above; every later one is computed anew
    let pending: object | undefined = first;
    const answer = async () => {
      const ready = pending;
      pending = undefined;
      return ready ?? compute();
    };
    const framing = framingFor(ctx.get('accept'));
    const messages = from(liveAnswers(answer, options.streamIntervalMs, aborted.signal)).pipe(map((text) => ({ data: JSON.parse(text) as unknown })));
    ctx.respond = false;
    // the request ends once the stream has started; the answers go on until the client leaves
    // (the response's close aborts them, above)
    await writeStream(ctx.res, messages, framing, {
      ...options.streams,
      overflowMessage,
      errorMessage,
      start: (res) => {
        res.writeHead(200, { 'content-type': framing.contentType, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
        res.flushHeaders();
      },
    });
  };
}

/**
 * A search id names one index's search: an event sent to another index that names it would be
 * written into that index's analytics (a search event would replace its record). Refused as a
 * search this index does not have.
 */
async function checkSearchOf(recorder: AnalyticsRecorder, searchId: string, index: string): Promise<void> {
  if (!(await recorder.isSearchOf(searchId, index))) throw new EsError(404, 'resource_not_found_exception', `no search [${searchId}] in [${index}]`);
}

async function events(ctx: Context & { state: GatewayState }, index: string, rest: readonly string[], recorder: AnalyticsRecorder): Promise<void> {
  if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [PUT, POST]`);
  const credential = ctx.state.principal.username;
  const ip = clientIp(ctx);
  if (rest.length === 0) return headerEvents(ctx, index, recorder);
  if (rest.length !== 1 || !['search', 'click', 'conversion'].includes(rest[0])) {
    throw new EsError(404, 'resource_not_found_exception', `no analytics event [${rest.join('/')}]; there are: search, click, conversion`);
  }
  const body = await readJsonBody(ctx, MAX_EVENT_BYTES);
  if (!isObject(body)) throw invalid('the event must be a JSON object');
  const userId = optionalString(body, 'user_id');
  const customEvents = stringMap(body.custom_events ?? body.event_data, body.custom_events !== undefined ? 'custom_events' : 'event_data');
  if (rest[0] === 'search') {
    const query = optionalString(body, 'query');
    const id = optionalString(body, 'query_id');
    if (query === undefined && id === undefined) throw invalid('a search event needs [query] or [query_id]');
    if (id !== undefined) await checkSearchOf(recorder, id, index);
    const hits = body.hits;
    if (hits !== undefined && (typeof hits !== 'number' || !Number.isInteger(hits) || hits < 0)) throw invalid('[hits] must be a non-negative integer');
    const filters = stringMap(body.filters, 'filters');
    const searchId = recorder.recordSearch({ index, query: query ?? '', emptyQuery: true, id, userId, ip, customEvents, credential, hits: hits as number | undefined, filters: filters as Record<string, string> | undefined });
    ctx.status = 201;
    ctx.set(SEARCH_ID_HEADER, searchId!);
    ctx.body = { query_id: searchId };
    return;
  }
  const searchId = optionalString(body, 'query_id');
  if (!searchId) throw invalid(`a ${rest[0]} event needs [query_id]`);
  await checkSearchOf(recorder, searchId, index);
  if (rest[0] === 'click') {
    const clicks = stringMap(body.click_on, 'click_on');
    if (!clicks || !Object.keys(clicks).length) throw invalid('a click event needs [click_on]: {doc id: position}');
    for (const [doc, position] of Object.entries(clicks)) {
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 1) throw invalid(`[click_on][${doc}] must be a position (an integer ≥ 1)`);
    }
    const type = body.click_type ?? 'result';
    if (type !== 'result' && type !== 'suggestion') throw invalid('[click_type] must be [result] or [suggestion]');
    await recorder.recordClick({ searchId, index, clicks: clicks as Record<string, number>, clickType: type, userId, ip, customEvents, credential });
  } else {
    const on = body.conversion_on;
    if (!Array.isArray(on) || !on.length || !on.every((d) => typeof d === 'string')) throw invalid('a conversion event needs [conversion_on]: [doc id, …]');
    await recorder.recordConversion({ searchId, index, docIds: on as string[], userId, ip, customEvents, credential });
  }
  ctx.body = { acknowledged: true };
}

/** `POST /{index}/_analytics` with appbase's headers: a click, a suggestion click, or a conversion of the search `X-Search-Id` names. */
async function headerEvents(ctx: Context & { state: GatewayState }, index: string, recorder: AnalyticsRecorder): Promise<void> {
  const searchId = ctx.get(SEARCH_ID_HEADER);
  if (!searchId) throw invalid('[X-Search-Id] is required: the search the event is about');
  await checkSearchOf(recorder, searchId, index);
  const base = { searchId, index, userId: ctx.get('x-user-id') || undefined, ip: clientIp(ctx), credential: ctx.state.principal.username, customEvents: headerPairs(ctx.get('x-search-custom-event')) };
  const position = (name: string) => {
    const raw = ctx.get(name) || ctx.get(name.replace('clickposition', 'click-position'));
    const n = Number(raw || 1);
    if (!Number.isInteger(n) || n < 1) throw invalid(`[${name}] must be a position (an integer ≥ 1)`);
    return n;
  };
  let recorded = false;
  for (const [header, type] of [['x-search-click', 'result'], ['x-search-suggestions-click', 'suggestion']] as const) {
    const doc = ctx.get(header);
    if (!doc || doc === 'false') continue;
    // `X-Search-Click: true` (appbase) names no document: the click is counted for the search
    const clicks = { [doc === 'true' ? '' : doc]: position(`${header}position`) };
    await recorder.recordClick({ ...base, clicks, clickType: type });
    recorded = true;
  }
  const conversion = ctx.get('x-search-conversion');
  if (conversion && conversion !== 'false') {
    await recorder.recordConversion({ ...base, docIds: conversion === 'true' ? [''] : conversion.split(',').map((d) => d.trim()) });
    recorded = true;
  }
  if (!recorded) throw invalid('no event: send [X-Search-Click], [X-Search-Suggestions-Click] or [X-Search-Conversion]');
  ctx.body = { acknowledged: true };
}
