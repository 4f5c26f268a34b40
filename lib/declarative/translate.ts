import { wildcardMatches } from '../auth/classify/authorize-indices.js';
import { EsError } from '../errors/index.js';
import {
  checkedField, dataFields, rangeAggregations, rawClause, suggestionFields, termAggregations, valueClause,
  type Clause, type ComponentContext,
} from './component-queries.js';
import type { ComponentType, DeclarativeRequest, ReactExpression } from './declarative-request.js';
import type { FieldCatalog } from './field-catalog.js';

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

/** What the response shaper needs to know about one executed component. */
export interface ComponentPlan {
  id: string;
  type: ComponentType;
  index: string;
  /** For suggestion components: the text typed and the fields whose values are suggested. */
  suggestion?: { text: string; fields: string[] };
}

export interface DeclarativePlan {
  /** The executed components, in `_msearch` order: the response's `responses[i]` belongs to `executing[i]`. */
  executing: ComponentPlan[];
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
    return { component, type: component.type ?? 'search', path: `query[${i}]`, index, catalog };
  });
  const clauses = new Map<string, Clause | undefined>();
  for (const ctx of contexts) {
    clauses.set(ctx.component.id, ctx.component.customQuery ? rawClause(ctx.component.customQuery) : valueClause(ctx));
  }

  const msearch: Clause[] = [];
  const executing: ComponentPlan[] = [];
  for (const ctx of contexts) {
    const c = ctx.component;
    if (c.execute === false) continue;
    const must: Clause[] = [];
    if (c.defaultQuery) must.push(rawClause(c.defaultQuery));
    else if (QUERIES_ITSELF[ctx.type]) {
      const own = clauses.get(c.id);
      if (own) must.push(own);
    }
    const reacted = reactClause(c.react, clauses);
    if (reacted) must.push(reacted);

    const body: Clause = { query: must.length ? { bool: { must } } : { match_all: {} } };
    const defaultSize = DEFAULT_SIZE[ctx.type];
    body.size = c.size ?? (options.maxSize !== undefined ? Math.min(defaultSize, options.maxSize) : defaultSize);
    if (c.from !== undefined) body.from = c.from;
    const sort = sortOf(ctx);
    if (sort) body.sort = sort;
    const source = sourceOf(c.includeFields, c.excludeFields, options.sourceRules);
    if (source !== undefined) body._source = source;
    const plan: ComponentPlan = { id: c.id, type: ctx.type, index: ctx.index };
    if (ctx.type === 'term') body.aggs = termAggregations(ctx);
    if (ctx.type === 'range') body.aggs = rangeAggregations(ctx);
    if (ctx.type === 'suggestion') {
      plan.suggestion = { text: typeof c.value === 'string' ? c.value : '', fields: suggestionFields(ctx).fields.map((f) => f.field) };
    }
    const highlight = highlightOf(ctx, options.sourceRules);
    if (highlight) body.highlight = highlight;
    msearch.push({ index: ctx.index }, body);
    executing.push(plan);
  }
  return { msearch, plan: { executing } };
}

/** `react` as bool clauses: a name or a list is `and`; `or` needs one; `not` excludes. */
function reactClause(expr: ReactExpression | undefined, clauses: ReadonlyMap<string, Clause | undefined>): Clause | undefined {
  if (expr === undefined) return undefined;
  if (typeof expr === 'string') return clauses.get(expr);
  const bool: Record<string, unknown> = {};
  const parts = (e: ReactExpression | undefined): Clause[] => {
    if (e === undefined) return [];
    const list = Array.isArray(e) ? e : [e];
    return list.map((x) => reactClause(x, clauses)).filter((x): x is Clause => x !== undefined);
  };
  if (Array.isArray(expr)) {
    const must = parts(expr);
    return must.length ? { bool: { must } } : undefined;
  }
  const must = parts(expr.and);
  const should = parts(expr.or);
  const mustNot = parts(expr.not);
  if (must.length) bool.must = must;
  if (should.length) {
    bool.should = should;
    bool.minimum_should_match = 1;
  }
  if (mustNot.length) bool.must_not = mustNot;
  return Object.keys(bool).length ? { bool } : undefined;
}

function sortOf(ctx: ComponentContext): Clause[] | undefined {
  const c = ctx.component;
  if (ctx.type === 'term' || ctx.type === 'range') return undefined; // sortBy orders their buckets
  const order = c.sortBy === 'asc' ? 'asc' : 'desc';
  if (c.sortField !== undefined) {
    if (c.sortField !== '_score') checkedField(ctx, c.sortField, `${ctx.path}.sortField`);
    return [{ [c.sortField]: { order } }];
  }
  return c.sortBy === 'asc' || c.sortBy === 'desc' ? [{ _score: { order } }] : undefined;
}

const covered = (patterns: string[] | undefined, field: string) => !!patterns?.some((p) => wildcardMatches(p, field));

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

function highlightOf(ctx: ComponentContext, rules: SourceRules = {}): Clause | undefined {
  const c = ctx.component;
  if (!c.highlight && c.highlightField === undefined) return undefined;
  if (c.highlight === false) return undefined;
  let names: string[];
  if (c.highlightField !== undefined) {
    names = typeof c.highlightField === 'string' ? [c.highlightField] : c.highlightField;
    names.forEach((f, i) => checkedField(ctx, f, typeof c.highlightField === 'string' ? `${ctx.path}.highlightField` : `${ctx.path}.highlightField[${i}]`));
  } else if (ctx.type === 'suggestion') {
    const { fields, autosuggest } = suggestionFields(ctx);
    names = [...fields, ...autosuggest].map((f) => f.field);
  } else {
    names = dataFields(ctx).map((f) => f.field);
  }
  // a field the credential may not see in _source is not shown through highlighting either
  const visible = names.filter((f) => !covered(rules.exclude, f) && (!rules.include?.length || covered(rules.include, f)));
  if (!visible.length) return undefined;
  const fields: Clause = {};
  for (const f of visible) fields[f] = {};
  return { fields };
}
