import { EsError, errors } from '../../../../errors/index.js';
import type { IndexHandle, ResolveOptions } from '../../indices/index.js';
import { canMatch, parseCountQuery, resolveRuleQueries, type ApplyQueryRules, type Query } from '../../search/index.js';
import { createFieldResolver, expandQueryStrings, uriSearchQuery } from '../../search/query-string/index.js';
import { booleanParam, type ParamReader, UrlParams } from '../params.js';
import type { EngineContext } from '../types.js';

/** Resolves an index expression with the indices options found in `params` (URL or msearch header). */
export function resolveTarget(ctx: EngineContext, expression: string | undefined, params: ParamReader, defaults: Partial<ResolveOptions> = {}): IndexHandle[] {
  return ctx.indices.resolve(expression, {
    ...defaults,
    expandWildcards: params.get('expand_wildcards') ?? defaults.expandWildcards,
    ignoreUnavailable: booleanParam(params, 'ignore_unavailable', defaults.ignoreUnavailable ?? false),
    allowNoIndices: booleanParam(params, 'allow_no_indices', defaults.allowNoIndices ?? true),
  });
}

/**
 * The indices a search or count reads: Elasticsearch forbids closed indices there, so a closed
 * index is the request's index_closed_exception — unless `ignore_unavailable`, which leaves it out.
 */
export function resolveReadTarget(ctx: EngineContext, expression: string | undefined, params: ParamReader): IndexHandle[] {
  const handles = resolveTarget(ctx, expression, params);
  return booleanParam(params, 'ignore_unavailable', false) ? handles.filter((h) => h.isOpen) : handles;
}

/**
 * The indices of an action that forbids closed indices (Elasticsearch's
 * `strictExpandOpenAndForbidClosed`: stats, refresh, flush, field caps, validate query, segments):
 * a closed index the expression reaches is the request's index_closed_exception, unless
 * `ignore_unavailable`, which leaves it out as it leaves out a missing one.
 */
export function resolveOpenTarget(ctx: EngineContext, expression: string | undefined, params: ParamReader): IndexHandle[] {
  const handles = resolveTarget(ctx, expression, params);
  if (booleanParam(params, 'ignore_unavailable', false)) return handles.filter((h) => h.isOpen);
  const closed = handles.find((h) => !h.isOpen);
  if (closed) throw errors.indexClosed(closed.name, closed.uuid);
  return handles;
}

function aliasFilterOf(handle: IndexHandle, expression: string | undefined): unknown {
  if (!expression) return undefined;
  const parts = expression.split(',');
  if (parts.includes(handle.name) || parts.some((p) => p.includes('*') || p === '_all')) return undefined;
  const filters = parts.map((p) => (handle.meta.aliases[p] as { filter?: unknown } | undefined)).filter((a) => a !== undefined);
  if (filters.length === 0 || filters.some((a) => a!.filter === undefined)) return undefined;
  const list = filters.map((a) => a!.filter);
  return list.length === 1 ? list[0] : { bool: { should: list } };
}

/**
 * The query a search runs on these indices: `q=` (a query_string query) replaces the body's
 * query; query strings are expanded against the indices' mappings; the filter of an alias the
 * request named is added when every target index is reached through a filtered alias.
 */
export function effectiveQuery(bodyQuery: unknown, params: ParamReader, handles: IndexHandle[], expression?: string): unknown {
  let query = uriSearchQuery(params) ?? bodyQuery;
  const filters = handles.map((h) => aliasFilterOf(h, expression));
  if (query === undefined && filters.every((f) => f === undefined)) return undefined;
  const resolver = createFieldResolver(handles.map((h) => ({ mappings: h.mappings, registry: h.registry, settings: h.meta.settings })));
  const first = handles[0] ? { name: handles[0].name, uuid: handles[0].uuid } : undefined;
  if (query !== undefined) query = expandQueryStrings(query, resolver, first);
  const filter = filters[0];
  if (filter !== undefined && filters.every((f) => JSON.stringify(f) === JSON.stringify(filter))) {
    return { bool: { must: query === undefined ? [] : [query], filter: [expandQueryStrings(filter, resolver, first)] } };
  }
  return query;
}

/**
 * A parsed query with its `rule` queries resolved against the engine's query rulesets: the rewrite
 * Elasticsearch's coordinating node does before any shard runs the query (a missing ruleset is
 * the search's 404).
 */
export function withQueryRules(ctx: EngineContext, query: Query): Query {
  const apply: ApplyQueryRules = (rulesetIds, matchCriteria) => ctx.queryRules.apply(rulesetIds, matchCriteria);
  return resolveRuleQueries(query, apply);
}

/**
 * The indices an `index_filter` (of `_field_caps`, of a point in time) leaves in: those where the
 * query, rewritten on the index, is not match_none (a range beyond every value of a date or number
 * field, a term on a field the index does not map…). As Elasticsearch, it is the can-match test,
 * not a search: an index whose documents merely miss the query stays.
 */
export function leftByIndexFilter(ctx: EngineContext, handles: IndexHandle[], filter: unknown): IndexHandle[] {
  if (filter === undefined) return handles;
  const now = Date.now();
  return handles.filter((h) => canMatch(withQueryRules(ctx, parseCountQuery({ query: effectiveQuery(filter, UrlParams.NONE, [h]) })), h, now));
}

/** A body with its `query` replaced (undefined body stays undefined when nothing changes). */
export function withQuery(body: Record<string, unknown> | undefined, query: unknown): Record<string, unknown> | undefined {
  if (query === undefined) return body;
  return { ...(body ?? {}), query };
}

/** ES's `1m`, `30s`, `500ms`… in milliseconds. */
export function timeValue(name: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(v.trim());
  if (!m) {
    throw new EsError(400, 'illegal_argument_exception',
      `failed to parse setting [${name}] with value [${v}] as a time value: unit is missing or unrecognized`);
  }
  const unit = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms'];
  return Number(m[1]) * unit;
}
