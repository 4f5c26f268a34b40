import { EsError } from '../errors/index.js';
import type { Component, ComponentType, GeoValue, RangeValue, RawQuery, TermScalar, WeightedField } from './declarative-request.js';
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
}

export function checkedField(ctx: ComponentContext, field: string, path: string): FieldInfo {
  const info = ctx.catalog.field(field);
  if (!info) throw new UnknownFieldError(path, field, ctx.index);
  return info;
}

/** The data fields with their weights, each checked against the mapping. */
export function dataFields(ctx: ComponentContext): WeightedField[] {
  const df = ctx.component.dataField;
  const path = `${ctx.path}.dataField`;
  if (df === undefined) throw invalid(`${path}: is required for a ${ctx.type} component`);
  const list = typeof df === 'string' ? [{ field: df }] : df.map((f) => (typeof f === 'string' ? { field: f } : f));
  list.forEach((f, i) => checkedField(ctx, f.field, typeof df === 'string' ? path : `${path}[${i}]`));
  return list;
}

/** The one field of a term, range or geo component. */
export function singleField(ctx: ComponentContext): { field: string; info: FieldInfo } {
  const fields = dataFields(ctx);
  if (fields.length !== 1) throw invalid(`${ctx.path}.dataField: a ${ctx.type} component takes exactly one field`);
  return { field: fields[0].field, info: ctx.catalog.field(fields[0].field)! };
}

export const weighted = (fields: WeightedField[]): string[] => fields.map((f) => (f.weight === undefined || f.weight === 1 ? f.field : `${f.field}^${f.weight}`));

/** A raw DSL clause as given, `{"query": clause}` unwrapped. */
export function rawClause(raw: RawQuery): Clause {
  const keys = Object.keys(raw);
  return keys.length === 1 && keys[0] === 'query' && raw.query && typeof raw.query === 'object' ? (raw.query as Clause) : raw;
}

export function searchClause(ctx: ComponentContext): Clause | undefined {
  const value = ctx.component.value as string | null | undefined;
  const fields = weighted(dataFields(ctx));
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const operator = ctx.component.queryFormat ?? 'or';
  if (ctx.component.searchOperators) {
    return { simple_query_string: { query: value, fields, default_operator: operator } };
  }
  const should: Clause[] = [
    { multi_match: { query: value, fields, type: 'cross_fields', operator } },
    { multi_match: { query: value, fields, type: 'phrase', boost: 2 } },
    { multi_match: { query: value, fields, type: 'phrase_prefix' } },
  ];
  const fuzziness = ctx.component.fuzziness;
  if (fuzziness !== undefined && fuzziness !== 0) should.push({ multi_match: { query: value, fields, type: 'best_fields', operator, fuzziness } });
  return { bool: { should, minimum_should_match: 1 } };
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

export function termClause(ctx: ComponentContext): Clause | undefined {
  const { filterField } = termFields(ctx);
  const raw = ctx.component.value as TermScalar | TermScalar[] | null | undefined;
  const values = raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (!values.length) return undefined;
  if (ctx.component.queryFormat === 'and') return { bool: { must: values.map((v) => ({ term: { [filterField]: v } })) } };
  return { terms: { [filterField]: values } };
}

export function termAggregations(ctx: ComponentContext): Clause {
  const { dataField, aggregationField } = termFields(ctx);
  const c = ctx.component;
  const size = c.aggregationSize ?? 10;
  if (c.after !== undefined) {
    return { [dataField]: { composite: { size, sources: [{ [dataField]: { terms: { field: aggregationField } } }], after: c.after } } };
  }
  const terms: Clause = { field: aggregationField, size };
  if (c.sortBy === 'count') terms.order = { _count: 'desc' };
  else if (c.sortBy) terms.order = { _key: c.sortBy };
  if (c.showMissing) terms.missing = 'N/A';
  return { [dataField]: { terms } };
}

export function rangeClause(ctx: ComponentContext): Clause | undefined {
  const { field } = singleField(ctx);
  const value = ctx.component.value as RangeValue | null | undefined;
  if (!value) return undefined;
  const bounds: Clause = {};
  if (value.start !== undefined && value.start !== null) bounds.gte = value.start;
  if (value.end !== undefined && value.end !== null) bounds.lte = value.end;
  return Object.keys(bounds).length ? { range: { [field]: bounds } } : undefined;
}

export function rangeAggregations(ctx: ComponentContext): Clause {
  const { field } = singleField(ctx);
  const aggs: Clause = { min: { min: { field } }, max: { max: { field } } };
  if (ctx.component.interval !== undefined) aggs.histogram = { histogram: { field, interval: ctx.component.interval } };
  return aggs;
}

export function geoClause(ctx: ComponentContext): Clause | undefined {
  const { field, info } = singleField(ctx);
  if (info.type !== 'geo_point') throw invalid(`${ctx.path}.dataField: field [${field}] is not a geo_point`);
  const value = ctx.component.value as GeoValue | null | undefined;
  if (!value) return undefined;
  if (value.geoBoundingBox) {
    const { topLeft, bottomRight } = value.geoBoundingBox;
    return { geo_bounding_box: { [field]: { top_left: { lat: topLeft.lat, lon: topLeft.lon }, bottom_right: { lat: bottomRight.lat, lon: bottomRight.lon } } } };
  }
  const { location, distance } = value as Required<Pick<GeoValue, 'location' | 'distance'>>;
  return { geo_distance: { distance: `${distance}${value.unit ?? 'km'}`, [field]: { lat: location.lat, lon: location.lon } } };
}

/** The fields a suggestion searches: autosuggest sub-fields when the mapping has them, else the fields themselves. */
export function suggestionFields(ctx: ComponentContext): { fields: WeightedField[]; autosuggest: WeightedField[] } {
  const fields = dataFields(ctx);
  const autosuggest: WeightedField[] = [];
  for (const f of fields) for (const sub of ctx.catalog.field(f.field)!.autosuggest) autosuggest.push({ field: sub, weight: f.weight });
  return { fields, autosuggest };
}

export function suggestionClause(ctx: ComponentContext): Clause | undefined {
  const value = ctx.component.value as string | null | undefined;
  const { fields, autosuggest } = suggestionFields(ctx);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (!autosuggest.length) return { multi_match: { query: value, fields: weighted(fields), type: 'bool_prefix', operator: 'and' } };
  return {
    bool: {
      should: [
        { multi_match: { query: value, fields: weighted(autosuggest), type: 'best_fields', operator: 'and' } },
        { multi_match: { query: value, fields: weighted(fields), type: 'phrase_prefix', boost: 2 } },
      ],
      minimum_should_match: 1,
    },
  };
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
  }
}
