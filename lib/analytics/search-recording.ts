import type { Context, Middleware } from 'koa';
import { Readable } from 'node:stream';
import type { Component, DeclarativeRequest, ReactExpression } from '../declarative-request/index.js';
import type { DeclarativeObserver } from '../declarative-request/index.js';
import type { Classification } from '../request/index.js';
import type { GatewayState } from '../auth/index.js';
import type { AnalyticsRecorder } from './recorder.js';
import { clientIp, headerPairs, SEARCH_ID_HEADER } from './routes.js';

/** A search answer's part analytics keeps. */
interface Hits {
  took?: number;
  hits?: { total?: number | { value?: number }; hits?: Array<{ _id?: string }> };
}

const totalOf = (a: Hits | undefined): number | undefined => {
  const t = a?.hits?.total;
  return typeof t === 'number' ? t : typeof t?.value === 'number' ? t.value : undefined;
};
const idsOf = (a: Hits | undefined): string[] => (a?.hits?.hits ?? []).slice(0, 10).map((h) => String(h._id ?? ''));

/** The component ids a `react` expression names. */
function reactedIds(react: ReactExpression | undefined, out: string[] = []): string[] {
  if (react === undefined) return out;
  if (typeof react === 'string') out.push(react);
  else if (Array.isArray(react)) for (const r of react) reactedIds(r, out);
  else for (const r of [react.and, react.or, react.not]) reactedIds(r, out);
  return out;
}

/** A selected value as analytics keeps it: text (a range as `start~end`). */
function valuesOf(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('start' in v || 'end' in v) return [`${v.start ?? ''}~${v.end ?? ''}`];
    return [JSON.stringify(value)];
  }
  return [String(value)];
}

const keyOf = (c: Component) => (typeof c.dataField === 'string' ? c.dataField : Array.isArray(c.dataField) && typeof c.dataField[0] === 'string' ? c.dataField[0] : c.id);

/**
 * Declarative requests with `settings.recordAnalytics: true`: each `search` or `suggestion`
 * component with a value (or any, with `settings.emptyQuery`) records one search — its index, the
 * text, the values of the components it reacts to, total hits, the top 10 ids, took, the user
 * (`settings.userId`, else the client's IP), `settings.customEvents`. The answer carries
 * `X-Search-Id` (the first component's search id).
 */
export function declarativeRecording(recorder: AnalyticsRecorder): DeclarativeObserver {
  return (ctx, request, answer) => {
    const settings = request.settings;
    if (!settings?.recordAnalytics) return;
    const byId = new Map(request.query.map((c) => [c.id, c]));
    let first: string | undefined;
    for (const c of request.query) {
      const type = c.type ?? 'search';
      if ((type !== 'search' && type !== 'suggestion') || c.execute === false) continue;
      const text = typeof c.value === 'string' ? c.value : '';
      const filters: Record<string, string[]> = {};
      for (const id of reactedIds(c.react)) {
        const other = byId.get(id);
        if (!other || other === c) continue;
        const values = valuesOf(other.value);
        if (values.length) (filters[keyOf(other)] ??= []).push(...values);
      }
      const result = answer[c.id] as Hits & { error?: unknown; status?: number } | undefined;
      const id = recorder.recordSearch({
        index: c.index ?? request.query[0]?.index ?? '', query: text, emptyQuery: settings.emptyQuery, filters,
        hits: totalOf(result), hitIds: idsOf(result), took: result?.took, status: result?.error ? (result.status ?? 500) : 200,
        kind: type, userId: settings.userId, ip: clientIp(ctx), customEvents: settings.customEvents, credential: (ctx.state as GatewayState).principal.username,
      });
      first ??= id;
    }
    if (first) ctx.set(SEARCH_ID_HEADER, first);
  };
}

/** A plain `_search` that says what was typed (appbase's `X-Search-Query`): search analytics records it. */
export function carriesSearchQuery(info: Classification, ctx: Context): boolean {
  return info.action === 'indices:data/read/search' && (ctx.method === 'GET' || ctx.method === 'POST') && ctx.get('x-search-query') !== '' && info.segments.at(-1) === '_search';
}

/**
 * Plain `_search` with appbase's headers — `X-Search-Query`, `X-Search-Filters: k1=v1,k2=v2`,
 * `X-User-Id`, `X-Search-Custom-Event: k=v,…` — records one search once it is answered (whoever
 * answers it: the rules, the thin path); the answer carries `X-Search-Id`.
 */
export function plainSearchRecording(recorder: AnalyticsRecorder): Middleware<GatewayState> {
  return async (ctx, next) => {
    ctx.state.answerRead = true;
    await next();
    const info = ctx.state.request;
    let answer: Hits | undefined;
    const body = ctx.body as unknown;
    try {
      if (Buffer.isBuffer(body) || typeof body === 'string') answer = JSON.parse(body.toString()) as Hits;
      else if (body !== null && typeof body === 'object' && !(body instanceof Readable)) answer = body as Hits;
    } catch {
      answer = undefined; // not JSON: recorded without hits
    }
    const id = recorder.recordSearch({
      index: info.sources.filter((s) => s.from === 'path').map((s) => s.expression).join(',') || '_all',
      query: ctx.get('x-search-query'), filters: headerPairs(ctx.get('x-search-filters')),
      hits: totalOf(answer), hitIds: idsOf(answer), took: answer?.took, status: ctx.status, kind: 'search',
      userId: ctx.get('x-user-id') || undefined, ip: clientIp(ctx), customEvents: headerPairs(ctx.get('x-search-custom-event')),
      credential: ctx.state.principal.username,
    });
    if (id) ctx.set(SEARCH_ID_HEADER, id);
  };
}
