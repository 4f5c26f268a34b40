/**
 * Aggregations over geo_point fields: `geo_distance` (range buckets of the distance from an
 * origin), `geo_bounds` (the box holding every point, optionally wrapping the dateline) and
 * `geo_centroid` (the mean point). Points are read as doc values keep them (Lucene's 32-bit grid),
 * so bounds and centroids print the digits Elasticsearch prints.
 */
import { EsError } from '../../../../errors/index.js';
import { fieldType, resolveFieldMapping } from '../../mapping/index.js';
import { arcDistance, parseGeoPoint, quantizeLat, quantizeLon } from '../../mapping/geo-point.js';
import { withSubs } from './aggregations.js';
import { javaDouble } from './bucket-order.js';
import { rangesOf } from './range.js';
import { CompensatedSum } from './metrics.js';
import { docCount, emptyDocSet } from './source.js';
import { isObject, type AggregationType, type DocSet } from './types.js';
import { unknownField } from './unknown-field.js';

const EARTH_MEAN_RADIUS = 6371008.7714;

/** Meters per unit of ES's DistanceUnit, by every name it accepts. */
const UNITS: Record<string, number> = {
  in: 0.0254, inch: 0.0254, yd: 0.9144, yards: 0.9144, ft: 0.3048, feet: 0.3048, km: 1000, kilometers: 1000, nmi: 1852, NM: 1852, nauticalmiles: 1852,
  mm: 0.001, millimeters: 0.001, cm: 0.01, centimeters: 0.01, mi: 1609.344, miles: 1609.344, m: 1, meters: 1,
};

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

/** The points (lat, lon pairs, quantized) of one document of a geo_point field, in each segment. */
export function geoPoints(docs: DocSet, field: string, aggType: string): Array<((ord: number) => ArrayLike<unknown> | undefined) | undefined> {
  return docs.map((seg) => {
    const mapping = resolveFieldMapping(seg.handle.mappings, field);
    if (!mapping) return undefined;
    const type = fieldType(mapping);
    if (type !== 'geo_point') throw new EsError(400, 'illegal_argument_exception', `Field [${field}] of type [${type}] is not supported for aggregation [${aggType}]`);
    const dv = seg.handle.inverted?.field(field)?.docValues;
    return dv && ((ord: number) => dv.view(ord));
  });
}

/** Every point of `field` in the matched documents, at doc-value precision (as Elasticsearch reads them). */
function forEachPoint(docs: DocSet, field: string, aggType: string, visit: (lat: number, lon: number) => void): void {
  const points = geoPoints(docs, field, aggType);
  docs.forEach((seg, si) => {
    const pointsOf = points[si];
    if (!pointsOf) return;
    for (const ord of seg.ords) {
      const vs = pointsOf(ord);
      if (!vs) continue;
      for (let i = 0; i + 1 < vs.length; i += 2) visit(quantizeLat(vs[i] as number), quantizeLon(vs[i + 1] as number));
    }
  });
}

export function checkField(aggType: string, name: string, body: Record<string, unknown>): string {
  if (body.script !== undefined) throw new EsError(400, 'illegal_argument_exception', `[script] in [${aggType}] aggregations is not supported by the embedded engine`);
  if (typeof body.field !== 'string') {
    if (body.field !== undefined) throw parsing(`[${aggType}] field must be a string`);
    throw new EsError(400, 'illegal_argument_exception', 'Required one of fields [field, script], but none were specified. ');
  }
  void name;
  return body.field;
}

interface DistanceRange {
  key?: string;
  from: number;
  to: number;
  /** The key ES generates: the bounds as given, `*` for an open one. */
  generated: string;
}

interface GeoDistanceParams {
  field: string;
  origin: { lat: number; lon: number };
  unit: number;
  plane: boolean;
  ranges: DistanceRange[];
  keyed: boolean;
}

/** GeoUtils.planeDistance: an equirectangular approximation on the mean earth radius. */
function planeDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const x = (lon2 - lon1) * toRad * Math.cos(((lat2 + lat1) / 2) * toRad);
  const y = (lat2 - lat1) * toRad;
  return Math.sqrt(x * x + y * y) * EARTH_MEAN_RADIUS;
}

export const geoDistance: AggregationType<GeoDistanceParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'script', 'origin', 'point', 'center', 'unit', 'distance_type', 'ranges', 'keyed', 'missing', 'value_type', 'format'];
      if (!known.includes(k)) {
        throw unknownField('geo_distance', k, known);
      }
    }
    const field = checkField('geo_distance', name, body);
    const rawOrigin = body.origin ?? body.point ?? body.center;
    if (rawOrigin === undefined) throw new EsError(400, 'illegal_argument_exception', `[origin] must not be null: [${name}]`);
    const origin = parseGeoPoint(rawOrigin);
    if (!origin) throw parsing(`[geo_distance] failed to parse field [origin]`);
    const unitName = body.unit === undefined ? 'm' : String(body.unit);
    const unit = UNITS[unitName];
    if (unit === undefined) throw new EsError(400, 'illegal_argument_exception', `No distance unit match [${unitName}]`);
    const type = body.distance_type === undefined ? 'arc' : String(body.distance_type).toLowerCase();
    if (type !== 'arc' && type !== 'plane') throw new EsError(400, 'illegal_argument_exception', `No geo distance for [${String(body.distance_type)}]`);
    const ranges = rangesOf(name, body.ranges).map((r): DistanceRange => {
      if (!isObject(r)) throw parsing(`[ranges] must contain objects in [${name}]`);
      for (const k of Object.keys(r)) if (!['key', 'from', 'to'].includes(k)) throw unknownField('range', k, ['key', 'from', 'to']);
      const num = (v: unknown) => {
        const n = Number(v);
        if (typeof v === 'boolean' || !Number.isFinite(n)) throw new EsError(400, 'number_format_exception', `For input string: "${String(v)}"`);
        return n;
      };
      const from = r.from === undefined || r.from === null ? undefined : num(r.from);
      const to = r.to === undefined || r.to === null ? undefined : num(r.to);
      return {
        key: r.key === undefined || r.key === null ? undefined : String(r.key),
        // An open lower bound counts from 0 (no distance is negative), keyed as open.
        from: from ?? 0, to: to ?? Infinity,
        generated: `${from === undefined ? '*' : javaDouble(from)}-${to === undefined ? '*' : javaDouble(to)}`,
      };
    });
    return { field, origin, unit, plane: type === 'plane', ranges, keyed: body.keyed === true };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const ranges = p.ranges.map((r, i) => ({ r, i })).sort((a, b) => a.r.from - b.r.from || a.r.to - b.r.to || a.i - b.i).map((x) => x.r);
    const points = geoPoints(docs, p.field, 'geo_distance');
    const sets = ranges.map(() => emptyDocSet(docs));
    const distance = p.plane ? planeDistance : arcDistance;
    docs.forEach((seg, si) => {
      const pointsOf = points[si];
      if (!pointsOf) return;
      for (const ord of seg.ords) {
        const vs = pointsOf(ord);
        if (!vs || vs.length < 2) continue;
        const ds: number[] = [];
        for (let i = 0; i + 1 < vs.length; i += 2) ds.push(distance(p.origin.lat, p.origin.lon, quantizeLat(vs[i] as number), quantizeLon(vs[i + 1] as number)) / p.unit);
        ranges.forEach((r, ri) => {
          if (ds.some((d) => d >= r.from && d < r.to)) sets[ri][si].ords.push(ord);
        });
      }
    });
    const buckets = ranges.map((r, i) => {
      const b: Record<string, unknown> = { key: r.key ?? r.generated, from: r.from };
      if (Number.isFinite(r.to)) b.to = r.to;
      b.doc_count = docCount(sets[i]);
      return withSubs(b, node.subs, sets[i], ctx);
    });
    if (!p.keyed) return { typed: 'geo_distance', body: { buckets } };
    const keyed: Record<string, unknown> = {};
    for (const b of buckets) {
      const { key, ...rest } = b;
      keyed[key as string] = rest;
    }
    return { typed: 'geo_distance', body: { buckets: keyed } };
  },
};

interface GeoBoundsParams {
  field: string;
  wrapLongitude: boolean;
}

export const geoBounds: AggregationType<GeoBoundsParams> = {
  kind: 'metric',
  parse(name, body) {
    const known = ['field', 'script', 'wrap_longitude', 'missing', 'value_type', 'format'];
    for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField('geo_bounds', k, known);
    return { field: checkField('geo_bounds', name, body), wrapLongitude: body.wrap_longitude !== false && body.wrap_longitude !== 'false' };
  },
  run(node, docs) {
    let top = -Infinity;
    let bottom = Infinity;
    let posLeft = Infinity;
    let posRight = -Infinity;
    let negLeft = Infinity;
    let negRight = -Infinity;
    forEachPoint(docs, node.params.field, 'geo_bounds', (lat, lon) => {
      top = Math.max(top, lat);
      bottom = Math.min(bottom, lat);
      if (lon >= 0) {
        posLeft = Math.min(posLeft, lon);
        posRight = Math.max(posRight, lon);
      } else {
        negLeft = Math.min(negLeft, lon);
        negRight = Math.max(negRight, lon);
      }
    });
    if (!Number.isFinite(top)) return { typed: 'geo_bounds', body: {} };
    // InternalGeoBounds.resolveBoundingBox: across the dateline when that box is narrower.
    let left: number;
    let right: number;
    if (!Number.isFinite(posLeft)) [left, right] = [negLeft, negRight];
    else if (!Number.isFinite(negLeft)) [left, right] = [posLeft, posRight];
    else if (node.params.wrapLongitude) {
      const unwrapped = posRight - negLeft;
      const wrapped = 180 - posLeft - (-180 - negRight);
      [left, right] = unwrapped <= wrapped ? [negLeft, posRight] : [posLeft, negRight];
    } else [left, right] = [negLeft, posRight];
    return { typed: 'geo_bounds', body: { bounds: { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } } } };
  },
};

export const geoCentroid: AggregationType<{ field: string }> = {
  kind: 'metric',
  parse(name, body) {
    const known = ['field', 'script', 'missing', 'value_type', 'format'];
    for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField('geo_centroid', k, known);
    return { field: checkField('geo_centroid', name, body) };
  },
  run(node, docs) {
    const lat = new CompensatedSum();
    const lon = new CompensatedSum();
    let count = 0;
    forEachPoint(docs, node.params.field, 'geo_centroid', (pointLat, pointLon) => {
      lat.add(pointLat);
      lon.add(pointLon);
      count++;
    });
    if (count === 0) return { typed: 'geo_centroid', body: { count: 0 } };
    // As ES: each shard's centroid, then the reduce's count-weighted mean of them.
    const shardLat = lat.value / count;
    const shardLon = lon.value / count;
    return { typed: 'geo_centroid', body: { location: { lat: (count * shardLat) / count, lon: (count * shardLon) / count }, count } };
  },
};
