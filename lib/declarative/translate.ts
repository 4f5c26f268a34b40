import { wildcardMatches } from '../auth/classify/index.js';
import { EsError } from '../errors/index.js';
import {
  categoryKeyword, checkedField, dataFields, isRawBody, rangeAggregations, rankFeatureClauses, rawClause, suggestionFields, termAggregations,
  textOf, valueClause, type Clause, type ComponentContext,
} from './component-queries.js';
import type { Component, ComponentType, DeclarativeRequest, PopularSuggestionsConfig, ReactExpression, RecentSuggestionsConfig } from '../declarative-request/index.js';
import type { FieldCatalog } from './field-catalog.js';
import { QUERY_SUGGESTIONS_INDEX } from './query-suggestions.js';

/** The credential's `_source` rules; they win over the component's own include/exclude lists. */
export interface SourceRules {
  include?: string[];
  exclude?: string[];
}

export interface TranslateOptions {
  /** The index of `/{index}/_declarative`, for components without their own `index`. */
  defaultIndex?: string;
  sourceRules?: SourceRules;
  /** The credential's max_size: default sizes never exceed it (explicit ones were checked before). */
  maxSize?: number;
}

/** How a suggestion component's hits become suggestions (ReactiveSearch's suggestion hits). */
export interface SuggestionPlan {
  /** The text typed. */
  text: string;
  /** The data fields whose values are suggested. */
  fields: string[];
  /** `_category` of each suggestion: this field of its document. */
  categoryField?: string;
  /** `url` of each suggestion: this field of its document. */
  urlField?: string;
  /** At most one suggestion per document. */
  distinct?: boolean;
  /** Suggest the words that follow (or precede) what was typed, up to `maxPredictedWords`. */
  predictive?: { maxWords: number; stopwords?: { language: string; custom: string[] }; preTag: string; postTag: string };
  sectionLabel?: string;
  /** The highlighted fields: a suggestion's label is its highlighted value when there is one. */
  highlighted: boolean;
}

/** Suggestions answered from search analytics (popular and recent searches), not from the index. */
export interface AnalyticsSuggestionsPlan {
  text: string;
  popular?: PopularSuggestionsConfig;
  recent?: RecentSuggestionsConfig;
}

/** What the response shaper needs to know about one component it answers. */
export interface ComponentPlan {
  id: string;
  type: ComponentType;
  index: string;
  /** For suggestion components: how the hits become suggestions. */
  suggestion?: SuggestionPlan;
  /** For suggestion components: popular and recent suggestions to add (lib/declarative/analytics-suggestions.ts). */
  analytics?: AnalyticsSuggestionsPlan;
  /** For components of the `.suggestions` index: the popular searches they ask for (query-suggestions.ts). */
  querySuggestions?: { text: string; size: number };
}

export interface DeclarativePlan {
  /** The executed components, in `_msearch` order: the response's `responses[i]` belongs to `executing[i]`. */
  executing: ComponentPlan[];
  /**
   * Components answered without the engine: suggestion components with `enableIndexSuggestions:
   * false` (analytics suggestions only) and components of the `.suggestions` index.
   */
  local?: ComponentPlan[];
}

export interface Translation {
  /** `_msearch` lines: header, body, header, body… */
  msearch: Clause[];
  plan: DeclarativePlan;
}

const DEFAULT_SIZE: Record<ComponentType, number> = { search: 10, suggestion: 5, geo: 10, term: 0, range: 0 };
/** Facets (term, range) count over what the others select, not over their own selection. */
const QUERIES_ITSELF: Record<ComponentType, boolean> = { search: true, suggestion: true, geo: true, term: false, range: false };

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/** The index a component reads: its own, or the path's. */
export function componentIndex(request: DeclarativeRequest, i: number, defaultIndex?: string): string {
  const index = request.query[i].index ?? defaultIndex;
  if (index === undefined) throw invalid(`query[${i}].index: no index given (neither in the component nor in the path)`);
  return index;
}

/** What a component contributes through `react`, and in which clause of the reacting bool (`compoundClause`). */
interface Contribution {
  clause: Clause;
  filter: boolean;
}

/**
 * The pure translation of a validated declarative request into one `_msearch`: no I/O, the same
 * output for the same input (golden-tested). `catalogs` holds the fields of every index the
 * components name; a field they do not know is refused with its JSON path.
 */
export function translate(request: DeclarativeRequest, catalogs: ReadonlyMap<string, FieldCatalog>, options: TranslateOptions = {}): Translation {
  const contexts: ComponentContext[] = request.query.map((component, i) => {
    const index = componentIndex(request, i, options.defaultIndex);
    const catalog = catalogs.get(index);
    if (!catalog) throw new EsError(500, 'exception', `no mapping was read for index [${index}]`);
    return { component, type: component.type ?? 'search', path: `query[${i}]`, index, catalog, backend: request.settings?.backend };
  });
  const contributions = new Map<string, Contribution | undefined>();
  for (const ctx of contexts) {
    const c = ctx.component;
    // raw DSL of `.suggestions` components never runs (validate.ts lets anyone send it)
    const raw = ctx.index === QUERY_SUGGESTIONS_INDEX ? undefined : c.customQuery;
    const clause = raw ? rawClause(raw) : valueClause(ctx);
    contributions.set(c.id, clause && { clause, filter: c.compoundClause === 'filter' });
  }

  const msearch: Clause[] = [];
  const executing: ComponentPlan[] = [];
  const local: ComponentPlan[] = [];
  for (const ctx of contexts) {
    const c = ctx.component;
    if (c.execute === false) continue;
    const plan: ComponentPlan = { id: c.id, type: ctx.type, index: ctx.index };
    if (ctx.index === QUERY_SUGGESTIONS_INDEX) {
      plan.querySuggestions = { text: textOf(c), size: c.size ?? DEFAULT_SIZE[ctx.type] };
      local.push(plan);
      continue;
    }
    if (ctx.type === 'suggestion') {
      if (c.enablePopularSuggestions || c.enableRecentSuggestions) {
        plan.analytics = { text: textOf(c) };
        if (c.enablePopularSuggestions) plan.analytics.popular = c.popularSuggestionsConfig ?? {};
        if (c.enableRecentSuggestions) plan.analytics.recent = c.recentSuggestionsConfig ?? {};
      }
      if (c.enableIndexSuggestions === false) {
        local.push(plan);
        continue;
      }
    }
    const body = componentBody(ctx, contributions, options);
    if (ctx.type === 'suggestion') plan.suggestion = suggestionPlan(ctx, body);
    msearch.push({ index: ctx.index }, body);
    executing.push(plan);
  }
  return { msearch, plan: local.length ? { executing, local } : { executing } };
}

/** The search body of one executing component. */
function componentBody(ctx: ComponentContext, contributions: ReadonlyMap<string, Contribution | undefined>, options: TranslateOptions): Clause {
  const c = ctx.component;
  const raw = c.defaultQuery && isRawBody(c.defaultQuery) ? c.defaultQuery : undefined;
  const must: Clause[] = [];
  const filter: Clause[] = [];
  if (c.defaultQuery) {
    const own = rawClause(c.defaultQuery);
    if (own) must.push(own);
  } else if (QUERIES_ITSELF[ctx.type]) {
    const own = contributions.get(c.id);
    if (own) (own.filter ? filter : must).push(own.clause);
  }
  const reacted = reactClause(c.react, contributions);
  if (reacted) (reacted.filter ? filter : must).push(reacted.clause);
  const should = ctx.type === 'search' || ctx.type === 'suggestion' ? rankFeatureClauses(ctx) : [];

  let query: Clause;
  if (!filter.length && !should.length) query = must.length ? { bool: { must } } : { match_all: {} };
  else {
    const bool: Clause = {};
    if (must.length) bool.must = must;
    if (filter.length) bool.filter = filter;
    if (should.length) bool.should = should;
    query = { bool };
  }
  const body: Clause = { query };
  const defaultSize = DEFAULT_SIZE[ctx.type];
  body.size = c.size ?? (options.maxSize !== undefined ? Math.min(defaultSize, options.maxSize) : defaultSize);
  if (c.from !== undefined) body.from = c.from;
  const sort = sortOf(ctx);
  if (sort) body.sort = sort;
  const source = sourceOf(c.includeFields, c.excludeFields, options.sourceRules);
  if (source !== undefined) body._source = source;
  const aggs = aggregationsOf(ctx);
  if (aggs) body.aggs = aggs;
  const highlight = highlightOf(ctx, options.sourceRules);
  if (highlight) body.highlight = highlight;
  const collapse = collapseOf(ctx, source);
  if (collapse) body.collapse = collapse;
  const rescore = vectorRescoreOf(ctx);
  if (rescore) body.rescore = rescore;
  if (c.deepPagination && c.deepPaginationConfig?.cursor !== undefined) {
    const cursor = c.deepPaginationConfig.cursor;
    body.search_after = Array.isArray(cursor) ? cursor : [cursor];
    delete body.from;
    body.sort ??= [{ _score: { order: 'desc' } }];
  }
  if (raw) applyRawBody(body, raw, options.sourceRules);
  return body;
}

/** The members of a `defaultQuery` written as a search body, over the ones built (the credential's `_source` rules still apply). */
function applyRawBody(body: Clause, raw: Clause, rules: SourceRules | undefined): void {
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'query') continue;
    if (key === '_source') {
      const lists = typeof value === 'string' ? { includes: [value] } : Array.isArray(value) ? { includes: value as string[] } : (value as { includes?: string[]; excludes?: string[] });
      const source = value === false ? false : sourceOf(lists.includes, lists.excludes, rules);
      if (source !== undefined) body._source = source;
      else delete body._source;
    } else if (key === 'aggregations') {
      body.aggs = value;
    } else {
      body[key] = value;
    }
  }
}

/** `react` as bool clauses: a name or a list is `and`; `or` needs one; `not` excludes; `compoundClause: filter` parts go to `filter`. */
function reactClause(expr: ReactExpression | undefined, contributions: ReadonlyMap<string, Contribution | undefined>): Contribution | undefined {
  if (expr === undefined) return undefined;
  if (typeof expr === 'string') return contributions.get(expr);
  const parts = (e: ReactExpression | undefined): Contribution[] => {
    if (e === undefined) return [];
    const list = Array.isArray(e) ? e : [e];
    return list.map((x) => reactClause(x, contributions)).filter((x): x is Contribution => x !== undefined);
  };
  const conjunction = (items: Contribution[], bool: Clause) => {
    const must = items.filter((x) => !x.filter).map((x) => x.clause);
    const filter = items.filter((x) => x.filter).map((x) => x.clause);
    if (must.length) bool.must = must;
    if (filter.length) bool.filter = filter;
  };
  const bool: Clause = {};
  if (Array.isArray(expr)) {
    conjunction(parts(expr), bool);
    return Object.keys(bool).length ? { clause: { bool }, filter: false } : undefined;
  }
  conjunction(parts(expr.and), bool);
  const should = parts(expr.or).map((x) => x.clause);
  const mustNot = parts(expr.not).map((x) => x.clause);
  if (should.length) {
    bool.should = should;
    bool.minimum_should_match = 1;
  }
  if (mustNot.length) bool.must_not = mustNot;
  return Object.keys(bool).length ? { clause: { bool }, filter: false } : undefined;
}

/** A field to sort on: its keyword form (text fields do not sort), checked against the mapping. */
function sortable(ctx: ComponentContext, field: string, path: string): string {
  if (field === '_score' || field === '_doc') return field;
  const info = checkedField(ctx, field, path);
  return info.keyword ?? field;
}

/**
 * `sortField` (a field, or a list of fields and `{field: order}`) in `sortBy`'s order, by default
 * `desc` for `_score` and `asc` for a field. With `sortBy` and no `sortField`, ReactiveSearch sorts
 * on the first data field (its keyword form; by score when it has none).
 */
function sortOf(ctx: ComponentContext): Clause[] | undefined {
  const c = ctx.component;
  if (ctx.type === 'term' || ctx.type === 'range') return undefined; // sortBy orders their buckets
  const explicit = c.sortBy === 'asc' || c.sortBy === 'desc' ? c.sortBy : undefined;
  const orderOf = (field: string) => explicit ?? (field === '_score' ? 'desc' : 'asc');
  if (c.sortField !== undefined) {
    if (typeof c.sortField === 'string') return [{ [sortable(ctx, c.sortField, `${ctx.path}.sortField`)]: { order: orderOf(c.sortField) } }];
    return c.sortField.map((item, i) => {
      if (typeof item === 'string') return { [sortable(ctx, item, `${ctx.path}.sortField[${i}]`)]: { order: orderOf(item) } };
      const [field, order] = Object.entries(item)[0];
      return { [sortable(ctx, field, `${ctx.path}.sortField[${i}].${field}`)]: { order } };
    });
  }
  if (!explicit) return undefined;
  const first = c.dataField === undefined ? undefined : dataFields(ctx)[0]?.field;
  const keyword = first && ctx.catalog.field(first)?.keyword;
  return keyword ? [{ [keyword]: { order: explicit } }] : [{ _score: { order: explicit } }];
}

/**
 * Term components' buckets, range components' min/max/histogram; for the others the distinct
 * values of `aggregationField` (a composite aggregation, paged with `after`) and the categories of
 * `categoryField` (size `aggregationSize`).
 */
function aggregationsOf(ctx: ComponentContext): Clause | undefined {
  const c = ctx.component;
  if (ctx.type === 'term') {
    // a component whose own query is raw DSL (ReactiveSearch's ReactiveComponent) may name a made-up field
    if (c.defaultQuery && !ctx.catalog.field(typeof c.dataField === 'string' ? c.dataField : '')) return undefined;
    return termAggregations(ctx);
  }
  if (ctx.type === 'range') return rangeAggregations(ctx);
  const aggs: Clause = {};
  if (c.aggregationField !== undefined) {
    const info = checkedField(ctx, c.aggregationField, `${ctx.path}.aggregationField`);
    const field = info.keyword ?? c.aggregationField;
    const composite: Clause = { size: c.aggregationSize ?? 10, sources: [{ [c.aggregationField]: { terms: { field } } }] };
    if (c.after !== undefined) composite.after = c.after;
    aggs[c.aggregationField] = { composite };
  }
  const category = (ctx.type === 'search' || ctx.type === 'suggestion') ? categoryKeyword(ctx) : undefined;
  if (category) aggs[c.categoryField!] = { terms: { field: category, size: c.aggregationSize ?? 10 } };
  return Object.keys(aggs).length ? aggs : undefined;
}

const covered = (patterns: string[] | undefined, field: string) => !!patterns?.some((p) => wildcardMatches(p, field));
const visibleTo = (rules: SourceRules, field: string) => !covered(rules.exclude, field) && (!rules.include?.length || covered(rules.include, field));

/** The component's `_source` lists within the credential's: includes are intersected, excludes added. */
export function sourceOf(include: string[] | undefined, exclude: string[] | undefined, rules: SourceRules = {}): Clause | false | undefined {
  let includes = include?.length ? [...include] : undefined;
  if (rules.include?.length) {
    includes = includes ? includes.filter((f) => covered(rules.include, f)) : [...rules.include];
    if (!includes.length) return false;
  }
  const excludes = [...(exclude ?? []), ...(rules.exclude ?? [])];
  if (!includes && !excludes.length) return undefined;
  const out: Clause = {};
  if (includes) out.includes = includes;
  if (excludes.length) out.excludes = excludes;
  return out;
}

const HIGHLIGHT_OPTION_KEYS = new Set(['pre_tags', 'post_tags', 'fragment_size', 'number_of_fragments', 'no_match_size', 'type', 'order', 'fragmenter', 'encoder', 'tags_schema', 'require_field_match', 'boundary_scanner', 'boundary_chars', 'boundary_max_scan', 'phrase_limit']);

/**
 * `highlight`: on the data fields (suggestions: and their autosuggest sub-fields), or on
 * `highlightField`, or on `highlightConfig.fields`, with `highlightConfig`'s options. `highlight:
 * false` turns it all off. A field the credential may not see in `_source` is not highlighted.
 */
function highlightOf(ctx: ComponentContext, rules: SourceRules = {}): Clause | undefined {
  const c = ctx.component;
  const config = c.highlightConfig ?? c.customHighlight;
  if (c.highlight === false) return undefined;
  if (!c.highlight && c.highlightField === undefined && config === undefined) return undefined;
  const fields: Clause = {};
  const configFields = config?.fields === undefined ? undefined : Array.isArray(config.fields) ? Object.assign({}, ...(config.fields as Clause[])) as Clause : config.fields as Clause;
  if (c.highlightField !== undefined) {
    const names = typeof c.highlightField === 'string' ? [c.highlightField] : c.highlightField;
    names.forEach((f, i) => {
      checkedField(ctx, f, typeof c.highlightField === 'string' ? `${ctx.path}.highlightField` : `${ctx.path}.highlightField[${i}]`);
      fields[f] = {};
    });
  } else if (configFields) {
    for (const f of Object.keys(configFields)) checkedField(ctx, f, `${ctx.path}.highlightConfig.fields.${f}`);
  } else if (ctx.type === 'suggestion') {
    const { fields: data, autosuggest } = suggestionFields(ctx);
    for (const f of [...data, ...autosuggest]) fields[f.field] = {};
  } else if (c.dataField !== undefined) {
    for (const f of dataFields(ctx)) fields[f.field] = {};
  }
  for (const [f, options] of Object.entries(configFields ?? {})) {
    if (c.highlightField === undefined || f in fields) fields[f] = options;
  }
  // a field the credential may not see in _source is not shown through highlighting either
  for (const f of Object.keys(fields)) if (!visibleTo(rules, f)) delete fields[f];
  if (!Object.keys(fields).length) return undefined;
  const out: Clause = {};
  for (const [k, v] of Object.entries(config ?? {})) if (HIGHLIGHT_OPTION_KEYS.has(k)) out[k] = v;
  out.fields = fields;
  return out;
}

/** `distinctField`: one hit per value (collapse), `distinctFieldConfig`'s inner hits under the same `_source` rules. */
function collapseOf(ctx: ComponentContext, source: Clause | false | undefined): Clause | undefined {
  const c = ctx.component;
  if (c.distinctField === undefined) return undefined;
  const info = checkedField(ctx, c.distinctField, `${ctx.path}.distinctField`);
  const collapse: Clause = { field: info.keyword ?? c.distinctField };
  const config = c.distinctFieldConfig;
  if (config?.inner_hits !== undefined) {
    const list = Array.isArray(config.inner_hits) ? config.inner_hits : [config.inner_hits];
    const innerHits = list.map((h, n) => {
      const hit: Clause = { ...h };
      if (Array.isArray(h.sort)) {
        hit.sort = (h.sort as Array<string | Clause>).map((s, i) => {
          const at = `${ctx.path}.distinctFieldConfig.inner_hits${Array.isArray(config.inner_hits) ? `[${n}]` : ''}.sort[${i}]`;
          if (typeof s === 'string') return sortable(ctx, s, at);
          const [field, order] = Object.entries(s)[0];
          return { [sortable(ctx, field, `${at}.${field}`)]: order };
        });
      }
      if (source !== undefined) hit._source = source;
      return hit;
    });
    collapse.inner_hits = Array.isArray(config.inner_hits) ? innerHits : innerHits[0];
  }
  if (config?.max_concurrent_group_searches !== undefined) collapse.max_concurrent_group_searches = config.max_concurrent_group_searches;
  return collapse;
}

/** Elasticsearch's default kNN reordering script (painless), as ReactiveSearch documents it. */
export const DEFAULT_VECTOR_SCRIPT = 'cosineSimilarity(params.queryVector, params.dataField) + 1.0';
/** OpenSearch's k-NN score script spaces, the values `script` takes with `settings.backend: opensearch`. */
export const OPENSEARCH_SPACES = ['l2', 'l1', 'cosinesimil', 'hammingbit'];

/**
 * kNN reordering (`vectorDataField` + `queryVector`): the top `candidates` hits (default 10) are
 * rescored by vector similarity, with `script` (Elasticsearch: painless; OpenSearch: a space name).
 */
function vectorRescoreOf(ctx: ComponentContext): Clause | undefined {
  const c = ctx.component;
  if (c.vectorDataField === undefined || c.queryVector === undefined) return undefined;
  const info = checkedField(ctx, c.vectorDataField, `${ctx.path}.vectorDataField`);
  if (info.type !== 'dense_vector' && info.type !== 'knn_vector') throw invalid(`${ctx.path}.vectorDataField: field [${c.vectorDataField}] is not a dense_vector or knn_vector field`);
  const script = ctx.backend === 'opensearch'
    ? { source: 'knn_score', lang: 'knn', params: { field: c.vectorDataField, query_value: c.queryVector, space_type: c.script ?? 'cosinesimil' } }
    : { source: c.script ?? DEFAULT_VECTOR_SCRIPT, params: { queryVector: c.queryVector, dataField: c.vectorDataField } };
  return {
    window_size: c.candidates ?? 10,
    query: { rescore_query: { script_score: { query: { match_all: {} }, script } }, query_weight: 0, rescore_query_weight: 1 },
  };
}

/** How a suggestion component's hits become suggestions. */
function suggestionPlan(ctx: ComponentContext, body: Clause): SuggestionPlan {
  const c = ctx.component;
  const plan: SuggestionPlan = {
    text: textOf(c),
    fields: suggestionFields(ctx).fields.map((f) => f.field),
    highlighted: body.highlight !== undefined,
  };
  if (c.categoryField !== undefined) plan.categoryField = c.categoryField;
  if (c.urlField !== undefined) {
    checkedField(ctx, c.urlField, `${ctx.path}.urlField`);
    plan.urlField = c.urlField;
  }
  if (c.showDistinctSuggestions) plan.distinct = true;
  if (c.enablePredictiveSuggestions) {
    const tags = (t: unknown, fallback: string) => (typeof t === 'string' ? t : Array.isArray(t) && typeof t[0] === 'string' ? t[0] : fallback);
    const config = c.highlightConfig ?? c.customHighlight;
    plan.predictive = {
      maxWords: c.maxPredictedWords ?? 2,
      preTag: tags(config?.pre_tags, '<b class="highlight">'),
      postTag: tags(config?.post_tags, '</b>'),
    };
    if (c.applyStopwords) plan.predictive.stopwords = { language: c.searchLanguage ?? 'english', custom: c.customStopwords ?? [] };
  }
  if (c.indexSuggestionsConfig?.sectionLabel !== undefined) plan.sectionLabel = c.indexSuggestionsConfig.sectionLabel;
  return plan;
}
