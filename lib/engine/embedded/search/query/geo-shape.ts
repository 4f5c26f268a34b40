/**
 * Shapes of the `geo_shape` query (GeoJSON and WKT, as Elasticsearch reads them) and of the
 * deprecated `geo_polygon` query, tested against `geo_point` and `geo_shape` fields: a document's
 * points or shapes relate to the query's shape as `intersects`, `disjoint`, `within` or `contains`
 * (mapping/geo-shape-relation.ts).
 */
import { EsError } from '../../../../errors/index.js';
import { parseGeoPoint } from '../../mapping/geo-point.js';
import { partsRelate, shapeParts, type ShapePart } from '../../mapping/geo-shape-relation.js';
import { parseGeoShape, parsing, type GeoShape } from '../../mapping/geo-shape.js';
import { boostOf, isObject } from './query-fields.js';

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

/** The query shape's parts, once per parsed query. */
const queryParts = new WeakMap<GeoShape, ShapePart[]>();
/** Parsed document shapes by their doc value, bounded: a search reads the same documents' shapes again. */
const docParts = new Map<string, ShapePart[]>();
const DOC_PARTS_MAX = 10_000;

function partsOfValue(json: string): ShapePart[] {
  let parts = docParts.get(json);
  if (!parts) {
    parts = shapeParts(JSON.parse(json) as GeoShape);
    if (docParts.size >= DOC_PARTS_MAX) docParts.clear();
    docParts.set(json, parts);
  }
  return parts;
}

/**
 * Does a document's field value relate to the shape as asked? Doc values are a geo_point field's
 * points (lat, lon pairs) or a geo_shape field's shapes (JSON, mapping/geo-shape.ts); the
 * relation is decided on the whole of them (geo-shape-relation.ts).
 */
export function pointsRelate(values: ArrayLike<unknown>, shape: GeoShape, relation: GeoRelation): boolean {
  if (values.length === 0) return false;
  let q = queryParts.get(shape);
  if (!q) queryParts.set(shape, (q = shapeParts(shape)));
  const d: ShapePart[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'string') d.push(...partsOfValue(v));
    else if (typeof v === 'number' && i + 1 < values.length) d.push({ kind: 'point', p: { lat: v, lon: values[++i] as number } });
  }
  return partsRelate(d, q, relation);
}
