import type { Context, Middleware } from 'koa';
import { readJson, type Backend } from '../engine/index.js';
import { errors } from '../errors/index.js';
import { bufferText, type Classification } from '../request/index.js';
import type { GatewayState } from '../server/state.js';
import { constrainSearch, curateAnswer, curatePlainSearch, fetchPromoted, hiddenCount, type Curation } from './curate.js';

/** The legacy appbase header that carries a plain search's text. */
export const SEARCH_QUERY_HEADER = 'x-search-query';

/** A plain `_search` that says what was typed: the rules have a say in it. */
export function carriesSearchText(info: Classification, ctx: Context): boolean {
  return info.action === 'indices:data/read/search' && (ctx.method === 'GET' || ctx.method === 'POST') && ctx.get(SEARCH_QUERY_HEADER) !== '';
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

/**
 * `_search` with `X-Search-Query`: the rules that fire for that text (and `X-Search-Filters`) add
 * their filters and hide their documents in the authorized body; the answer gets the promoted
 * documents, `hits.hidden` and `customData`. No rule fires: the request goes on to the thin path
 * untouched.
 */
export function curatedSearch(backend: Backend, curation: Curation, maxContentLength: number): Middleware<GatewayState> {
  return async (ctx, next) => {
    const info = ctx.state.request;
    const effects = curatePlainSearch(info.indices.length ? info.indices : ['_all'], ctx.get(SEARCH_QUERY_HEADER), filtersOf(ctx.get('x-search-filters')), curation);
    if (!effects) return next();
    const text = info.forward ?? (await bufferText(ctx, maxContentLength)) ?? '';
    let body: Record<string, unknown>;
    try {
      body = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch (err) {
      throw errors.parse(`request body is not valid JSON: ${(err as Error).message}`);
    }
    const index = info.indices.length === 1 ? info.indices[0] : undefined;
    const count = constrainSearch(body, effects, index);
    const counted = count && backend.request({ method: 'POST', path: ctx.path, querystring: '', headers: { 'content-type': 'application/json' }, body: JSON.stringify(count), info });
    counted?.catch(() => {}); // awaited below, unless the search itself fails first
    const res = await backend.request({
      method: 'POST',
      path: ctx.path,
      querystring: ctx.querystring,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      info,
    });
    const answer = await readJson<Record<string, unknown>>(res);
    const hidden = counted ? hiddenCount(await readJson<Record<string, unknown>>(await counted)) : undefined;
    if (res.status === 200 && answer && index !== undefined && !/[*,]/.test(index)) {
      // the credential's source rules reached the search as parameters: the promoted documents get them too
      const params = new URLSearchParams(ctx.querystring);
      const sourceParams = new URLSearchParams();
      for (const name of ['_source', '_source_includes', '_source_excludes']) {
        const v = params.get(name);
        if (v !== null) sourceParams.set(name, v);
      }
      const promoted = await fetchPromoted(backend, [{ index, effects, source: body._source }], sourceParams.toString());
      curateAnswer(answer, effects, index, promoted, typeof body.from === 'number' ? body.from : 0, hidden);
    } else if (res.status === 200 && answer) {
      curateAnswer(answer, { ...effects, promote: [] }, index ?? '', new Map(), 0, hidden);
    }
    ctx.status = res.status;
    ctx.body = answer;
  };
}
