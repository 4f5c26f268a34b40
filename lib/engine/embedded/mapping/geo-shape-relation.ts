/**
 * How two geo shapes relate, as Elasticsearch's `geo_shape` query decides it for a document's
 * shape D and the query's shape Q: `intersects` (D and Q share a point), `disjoint` (they share
 * none), `within` (every point of D is in Q) and `contains` (every point of Q is in D).
 * Boundaries belong to their shapes; polygon holes do not. Geometry is planar in lon/lat, as
 * Elasticsearch's Cartesian tessellation of geo shapes; envelopes crossing the dateline
 * (left > right) are split in two; a circle is exact against points and a 64-gon otherwise.
 */
import type { GeoPoint } from '../search/query/query.js';
import { arcDistance } from './geo-point.js';
import type { GeoShape } from './geo-shape.js';

export type GeoRelation = 'intersects' | 'disjoint' | 'within' | 'contains';

/** A shape is a union of parts: points, polylines, areas (an outer ring and its holes). */
export type ShapePart = Part;
type Part =
  | { kind: 'point'; p: GeoPoint }
  | { kind: 'line'; pts: GeoPoint[] }
  | { kind: 'area'; rings: GeoPoint[][]; circle?: { center: GeoPoint; radiusMeters: number } };

const EPS = 1e-9;
const CIRCLE_SIDES = 64;
const EARTH_MEAN_RADIUS = 6371008.7714;

export function shapeParts(shape: GeoShape, out: Part[] = []): Part[] {
  switch (shape.type) {
    case 'point':
      out.push({ kind: 'point', p: shape.point });
      break;
    case 'multipoint':
      for (const p of shape.points) out.push({ kind: 'point', p });
      break;
    case 'linestring':
      out.push({ kind: 'line', pts: shape.points });
      break;
    case 'multilinestring':
      for (const pts of shape.lines) out.push({ kind: 'line', pts });
      break;
    case 'envelope': {
      const { top, bottom, left, right } = shape;
      const box = (l: number, r: number): Part => ({ kind: 'area', rings: [[{ lat: top, lon: l }, { lat: top, lon: r }, { lat: bottom, lon: r }, { lat: bottom, lon: l }]] });
      if (left <= right) out.push(box(left, right));
      else out.push(box(left, 180), box(-180, right));
      break;
    }
    case 'polygon':
      out.push({ kind: 'area', rings: shape.rings.map(openRing) });
      break;
    case 'multipolygon':
      for (const rings of shape.polygons) out.push({ kind: 'area', rings: rings.map(openRing) });
      break;
    case 'circle':
      out.push({ kind: 'area', rings: [circleRing(shape.center, shape.radiusMeters)], circle: { center: shape.center, radiusMeters: shape.radiusMeters } });
      break;
    case 'geometrycollection':
      for (const g of shape.geometries) shapeParts(g, out);
      break;
  }
  return out;
}

/** Does the union of parts `d` relate to the union `q` as asked? */
export function partsRelate(d: readonly Part[], q: readonly Part[], relation: GeoRelation): boolean {
  if (d.length === 0 || q.length === 0) return false;
  switch (relation) {
    case 'intersects':
      return d.some((a) => q.some((b) => partsIntersect(a, b)));
    case 'disjoint':
      return !d.some((a) => q.some((b) => partsIntersect(a, b)));
    case 'within':
      return d.every((a) => partWithin(a, q));
    case 'contains':
      return q.every((b) => partWithin(b, d));
  }
}

export function shapesRelate(d: GeoShape, q: GeoShape, relation: GeoRelation): boolean {
  return partsRelate(shapeParts(d), shapeParts(q), relation);
}

/** A ring without its closing point (the first point repeated). */
function openRing(ring: GeoPoint[]): GeoPoint[] {
  const n = ring.length;
  return n > 1 && samePoint(ring[0], ring[n - 1]) ? ring.slice(0, n - 1) : ring;
}

function circleRing(center: GeoPoint, radiusMeters: number): GeoPoint[] {
  const toRad = Math.PI / 180;
  const lat1 = center.lat * toRad;
  const lon1 = center.lon * toRad;
  const d = radiusMeters / EARTH_MEAN_RADIUS;
  const ring: GeoPoint[] = [];
  for (let i = 0; i < CIRCLE_SIDES; i++) {
    const bearing = (2 * Math.PI * i) / CIRCLE_SIDES;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
    const lon2 = lon1 + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    ring.push({ lat: lat2 / toRad, lon: lon2 / toRad });
  }
  return ring;
}

function samePoint(a: GeoPoint, b: GeoPoint): boolean {
  return Math.abs(a.lat - b.lat) < EPS && Math.abs(a.lon - b.lon) < EPS;
}

function cross(o: GeoPoint, a: GeoPoint, b: GeoPoint): number {
  return (a.lon - o.lon) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lon - o.lon);
}

function onSegment(p: GeoPoint, a: GeoPoint, b: GeoPoint): boolean {
  if (Math.abs(cross(a, b, p)) > EPS) return false;
  return p.lon >= Math.min(a.lon, b.lon) - EPS && p.lon <= Math.max(a.lon, b.lon) + EPS && p.lat >= Math.min(a.lat, b.lat) - EPS && p.lat <= Math.max(a.lat, b.lat) + EPS;
}

function sign(v: number): number {
  return v > EPS ? 1 : v < -EPS ? -1 : 0;
}

/** Do the closed segments ab and cd share a point? */
function segmentsIntersect(a: GeoPoint, b: GeoPoint, c: GeoPoint, d: GeoPoint): boolean {
  const d1 = sign(cross(c, d, a));
  const d2 = sign(cross(c, d, b));
  const d3 = sign(cross(a, b, c));
  const d4 = sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && onSegment(a, c, d)) || (d2 === 0 && onSegment(b, c, d)) || (d3 === 0 && onSegment(c, a, b)) || (d4 === 0 && onSegment(d, a, b));
}

function onRingBoundary(p: GeoPoint, ring: GeoPoint[]): boolean {
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) if (onSegment(p, ring[j], ring[i])) return true;
  return false;
}

/** Strictly inside the ring (even-odd rule). */
function insideRing(p: GeoPoint, ring: GeoPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i];
    const b = ring[j];
    if (a.lat > p.lat !== b.lat > p.lat && p.lon < ((b.lon - a.lon) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
  }
  return inside;
}

/** In the area, its boundary (holes' boundaries too) included. */
function inArea(p: GeoPoint, part: Extract<Part, { kind: 'area' }>): boolean {
  if (part.circle) return arcDistance(p.lat, p.lon, part.circle.center.lat, part.circle.center.lon) <= part.circle.radiusMeters;
  const [outer, ...holes] = part.rings;
  if (!onRingBoundary(p, outer) && !insideRing(p, outer)) return false;
  return !holes.some((h) => insideRing(p, h) && !onRingBoundary(p, h));
}

/** Strictly inside the area (not on any of its boundaries). */
function inAreaInterior(p: GeoPoint, part: Extract<Part, { kind: 'area' }>): boolean {
  return inArea(p, part) && !part.rings.some((r) => onRingBoundary(p, r));
}

function inPart(p: GeoPoint, part: Part): boolean {
  switch (part.kind) {
    case 'point':
      return samePoint(p, part.p);
    case 'line':
      if (part.pts.length === 1) return samePoint(p, part.pts[0]);
      for (let i = 1; i < part.pts.length; i++) if (onSegment(p, part.pts[i - 1], part.pts[i])) return true;
      return false;
    case 'area':
      return inArea(p, part);
  }
}

function vertices(part: Part): GeoPoint[] {
  return part.kind === 'point' ? [part.p] : part.kind === 'line' ? part.pts : part.rings.flat();
}

/** The segments of a part: a polyline's, every ring's (closed). */
function segments(part: Part): Array<[GeoPoint, GeoPoint]> {
  const out: Array<[GeoPoint, GeoPoint]> = [];
  if (part.kind === 'line') for (let i = 1; i < part.pts.length; i++) out.push([part.pts[i - 1], part.pts[i]]);
  else if (part.kind === 'area') for (const r of part.rings) for (let i = 0, j = r.length - 1; i < r.length; j = i++) out.push([r[j], r[i]]);
  return out;
}

function partsIntersect(a: Part, b: Part): boolean {
  if (a.kind === 'point') return inPart(a.p, b);
  if (b.kind === 'point') return inPart(b.p, a);
  const sb = segments(b);
  for (const [p, q] of segments(a)) for (const [r, s] of sb) if (segmentsIntersect(p, q, r, s)) return true;
  if (b.kind === 'area' && vertices(a).some((p) => inArea(p, b))) return true;
  if (a.kind === 'area' && vertices(b).some((p) => inArea(p, a))) return true;
  return false;
}

/** The parameters t in [0, 1] where segment pq meets segment rs (both ends of an overlap). */
function meetings(p: GeoPoint, q: GeoPoint, r: GeoPoint, s: GeoPoint, out: number[]): void {
  const dx = q.lon - p.lon;
  const dy = q.lat - p.lat;
  const ex = s.lon - r.lon;
  const ey = s.lat - r.lat;
  const den = dx * ey - dy * ex;
  const len2 = dx * dx + dy * dy;
  if (Math.abs(den) > EPS * EPS) {
    const t = ((r.lon - p.lon) * ey - (r.lat - p.lat) * ex) / den;
    const u = ((r.lon - p.lon) * dy - (r.lat - p.lat) * dx) / den;
    if (t > 0 && t < 1 && u >= -EPS && u <= 1 + EPS) out.push(t);
    return;
  }
  if (len2 === 0) return;
  for (const e of [r, s]) {
    if (!onSegment(e, p, q)) continue;
    const t = ((e.lon - p.lon) * dx + (e.lat - p.lat) * dy) / len2;
    if (t > 0 && t < 1) out.push(t);
  }
}

/** Is the segment pq in the union `shape`: its ends, and the middle of each piece between the places it meets the shape's boundaries? */
function segmentWithin(p: GeoPoint, q: GeoPoint, shape: readonly Part[], edges: Array<[GeoPoint, GeoPoint]>): boolean {
  const ts = [0, 1];
  for (const [r, s] of edges) meetings(p, q, r, s, ts);
  ts.sort((x, y) => x - y);
  const inShape = (pt: GeoPoint) => shape.some((b) => inPart(pt, b));
  if (!inShape(p) || !inShape(q)) return false;
  for (let i = 1; i < ts.length; i++) {
    if (ts[i] - ts[i - 1] < EPS) continue;
    const t = (ts[i] + ts[i - 1]) / 2;
    if (!inShape({ lon: p.lon + (q.lon - p.lon) * t, lat: p.lat + (q.lat - p.lat) * t })) return false;
  }
  return true;
}

/** Is the part `a` in the union of parts `shape`? */
function partWithin(a: Part, shape: readonly Part[]): boolean {
  if (a.kind === 'point') return shape.some((b) => inPart(a.p, b));
  if (a.kind === 'area' && !shape.some((b) => b.kind === 'area')) return false;
  const edges = shape.flatMap(segments);
  if (a.kind === 'line' && a.pts.length === 1) return shape.some((b) => inPart(a.pts[0], b));
  for (const [p, q] of segments(a)) if (!segmentWithin(p, q, shape, edges)) return false;
  if (a.kind === 'area') {
    // A hole of the shape lying inside `a` leaves part of `a` outside the shape although no edge of `a` leaves it.
    for (const b of shape) {
      if (b.kind !== 'area') continue;
      for (const hole of b.rings.slice(1)) if (hole.some((v) => inAreaInterior(v, a))) return false;
    }
  }
  return true;
}
