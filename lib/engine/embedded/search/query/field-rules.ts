import { isIP } from 'node:net';
import { EsError } from '../../../../errors/index.js';
import { NUMERIC_TYPES, clampedEpochNanos, dateFormatOf, exactUnsignedLong, ipToBigInt, fieldType, isRangeType, keywordTerm, millisOfNanos, parseDateMath, parseTimeZone, resolveFieldMapping, type EpochTime, type FieldMapping, type Mappings } from '../../mapping/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import type { Query } from './query.js';

/** One doc value of a field (date_nanos: epoch nanoseconds, a BigInt). */
type FieldValue = string | EpochTime | boolean;

/**
 * A range query's bounds on one field: numbers (numbers, dates as epoch ms, date_nanos as epoch
 * ns BigInts) or terms (keyword, text).
 */
export interface RangeBounds {
  numeric: boolean;
  lo?: EpochTime | string;
  hi?: EpochTime | string;
  loInc: boolean;
  hiInc: boolean;
}

/**
 * Whether a required clause of a bool is checked on the documents the other required clauses give
 * rather than run over the index (when one of them is run): a script, or a range read from doc values
 * (numbers, dates, booleans, range fields). The executor and the one-document matcher both test such
 * clauses last, so a script that fails on a document the other clauses exclude fails neither.
 */
export function checkedPerCandidate(q: Query, mappings: Mappings, registry: AnalysisRegistry, now: number): boolean {
  if (q.type === 'script') return true;
  if (q.type !== 'range') return false;
  const mapping = resolveFieldMapping(mappings, q.field);
  if (!mapping) return false;
  return isRangeType(fieldType(mapping)) || rangeBounds(q, mapping, registry, now).numeric;
}

/** Range bounds as ES computes them for the field's type (date math with rounding, keyword normalizer). */
export function rangeBounds(q: Extract<Query, { type: 'range' }>, mapping: FieldMapping, registry: AnalysisRegistry, now: number): RangeBounds {
  const type = fieldType(mapping);
  const lower = q.gt ?? q.gte;
  const upper = q.lt ?? q.lte;
  const loInc = q.gt === undefined;
  const hiInc = q.lt === undefined;
  if (type === 'date' || type === 'date_nanos') {
    const zone = parseTimeZone(q.timeZone);
    const at = (v: unknown, roundUp: boolean): EpochTime => {
      // A number is epoch millis unless the query names a format (ES's DateFieldType.rangeQuery).
      const format = q.format ?? (typeof v === 'number' ? 'epoch_millis' : dateFormatOf(mapping));
      const instant = parseDateMath(typeof v === 'number' ? v : String(v), { format, zone, roundUp, now });
      return type === 'date_nanos' ? clampedEpochNanos(instant) : instant.millis;
    };
    return { numeric: true, lo: lower === undefined ? undefined : at(lower, !loInc), hi: upper === undefined ? undefined : at(upper, hiInc), loInc, hiInc };
  }
  if (NUMERIC_TYPES.has(type)) {
    const n = (v: unknown) => {
      // an unsigned_long bound past 2^53 compares exactly (doc values hold such values as BigInts)
      const exact = type === 'unsigned_long' ? exactUnsignedLong(v) : undefined;
      if (typeof exact === 'bigint') return exact;
      const x = typeof v === 'number' ? v : Number(String(v).trim());
      if (typeof v === 'boolean' || !Number.isFinite(x)) {
        throw new EsError(400, 'query_shard_exception', `failed to create query: For input string: "${String(v)}"`);
      }
      return x;
    };
    return { numeric: true, lo: lower === undefined ? undefined : n(lower), hi: upper === undefined ? undefined : n(upper), loInc, hiInc };
  }
  if (type === 'ip') {
    // addresses compare as the numbers they are (10.0.0.1 after 9.0.0.0), as ES's InetAddressPoint does
    const ip = (v: unknown) => {
      const n = isIP(String(v).trim()) === 0 ? undefined : ipToBigInt(String(v).trim());
      if (n === undefined) throw new EsError(400, 'query_shard_exception', `failed to create query: '${String(v)}' is not an IP string literal.`);
      return n;
    };
    return { numeric: true, lo: lower === undefined ? undefined : ip(lower), hi: upper === undefined ? undefined : ip(upper), loInc, hiInc };
  }
  if (type === 'boolean') {
    const b = (v: unknown) => (v === true || v === 'true' ? 1 : 0);
    return { numeric: true, lo: lower === undefined ? undefined : b(lower), hi: upper === undefined ? undefined : b(upper), loInc, hiInc };
  }
  const s = (v: unknown) => (type === 'keyword' ? keywordTerm(mapping, String(v), registry) : String(v));
  return { numeric: false, lo: lower === undefined ? undefined : s(lower), hi: upper === undefined ? undefined : s(upper), loInc, hiInc };
}

export function inRange(v: EpochTime | string, b: RangeBounds): boolean {
  if (b.lo !== undefined && (b.loInc ? v < b.lo : v <= b.lo)) return false;
  if (b.hi !== undefined && (b.hiInc ? v > b.hi : v >= b.hi)) return false;
  return true;
}

/**
 * Phrase frequency of one document: how often the positions line up with the query offsets, within
 * `slop` (sloppy matches weigh 1 / (1 + distance), as Lucene's sloppy phrase scorer). 0: no match.
 */
export function phraseFreq(positions: number[][], offsets: number[], slop: number): number {
  const first = positions[0];
  let freq = 0;
  for (const p0 of first) {
    const anchor = p0 - offsets[0];
    if (slop === 0) {
      let ok = true;
      for (let i = 1; i < positions.length && ok; i++) ok = positions[i].includes(anchor + offsets[i]);
      if (ok) freq++;
      continue;
    }
    let lo = anchor;
    let hi = anchor;
    let ok = true;
    for (let i = 1; i < positions.length && ok; i++) {
      let best: number | undefined;
      for (const p of positions[i]) {
        const rel = p - offsets[i];
        if (best === undefined || Math.abs(rel - anchor) < Math.abs(best - anchor)) best = rel;
      }
      if (best === undefined) ok = false;
      else {
        lo = Math.min(lo, best);
        hi = Math.max(hi, best);
      }
    }
    if (ok && hi - lo <= slop) freq += Math.fround(1 / (1 + (hi - lo)));
  }
  return freq;
}

const FVF_MODIFIERS: Record<string, (x: number) => number> = {
  none: (x) => x,
  log: (x) => Math.log10(x),
  log1p: (x) => Math.log10(x + 1),
  log2p: (x) => Math.log10(x + 2),
  ln: (x) => Math.log(x),
  ln1p: (x) => Math.log1p(x),
  ln2p: (x) => Math.log(x + 2),
  square: (x) => x * x,
  sqrt: (x) => Math.sqrt(x),
  reciprocal: (x) => 1 / x,
};

export function fieldValueFactor(value: number, factor: number, modifier: string): number {
  const fn = FVF_MODIFIERS[modifier];
  if (!fn) throw new EsError(400, 'illegal_argument_exception', `Illegal modifier: ${modifier}`);
  const r = fn(value * factor);
  if (!Number.isFinite(r)) {
    throw new EsError(400, 'illegal_argument_exception', `field value function must not produce negative scores or infinity: [${r}] for field value [${value}]`);
  }
  return r;
}

/** Decay of a distance (already minus offset, ≥ 0) at `scale` with `decay`. */
export function decayScore(kind: 'gauss' | 'exp' | 'linear', distance: number, scale: number, decay: number): number {
  if (kind === 'gauss') {
    const sigma2 = -(scale * scale) / (2 * Math.log(decay));
    return Math.exp((-0.5 * distance * distance) / sigma2);
  }
  if (kind === 'exp') return Math.exp((Math.log(decay) / scale) * distance);
  const s = scale / (1 - decay);
  return Math.max(0, (s - distance) / s);
}

const TIME_UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function timeValueMs(v: unknown): number {
  if (typeof v === 'number') return v;
  const m = /^\s*([\d.]+)\s*(nanos|micros|ms|s|m|h|d)\s*$/.exec(String(v));
  if (!m) throw new EsError(400, 'illegal_argument_exception', `failed to parse setting [scale] with value [${String(v)}] as a time value`);
  return Number(m[1]) * TIME_UNITS[m[2]];
}

export interface DecayResolved {
  /** Distance of one value to the origin (geo: values are lat, lon pairs). */
  distances(values: readonly FieldValue[]): number[];
  scale: number;
  offset: number;
}

/** Origin, scale and offset of a decay function for the field's type (numbers, dates, geo points). */
export function resolveDecay(fn: import('./query.js').DecayFunction, mapping: FieldMapping | undefined, now: number,
  geo: { parsePoint(v: unknown): { lat: number; lon: number } | undefined; distance(v: unknown): number; arc(a: number, b: number, c: number, d: number): number }): DecayResolved {
  const type = mapping ? fieldType(mapping) : 'double';
  if (type === 'geo_point') {
    const origin = geo.parsePoint(fn.origin);
    if (!origin) throw new EsError(400, 'parsing_exception', `[${fn.kind}] unknown origin [${String(fn.origin)}]`);
    return {
      scale: geo.distance(fn.scale),
      offset: fn.offset === undefined ? 0 : geo.distance(fn.offset),
      distances: (vs) => {
        const out: number[] = [];
        for (let i = 0; i + 1 < vs.length; i += 2) out.push(geo.arc(vs[i] as number, vs[i + 1] as number, origin.lat, origin.lon));
        return out;
      },
    };
  }
  if (type === 'date' || type === 'date_nanos') {
    const origin = fn.origin === undefined ? now : parseDateMath(typeof fn.origin === 'number' ? fn.origin : String(fn.origin), { now }).millis;
    const millis = (v: FieldValue) => (typeof v === 'bigint' ? millisOfNanos(v) : (v as number));
    return { scale: timeValueMs(fn.scale), offset: fn.offset === undefined ? 0 : timeValueMs(fn.offset), distances: (vs) => vs.map((v) => Math.abs(millis(v) - origin)) };
  }
  // Elasticsearch decays numbers, dates and geo points only; any other field type is the query's error, on every document alike
  if (type !== 'boolean' && !NUMERIC_TYPES.has(type)) {
    throw new EsError(400, 'parsing_exception', `field [${fn.field}] is of type [${type}], but only numeric types are supported.`);
  }
  if (fn.origin === undefined) throw new EsError(400, 'parsing_exception', `[${fn.kind}] must supply origin`);
  const origin = Number(fn.origin);
  return { scale: Number(fn.scale), offset: fn.offset === undefined ? 0 : Number(fn.offset), distances: (vs) => vs.map((v) => Math.abs((v as number) - origin)) };
}

/** The decay factor of one document from its values (multi-valued: by `multi_value_mode`); 1 when it has none. */
export function decayOfValues(fn: import('./query.js').DecayFunction, r: DecayResolved, values: readonly FieldValue[] | undefined): number {
  if (!values || !values.length) return 1;
  const scores = r.distances(values).map((d) => decayScore(fn.kind, Math.max(0, d - r.offset), r.scale, fn.decay));
  if (!scores.length) return 1;
  switch (fn.multiValueMode) {
    case 'max':
      return Math.min(...scores);
    case 'avg':
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    case 'sum':
      return scores.reduce((a, b) => a + b, 0);
    default:
      return Math.max(...scores);
  }
}

/** Combines function scores by score_mode. */
export function combineFunctions(mode: string, scores: number[], weights: number[]): number {
  if (!scores.length) return 1;
  switch (mode) {
    case 'sum':
      return scores.reduce((a, b) => a + b, 0);
    case 'avg': {
      const w = weights.reduce((a, b) => a + b, 0);
      return scores.reduce((a, b) => a + b, 0) / (w || 1);
    }
    case 'first':
      return scores[0];
    case 'max':
      return Math.max(...scores);
    case 'min':
      return Math.min(...scores);
    default:
      return scores.reduce((a, b) => a * b, 1);
  }
}

export function combineBoostMode(mode: string, queryScore: number, funcScore: number): number {
  switch (mode) {
    case 'replace':
      return funcScore;
    case 'sum':
      return queryScore + funcScore;
    case 'avg':
      return (queryScore + funcScore) / 2;
    case 'max':
      return Math.max(queryScore, funcScore);
    case 'min':
      return Math.min(queryScore, funcScore);
    default:
      return queryScore * funcScore;
  }
}
