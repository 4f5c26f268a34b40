import type { Context, Middleware } from 'koa';
import { readJson, type InterceptedBackend } from '../engine/index.js';
import { errors } from '../errors/index.js';
import { bufferText, jsonSyntaxReason, narrowRequest, queryString, type Classification } from '../request/index.js';
import { fieldVisibilityOf, type GatewayState } from '../auth/index.js';
import { constrainSearch, curateAnswer, curatePlainSearch, fetchPromoted, hiddenCount, type Curation, type RuleEffects } from './curate.js';
import { readMsearch } from '../ndjson/index.js';

/** The legacy appbase header that carries a plain search's text. */
export const SEARCH_QUERY_HEADER = 'x-search-query';

/** A plain `_search` or `_msearch` that says what was typed: the rules have a say in it. */
export function carriesSearchText(info: Classification, ctx: Context): boolean {
  return (info.action === 'indices:data/read/search' || info.action === 'indices:data/read/msearch') &&
    (ctx.method === 'GET' || ctx.method === 'POST') && ctx.get(SEARCH_QUERY_HEADER) !== '';
}

/** `X-Search-Filters: k1=v1,k2=v2` → selected values by field. */
function filtersOf(header: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of header.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const field = pair.slice(0, at).trim();
    out.set(field, [...(out.get(field) ?? []), pair.slice(at + 1).trim()]);
  }
  return out;
}

/** One search of the request, as the rules see it. */
interface Curated {
  index: string | undefined;
  body: Record<string, unknown>;
  effects: RuleEffects | undefined;
  /** Where the count of its hidden documents is answered (an `_msearch` position). */
  countAt?: number;
}

const concrete = (index: string | undefined): index is string => index !== undefined && !/[*,]/.test(index);

/** The credential's source rules reached the search as parameters: promoted documents get them too. */
function sourceParams(params: ReadonlyMap<string, string>): string {
  return queryString({ _source: params.get('_source'), _source_includes: params.get('_source_includes'), _source_excludes: params.get('_source_excludes') });
}

/**
 * `_search` and `_msearch` with `X-Search-Query`: the rules that fire for that text (and
 * `X-Search-Filters`) on each search's index add their filters and hide their documents in the
 * authorized body; each answer gets the promoted documents, `hits.hidden` and `customData`. The
 * hidden documents are counted by searches sent with the request (after an `_msearch`'s own). No
 * rule fires: the request goes on to the thin path untouched.
 */
export function curatedSearch(backend: InterceptedBackend, curation: Curation, maxContentLength: number): Middleware<GatewayState> {
  return async (ctx, next) => {
    const request = ctx.state.gatewayRequest;
    const { info } = request;
    const { principal } = ctx.state;
    const visibility = ctx.state.fieldVisibility ?? (principal.role === 'admin' ? undefined : fieldVisibilityOf(principal.credential));
    const query = ctx.get(SEARCH_QUERY_HEADER);
    const filters = filtersOf(ctx.get('x-search-filters'));
    const multi = info.action === 'indices:data/read/msearch';
    const pathIndex = info.sources.filter((s) => s.from === 'path').map((s) => s.expression).join(',') || undefined;
    const text = info.forward ?? (await bufferText(ctx, maxContentLength)) ?? '';
    let searches: Array<{ header?: Record<string, unknown>; body: Record<string, unknown> }>;
    if (multi) {
      searches = readMsearch(text).map((e) => ({ header: e.header, body: e.body }));
    } else {
      try {
        searches = [{ body: text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }];
      } catch (err) {
        throw errors.parse(`request body is not valid JSON: ${jsonSyntaxReason(err)}`);
      }
    }
    await curation.rules.ready();
    const curated: Curated[] = searches.map(({ header, body }) => {
      const named = header?.index;
      const index = typeof named === 'string' ? named : Array.isArray(named) ? named.join(',') : pathIndex;
      return { index, body, effects: curatePlainSearch([index ?? '_all'], query, filters, curation, visibility) };
    });
    if (!curated.some((c) => c.effects)) return next();
    const counts: Array<{ index: string | undefined; body: Record<string, unknown> }> = [];
    for (const c of curated) {
      const count = c.effects && constrainSearch(c.body, c.effects, c.index);
      if (!count) continue;
      c.countAt = multi ? searches.length + counts.length : counts.length;
      counts.push({ index: c.index, body: count });
    }
    const send = (path: string, body: string, json = true) =>
      backend.request({ method: 'POST', path, querystring: request.querystring, headers: { 'content-type': json ? 'application/json' : 'application/x-ndjson' }, body, request: narrowRequest(request, { body }) });
    let answers: Array<Record<string, unknown> | undefined>;
    let status: number;
    let reply: Record<string, unknown>;
    if (multi) {
      let ndjson = '';
      searches.forEach((s, i) => (ndjson += JSON.stringify(s.header ?? {}) + '\n' + JSON.stringify(curated[i].body) + '\n'));
      for (const c of counts) ndjson += JSON.stringify(c.index === undefined ? {} : { index: c.index }) + '\n' + JSON.stringify(c.body) + '\n';
      const res = await send(request.path, ndjson, false);
      status = res.status;
      reply = await readJson<Record<string, unknown>>(res);
      const responses = (reply?.responses as Array<Record<string, unknown>> | undefined) ?? [];
      answers = responses;
      if (reply?.responses) reply.responses = responses.slice(0, searches.length);
    } else {
      const counted = counts.length ? send(request.path, JSON.stringify(counts[0].body)) : undefined;
      counted?.catch(() => {}); // awaited below, unless the search itself fails first
      const res = await send(request.path, JSON.stringify(curated[0].body));
      status = res.status;
      reply = await readJson<Record<string, unknown>>(res);
      answers = [reply, counted ? await readJson<Record<string, unknown>>(await counted) : undefined];
      if (counted) curated[0].countAt = 1;
    }
    if (status === 200 && reply) {
      const promotable = curated.filter((c) => c.effects?.promote.length && concrete(c.index));
      const promoted = await fetchPromoted(backend, promotable.map((c) => ({ index: c.index!, effects: c.effects!, source: c.body._source })), sourceParams(request.params));
      curated.forEach((c, i) => {
        const answer = multi ? answers[i] : reply;
        if (!c.effects || !answer || answer.error) return;
        const hidden = c.countAt === undefined ? undefined : hiddenCount(answers[c.countAt]);
        const effects = concrete(c.index) ? c.effects : { ...c.effects, promote: [] };
        curateAnswer(answer, effects, c.index ?? '', promoted, typeof c.body.from === 'number' ? c.body.from : 0, hidden);
      });
    }
    ctx.status = status;
    ctx.body = reply;
  };
}
