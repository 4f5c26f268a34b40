import { EsError } from '../../../../errors/index.js';
import { javaDouble } from './bucket-order.js';
import { eachNumber, numericSource } from './metrics.js';
import type { SourceScope } from './source.js';
import type { AggregationType } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

interface PercentilesParams {
  source: SourceParams;
  percents: number[];
  keyed: boolean;
  hdr: boolean;
  digits: number;
}

/**
 * Percentile of sorted values by linear interpolation between closest ranks (index q·(n−1)).
 * ES's TDigest keeps every sample while there are few (its SortingDigest) and is exact there; for
 * large sets ES approximates while this stays exact, so results can differ in the last digits.
 */
export function percentileOf(sorted: Float64Array | number[], pct: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const index = (pct / 100) * (n - 1);
  const lo = Math.floor(index);
  const hi = Math.min(n - 1, lo + 1);
  const w = index - lo;
  return sorted[lo] * (1 - w) + sorted[hi] * w;
}

/**
 * HDR histogram percentiles (ES's `hdr` method, a DoubleHistogram): values fall in logarithmic
 * buckets whose width keeps `digits` significant digits, the unit being set by the smallest value;
 * a percentile is the highest value equivalent to the bucket where the count reaches it.
 */
export function hdrPercentileOf(sorted: Float64Array, pct: number, digits: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const halfMag = Math.ceil(Math.log2(2 * 10 ** digits)) - 1;
  const minPositive = sorted.find((v) => v > 0) ?? 1;
  const unit = 2 ** (Math.floor(Math.log2(minPositive)) - halfMag);
  // HdrHistogram 2.1.9 (ES's version): the count at a percentile rounds half up.
  const count = Math.max(1, Math.floor((Math.min(Math.max(pct, 0), 100) / 100) * n + 0.5));
  const v = sorted[count - 1];
  const units = v / unit;
  const width = units < 2 ** (halfMag + 1) ? 1 : 2 ** (Math.floor(Math.log2(units)) - halfMag);
  const start = Math.floor(units / width) * width;
  return pct === 0 ? start * unit : (start + width - 1) * unit;
}

function parsePercentiles(type: 'percentiles' | 'percentile_ranks', name: string, body: Record<string, unknown>): PercentilesParams {
  const listKey = type === 'percentiles' ? 'percents' : 'values';
  for (const k of Object.keys(body)) {
    if (!['field', 'script', 'missing', 'value_type', 'format', 'keyed', 'tdigest', 'hdr', listKey].includes(k)) {
      throw new EsError(400, 'parsing_exception', `[${type}] unknown field [${k}]`, { line: 1, col: 1 });
    }
  }
  const source = parseSourceParams(type, name, body);
  if (body.tdigest !== undefined && body.hdr !== undefined) {
    throw new EsError(400, 'parsing_exception', `Found multiple methods in [${name}]: [hdr] and [tdigest]`, { line: 1, col: 1 });
  }
  const hdr = body.hdr as Record<string, unknown> | undefined;
  if (hdr !== undefined) {
    const digits = hdr.number_of_significant_value_digits;
    if (digits !== undefined && (typeof digits !== 'number' || digits < 0 || digits > 5)) {
      throw new EsError(400, 'illegal_argument_exception', `[numberOfSignificantValueDigits] must be between 0 and 5`);
    }
  }
  const td = body.tdigest as Record<string, unknown> | undefined;
  if (td?.compression !== undefined && Number(td.compression) < 0) {
    throw new EsError(400, 'illegal_argument_exception', `[compression] must be greater than or equal to 0. Found [${String(td.compression)}] in [${name}]`);
  }
  let percents = DEFAULT_PERCENTS;
  const raw = body[listKey];
  if (raw !== undefined) {
    if (!Array.isArray(raw)) throw new EsError(400, 'parsing_exception', `[${listKey}] must be an array in [${name}]`, { line: 1, col: 1 });
    if (raw.length === 0) throw new EsError(400, 'illegal_argument_exception', `[${listKey}] must not be empty: [${name}]`);
    percents = raw.map(Number);
    if (type === 'percentiles') {
      for (const p of percents) {
        if (!(p >= 0 && p <= 100)) throw new EsError(400, 'illegal_argument_exception', `percent must be in [0,100], got [${p}]: [${name}]`);
      }
    }
  } else if (type === 'percentile_ranks') {
    throw new EsError(400, 'illegal_argument_exception', `[values] must not be null: [${name}]`);
  }
  if (body.keyed !== undefined && typeof body.keyed !== 'boolean') throw new EsError(400, 'parsing_exception', `[keyed] must be a boolean in [${name}]`, { line: 1, col: 1 });
  return { source, percents: type === 'percentiles' ? [...new Set(percents)].sort((a, b) => a - b) : [...new Set(percents)].sort((a, b) => a - b), keyed: body.keyed !== false, hdr: hdr !== undefined,
    digits: hdr?.number_of_significant_value_digits === undefined ? 3 : Number(hdr.number_of_significant_value_digits) };
}

function render(pairs: Array<[number, number | null]>, keyed: boolean, asString: (v: number) => string | undefined): Record<string, unknown> {
  if (keyed) {
    const values: Record<string, unknown> = {};
    for (const [k, v] of pairs) {
      values[javaDouble(k)] = v;
      const s = v === null ? undefined : asString(v);
      if (s !== undefined) values[`${javaDouble(k)}_as_string`] = s;
    }
    return { values };
  }
  return {
    values: pairs.map(([k, v]) => {
      const o: Record<string, unknown> = { key: k, value: v };
      const s = v === null ? undefined : asString(v);
      if (s !== undefined) o.value_as_string = s;
      return o;
    }),
  };
}

function sortedValues(node: { name: string; params: PercentilesParams }, type: string, docs: Parameters<AggregationType['run']>[1], scope: SourceScope) {
  const src = numericSource(type, node.name, docs, node.params.source, scope);
  const vals: number[] = [];
  eachNumber(src, docs, (v) => vals.push(v));
  return { src, sorted: Float64Array.from(vals).sort() };
}

export const percentiles: AggregationType<PercentilesParams> = {
  kind: 'metric',
  parse: (name, body) => parsePercentiles('percentiles', name, body),
  run(node, docs, ctx) {
    const { src, sorted } = sortedValues(node, 'percentiles', docs, ctx);
    const { hdr, digits } = node.params;
    const pairs = node.params.percents.map((p) => [p, hdr ? hdrPercentileOf(sorted, p, digits) : percentileOf(sorted, p)] as [number, number | null]);
    return { typed: node.params.hdr ? 'hdr_percentiles' : 'tdigest_percentiles', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
  },
};

export const percentileRanks: AggregationType<PercentilesParams> = {
  kind: 'metric',
  parse: (name, body) => parsePercentiles('percentile_ranks', name, body),
  run(node, docs, ctx) {
    const { src, sorted } = sortedValues(node, 'percentile_ranks', docs, ctx);
    const pairs = node.params.percents.map((x) => {
      if (sorted.length === 0) return [x, null] as [number, number | null];
      let below = 0;
      let equal = 0;
      for (const v of sorted) {
        if (v < x) below++;
        else if (v === x) equal++;
      }
      return [x, Math.min(100, ((below + equal / 2) / sorted.length) * 100)] as [number, number | null];
    });
    return { typed: node.params.hdr ? 'hdr_percentile_ranks' : 'tdigest_percentile_ranks', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
  },
};

export const medianAbsoluteDeviation: AggregationType<{ source: SourceParams }> = {
  kind: 'metric',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      if (!['field', 'script', 'missing', 'value_type', 'format', 'compression'].includes(k)) throw new EsError(400, 'parsing_exception', `[median_absolute_deviation] unknown field [${k}]`, { line: 1, col: 1 });
    }
    if (body.compression !== undefined && !(Number(body.compression) > 0)) {
      throw new EsError(400, 'illegal_argument_exception', `[compression] must be greater than 0. Found [${javaDouble(Number(body.compression))}] in [${name}]`);
    }
    return { source: parseSourceParams('median_absolute_deviation', name, body) };
  },
  run(node, docs, ctx) {
    const src = numericSource('median_absolute_deviation', node.name, docs, node.params.source, ctx);
    const vals: number[] = [];
    eachNumber(src, docs, (v) => vals.push(v));
    const sorted = Float64Array.from(vals).sort();
    const median = percentileOf(sorted, 50);
    let value: number | null = null;
    if (median !== null) {
      const dev = Float64Array.from(sorted, (v) => Math.abs(v - median)).sort();
      value = percentileOf(dev, 50);
    }
    const body: Record<string, unknown> = { value };
    const s = value === null ? undefined : src.format.asString(value);
    if (s !== undefined) body.value_as_string = s;
    return { typed: 'median_absolute_deviation', body };
  },
};
