import { EsError } from '../../../../errors/index.js';
import { javaDouble } from './bucket-order.js';
import { eachNumber, numericSource } from './metrics.js';
import type { SourceScope } from './source.js';
import { TDigest } from './tdigest.js';
import type { AggregationType } from './types.js';
import { doubleParam, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

interface PercentilesParams {
  source: SourceParams;
  percents: number[];
  keyed: boolean;
  hdr: boolean;
  digits: number;
  compression: number;
}

/** Elasticsearch's default t-digest compression for percentiles and percentile_ranks. */
const DEFAULT_COMPRESSION = 100;
/** ... and for median_absolute_deviation. */
const MAD_DEFAULT_COMPRESSION = 1000;

/**
 * HDR histogram percentiles (ES's `hdr` method, a DoubleHistogram): values fall in logarithmic
 * buckets whose width keeps `digits` significant digits, the unit being set by the smallest value;
 * a percentile is the highest value equivalent to the bucket where the count reaches it.
 */
export function hdrPercentileOf(sorted: Float64Array, pct: number, digits: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const bucketOf = hdrBuckets(sorted, digits);
  // HdrHistogram 2.1.9 (ES's version): the count at a percentile rounds half up.
  const count = Math.max(1, Math.floor((Math.min(Math.max(pct, 0), 100) / 100) * n + 0.5));
  const { start, width, unit } = bucketOf(sorted[count - 1]);
  return pct === 0 ? start * unit : (start + width - 1) * unit;
}

/** The HDR bucket of a value (its first unit and width), the unit set by the smallest positive value. */
function hdrBuckets(sorted: Float64Array, digits: number): (v: number) => { start: number; width: number; unit: number } {
  const halfMag = Math.ceil(Math.log2(2 * 10 ** digits)) - 1;
  const minPositive = sorted.find((v) => v > 0) ?? 1;
  const unit = 2 ** (Math.floor(Math.log2(minPositive)) - halfMag);
  return (v) => {
    const units = v / unit;
    const width = units < 2 ** (halfMag + 1) ? 1 : 2 ** (Math.floor(Math.log2(units)) - halfMag);
    return { start: Math.floor(units / width) * width, width, unit };
  };
}

/**
 * HDR percentile_ranks (DoubleHistogram.getPercentileAtOrBelowValue): the share of values whose
 * bucket is at or below x's, as a percentage; a value equal to x (or in its bucket) counts whole.
 */
export function hdrPercentileRank(sorted: Float64Array, x: number, digits: number): number | null {
  if (sorted.length === 0) return null;
  const bucketOf = hdrBuckets(sorted, digits);
  const top = bucketOf(x);
  const limit = (top.start + top.width) * top.unit;
  let atOrBelow = 0;
  for (const v of sorted) if (v < limit) atOrBelow++;
  return Math.min(100, (atOrBelow / sorted.length) * 100);
}

function parsePercentiles(type: 'percentiles' | 'percentile_ranks', name: string, body: Record<string, unknown>): PercentilesParams {
  const listKey = type === 'percentiles' ? 'percents' : 'values';
  for (const k of Object.keys(body)) {
    const known = ['field', 'script', 'missing', 'value_type', 'format', 'keyed', 'tdigest', 'hdr', listKey];
    if (!known.includes(k)) {
      throw unknownField(type, k, known);
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
    throw new EsError(400, 'illegal_argument_exception', `[compression] must be greater than or equal to 0. Found [${javaDouble(Number(td.compression))}] in [${name}]`);
  }
  let percents = DEFAULT_PERCENTS;
  const raw = body[listKey];
  if (raw !== undefined) {
    if (!Array.isArray(raw)) throw new EsError(400, 'parsing_exception', `[${listKey}] must be an array in [${name}]`, { line: 1, col: 1 });
    if (raw.length === 0) throw new EsError(400, 'illegal_argument_exception', `[${listKey}] must not be empty: [${name}]`);
    // ObjectParser's declareDoubleArray: numbers and numeric strings; anything else fails to parse
    percents = raw.map((v) => {
      const n = doubleParam(v);
      if (Number.isNaN(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${type}] failed to parse field [${listKey}]`);
      return n;
    });
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
    digits: hdr?.number_of_significant_value_digits === undefined ? 3 : Number(hdr.number_of_significant_value_digits),
    compression: td?.compression === undefined ? DEFAULT_COMPRESSION : Number(td.compression) };
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
  const sorted = Float64Array.from(vals).sort();
  // Elasticsearch's HDR collectors refuse a value below zero (its DoubleHistogram cannot hold one): a 400
  if (sorted[0] < 0) throw new EsError(400, 'illegal_argument_exception', 'Negative values are not supported by HDR aggregation');
  return { src, sorted };
}

/**
 * Past this many values an aggregation's percentiles come from its sorted values (exact) instead of
 * a t-digest: adding a value to this digest walks its centroids (about a microsecond a value), and
 * a digest of millions of values held the event loop for seconds where a sort takes milliseconds.
 */
export const DIGEST_MAX_VALUES = 50_000;

/** Quantiles and ranks read off sorted values, for a digest's many-valued case (DIGEST_MAX_VALUES). */
class SortedValues {
  constructor(readonly sorted: Float64Array) {}

  get size(): number {
    return this.sorted.length;
  }

  quantile(q: number): number {
    const { sorted } = this;
    const n = sorted.length;
    if (n === 0) return NaN;
    const index = q * (n - 1);
    const lo = Math.floor(index);
    const hi = Math.min(n - 1, lo + 1);
    const w = index - lo;
    return sorted[lo] * (1 - w) + sorted[hi] * w;
  }

  /** The share of values below x, values equal to it counting half. */
  cdf(x: number): number {
    const { sorted } = this;
    if (sorted.length === 0) return NaN;
    const below = firstIndex(sorted, (v) => v >= x);
    const equal = firstIndex(sorted, (v) => v > x) - below;
    return (below + equal / 2) / sorted.length;
  }
}

/** The first index of ascending `sorted` whose value passes `past` (monotone), or its length. */
function firstIndex(sorted: Float64Array, past: (v: number) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(sorted[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The values in the order Elasticsearch collects them (document order), in a t-digest (sorted, when many). */
function digestOf(type: string, node: { name: string; params: { source: SourceParams } }, docs: Parameters<AggregationType['run']>[1], scope: SourceScope, compression: number) {
  const src = numericSource(type, node.name, docs, node.params.source, scope);
  const vals: number[] = [];
  eachNumber(src, docs, (v) => {
    // a value a script made (Double.NaN): refused as Elasticsearch's digest refuses it, a 400
    if (Number.isNaN(v)) throw new EsError(400, 'illegal_argument_exception', 'Cannot add NaN to t-digest');
    vals.push(v);
  });
  if (vals.length > DIGEST_MAX_VALUES) return { src, digest: new SortedValues(Float64Array.from(vals).sort()) };
  const digest = new TDigest(compression);
  for (const v of vals) digest.add(v);
  return { src, digest };
}

/** NaN (no values) shows as null. */
function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}

export const percentiles: AggregationType<PercentilesParams> = {
  kind: 'metric',
  parse: (name, body) => parsePercentiles('percentiles', name, body),
  run(node, docs, ctx) {
    const { hdr, digits } = node.params;
    if (hdr) {
      const { src, sorted } = sortedValues(node, 'percentiles', docs, ctx);
      const pairs = node.params.percents.map((p) => [p, hdrPercentileOf(sorted, p, digits)] as [number, number | null]);
      return { typed: 'hdr_percentiles', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
    }
    const { src, digest } = digestOf('percentiles', node, docs, ctx, node.params.compression);
    const pairs = node.params.percents.map((p) => [p, orNull(digest.quantile(p / 100))] as [number, number | null]);
    return { typed: 'tdigest_percentiles', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
  },
};

export const percentileRanks: AggregationType<PercentilesParams> = {
  kind: 'metric',
  parse: (name, body) => parsePercentiles('percentile_ranks', name, body),
  run(node, docs, ctx) {
    if (node.params.hdr) {
      const { src, sorted } = sortedValues(node, 'percentile_ranks', docs, ctx);
      const pairs = node.params.percents.map((x) => [x, hdrPercentileRank(sorted, x, node.params.digits)] as [number, number | null]);
      return { typed: 'hdr_percentile_ranks', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
    }
    const { src, digest } = digestOf('percentile_ranks', node, docs, ctx, node.params.compression);
    // Elasticsearch: the digest's cdf, clamped to [0, 1], as a percentage.
    const pairs = node.params.percents.map((x) => [x, orNull(Math.min(1, Math.max(0, digest.cdf(x))) * 100)] as [number, number | null]);
    return { typed: 'tdigest_percentile_ranks', body: render(pairs, node.params.keyed, (v) => src.format.asString(v)) };
  },
};

export const medianAbsoluteDeviation: AggregationType<{ source: SourceParams; compression: number }> = {
  kind: 'metric',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'script', 'missing', 'value_type', 'format', 'compression'];
      if (!known.includes(k)) throw unknownField('median_absolute_deviation', k, known);
    }
    if (body.compression !== undefined && !(Number(body.compression) > 0)) {
      throw new EsError(400, 'illegal_argument_exception', `[compression] must be greater than 0. Found [${javaDouble(Number(body.compression))}] in [${name}]`);
    }
    return { source: parseSourceParams('median_absolute_deviation', name, body), compression: body.compression === undefined ? MAD_DEFAULT_COMPRESSION : Number(body.compression) };
  },
  run(node, docs, ctx) {
    // Elasticsearch: the median of the values' digest, then the median of each centroid's distance to it.
    const { src, digest } = digestOf('median_absolute_deviation', node, docs, ctx, node.params.compression);
    let value: number | null = null;
    if (digest instanceof SortedValues) {
      // many values: the median of the distances to the median, exactly
      const median = digest.quantile(0.5);
      value = new SortedValues(Float64Array.from(digest.sorted, (v) => Math.abs(v - median)).sort()).quantile(0.5);
    } else if (digest.size > 0) {
      const median = digest.quantile(0.5);
      const deviations = new TDigest(digest.compression);
      for (const [mean, count] of digest.centroids()) deviations.add(Math.abs(median - mean), count);
      value = deviations.quantile(0.5);
    }
    const body: Record<string, unknown> = { value };
    const s = value === null ? undefined : src.format.asString(value);
    if (s !== undefined) body.value_as_string = s;
    return { typed: 'median_absolute_deviation', body };
  },
};
