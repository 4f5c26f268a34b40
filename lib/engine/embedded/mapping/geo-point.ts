import type { GeoPoint } from '../search/query/query.js';

/** Earth's mean radius in meters, as Elasticsearch's GeoUtils.EARTH_MEAN_RADIUS. */
const EARTH_MEAN_RADIUS = 6371008.7714;
const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

/** The centre of a geohash's cell; undefined for a text that is not a geohash. */
export function decodeGeohash(hash: string): GeoPoint | undefined {
  let latMin = -90, latMax = 90, lonMin = -180, lonMax = 180;
  let even = true;
  for (const ch of hash.toLowerCase()) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return undefined;
    for (let bit = 4; bit >= 0; bit--) {
      const on = (v >> bit) & 1;
      if (even) {
        const mid = (lonMin + lonMax) / 2;
        if (on) lonMin = mid;
        else lonMax = mid;
      } else {
        const mid = (latMin + latMax) / 2;
        if (on) latMin = mid;
        else latMax = mid;
      }
      even = !even;
    }
  }
  return { lat: (latMin + latMax) / 2, lon: (lonMin + lonMax) / 2 };
}

/** The geohash of a point at a length (Geohash.stringEncode): longitude and latitude bits interleaved, five a character. */
export function encodeGeohash(lat: number, lon: number, precision: number): string {
  let latMin = -90, latMax = 90, lonMin = -180, lonMax = 180;
  let even = true;
  let out = '';
  let ch = 0;
  let bits = 0;
  while (out.length < precision) {
    let on: boolean;
    if (even) {
      const mid = (lonMin + lonMax) / 2;
      on = lon >= mid;
      if (on) lonMin = mid;
      else lonMax = mid;
    } else {
      const mid = (latMin + latMax) / 2;
      on = lat >= mid;
      if (on) latMin = mid;
      else latMax = mid;
    }
    ch = (ch << 1) | (on ? 1 : 0);
    even = !even;
    if (++bits === 5) {
      out += BASE32[ch];
      ch = 0;
      bits = 0;
    }
  }
  return out;
}

function finite(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The forms a geo_point and an xy_point share, read as [horizontal, vertical] (lon/x first): an
 * array `[h, v]` (or `[h, v, z]`), an object with the two `names` (vertical first, as
 * `{lat, lon}`), a GeoJSON Point (`geoJsonType` tells its type), WKT `POINT (h v)`. `text` reads any
 * other string. Undefined when the value is not a point.
 */
function readPoint(
  v: unknown,
  names: readonly [vertical: string, horizontal: string],
  geoJsonType: (type: unknown) => boolean,
  text: (s: string) => [number, number] | undefined,
): [number, number] | undefined {
  if (Array.isArray(v)) {
    if (v.length < 2 || v.length > 3) return undefined;
    return pair(v[0], v[1]);
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (geoJsonType(o.type) && Array.isArray(o.coordinates)) return readPoint(o.coordinates, names, geoJsonType, text);
    return pair(o[names[1]], o[names[0]]);
  }
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  const wkt = /^POINT\s*\(\s*([-+\d.eE]+)\s+([-+\d.eE]+)\s*\)$/i.exec(s);
  return wkt ? [Number(wkt[1]), Number(wkt[2])] : text(s);
}

/** Two finite numbers (or numeric strings), or undefined. */
function pair(h: unknown, v: unknown): [number, number] | undefined {
  const x = finite(h);
  const y = finite(v);
  return x === undefined || y === undefined ? undefined : [x, y];
}

/**
 * One geo point in any of ES's forms: `{lat, lon}`, `"lat,lon"`, `[lon, lat]`, a geohash string,
 * `"POINT (lon lat)"`, a GeoJSON Point. Undefined when the value is not a point.
 */
export function parseGeoPoint(v: unknown): GeoPoint | undefined {
  const p = readPoint(v, ['lat', 'lon'], (type) => type === 'Point', (s) => {
    if (!s.includes(',')) {
      const hashed = decodeGeohash(s);
      return hashed && [hashed.lon, hashed.lat];
    }
    const [lat, lon] = s.split(',');
    return pair(lon, lat);
  });
  return p && { lon: p[0], lat: p[1] };
}

/** Is this value one point (as opposed to an array of points)? `[lon, lat]` is one point. */
export function isSingleGeoPoint(v: unknown): boolean {
  return Array.isArray(v) && v.length >= 2 && v.length <= 3 && v.every((x) => typeof x === 'number');
}

const UNITS: Record<string, number> = {
  mi: 1609.344, miles: 1609.344, yd: 0.9144, yards: 0.9144, ft: 0.3048, feet: 0.3048, in: 0.0254, inch: 0.0254,
  km: 1000, kilometers: 1000, m: 1, meters: 1, cm: 0.01, centimeters: 0.01, mm: 0.001, millimeters: 0.001,
  nmi: 1852, NM: 1852, nauticalmiles: 1852,
};

/** A distance (`"12km"`, `"200m"`, `1000` meters) in meters. */
export function parseDistance(v: unknown): number {
  if (typeof v === 'number') return v;
  const m = /^\s*([-+\d.eE]+)\s*([a-zA-Z]*)\s*$/.exec(String(v));
  const unit = m ? UNITS[m[2] || 'm'] : undefined;
  if (!m || unit === undefined || !Number.isFinite(Number(m[1]))) throw new Error(`failed to parse distance [${String(v)}]`);
  return Number(m[1]) * unit;
}

/** Arc distance in meters (haversine on ES's mean earth radius). */
export function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Inside the box? Boxes crossing the dateline (left > right) wrap. */
export function inBoundingBox(lat: number, lon: number, top: number, left: number, bottom: number, right: number): boolean {
  if (lat > top || lat < bottom) return false;
  return left <= right ? lon >= left && lon <= right : lon >= left || lon <= right;
}

/** The doc values of a geo_point field: [lat, lon] pairs, flattened. */
export function geoPointValues(value: unknown): number[] | undefined {
  const points = isSingleGeoPoint(value) || !Array.isArray(value) ? [value] : value;
  const out: number[] = [];
  for (const p of points) {
    if (p === null || p === undefined) continue;
    const g = parseGeoPoint(p);
    if (!g) return undefined;
    out.push(g.lat, g.lon);
  }
  return out;
}

/** A geo_point field's value → the field to index (geohash-free: doc values only), or an ES 400. */
export function geoPointField(value: unknown, fullPath: string, id: string, ignoreMalformed: boolean): { type: string; terms: string[]; positions: number[]; values: number[] } | undefined {
  const values = geoPointValues(value);
  if (!values || values.some((v, i) => (i % 2 === 0 ? Math.abs(v) > 90 : Math.abs(v) > 180))) {
    if (ignoreMalformed) return undefined;
    throw Object.assign(new Error(`failed to parse field [${fullPath}] of type [geo_point] in document with id '${id}'`), { geo: true });
  }
  return { type: 'geo_point', terms: [], positions: [], values };
}

/** Lucene's GeoEncodingUtils: latitudes and longitudes as the 32-bit grid doc values keep. */
const LAT_DECODE = 1 / (2 ** 32 / 180);
const LON_DECODE = 1 / (2 ** 32 / 360);

/** A latitude as read back from doc values (Lucene's encodeLatitude then decodeLatitude). */
export function quantizeLat(lat: number): number {
  const v = lat === 90 ? 90 - Number.EPSILON * 64 : lat;
  return Math.floor(v / LAT_DECODE) * LAT_DECODE;
}

/** A longitude as read back from doc values. */
export function quantizeLon(lon: number): number {
  const v = lon === 180 ? 180 - Number.EPSILON * 128 : lon;
  return Math.floor(v / LON_DECODE) * LON_DECODE;
}

/** One OpenSearch xy_point: `{x, y}`, `[x, y]`, `"x, y"`, WKT `POINT (x y)` or a GeoJSON Point; unbounded, unlike a geo_point. */
function parseXyPoint(v: unknown): { x: number; y: number } | undefined {
  const p = readPoint(v, ['y', 'x'], (type) => typeof type === 'string' && type.toLowerCase() === 'point', (s) => {
    const parts = s.split(',');
    return parts.length === 2 ? pair(parts[0], parts[1]) : undefined;
  });
  return p && { x: p[0], y: p[1] };
}

/**
 * An xy_point field's value (one point or a list) as doc values laid out as a geo_point's —
 * y where the latitude is, x where the longitude is — so the shape relations read both alike.
 */
export function xyPointValues(value: unknown): number[] | undefined {
  const single = Array.isArray(value) && value.length >= 2 && value.length <= 3 && value.every((c) => typeof c === 'number');
  const points = single || !Array.isArray(value) ? [value] : value;
  const out: number[] = [];
  for (const p of points) {
    if (p === null || p === undefined) continue;
    const xy = parseXyPoint(p);
    if (!xy) return undefined;
    out.push(xy.y, xy.x);
  }
  return out;
}
