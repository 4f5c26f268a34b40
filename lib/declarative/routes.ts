import type { Context, Middleware } from 'koa';
import type { DeclarativeRequest } from './declarative-request.js';
import type { Principal } from '../auth/index.js';
import { readJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import { IndexMappings } from './field-catalog.js';
import { shapeDeclarativeResponse, type MsearchResponse } from './shape-response.js';
import { translateDeclarative, validateDeclarative, sourceRulesOf } from './validate.js';
import { sourceOf } from './translate.js';
import { constrainSearch, curateAnswer, curateDeclarative, fetchPromoted, hiddenCount, type Curation, type RuleEffects } from '../rules/curate.js';

const ROUTE = /^\/(?:([^/]+)\/)?(?:_declarative|_reactivesearch|_reactivesearch\.v3)(\/validate)?\/?$/;

/**
 * The declarative query API. Requests arrive authenticated and authorized (every index the body
 * and the path name is the credential's):
 *
 *   POST /_declarative, /{index}/_declarative            → {<id>: engine response, …, settings: {took}}
 *   POST /_declarative/validate, /{index}/_declarative/validate → the `_msearch` it would send
 */
/** Told of every declarative search answered (search analytics records what it asks to). */
export type DeclarativeObserver = (ctx: Context, request: DeclarativeRequest, answer: Record<string, unknown>) => void;

export function declarativeRoutes(backend: Backend, maxContentLength: number, curation?: Curation, observe?: DeclarativeObserver, mappings = new IndexMappings(backend)): Middleware {
  return async (ctx, next) => {
    const m = ROUTE.exec(ctx.path);
    if (!m) return next();
    if (ctx.method !== 'POST') {
      throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [POST]`, {}, { Allow: 'POST' });
    }
    const defaultIndex = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
    const body = await readJsonBody(ctx, maxContentLength);
    const principal = ctx.state.principal as Principal;
    let effects: Map<string, RuleEffects> | undefined;
    const prepare = curation && ((request: Parameters<typeof curateDeclarative>[0], indexOf: (i: number) => string) => (effects = curateDeclarative(request, indexOf, curation)));
    const validated = await validateDeclarative(body, principal, mappings.get, { defaultIndex, prepare });
    const plan = validated.translation.plan;
    // hidden documents are counted by searches sent after the components' own
    const counting = new Map<string, number>();
    if (effects?.size) {
      const lines = validated.translation.msearch;
      const counts: Array<Record<string, unknown>> = [];
      plan.executing.forEach((c, i) => {
        const fx = effects!.get(c.id);
        const count = fx && constrainSearch(lines[2 * i + 1], fx, c.index);
        if (!count) return;
        counting.set(c.id, plan.executing.length + counts.length / 2);
        counts.push({ index: c.index }, count);
      });
      lines.push(...counts);
    }
    const msearch = translateDeclarative(validated);
    if (m[2]) {
      ctx.body = { method: 'POST', path: '/_msearch', body: msearch.lines, ndjson: msearch.ndjson };
      return;
    }
    const res = await backend.request({
      method: 'POST',
      path: '/_msearch',
      querystring: '',
      headers: { 'content-type': 'application/x-ndjson' },
      body: msearch.ndjson,
      cache: validated.request.settings?.useCache,
    });
    const reply = await readJson<MsearchResponse & { error?: { type?: string; reason?: string } }>(res);
    if (res.status !== 200 || !reply || reply.error) {
      throw new EsError(res.status >= 400 ? res.status : 500, reply?.error?.type ?? 'exception', reply?.error?.reason ?? 'the engine refused the search');
    }
    const answer = shapeDeclarativeResponse(msearch.plan, reply);
    if (effects?.size) {
      const components = new Map(validated.request.query.map((c) => [c.id, c]));
      const curated = plan.executing.filter((c) => effects!.has(c.id) && !answer[c.id]?.error);
      const rules = sourceRulesOf(principal);
      const promoted = await fetchPromoted(backend, curated.map((c) => {
        const component = components.get(c.id)!;
        return { index: c.index, effects: effects!.get(c.id)!, source: sourceOf(component.includeFields, component.excludeFields, rules) };
      }));
      for (const c of curated) {
        const at = counting.get(c.id);
        const hidden = at === undefined ? undefined : hiddenCount(reply.responses?.[at]);
        curateAnswer(answer[c.id], effects.get(c.id)!, c.index, promoted, components.get(c.id)?.from, hidden);
      }
    }
    observe?.(ctx, validated.request, answer as Record<string, unknown>);
    ctx.body = answer;
  };
}
