/**
 * Shapes of the `geo_shape` query (GeoJSON and WKT, as Elasticsearch reads them) and of the
 * deprecated `geo_polygon` query, tested against `geo_point` fields: a document's points relate to
 * the shape as `intersects` (a point in it), `disjoint` (none in it), `within` (all in it) or
 * `contains` (the shape is made of the document's points). Polygons are planar in lon/lat, holes
 * excluded, boundaries included; envelopes may cross the dateline (left > right).
 */
import { EsError } from '../../../../errors/index.js';
import { arcDistance, inBoundingBox, parseDistance, parseGeoPoint } from '../../mapping/geo-point.js';
import { boostOf, isObject } from './query-fields.js';
import type { GeoPoint } from './query.js';

export type GeoShape =
  | { type: 'point'; point: GeoPoint }
  | { type: 'multipoint'; points: GeoPoint[] }
  | { type: 'linestring'; points: GeoPoint[] }
  | { type: 'multilinestring'; lines: GeoPoint[][] }
  | { type: 'envelope'; top: number; left: number; bottom: number; right: number }
  /** The outer ring first, then the holes; rings closed or not. */
  | { type: 'polygon'; rings: GeoPoint[][] }
  | { type: 'multipolygon'; polygons: GeoPoint[][][] }
  | { type: 'circle'; center: GeoPoint; radiusMeters: number }
  | { type: 'geometrycollection'; geometries: GeoShape[] };

export type GeoRelation = 'intersects' | 'disjoint' | 'within' | 'contains';

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function lonLat(v: unknown): GeoPoint {
  if (!Array.isArray(v) || v.length < 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number') throw parsing('geo coordinates must be numbers');
  return { lon: v[0], lat: v[1] };
}

function pointList(v: unknown): GeoPoint[] {
  if (!Array.isArray(v)) throw parsing('geo coordinates must be an array');
  return v.map(lonLat);
}

function polygonRings(v: unknown): GeoPoint[][] {
  if (!Array.isArray(v) || v.length === 0) throw parsing('Invalid LinearRing found. Found a single coordinate when expecting a coordinate array');
  const rings = v.map(pointList);
  for (const ring of rings) {
    if (ring.length < 4) throw new EsError(400, 'illegal_argument_exception', `Invalid number of points in LinearRing (found [${ring.length}] - must be >= 4)`);
  }
  return rings;
}

/** A GeoJSON geometry (`type` in any case) as the geo_shape query reads it. */
function fromGeoJson(o: Record<string, unknown>): GeoShape {
  const type = typeof o.type === 'string' ? o.type.toLowerCase() : undefined;
  if (type === undefined) throw parsing('shape type not included');
  const c = o.coordinates;
  switch (type) {
    case 'point':
      return { type: 'point', point: lonLat(c) };
    case 'multipoint':
      return { type: 'multipoint', points: pointList(c) };
    case 'linestring':
      return { type: 'linestring', points: pointList(c) };
    case 'multilinestring':
      if (!Array.isArray(c)) throw parsing('geo coordinates must be an array');
      return { type: 'multilinestring', lines: c.map(pointList) };
    case 'envelope': {
      const [tl, br] = pointList(c);
      if (!tl || !br) throw parsing('failed to parse envelope: expected two corners');
      return { type: 'envelope', top: tl.lat, left: tl.lon, bottom: br.lat, right: br.lon };
    }
    case 'polygon':
      return { type: 'polygon', rings: polygonRings(c) };
    case 'multipolygon':
      if (!Array.isArray(c)) throw parsing('geo coordinates must be an array');
      return { type: 'multipolygon', polygons: c.map(polygonRings) };
    case 'circle': {
      if (o.radius === undefined) throw new EsError(400, 'illegal_argument_exception', 'radius is not specified');
      return { type: 'circle', center: lonLat(c), radiusMeters: distanceOf(o.radius) };
    }
    case 'geometrycollection': {
      if (!Array.isArray(o.geometries)) throw parsing('geometries not included');
      return { type: 'geometrycollection', geometries: o.geometries.map((g) => parseGeoShape(g)) };
    }
    default:
      throw parsing(`unknown geometry type: ${String(o.type)}`);
  }
}

function distanceOf(v: unknown): number {
  try {
    return parseDistance(v);
  } catch {
    throw new EsError(400, 'illegal_argument_exception', `failed to parse distance [${String(v)}]`);
  }
}

const NUM = '[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';

function wktPoints(body: string): GeoPoint[] {
  return body.split(',').map((pair) => {
    const m = new RegExp(`^\\s*(${NUM})\\s+(${NUM})(?:\\s+${NUM})?\\s*$`).exec(pair.replace(/[()]/g, ''));
    if (!m) throw parsing(`failed to parse WKT coordinates [${pair.trim()}]`);
    return { lon: Number(m[1]), lat: Number(m[2]) };
  });
}

/** The parenthesised groups directly inside `s` (`((a), (b))` → `["(a)", "(b)"]` for the outer level). */
function groups(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') {
      if (depth === 0) start = i + 1;
      depth++;
    } else if (s[i] === ')') {
      depth--;
      if (depth === 0) out.push(s.slice(start, i));
    }
  }
  return out;
}

/** A WKT geometry: POINT, MULTIPOINT, LINESTRING, MULTILINESTRING, POLYGON, MULTIPOLYGON, BBOX/ENVELOPE, GEOMETRYCOLLECTION. */
function fromWkt(wkt: string): GeoShape {
  const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(wkt);
  if (!m) throw parsing(`failed to parse WKT [${wkt}]`);
  const type = m[1].toUpperCase();
  const body = m[2].trim();
  const inner = groups(body);
  switch (type) {
    case 'POINT':
      return { type: 'point', point: wktPoints(inner[0] ?? '')[0] };
    case 'MULTIPOINT':
      return { type: 'multipoint', points: wktPoints(inner[0] ?? '') };
    case 'LINESTRING':
      return { type: 'linestring', points: wktPoints(inner[0] ?? '') };
    case 'MULTILINESTRING':
      return { type: 'multilinestring', lines: groups(inner[0] ?? '').map(wktPoints) };
    case 'POLYGON':
      return { type: 'polygon', rings: groups(inner[0] ?? '').map(wktPoints) };
    case 'MULTIPOLYGON':
      return { type: 'multipolygon', polygons: groups(inner[0] ?? '').map((p) => groups(p).map(wktPoints)) };
    case 'BBOX':
    case 'ENVELOPE': {
      const n = (inner[0] ?? '').split(',').map((x) => Number(x.trim()));
      if (n.length !== 4 || n.some((x) => !Number.isFinite(x))) throw parsing(`failed to parse WKT [${wkt}]`);
      return { type: 'envelope', left: n[0], right: n[1], top: n[2], bottom: n[3] };
    }
    case 'GEOMETRYCOLLECTION':
      return { type: 'geometrycollection', geometries: splitTopLevel(inner[0] ?? '').map(fromWkt) };
    default:
      throw parsing(`unknown geometry type: ${m[1].toLowerCase()}`);
  }
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (s.slice(start).trim()) out.push(s.slice(start));
  return out;
}

export function parseGeoShape(v: unknown): GeoShape {
  if (typeof v === 'string') return fromWkt(v);
  if (isObject(v)) return fromGeoJson(v);
  throw parsing('shape must be an object consisting of type and coordinates');
}

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
  if (spec.indexed_shape !== undefined) throw new EsError(400, 'illegal_argument_exception', '[geo_shape] indexed_shape is not supported by the embedded engine; give the shape inline');
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

/** The points a shape is made of, when it is made of points only (what `contains` can hold for points). */
function shapePoints(shape: GeoShape): GeoPoint[] | undefined {
  if (shape.type === 'point') return [shape.point];
  if (shape.type === 'multipoint') return shape.points;
  if (shape.type === 'geometrycollection') {
    const all: GeoPoint[] = [];
    for (const g of shape.geometries) {
      const ps = shapePoints(g);
      if (!ps) return undefined;
      all.push(...ps);
    }
    return all;
  }
  return undefined;
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
