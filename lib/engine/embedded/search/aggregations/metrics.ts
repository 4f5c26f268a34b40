import { EsError } from '../../../../errors/index.js';
import { DocValues, DV_NUMBER } from '../../index/index.js';
import { resolveSource, missingArray, valuesOf, type ResolvedSource, type SourceScope } from './source.js';
import { fieldType, resolveFieldMapping } from '../../mapping/index.js';
import type { AggregationType, DocSet, Value } from './types.js';
import { doubleParam, numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { javaDouble } from './bucket-order.js';
import { unknownField } from './unknown-field.js';
import { refuseRangeField } from './range-field-source.js';

/** Kahan summation, as ES's CompensatedSum: sums of doubles that ES and this engine agree on. */
export class CompensatedSum {
  value = 0;
  private delta = 0;
  add(v: number): void {
    if (!Number.isFinite(v)) {
      this.value += v;
      return;
    }
    const corrected = v + this.delta;
    const t = this.value + corrected;
    this.delta = corrected - (t - this.value);
    this.value = t;
  }
}

/** Numeric metrics refuse non-numeric fields, as ES does. */
export function numericSource(type: string, name: string, docs: DocSet, params: SourceParams, scope: SourceScope): ResolvedSource {
  if (!params.script) refuseRangeField(docs, params.field, type);
  const src = resolveSource(docs, { ...params, valueType: params.valueType ?? 'double' }, scope);
  if (!src.unmapped && (src.kind === 'bytes' || src.kind === 'ip')) {
    throw new EsError(400, 'illegal_argument_exception', `Field [${params.field}] of type [${fieldTypeName(docs, params.field!)}] is not supported for aggregation [${type}]`);
  }
  void name;
  return src;
}

function fieldTypeName(docs: DocSet, field: string): string {
  for (const seg of docs) {
    const m = resolveFieldMapping(seg.handle.mappings, field);
    if (m) return fieldType(m);
  }
  return 'keyword';
}

/** Calls fn for each numeric value of each document. */
export function eachNumber(src: ResolvedSource, docs: DocSet, fn: (v: number) => void): void {
  const miss = missingArray(src);
  for (let si = 0; si < docs.length; si++) {
    const dv = src.values[si];
    if (!dv && !miss) continue;
    const ords = docs[si].ords;
    if (dv instanceof DocValues) {
      // A numeric column: single values read straight from it.
      for (let j = 0; j < ords.length; j++) {
        const ord = ords[j];
        if (dv.kindAt(ord) === DV_NUMBER) {
          fn(dv.numberAt(ord));
          continue;
        }
        const vs = valuesOf(src, si, ord, miss);
        for (let i = 0; i < vs.length; i++) fn(numericValue(vs[i]));
      }
      continue;
    }
    for (const ord of ords) {
      const vs = valuesOf(src, si, ord, miss);
      for (let i = 0; i < vs.length; i++) fn(numericValue(vs[i]));
    }
  }
}

export interface Stats {
  count: number;
  sum: CompensatedSum;
  min: number;
  max: number;
  sumOfSquares: CompensatedSum;
}

/** The stats of the values; `squares` false leaves `sumOfSquares` at 0 (the metrics that do not read it skip its second compensated sum). */
export function collectStats(src: ResolvedSource, docs: DocSet, squares = true): Stats {
  const s: Stats = { count: 0, sum: new CompensatedSum(), min: Infinity, max: -Infinity, sumOfSquares: new CompensatedSum() };
  eachNumber(src, docs, squares
    ? (v) => {
      s.count++;
      s.sum.add(v);
      s.sumOfSquares.add(v * v);
      if (v < s.min) s.min = v;
      if (v > s.max) s.max = v;
    }
    : (v) => {
      s.count++;
      s.sum.add(v);
      if (v < s.min) s.min = v;
      if (v > s.max) s.max = v;
    });
  return s;
}

function withString(body: Record<string, unknown>, key: string, v: number | null, src: ResolvedSource): void {
  body[key] = v;
  if (v === null || !Number.isFinite(v)) return;
  const s = src.format.asString(v);
  if (s !== undefined && (src.kind === 'date' || src.format.kind !== 'bytes')) body[`${key}_as_string`] = s;
}

function asStringKey(key: string): string {
  return key === 'value' ? 'value_as_string' : `${key}_as_string`;
}

const SOURCE_KEYS = new Set(['field', 'script', 'missing', 'value_type', 'format']);

function parseMetricSource(type: string, name: string, body: Record<string, unknown>, extra: string[] = []): SourceParams {
  for (const k of Object.keys(body)) {
    if (!SOURCE_KEYS.has(k) && !extra.includes(k)) throw unknownField(type, k, [...SOURCE_KEYS, ...extra]);
  }
  return parseSourceParams(type, name, body);
}

function singleValue(type: string, compute: (s: Stats) => number | null, dateFormatted: boolean): AggregationType<SourceParams> {
  return {
    kind: 'metric',
    parse: (name, body) => parseMetricSource(type, name, body),
    run(node, docs, ctx) {
      const src = numericSource(type, node.name, docs, node.params, ctx);
      const v = compute(collectStats(src, docs, false));
      const body: Record<string, unknown> = { value: v };
      if (v !== null && Number.isFinite(v) && (dateFormatted || src.kind !== 'date')) {
        const s = src.format.asString(v);
        if (s !== undefined) body[asStringKey('value')] = s;
      }
      return { typed: type, body };
    },
  };
}

export const min = singleValue('min', (s) => (s.count ? s.min : null), true);
export const max = singleValue('max', (s) => (s.count ? s.max : null), true);
export const sum = singleValue('sum', (s) => s.sum.value, true);
export const avg = singleValue('avg', (s) => (s.count ? s.sum.value / s.count : null), true);

export const valueCount: AggregationType<SourceParams> = {
  kind: 'metric',
  parse: (name, body) => parseMetricSource('value_count', name, body),
  run(node, docs, ctx) {
    const src = resolveSource(docs, node.params, ctx);
    const miss = missingArray(src);
    let n = 0;
    docs.forEach((seg, si) => {
      if (!src.values[si] && !miss) return;
      for (const ord of seg.ords) n += valuesOf(src, si, ord, miss).length;
    });
    return { typed: 'value_count', body: { value: n } };
  },
};

function statsBody(s: Stats, src: ResolvedSource): Record<string, unknown> {
  const body: Record<string, unknown> = { count: s.count };
  withString(body, 'min', s.count ? s.min : null, src);
  withString(body, 'max', s.count ? s.max : null, src);
  withString(body, 'avg', s.count ? s.sum.value / s.count : null, src);
  withString(body, 'sum', s.sum.value, src);
  return body;
}

export const stats: AggregationType<SourceParams> = {
  kind: 'metric',
  parse: (name, body) => parseMetricSource('stats', name, body),
  run(node, docs, ctx) {
    const src = numericSource('stats', node.name, docs, node.params, ctx);
    return { typed: 'stats', body: statsBody(collectStats(src, docs), src) };
  },
};

interface ExtendedParams {
  source: SourceParams;
  sigma: number;
}

export const extendedStats: AggregationType<ExtendedParams> = {
  kind: 'metric',
  parse(name, body) {
    const source = parseMetricSource('extended_stats', name, body, ['sigma']);
    const sigma = body.sigma === undefined ? 2 : doubleParam(body.sigma);
    // ObjectParser's declareDouble: numbers and numeric strings; anything else fails to parse.
    if (Number.isNaN(sigma)) throw new EsError(400, 'x_content_parse_exception', '[1:1] [extended_stats] failed to parse field [sigma]');
    if (!(sigma >= 0)) throw new EsError(400, 'illegal_argument_exception', `[sigma] must be greater than or equal to 0. Found [${javaDouble(sigma)}] in [${name}]`);
    return { source, sigma };
  },
  run(node, docs, ctx) {
    const src = numericSource('extended_stats', node.name, docs, node.params.source, ctx);
    const s = collectStats(src, docs);
    const body = statsBody(s, src);
    const sigma = node.params.sigma;
    if (s.count === 0) {
      for (const k of ['sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population', 'std_deviation_sampling']) body[k] = null;
      body.std_deviation_bounds = { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null };
      return { typed: 'extended_stats', body };
    }
    const mean = s.sum.value / s.count;
    const variance = Math.max(0, (s.sumOfSquares.value - (s.sum.value * s.sum.value) / s.count) / s.count);
    const varianceSampling = s.count > 1 ? Math.max(0, (s.sumOfSquares.value - (s.sum.value * s.sum.value) / s.count) / (s.count - 1)) : Infinity;
    const sd = Math.sqrt(variance);
    const sds = Math.sqrt(varianceSampling);
    const num = (v: number) => (Number.isFinite(v) ? v : null);
    Object.assign(body, {
      sum_of_squares: s.sumOfSquares.value,
      variance, variance_population: variance, variance_sampling: num(varianceSampling),
      std_deviation: sd, std_deviation_population: sd, std_deviation_sampling: num(sds),
      std_deviation_bounds: {
        upper: mean + sigma * sd, lower: mean - sigma * sd,
        upper_population: mean + sigma * sd, lower_population: mean - sigma * sd,
        upper_sampling: num(mean + sigma * sds), lower_sampling: num(mean - sigma * sds),
      },
    });
    if (src.kind === 'date' || src.format.asString(0) !== undefined && src.kind !== 'boolean') {
      for (const k of ['sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population', 'std_deviation_sampling']) {
        const v = body[k];
        if (typeof v === 'number') body[`${k}_as_string`] = src.format.asString(v);
      }
    }
    return { typed: 'extended_stats', body };
  },
};

interface CardinalityParams {
  source: SourceParams;
}

export const cardinality: AggregationType<CardinalityParams> = {
  kind: 'metric',
  parse(name, body) {
    const source = parseMetricSource('cardinality', name, body, ['precision_threshold', 'rehash', 'execution_hint']);
    if (body.precision_threshold !== undefined && Number(body.precision_threshold) < 0) {
      throw new EsError(400, 'illegal_argument_exception', `[precisionThreshold] must be greater than or equal to 0. Found [${String(body.precision_threshold)}] in [${name}]`);
    }
    return { source };
  },
  run(node, docs, ctx) {
    // Exact distinct count: at this engine's scale a set is cheaper than ES's HyperLogLog++ and exact.
    const src = resolveSource(docs, node.params.source, ctx);
    const miss = missingArray(src);
    const seen = new Set<Value>();
    docs.forEach((seg, si) => {
      if (!src.values[si] && !miss) return;
      for (const ord of seg.ords) for (const v of valuesOf(src, si, ord, miss)) seen.add(typeof v === 'boolean' ? Number(v) : v);
    });
    return { typed: 'cardinality', body: { value: seen.size } };
  },
};
