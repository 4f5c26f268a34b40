import { EsError } from '../errors/index.js';
import type { Component, ComponentType, EngineKind, GeoLocation, GeoValue, RangeValue, RawQuery, TermScalar, WeightedField } from '../declarative-request/index.js';
import type { FieldCatalog, FieldInfo } from './field-catalog.js';

/**
 * The query DSL each component type stands for. Every user value lands in a value position of
 * the DSL (a `query` string, a `terms` list, a range bound, coordinates): JSON serialisation keeps
 * it data, whatever it looks like. Field names come only from the index mapping.
 */
export type Clause = Record<string, unknown>;

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/** Thrown for a field the mapping does not know; the caller may re-read the mapping once. */
export class UnknownFieldError extends EsError {
  constructor(path: string, field: string, index: string) {
    super(400, 'illegal_argument_exception', `${path}: unknown field [${field}] in index [${index}]`);
  }
}

/** One component with its mapping, as the builders need it. */
export interface ComponentContext {
  component: Component;
  type: ComponentType;
  /** `query[i]` */
  path: string;
  index: string;
  catalog: FieldCatalog;
  /** `settings.backend`: which engine's dialect engine-specific parts (kNN scripts) are written in. */
  backend?: EngineKind;
}

export function checkedField(ctx: ComponentContext, field: string, path: string): FieldInfo {
  const info = ctx.catalog.field(field);
  if (!info) throw new UnknownFieldError(path, field, ctx.index);
  return info;
}

/** `queryFormat` beyond `or`/`and`: the date format a range component's bounds are written in. */
export const dateFormatOf = (c: Component): string | undefined => (c.queryFormat && c.queryFormat !== 'or' && c.queryFormat !== 'and' ? c.queryFormat : undefined);
const operatorOf = (c: Component): 'or' | 'and' => (c.queryFormat === 'and' ? 'and' : 'or');

/**
 * The data fields with their weights (`{field, weight}` items, or `fieldWeights` by position),
 * each checked against the mapping; with `enableSynonyms: false`, `.synonyms` fields are left out.
 */
export function dataFields(ctx: ComponentContext): WeightedField[] {
  const c = ctx.component;
  const df = c.dataField;
  const path = `${ctx.path}.dataField`;
  if (df === undefined) throw invalid(`${path}: is required for a ${ctx.type} component`);
  const items = Array.isArray(df) ? df : [df];
  const single = !Array.isArray(df);
  const list = items.map((f, i): WeightedField => {
    const item = typeof f === 'string' ? { field: f } : { ...f };
    const weight = typeof f === 'string' ? c.fieldWeights?.[i] : undefined;
    if (weight !== undefined && item.weight === undefined) item.weight = weight;
    checkedField(ctx, item.field, single ? path : `${path}[${i}]`);
    return item;
  });
  if (c.enableSynonyms !== false) return list;
  const kept = list.filter((f) => !f.field.endsWith('.synonyms'));
  if (!kept.length) throw invalid(`${path}: every field is a .synonyms field, and enableSynonyms is false`);
  return kept;
}

/** The one field of a term, range or geo component. */
export function singleField(ctx: ComponentContext): { field: string; info: FieldInfo } {
  const fields = dataFields(ctx);
  if (fields.length !== 1) throw invalid(`${ctx.path}.dataField: a ${ctx.type} component takes exactly one field`);
  return { field: fields[0].field, info: ctx.catalog.field(fields[0].field)! };
}

export const weighted = (fields: WeightedField[]): string[] => fields.map((f) => (f.weight === undefined || f.weight === 1 ? f.field : `${f.field}^${f.weight}`));

/** The keys of a search body (as opposed to a query clause) a `defaultQuery` may carry besides `query`. */
export const RAW_BODY_KEYS = ['aggs', 'aggregations', 'size', 'from', 'sort', 'track_total_hits', 'timeout', 'min_score', 'post_filter', 'collapse', 'search_after', '_source', 'terminate_after'] as const;

/** A raw query given as a search body (`{"query": …, "aggs": …}`), as ReactiveSearch sends it, rather than as a clause. */
export const isRawBody = (raw: RawQuery): boolean => Object.keys(raw).some((k) => k === 'query' || (RAW_BODY_KEYS as readonly string[]).includes(k));

/** A raw DSL clause: the `query` of a search body, or the clause as given; undefined for a body without a query. */
export function rawClause(raw: RawQuery): Clause | undefined {
  if (!isRawBody(raw)) return raw;
  return raw.query && typeof raw.query === 'object' ? (raw.query as Clause) : undefined;
}

/** The nested query a clause on a `nestedField` needs. */
function nestedWrap(ctx: ComponentContext, clause: Clause | undefined): Clause | undefined {
  const path = nestedPath(ctx);
  return clause && path ? { nested: { path, query: clause } } : clause;
}

/** `nestedField`, checked: a field of type nested. */
export function nestedPath(ctx: ComponentContext): string | undefined {
  const path = ctx.component.nestedField;
  if (path === undefined) return undefined;
  const info = checkedField(ctx, path, `${ctx.path}.nestedField`);
  if (info.type !== 'nested') throw invalid(`${ctx.path}.nestedField: field [${path}] is not of type nested`);
  return path;
}

/** The keyword field `categoryField` filters and aggregates on. */
export function categoryKeyword(ctx: ComponentContext): string | undefined {
  const field = ctx.component.categoryField;
  if (field === undefined) return undefined;
  const info = checkedField(ctx, field, `${ctx.path}.categoryField`);
  if (!info.keyword) throw invalid(`${ctx.path}.categoryField: field [${field}] has no keyword sub-field to aggregate on`);
  return info.keyword;
}

/** `categoryValue` (a suggestion picked in a category): a filter on `categoryField`; `*` means every category. */
function categoryFilter(ctx: ComponentContext): Clause | undefined {
  const value = ctx.component.categoryValue;
  if (value === undefined || value === null || value === '' || value === '*') return undefined;
  const field = categoryKeyword(ctx);
  if (!field) throw invalid(`${ctx.path}.categoryValue: needs a categoryField`);
  return { term: { [field]: value } };
}

/** What the user typed in a search or suggestion component (ReactiveSearch also sends numbers). */
export function textOf(c: Component): string {
  return typeof c.value === 'string' ? c.value : typeof c.value === 'number' ? String(c.value) : '';
}

/** `enableSynonyms: false` asks the engine not to expand multi-word synonyms into phrase queries. */
const synonymsOff = (c: Component): Clause => (c.enableSynonyms === false ? { auto_generate_synonyms_phrase_query: false } : {});

function withCategory(ctx: ComponentContext, clause: Clause | undefined): Clause | undefined {
  const category = categoryFilter(ctx);
  if (!category) return clause;
  return clause ? { bool: { must: [clause, category] } } : category;
}

export function searchClause(ctx: ComponentContext): Clause | undefined {
  const c = ctx.component;
  const value = textOf(c);
  const fields = weighted(dataFields(ctx));
  if (value.trim() === '') return nestedWrap(ctx, withCategory(ctx, undefined));
  const operator = operatorOf(c);
  const syn = synonymsOff(c);
  let clause: Clause;
  if (c.queryString) {
    clause = { query_string: { query: value, fields, default_operator: operator, ...syn } };
  } else if (c.searchOperators) {
    clause = { simple_query_string: { query: value, fields, default_operator: operator, ...syn } };
  } else {
    const should: Clause[] = [
      { multi_match: { query: value, fields, type: 'cross_fields', operator, ...syn } },
      { multi_match: { query: value, fields, type: 'phrase', boost: 2, ...syn } },
      { multi_match: { query: value, fields, type: 'phrase_prefix', ...syn } },
    ];
    const fuzziness = c.fuzziness;
    if (fuzziness !== undefined && fuzziness !== 0) should.push({ multi_match: { query: value, fields, type: 'best_fields', operator, fuzziness, ...syn } });
    clause = { bool: { should, minimum_should_match: 1 } };
  }
  return nestedWrap(ctx, withCategory(ctx, clause));
}

/** The keyword field a term component filters and aggregates on. */
export function termFields(ctx: ComponentContext): { dataField: string; filterField: string; aggregationField: string } {
  const { field, info } = singleField(ctx);
  const keyword = info.keyword;
  let aggregationField = keyword;
  if (ctx.component.aggregationField !== undefined) {
    checkedField(ctx, ctx.component.aggregationField, `${ctx.path}.aggregationField`);
    aggregationField = ctx.component.aggregationField;
  }
  if (!aggregationField) throw invalid(`${ctx.path}.dataField: field [${field}] has no keyword sub-field to aggregate on; name one in aggregationField`);
  return { dataField: field, filterField: keyword ?? field, aggregationField };
}

/** The label of the bucket of documents without the field (`showMissing`). */
export const missingLabelOf = (c: Component): string => c.missingLabel ?? 'N/A';

export function termClause(ctx: ComponentContext): Clause | undefined {
  const c = ctx.component;
  const raw = c.value as TermScalar | TermScalar[] | null | undefined;
  let values = raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (!values.length) return undefined;
  const { filterField } = termFields(ctx);
  // the "select all" entry of a list: every document that has the field
  if (c.selectAllLabel !== undefined && values.includes(c.selectAllLabel)) return nestedWrap(ctx, { exists: { field: filterField } });
  const missing: Clause[] = [];
  if (c.showMissing && values.includes(missingLabelOf(c))) {
    values = values.filter((v) => v !== missingLabelOf(c));
    missing.push({ bool: { must_not: [{ exists: { field: filterField } }] } });
  }
  let clause: Clause | undefined;
  if (values.length) {
    clause = c.queryFormat === 'and' ? { bool: { must: values.map((v) => ({ term: { [filterField]: v } })) } } : { terms: { [filterField]: values } };
  }
  if (missing.length) clause = clause ? { bool: { should: [clause, ...missing], minimum_should_match: 1 } } : missing[0];
  return nestedWrap(ctx, clause);
}

export function termAggregations(ctx: ComponentContext): Clause {
  const { dataField, aggregationField } = termFields(ctx);
  const c = ctx.component;
  const size = c.aggregationSize ?? 10;
  let aggs: Clause;
  if (c.after !== undefined || c.pagination) {
    const composite: Clause = { size, sources: [{ [dataField]: { terms: { field: aggregationField } } }] };
    if (c.after !== undefined) composite.after = c.after;
    aggs = { [dataField]: { composite } };
  } else {
    const terms: Clause = { field: aggregationField, size };
    if (c.sortBy === 'count') terms.order = { _count: 'desc' };
    else if (c.sortBy) terms.order = { _key: c.sortBy };
    if (c.showMissing) terms.missing = missingLabelOf(c);
    if (c.includeValues?.length) terms.include = c.includeValues;
    if (c.excludeValues?.length) terms.exclude = c.excludeValues;
    aggs = { [dataField]: { terms } };
  }
  const path = nestedPath(ctx);
  return path ? { reactivesearch_nested: { nested: { path }, aggs } } : aggs;
}

function oneRange(ctx: ComponentContext, field: string, value: RangeValue | null): Clause | undefined {
  if (!value) return undefined;
  const bounds: Clause = {};
  if (value.start !== undefined && value.start !== null) bounds.gte = value.start;
  if (value.end !== undefined && value.end !== null) bounds.lte = value.end;
  if (!Object.keys(bounds).length) return undefined;
  const format = dateFormatOf(ctx.component);
  if (format) bounds.format = format;
  if (value.boost !== undefined) bounds.boost = value.boost;
  return { range: { [field]: bounds } };
}

export function rangeClause(ctx: ComponentContext): Clause | undefined {
  const { field } = singleField(ctx);
  const value = ctx.component.value as RangeValue | RangeValue[] | null | undefined;
  let clause: Clause | undefined;
  if (Array.isArray(value)) {
    // several ranges (a multi-range list): any of them
    const should = value.map((v) => oneRange(ctx, field, v)).filter((x): x is Clause => x !== undefined);
    clause = should.length ? { bool: { should, minimum_should_match: 1 } } : undefined;
  } else {
    clause = oneRange(ctx, field, value ?? null);
  }
  if (clause && ctx.component.includeNullValues) {
    clause = { bool: { should: [clause, { bool: { must_not: [{ exists: { field } }] } }], minimum_should_match: 1 } };
  }
  return nestedWrap(ctx, clause);
}

/** The histogram interval ReactiveSearch uses without one: a hundredth of `range`, at least 1. */
function defaultInterval(c: Component): number {
  const start = Number(c.range?.start);
  const end = Number(c.range?.end);
  return Number.isFinite(start) && Number.isFinite(end) && end > start ? Math.ceil((end - start) / 100) || 1 : 1;
}

export function rangeAggregations(ctx: ComponentContext): Clause {
  const { field } = singleField(ctx);
  const c = ctx.component;
  const wanted = c.aggregations ?? (c.interval !== undefined || c.calendarInterval !== undefined ? ['min', 'max', 'histogram'] : ['min', 'max']);
  const aggs: Clause = {};
  if (wanted.includes('min')) aggs.min = { min: { field } };
  if (wanted.includes('max')) aggs.max = { max: { field } };
  if (wanted.includes('histogram')) {
    aggs.histogram = c.calendarInterval !== undefined
      ? { date_histogram: { field, calendar_interval: c.calendarInterval } }
      : { histogram: { field, interval: c.interval ?? defaultInterval(c) } };
  }
  const path = nestedPath(ctx);
  return path ? { [path]: { nested: { path }, aggs } } : aggs;
}

/** `"lat, lon"` or `{lat, lon}` → `{lat, lon}`. */
function pointOf(location: GeoLocation): { lat: number; lon: number } {
  if (typeof location !== 'string') return { lat: location.lat, lon: location.lon };
  const [lat, lon] = location.split(',').map((s) => Number(s.trim()));
  return { lat, lon };
}

export function geoClause(ctx: ComponentContext): Clause | undefined {
  const { field, info } = singleField(ctx);
  if (info.type !== 'geo_point') throw invalid(`${ctx.path}.dataField: field [${field}] is not a geo_point`);
  const value = ctx.component.value as GeoValue | null | undefined;
  if (!value) return undefined;
  const checkPoint = (p: { lat: number; lon: number }, path: string) => {
    if (!(Math.abs(p.lat) <= 90) || !(Math.abs(p.lon) <= 180)) throw invalid(`${ctx.path}.value.${path}: [${p.lat}, ${p.lon}] is not a latitude and a longitude`);
    return p;
  };
  if (value.geoBoundingBox) {
    const topLeft = checkPoint(pointOf(value.geoBoundingBox.topLeft), 'geoBoundingBox.topLeft');
    const bottomRight = checkPoint(pointOf(value.geoBoundingBox.bottomRight), 'geoBoundingBox.bottomRight');
    return nestedWrap(ctx, { geo_bounding_box: { [field]: { top_left: topLeft, bottom_right: bottomRight } } });
  }
  const location = checkPoint(pointOf(value.location!), 'location');
  return nestedWrap(ctx, { geo_distance: { distance: `${value.distance}${value.unit ?? 'km'}`, [field]: location } });
}

/** The fields a suggestion searches: autosuggest sub-fields when the mapping has them, else the fields themselves. */
export function suggestionFields(ctx: ComponentContext): { fields: WeightedField[]; autosuggest: WeightedField[] } {
  const fields = dataFields(ctx);
  const autosuggest: WeightedField[] = [];
  for (const f of fields) for (const sub of ctx.catalog.field(f.field)!.autosuggest) autosuggest.push({ field: sub, weight: f.weight });
  return { fields, autosuggest };
}

export function suggestionClause(ctx: ComponentContext): Clause | undefined {
  const c = ctx.component;
  const value = textOf(c);
  const { fields, autosuggest } = suggestionFields(ctx);
  if (value.trim() === '') return nestedWrap(ctx, withCategory(ctx, undefined));
  const syn = synonymsOff(c);
  let clause: Clause;
  if (!autosuggest.length) {
    clause = { multi_match: { query: value, fields: weighted(fields), type: 'bool_prefix', operator: 'and', ...syn } };
  } else {
    clause = {
      bool: {
        should: [
          { multi_match: { query: value, fields: weighted(autosuggest), type: 'best_fields', operator: 'and', ...syn } },
          { multi_match: { query: value, fields: weighted(fields), type: 'phrase_prefix', boost: 2, ...syn } },
        ],
        minimum_should_match: 1,
      },
    };
  }
  return nestedWrap(ctx, withCategory(ctx, clause));
}

/** What a component contributes to the components that react to it (undefined: no value, no clause). */
export function valueClause(ctx: ComponentContext): Clause | undefined {
  switch (ctx.type) {
    case 'search':
      return searchClause(ctx);
    case 'term':
      return termClause(ctx);
    case 'range':
      return rangeClause(ctx);
    case 'geo':
      return geoClause(ctx);
    case 'suggestion':
      return suggestionClause(ctx);
    default:
      return assertNever(ctx.type);
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected component type ${String(x)}`);
}

/** `rankFeature`: rank_feature clauses that add to the score of the component's own hits. */
export function rankFeatureClauses(ctx: ComponentContext): Clause[] {
  const features = ctx.component.rankFeature;
  if (!features) return [];
  return Object.entries(features).map(([field, fn]) => {
    const path = `${ctx.path}.rankFeature.${field}`;
    // a rank_feature field, or a feature of a rank_features field (`topics.sports`)
    const info = ctx.catalog.field(field);
    const parent = field.includes('.') ? ctx.catalog.field(field.slice(0, field.lastIndexOf('.'))) : undefined;
    if (!info && !parent) throw new UnknownFieldError(path, field, ctx.index);
    if (info?.type !== 'rank_feature' && parent?.type !== 'rank_features') throw invalid(`${path}: field [${field}] is not a rank_feature field`);
    return { rank_feature: { field, ...fn } };
  });
}
