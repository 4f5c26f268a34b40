/**
 * What the queries that read a document's field values (geo_shape and geo_polygon, rank_feature,
 * distance_feature, terms_set) resolve against the mappings before matching: which index field
 * holds the values, their origin and pivot, the per-document required match count — and the 400s
 * for fields they cannot run on. Shared by the index executor and the document matcher.
 */
import { EsError } from '../../../../errors/index.js';
import { dateFormatOf, fieldType, parseDateMath, resolveFieldMapping, UTC, type Mappings } from '../../mapping/index.js';
import { arcDistance, parseDistance, parseGeoPoint, quantizeLat, quantizeLon } from '../../mapping/geo-point.js';
import { pivotMillis } from './feature-queries.js';
import { minimumShouldMatchOf, type GeoPoint, type Query } from './query.js';
import { evaluateMsm } from './terms-set.js';

function shardError(reason: string): EsError {
  return new EsError(400, 'query_shard_exception', reason);
}

/** Whether a geo_shape / geo_polygon query can match anything here; throws for an unmapped or non-geo field it may not ignore. */
export function geoShapeApplies(q: Extract<Query, { type: 'geo_shape' }>, mappings: Mappings): boolean {
  const mapping = resolveFieldMapping(mappings, q.field);
  if (!mapping) {
    if (q.ignoreUnmapped) return false;
    throw shardError(q.query === 'geo_polygon' ? `failed to find geo_point field [${q.field}]` : `failed to find type for field [${q.field}]`);
  }
  const type = fieldType(mapping);
  if (q.query === 'xy_shape') {
    if (type === 'xy_point' || type === 'xy_shape') return true;
    throw shardError(`Field [${q.field}] of type [${type}] does not support [xy_shape] queries`);
  }
  if (type === 'xy_point' || type === 'xy_shape') throw shardError(`Field [${q.field}] of type [${type}] does not support [geo_shape] queries`);
  if (type === 'geo_point') return true;
  if (q.query === 'geo_polygon') throw shardError(`field [${q.field}] is not a geo_point field`);
  if (type === 'geo_shape') return true;
  if (type === 'shape') throw shardError(`[geo_shape] queries on [${type}] fields are not supported by the embedded engine`);
  throw shardError(`Field [${q.field}] of type [${type}] does not support [geo_shape] queries`);
}

/**
 * The index field holding a rank_feature query's values (a rank_feature field, or a feature of a
 * rank_features field, indexed as `<field>.<feature>`) and its score impact; undefined when unmapped.
 */
export function rankFeatureSource(q: Extract<Query, { type: 'rank_feature' }>, mappings: Mappings): { field: string; positive: boolean } | undefined {
  let mapping = resolveFieldMapping(mappings, q.field);
  let positive: boolean;
  if (mapping) {
    const type = fieldType(mapping);
    if (type !== 'rank_feature') {
      throw new EsError(400, 'illegal_argument_exception', `[rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [${type}]`);
    }
    positive = mapping.positive_score_impact !== false && mapping.positive_score_impact !== 'false';
  } else {
    const dot = q.field.lastIndexOf('.');
    mapping = dot > 0 ? resolveFieldMapping(mappings, q.field.slice(0, dot)) : undefined;
    if (!mapping || fieldType(mapping) !== 'rank_features') return undefined;
    positive = mapping.positive_score_impact !== false && mapping.positive_score_impact !== 'false';
  }
  if (q.fn.kind === 'log' && !positive) {
    throw new EsError(400, 'illegal_argument_exception', 'Cannot use the [log] function with a field that has a negative score impact as it would trigger negative scores');
  }
  return { field: q.field, positive };
}

export type DistanceOrigin =
  | { kind: 'date'; origin: number; pivot: number; nanos: boolean }
  | { kind: 'geo'; origin: GeoPoint; pivot: number };

/** A distance_feature query's origin and pivot for its field; undefined when the field is unmapped. */
export function distanceOrigin(q: Extract<Query, { type: 'distance_feature' }>, mappings: Mappings, now: number): DistanceOrigin | undefined {
  const mapping = resolveFieldMapping(mappings, q.field);
  if (!mapping) return undefined;
  const type = fieldType(mapping);
  if (type === 'date' || type === 'date_nanos') {
    // Parsed rounding up, as Elasticsearch does: a date without a time is the end of its day.
    const format = typeof q.origin === 'number' ? 'epoch_millis' : dateFormatOf(mapping);
    const origin = parseDateMath(typeof q.origin === 'number' ? q.origin : String(q.origin), { format, zone: UTC, roundUp: true, now }).millis;
    return { kind: 'date', origin, pivot: pivotMillis(q.pivot), nanos: type === 'date_nanos' };
  }
  if (type === 'geo_point') {
    const origin = parseGeoPoint(q.origin);
    if (!origin) throw new EsError(400, 'parse_exception', `failed to parse [origin] of the [distance_feature] query as a geo point`);
    let pivot: number;
    try {
      pivot = parseDistance(q.pivot);
    } catch {
      throw new EsError(400, 'illegal_argument_exception', `failed to parse distance [${String(q.pivot)}]`);
    }
    return { kind: 'geo', origin, pivot };
  }
  throw new EsError(400, 'illegal_argument_exception',
    `Illegal data type of [${type}]!` + '[distance_feature] query can only be run on a date, date_nanos or geo_point field type!');
}

/** The distance from the origin to the closest of a document's values (dates: ms; geo: meters); undefined without values. */
export function closestDistance(o: DistanceOrigin, values: ArrayLike<unknown>): number | undefined {
  let best: number | undefined;
  if (o.kind === 'date') {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const ms = typeof v === 'bigint' ? Number(v) / 1e6 : Number(v);
      const d = Math.abs(ms - o.origin);
      if (best === undefined || d < best) best = d;
    }
    return best;
  }
  for (let i = 0; i + 1 < values.length; i += 2) {
    // Points as doc values keep them (Lucene's 32-bit grid).
    const d = arcDistance(quantizeLat(values[i] as number), quantizeLon(values[i + 1] as number), o.origin.lat, o.origin.lon);
    if (best === undefined || d < best) best = d;
  }
  return best;
}

/**
 * A terms_set query's required match count for one document, from the values of the fields it
 * reads (`valueOf`: the document's first value of a field). Infinity when the document lacks the
 * value; never below 1 (Lucene's CoveringQuery).
 */
export function termsSetThreshold(q: Extract<Query, { type: 'terms_set' }>, mappings: Mappings): (valueOf: (field: string) => number | undefined) => number {
  const m = q.minimum;
  if (!m) throw new EsError(500, 'illegal_state_exception', 'No minimum should match has been specified');
  if (m.kind === 'fixed') {
    const n = Math.max(1, minimumShouldMatchOf(m.spec, q.terms.length));
    return () => n;
  }
  if (m.kind === 'field') {
    const mapping = resolveFieldMapping(mappings, m.field);
    if (!mapping) throw shardError(`failed to find minimum_should_match field [${m.field}]`);
    return (valueOf) => {
      const v = valueOf(m.field);
      return v === undefined || !Number.isFinite(v) ? Infinity : Math.max(1, Math.trunc(v));
    };
  }
  const params = { ...m.params, num_terms: q.terms.length };
  return (valueOf) => {
    const v = evaluateMsm(m.expression, params, valueOf);
    return v === undefined || !Number.isFinite(v) ? Infinity : Math.max(1, Math.trunc(v));
  };
}

/** A document value as terms_set reads it: numbers (booleans 1/0, date_nanos as ms). */
export function numericDocValue(values: ArrayLike<unknown> | undefined): number | undefined {
  if (!values || values.length === 0) return undefined;
  const v = values[0];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
