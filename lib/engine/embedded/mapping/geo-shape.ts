/**
 * Geo shapes as Elasticsearch reads them (GeoJSON, in any case of `type`, and WKT): what the
 * `geo_shape` query is given and what a `geo_shape` field holds (each shape as a doc value).
 */
import { EsError } from '../../../errors/index.js';
import type { GeoPoint } from '../search/query/query.js';
import { parseDistance } from './geo-point.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

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

/** ES's parsing_exception for a malformed shape or geo query. */
export function parsing(reason: string): EsError {
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

/** The points a shape is made of, when it is made of points only. */
export function shapePoints(shape: GeoShape): GeoPoint[] | undefined {
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

/**
 * A `geo_shape` field's value as the index holds it: each shape as a doc value (its parsed form,
 * JSON), which the geo_shape query relates to its own shape (geo-shape-relation.ts). Throws on a
 * malformed shape.
 */
export function geoShapeField(value: unknown): { type: string; terms: string[]; positions: number[]; values: string[] } {
  const shapes = Array.isArray(value) && !(value.length >= 2 && typeof value[0] === 'number') ? value.map(parseGeoShape) : [parseGeoShape(value)];
  return { type: 'geo_shape', terms: [], positions: [], values: shapes.map((s) => JSON.stringify(s)) };
}
