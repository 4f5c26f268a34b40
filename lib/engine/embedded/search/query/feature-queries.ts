/**
 * `rank_feature` and `distance_feature`: queries that score each document from one value of it.
 *
 * Rank features are stored as Lucene's FeatureField keeps them (mapping/rank-feature.ts), so scores
 * come out as Elasticsearch's. Distance features score
 * `boost · pivot / (pivot + distance)` with the distance from the origin to the closest value.
 */
import { EsError } from '../../../../errors/index.js';
import { decodeFeature, encodeFeature } from '../../mapping/rank-feature.js';
import { checkFields, failedToBuild, inField, isObject, requiredFields, unsupportedValue } from './query-fields.js';

const f = Math.fround;

export type RankFeatureFunction =
  | { kind: 'saturation'; pivot?: number }
  | { kind: 'log'; scalingFactor: number }
  | { kind: 'sigmoid'; pivot: number; exponent: number }
  | { kind: 'linear' };

function floatOf(parser: string, key: string, v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw unsupportedValue(parser, key, v);
  return f(n);
}

function parseFunction(kind: RankFeatureFunction['kind'], body: unknown): RankFeatureFunction {
  return inField('feature', kind, () => {
    if (!isObject(body)) throw unsupportedValue('feature', kind, body);
    switch (kind) {
      case 'saturation':
        checkFields(kind, body, ['pivot']);
        return { kind, pivot: body.pivot === undefined ? undefined : floatOf(kind, 'pivot', body.pivot) };
      case 'log':
        checkFields(kind, body, ['scaling_factor']);
        if (body.scaling_factor === undefined) throw requiredFields(['scaling_factor']);
        return { kind, scalingFactor: floatOf(kind, 'scaling_factor', body.scaling_factor) };
      case 'sigmoid': {
        checkFields(kind, body, ['pivot', 'exponent']);
        const missing = ['pivot', 'exponent'].filter((k) => body[k] === undefined);
        if (missing.length) throw requiredFields(missing);
        return { kind, pivot: floatOf(kind, 'pivot', body.pivot), exponent: floatOf(kind, 'exponent', body.exponent) };
      }
      case 'linear':
        checkFields(kind, body, []);
        return { kind };
    }
  });
}

const FUNCTIONS = ['saturation', 'log', 'sigmoid', 'linear'] as const;

/** The rank_feature query's body (RankFeatureQueryBuilder's parser, named `feature`). */
export function parseRankFeatureQuery(body: unknown, boostOf: (v: unknown) => number): { field: string; fn: RankFeatureFunction; boost: number } {
  if (!isObject(body)) throw unsupportedValue('feature', 'rank_feature', body);
  checkFields('feature', body, ['field', 'boost', '_name', ...FUNCTIONS]);
  if (body.field !== undefined && typeof body.field !== 'string') throw unsupportedValue('feature', 'field', body.field);
  const given = FUNCTIONS.filter((k) => body[k] !== undefined && body[k] !== null);
  const fns = given.map((k) => parseFunction(k, body[k]));
  if (body.field === undefined) throw requiredFields(['field']);
  if (fns.length > 1) throw failedToBuild('feature', 'Can only specify one of [log], [saturation], [sigmoid] and [linear]');
  return { field: body.field, fn: fns[0] ?? { kind: 'saturation' }, boost: boostOf(body.boost) };
}

/** The pivot Lucene computes for a saturation without one: the feature decoded from its mean frequency. */
export function defaultPivot(storedValues: Iterable<number>): number {
  let sum = 0;
  let n = 0;
  for (const v of storedValues) {
    sum += encodeFeature(v);
    n++;
  }
  if (n === 0) return 1;
  return decodeFeature(Math.trunc(f(sum / n)));
}

/** A document's score for its (stored) feature value, in Lucene's float arithmetic. */
export function rankFeatureScore(fn: RankFeatureFunction, pivot: number, value: number, boost: number): number {
  const w = f(boost);
  switch (fn.kind) {
    case 'saturation':
      return f(w * f(1 - f(pivot / f(value + pivot))));
    case 'log':
      return f(w * Math.log(f(fn.scalingFactor + value)));
    case 'sigmoid': {
      const pa = Math.pow(fn.pivot, fn.exponent);
      return f(w * (1 - pa / (Math.pow(value, fn.exponent) + pa)));
    }
    case 'linear':
      return f(w * value);
  }
}

/** The distance_feature query's body: field, origin and pivot required. */
export function parseDistanceFeatureQuery(body: unknown, boostOf: (v: unknown) => number): { field: string; origin: unknown; pivot: unknown; boost: number } {
  if (!isObject(body)) throw unsupportedValue('distance_feature', 'distance_feature', body);
  checkFields('distance_feature', body, ['field', 'origin', 'pivot', 'boost', '_name']);
  if (body.field !== undefined && typeof body.field !== 'string') throw unsupportedValue('distance_feature', 'field', body.field);
  const missing = ['field', 'origin', 'pivot'].filter((k) => body[k] === undefined || body[k] === null);
  if (missing.length) throw requiredFields(missing);
  if (typeof body.pivot !== 'string' && typeof body.pivot !== 'number') throw unsupportedValue('distance_feature', 'pivot', body.pivot);
  return { field: body.field as string, origin: body.origin, pivot: body.pivot, boost: boostOf(body.boost) };
}

const TIME_UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time value (`7d`, `12h`, `500ms`…) in milliseconds, as ES's TimeValue parses the pivot. */
export function pivotMillis(v: unknown): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)\s*$/.exec(String(v));
  if (!m) throw new EsError(400, 'illegal_argument_exception', `failed to parse setting [pivot] with value [${String(v)}] as a time value: unit is missing or unrecognized`);
  return Number(m[1]) * TIME_UNITS[m[2]];
}

/** LongDistanceFeatureQuery / LatLonPointDistanceFeatureQuery: `boost · pivot / (pivot + distance)`, as a float. */
export function distanceFeatureScore(pivot: number, distance: number, boost: number): number {
  return f(boost * (pivot / (pivot + distance)));
}
