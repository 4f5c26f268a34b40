import type { Context, Middleware } from 'koa';
import type { Component, DeclarativeObserver, DeclarativeRequest } from '../declarative-request/index.js';
import { fieldVisibilityOf, type GatewayState, type Principal } from '../auth/index.js';
import { clientIp, scopeOf } from '../analytics/index.js';
import { readJson, type Backend, type InterceptedBackend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { queryString, readJsonBody, type GatewayRequest } from '../request/index.js';
import { analyticsSuggestions, popularSuggestions, type AnalyticsSource } from './analytics-suggestions.js';
import { IndexMappings } from './field-catalog.js';
import { shapeDeclarativeResponse, type MsearchResponse } from './shape-response.js';
import { searchTextHit, valuesAt, escapeHtml, type SuggestionHit } from './suggestion-hits.js';
import { translateDeclarative, validateDeclarative, sourceRulesOf } from './validate.js';
import { componentIndex, sourceOf, type ComponentPlan } from './translate.js';
import { QUERY_SUGGESTIONS_INDEX } from './query-suggestions.js';
import { resolveIndices } from '../auth/classify/index.js';
import { framingFor, wantsStream, writeLiveStream, type StreamHub } from '../streams/index.js';
import { liveDeclarative } from './live-ui.js';
import { sortedJson } from '../ndjson/index.js';
import type { DeclarativeResponse } from './shape-response.js';
import { constrainSearch, curateAnswer, curateDeclarative, fetchPromoted, hiddenCount, type Curation, type RuleEffects } from '../rules/index.js';


/** `_msearch` URL parameters a declarative request passes on (ReactiveSearch takes `_msearch`'s); any other is ignored. */
const MSEARCH_PARAMETERS = ['routing', 'search_type', 'max_concurrent_searches', 'max_concurrent_shard_requests', 'pre_filter_shard_size', 'ccs_minimize_roundtrips'];


/**
 * The declarative query API, under its own names and ReactiveSearch's. Requests arrive
 * authenticated and authorized (every index the body and the path name is the credential's):
 *
 *   POST /_declarative, /{index}/_declarative, /_reactivesearch[.v3], /{index}/_reactivesearch[.v3]
 *     → {<id>: engine response, …, settings: {took, searchTook}}
 *   POST …/validate → the `_msearch` it would send
 *
 * `analyticsEngine` (the engine as the gateway's own stores reach it, where search analytics is
 * kept) answers popular and recent suggestions and the `.suggestions` index; without it there are
 * none (and `.suggestions` is not found).
 */
export function declarativeRoutes(
  backend: InterceptedBackend,
  maxContentLength: number,
  curation?: Curation,
  observe?: DeclarativeObserver,
  mappings = new IndexMappings(backend),
  analyticsEngine?: Backend,
  live?: LiveDeclarativeDeps,
): Middleware {
  return async (ctx, next) => {
    const request = requestOf(ctx);
    const m = declarativeRoute(request.segments);
    if (!m) return next();
    if (ctx.method !== 'POST') {
      throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [POST]`, {}, { Allow: 'POST' });
    }
    const defaultIndex = m[1];
    const body = await readJsonBody(ctx, maxContentLength);
    const principal = ctx.state.principal as Principal;
    if (live && !m[2] && wantsStream(request.params)) return liveAnswer(ctx, live, body, (engine, record, validateOnly) => answer(ctx, engine, body, defaultIndex, principal, record, validateOnly));
    ctx.body = await answer(ctx, backend, body, defaultIndex, principal, true, Boolean(m[2]));
  };

  /**
   * The declarative answer to `body` as it is now, through `engine`; `record`: search analytics
   * records it (a live UI's later answers are not searches anyone made). `validateOnly`: the
   * `_msearch` it would send.
   */
  async function answer(ctx: Context, engine: InterceptedBackend, body: unknown, defaultIndex: string | undefined, principal: Principal, record: boolean, validateOnly = false): Promise<DeclarativeResponse> {
    const started = performance.now();
    let effects: Map<string, RuleEffects> | undefined;
    // the caller's field rules as authorization read them (aliases of the indices included)
    const visibility = (ctx.state as Partial<GatewayState>).fieldVisibility ?? (principal.role === 'admin' ? undefined : fieldVisibilityOf(principal.credential));
    await curation?.rules.ready();
    const prepare = curation && ((request: Parameters<typeof curateDeclarative>[0], indexOf: (i: number) => string) => (effects = curateDeclarative(request, indexOf, curation, visibility)));
    const validated = await validateDeclarative(body, principal, mappings.get, { defaultIndex, prepare, engine });
    const plan = validated.translation.plan;
    // hidden documents are counted by searches sent after the components' own
    const counting = new Map<string, number>();
    const lines = validated.translation.msearch;
    if (effects?.size) {
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
    const preference = requestOf(ctx).params.get('preference');
    if (typeof preference === 'string' && preference !== '') for (let i = 0; i < lines.length; i += 2) lines[i].preference = preference;
    const msearch = translateDeclarative(validated);
    if (validateOnly) return { method: 'POST', path: '/_msearch', body: msearch.lines, ndjson: msearch.ndjson } as unknown as DeclarativeResponse;
    let reply: MsearchResponse = { took: 0, responses: [] };
    if (plan.executing.length) {
      const res = await engine.request({
        method: 'POST',
        path: '/_msearch',
        querystring: msearchParameters(ctx),
        headers: { 'content-type': 'application/x-ndjson' },
        body: msearch.ndjson,
        cache: validated.request.settings?.useCache,
      });
      const read = await readJson<MsearchResponse & { error?: { type?: string; reason?: string } }>(res);
      if (res.status !== 200 || !read || read.error) {
        throw new EsError(res.status >= 400 ? res.status : 500, read?.error?.type ?? 'exception', read?.error?.reason ?? 'the engine refused the search');
      }
      reply = read;
    }
    const answer = shapeDeclarativeResponse(msearch.plan, reply);
    const components = new Map(validated.request.query.map((c) => [c.id, c]));
    if (effects?.size) {
      const curated = plan.executing.filter((c) => effects!.has(c.id) && !answer[c.id]?.error);
      const rules = sourceRulesOf(principal);
      const promoted = await fetchPromoted(engine, curated.map((c) => {
        const component = components.get(c.id)!;
        return { index: c.index, effects: effects!.get(c.id)!, source: sourceOf(component.includeFields, component.excludeFields, rules) };
      }));
      for (const c of curated) {
        const at = counting.get(c.id);
        const hidden = at === undefined ? undefined : hiddenCount(reply.responses?.[at]);
        curateAnswer(answer[c.id], effects.get(c.id)!, c.index, promoted, components.get(c.id)?.from, hidden);
        if (c.suggestion) promotedAsSuggestions(answer[c.id], c.suggestion.fields);
      }
    }
    // analytics records what the engine found, before suggestions from analytics are added to it
    if (record) observe?.(ctx, withIndices(validated.request, defaultIndex), answer as Record<string, unknown>);
    const source: AnalyticsSource | undefined = analyticsEngine && {
      engine: analyticsEngine,
      scope: scopeOf(principal),
      user: validated.request.settings?.userId ?? clientIp(ctx),
    };
    await Promise.all([...plan.executing, ...(plan.local ?? [])].map((c) => addSuggestionsFromAnalytics(answer[c.id], c, source)));
    answer.settings.took = Math.max(answer.settings.searchTook, Math.round(performance.now() - started));
    return answer;
  }
}

/** What a live declarative UI (`stream=true`) needs: the node's streams, and the engine as streams read it (never the cache). */
export interface LiveDeclarativeDeps {
  hub: StreamHub;
  engine: InterceptedBackend;
}

/**
 * `POST /_declarative?stream=true`: the answer, then what changes in it (liveDeclarative), over
 * the stream transports of search streams (concatenated JSON, NDJSON, SSE) with their limits.
 */
async function liveAnswer(ctx: Context, live: LiveDeclarativeDeps, body: unknown, answer: (engine: InterceptedBackend, record: boolean, validateOnly?: boolean) => Promise<DeclarativeResponse>): Promise<void> {
  const { hub, engine } = live;
  // the request's errors (its shape, an index it may not read) are answered before any stream
  // exists; the `_msearch` it sends names the indices the UI reads
  const validated = (await answer(engine, false, true)) as unknown as { body: Array<Record<string, unknown>> };
  const named = validated.body.filter((_, i) => i % 2 === 0).map((header) => header.index).filter((i): i is string => typeof i === 'string');
  const expressions = [...new Set(named.flatMap((i) => i.split(',')))];
  const indices = expressions.length ? (await resolveIndices(engine, expressions)).concrete.filter((i) => !i.startsWith('.')) : [];
  const principal = ctx.state.principal as Principal;
  const messages = hub.declarative(liveDeclarative(hub.bus, hub.declaratives, {
    // UIs of one credential asking the same share their computations
    key: sortedJson({ credential: principal.username, role: principal.role, path: ctx.path, querystring: ctx.querystring, body }),
    indices,
    intervalMs: hub.config.aggIntervalMs,
    settleMs: hub.config.visibleAfterMs,
    // the UI's first answer is a search someone made: analytics records it
    compute: (first) => answer(engine, first),
  }), framingFor(ctx.get('accept')).name);
  await writeLiveStream(ctx, hub, 'declarative', messages);
}

function msearchParameters(ctx: Context): string {
  const { params } = requestOf(ctx);
  return queryString(MSEARCH_PARAMETERS.map((name) => [name, params.get(name)] as const).filter((e): e is readonly [string, string] => e[1] !== undefined));
}

/** The request as the edge read it (lib/server/state.ts). */
const requestOf = (ctx: Context): GatewayRequest => (ctx.state as { gatewayRequest: GatewayRequest }).gatewayRequest;

/**
 * `/[{index}/]{_declarative|_reactivesearch|_reactivesearch.v3}[/validate]`, read from the decoded
 * segments: [whole, index, '/validate'] as the route's former pattern matched them; null for another path.
 */
function declarativeRoute(segments: readonly string[]): [string, string | undefined, string | undefined] | null {
  const at = segments.length > 0 && DECLARATIVE_ENDPOINTS.has(segments[0]) ? 0 : segments.length > 1 && DECLARATIVE_ENDPOINTS.has(segments[1]) ? 1 : -1;
  if (at < 0) return null;
  const rest = segments.slice(at + 1);
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== 'validate')) return null;
  return ['', at === 1 ? segments[0] : undefined, rest.length ? '/validate' : undefined];
}

const DECLARATIVE_ENDPOINTS = new Set(['_declarative', '_reactivesearch', '_reactivesearch.v3']);

/** The request as analytics should see it: every component with the index it read. */
function withIndices(request: DeclarativeRequest, defaultIndex: string | undefined): DeclarativeRequest {
  return { ...request, query: request.query.map((c, i): Component => (c.index !== undefined ? c : { ...c, index: componentIndex(request, i, defaultIndex) })) };
}

/** A promoted document among a suggestion component's suggestions: a suggestion of type `promoted`. */
function promotedAsSuggestions(answer: Record<string, unknown>, fields: string[]): void {
  const hits = (answer.hits as { hits?: Array<Record<string, unknown>> } | undefined)?.hits;
  if (!hits) return;
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i];
    if (hit._suggestion_type !== undefined) continue;
    const source = (hit._source ?? {}) as Record<string, unknown>;
    const text = fields.map((f) => valuesAt(source, f)[0]).find((v) => v !== undefined) ?? String(hit._id ?? '');
    hits[i] = {
      value: text, label: escapeHtml(text), url: null, _suggestion_type: 'promoted', _category: null, _count: null, _rs_score: 0,
      _matched_tokens: null, _id: String(hit._id ?? ''), _index: hit._index ?? null, _score: 0, _source: source,
    };
  }
}

/**
 * Popular and recent suggestions (before the index suggestions, as ReactiveSearch lists them), and
 * the answers of `.suggestions` components: popular searches as its documents. A failure of search
 * analytics leaves them out: the index suggestions still answer.
 */
async function addSuggestionsFromAnalytics(answer: Record<string, unknown> | undefined, plan: ComponentPlan, source: AnalyticsSource | undefined): Promise<void> {
  if (!answer || answer.error || (!plan.analytics && !plan.querySuggestions)) return;
  const hits = answer.hits as { total?: { value: number; relation: string }; hits: Array<Record<string, unknown>> };
  if (plan.querySuggestions) {
    if (!source) {
      for (const key of Object.keys(answer)) delete answer[key];
      Object.assign(answer, {
        error: { root_cause: [], type: 'index_not_found_exception', reason: `no such index [${QUERY_SUGGESTIONS_INDEX}]: search analytics is off`, index: QUERY_SUGGESTIONS_INDEX },
        status: 404,
      });
      return;
    }
    const popular = await popularSuggestions(source, plan.querySuggestions.text, {}, plan.querySuggestions.size).catch(() => []);
    hits.hits = popular.map((p): Record<string, unknown> => ({
      ...(plan.type === 'suggestion' ? searchTextHit(p.key, 'popular', p.count) : {}),
      _index: QUERY_SUGGESTIONS_INDEX, _id: p.key, _score: p.count, _source: { key: p.key, count: p.count },
    }));
    hits.total = { value: popular.length, relation: 'eq' };
    if (plan.type === 'suggestion') answer.suggestions = popular.map((p) => ({ text: p.key, field: 'key', _id: p.key, _score: p.count }));
    return;
  }
  if (!source || !plan.analytics) return;
  const added: SuggestionHit[] = await analyticsSuggestions(source, plan.analytics).catch(() => []);
  if (added.length) hits.hits = [...added, ...hits.hits] as unknown as Array<Record<string, unknown>>;
}
