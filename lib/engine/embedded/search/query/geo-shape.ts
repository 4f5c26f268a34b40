/**
 * Shapes of the `geo_shape` query (GeoJSON and WKT, as Elasticsearch reads them) and of the
 * deprecated `geo_polygon` query, tested against `geo_point` fields: a document's points relate to
 * the shape as `intersects` (a point in it), `disjoint` (none in it), `within` (all in it) or
 * `contains` (the shape is made of the document's points). Polygons are planar in lon/lat, holes
 * excluded, boundaries included; envelopes may cross the dateline (left > right).
 */
import { EsError } from '../../../../errors/index.js';
import { arcDistance, inBoundingBox, parseGeoPoint } from '../../mapping/geo-point.js';
import { parseGeoShape, parsing, shapePoints, type GeoShape } from '../../mapping/geo-shape.js';
import { boostOf, isObject } from './query-fields.js';
import type { GeoPoint } from './query.js';

export { parseGeoShape, type GeoShape };

export type GeoRelation = 'intersects' | 'disjoint' | 'within' | 'contains';

function relationOf(v: unknown): GeoRelation {
  if (v === undefined || v === null) return 'intersects';
  const s = String(v).toLowerCase();
  if (s === 'intersects' || s === 'disjoint' || s === 'within' || s === 'contains') return s;
  throw new EsError(400, 'illegal_argument_exception', `Unknown shape relation [${String(v)}]`);
}

const GEO_SHAPE_KEYS = ['ignore_unmapped', 'boost', '_name'];

/** The geo_shape query's body: `{"<field>": {"shape" | "indexed_shape", "relation"}, "ignore_unmapped", "boost"}`. */
export function parseGeoShapeQuery(body: unknown): { field: string; shape: GeoShape; relation: GeoRelation; ignoreUnmapped: boolean; boost: number } {
  if (!isObject(body)) throw parsing('[geo_shape] query malformed, no start_object after query name');
  const fields = Object.keys(body).filter((k) => !GEO_SHAPE_KEYS.includes(k));
  if (fields.length === 0) throw parsing('[geo_shape] query requires a field');
  if (fields.length > 1) throw parsing(`[geo_shape] point specified twice. [${fields[1]}]`);
  const field = fields[0];
  const spec = body[field];
  if (!isObject(spec)) throw parsing(`[geo_shape] query does not support [${field}]`);
  for (const k of Object.keys(spec)) {
    if (!['shape', 'indexed_shape', 'relation', 'strategy'].includes(k)) throw parsing(`[geo_shape] query does not support [${k}]`);
  }
  // `indexed_shape` was replaced by the shape it names before parsing (terms-lookup.ts); one left means no lookup ran.
  if (spec.indexed_shape !== undefined) throw new EsError(400, 'illegal_argument_exception', '[geo_shape] indexed_shape could not be read here; give the shape inline');
  if (spec.shape === undefined) throw new EsError(400, 'illegal_argument_exception', 'either shape or indexedShapeId is required');
  return {
    field, shape: parseGeoShape(spec.shape), relation: relationOf(spec.relation),
    ignoreUnmapped: body.ignore_unmapped === true || body.ignore_unmapped === 'true', boost: boostOf('geo_shape', body.boost),
  };
}

/** The deprecated geo_polygon query: a polygon of `points` (any geo_point form) on one field. */
export function parseGeoPolygonQuery(body: unknown): { field: string; shape: GeoShape; ignoreUnmapped: boolean; boost: number } {
  if (!isObject(body)) throw parsing('[geo_polygon] query malformed, no start_object after query name');
  const fields = Object.keys(body).filter((k) => !['ignore_unmapped', 'validation_method', 'boost', '_name'].includes(k));
  if (fields.length !== 1) throw parsing('[geo_polygon] query requires exactly one field');
  const field = fields[0];
  const spec = body[field];
  if (!isObject(spec) || !Array.isArray(spec.points)) throw parsing('[geo_polygon] query does not support [' + field + ']');
  const points = spec.points.map((p) => {
    const g = parseGeoPoint(p);
    if (!g) throw parsing('[geo_polygon] failed to parse point');
    return g;
  });
  if (points.length < 3) throw new EsError(400, 'illegal_argument_exception', 'too few points defined for geo_polygon query');
  return {
    field, shape: { type: 'polygon', rings: [points] },
    ignoreUnmapped: body.ignore_unmapped === true || body.ignore_unmapped === 'true', boost: boostOf('geo_polygon', body.boost),
  };
}

const EPS = 1e-9;

function samePoint(a: GeoPoint, lat: number, lon: number): boolean {
  return Math.abs(a.lat - lat) < EPS && Math.abs(a.lon - lon) < EPS;
}

function onSegment(lat: number, lon: number, a: GeoPoint, b: GeoPoint): boolean {
  const cross = (b.lon - a.lon) * (lat - a.lat) - (b.lat - a.lat) * (lon - a.lon);
  if (Math.abs(cross) > EPS) return false;
  return lon >= Math.min(a.lon, b.lon) - EPS && lon <= Math.max(a.lon, b.lon) + EPS && lat >= Math.min(a.lat, b.lat) - EPS && lat <= Math.max(a.lat, b.lat) + EPS;
}

/** Point in a ring (even-odd rule), its boundary included. */
function inRing(lat: number, lon: number, ring: GeoPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i];
    const b = ring[j];
    if (onSegment(lat, lon, a, b)) return true;
    if (a.lat > lat !== b.lat > lat && lon < ((b.lon - a.lon) * (lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
  }
  return inside;
}

function inPolygon(lat: number, lon: number, rings: GeoPoint[][]): boolean {
  if (!inRing(lat, lon, rings[0])) return false;
  for (let h = 1; h < rings.length; h++) {
    const hole = rings[h];
    if (inRing(lat, lon, hole) && !hole.some((a, i) => onSegment(lat, lon, a, hole[(i + 1) % hole.length]))) return false;
  }
  return true;
}

/** Is the point (lat, lon) in the shape (its boundary included)? */
export function pointInShape(lat: number, lon: number, shape: GeoShape): boolean {
  switch (shape.type) {
    case 'point':
      return samePoint(shape.point, lat, lon);
    case 'multipoint':
      return shape.points.some((p) => samePoint(p, lat, lon));
    case 'linestring':
      return shape.points.some((p, i) => i > 0 && onSegment(lat, lon, shape.points[i - 1], p));
    case 'multilinestring':
      return shape.lines.some((line) => line.some((p, i) => i > 0 && onSegment(lat, lon, line[i - 1], p)));
    case 'envelope':
      return inBoundingBox(lat, lon, shape.top, shape.left, shape.bottom, shape.right);
    case 'polygon':
      return inPolygon(lat, lon, shape.rings);
    case 'multipolygon':
      return shape.polygons.some((rings) => inPolygon(lat, lon, rings));
    case 'circle':
      return arcDistance(lat, lon, shape.center.lat, shape.center.lon) <= shape.radiusMeters;
    case 'geometrycollection':
      return shape.geometries.some((g) => pointInShape(lat, lon, g));
  }
}

/** Do a document's points (doc values: lat, lon pairs) relate to the shape as asked? */
export function pointsRelate(values: ArrayLike<unknown>, shape: GeoShape, relation: GeoRelation): boolean {
  const n = values.length - (values.length % 2);
  if (n === 0) return false;
  switch (relation) {
    case 'intersects':
      for (let i = 0; i < n; i += 2) if (pointInShape(values[i] as number, values[i + 1] as number, shape)) return true;
      return false;
    case 'disjoint':
      for (let i = 0; i < n; i += 2) if (pointInShape(values[i] as number, values[i + 1] as number, shape)) return false;
      return true;
    case 'within':
      for (let i = 0; i < n; i += 2) if (!pointInShape(values[i] as number, values[i + 1] as number, shape)) return false;
      return true;
    case 'contains': {
      const ps = shapePoints(shape);
      if (!ps) return false;
      return ps.every((p) => {
        for (let i = 0; i < n; i += 2) if (samePoint(p, values[i] as number, values[i + 1] as number)) return true;
        return false;
      });
    }
  }
}
