/**
 * The geo query types over geo_point fields: geo_distance (points within a distance of a center),
 * geo_bounding_box (points in a box) and geo_shape (points related to a shape; geo_polygon is its
 * polygon with `intersects`). Each one object with every pass over the query tree (query-type.ts);
 * all are decided from a document's points alone, with a constant score.
 */
import { arcDistance, inBoundingBox, parseDistance, parseGeoPoint } from '../../mapping/geo-point.js';
import { ScoredDocs } from './doc-set.js';
import { byDocValues } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { clauseless } from './clauseless.js';
import { geoShapeApplies } from './field-features.js';
import { parseGeoPolygonQuery, parseGeoShapeQuery, pointsRelate } from './geo-shape.js';
import { geoField, illegal, isObject, parsingError } from './parse-query.js';
import { booleanValue, boostOf } from './query-fields.js';
import type { QueryOf, QueryType } from './query-type.js';

/** What every geo type answers the same: no children, nothing to rewrite or highlight, decided by the document alone. */
const geoLeaf = <T extends 'geo_distance' | 'geo_bounding_box' | 'geo_shape'>(name: T) => ({
  name,
  ...clauseless<T>(),
  explain: explainByScore,
  print: () => name,
  scope: () => 'document' as const,
});

export const geoDistance: QueryType<'geo_distance'> = {
  ...geoLeaf('geo_distance'),
  parse(body) {
    const name = 'geo_distance';
    if (!isObject(body)) throw parsingError('[geo_distance] query malformed');
    const [field, point] = geoField(name, body, ['distance', 'distance_type', 'validation_method', 'ignore_unmapped', 'boost', '_name']);
    if (body.distance === undefined) throw illegal('geo_distance requires \'distance\' to be specified');
    const center = parseGeoPoint(point);
    if (!center) throw parsingError(`[geo_distance] failed to parse point for field [${field}]`);
    return {
      type: 'geo_distance', field, center, distanceMeters: parseDistance(body.distance),
      ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf(name, body.boost),
    };
  },
  *execute(q, x, scoring) {
    return yield* byDocValues(q.field, x, scoring ? q.boost : 0, (vs) => {
      for (let i = 0; i + 1 < vs.length; i += 2) if (arcDistance(vs[i] as number, vs[i + 1] as number, q.center.lat, q.center.lon) <= q.distanceMeters) return true;
      return false;
    });
  },
  matches(q, e) {
    const vs = e.fields.get(q.field)?.values ?? [];
    for (let i = 0; i + 1 < vs.length; i += 2) if (arcDistance(vs[i] as number, vs[i + 1] as number, q.center.lat, q.center.lon) <= q.distanceMeters) return true;
    return false;
  },
};

export const geoBoundingBox: QueryType<'geo_bounding_box'> = {
  ...geoLeaf('geo_bounding_box'),
  parse(body) {
    const name = 'geo_bounding_box';
    if (!isObject(body)) throw parsingError('[geo_bbox] query malformed');
    const [field, box] = geoField(name, body, ['validation_method', 'type', 'ignore_unmapped', 'boost', '_name']);
    if (!isObject(box)) throw parsingError('[geo_bbox] failed to parse bounding box');
    let top: number | undefined, left: number | undefined, bottom: number | undefined, right: number | undefined;
    const tl = box.top_left !== undefined ? parseGeoPoint(box.top_left) : undefined;
    const br = box.bottom_right !== undefined ? parseGeoPoint(box.bottom_right) : undefined;
    const tr = box.top_right !== undefined ? parseGeoPoint(box.top_right) : undefined;
    const bl = box.bottom_left !== undefined ? parseGeoPoint(box.bottom_left) : undefined;
    if (tl) [top, left] = [tl.lat, tl.lon];
    if (br) [bottom, right] = [br.lat, br.lon];
    if (tr) [top, right] = [tr.lat, tr.lon];
    if (bl) [bottom, left] = [bl.lat, bl.lon];
    if (typeof box.wkt === 'string') {
      const m = /^\s*BBOX\s*\(\s*([-\d.eE]+)\s*,\s*([-\d.eE]+)\s*,\s*([-\d.eE]+)\s*,\s*([-\d.eE]+)\s*\)\s*$/i.exec(box.wkt);
      if (m) [left, right, top, bottom] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
    }
    if (box.top !== undefined) top = Number(box.top);
    if (box.left !== undefined) left = Number(box.left);
    if (box.bottom !== undefined) bottom = Number(box.bottom);
    if (box.right !== undefined) right = Number(box.right);
    if (top === undefined || left === undefined || bottom === undefined || right === undefined) throw parsingError('failed to parse bounding box. Missing corners');
    return { type: 'geo_bounding_box', field, top, left, bottom, right, ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf(name, body.boost) };
  },
  *execute(q, x, scoring) {
    return yield* byDocValues(q.field, x, scoring ? q.boost : 0, (vs) => {
      for (let i = 0; i + 1 < vs.length; i += 2) if (inBoundingBox(vs[i] as number, vs[i + 1] as number, q.top, q.left, q.bottom, q.right)) return true;
      return false;
    });
  },
  matches(q, e) {
    const vs = e.fields.get(q.field)?.values ?? [];
    for (let i = 0; i + 1 < vs.length; i += 2) if (inBoundingBox(vs[i] as number, vs[i + 1] as number, q.top, q.left, q.bottom, q.right)) return true;
    return false;
  },
};

export const geoShape: QueryType<'geo_shape'> = {
  ...geoLeaf('geo_shape'),
  parsedFrom: ['geo_shape', 'geo_polygon', 'xy_shape'],
  parse(body, name) {
    if (name === 'geo_polygon') return { type: 'geo_shape', ...parseGeoPolygonQuery(body), relation: 'intersects', query: 'geo_polygon' };
    if (name === 'xy_shape') return { type: 'geo_shape', ...parseGeoShapeQuery(body), query: 'xy_shape' };
    return { type: 'geo_shape', ...parseGeoShapeQuery(body), query: 'geo_shape' };
  },
  /**
   * The documents whose points relate to the shape, a constant score: the boost, or 0 as OpenSearch 2
   * scores its geo_shape and xy_shape queries (its documented answers: `_score: 0`, `max_score: 0`).
   */
  *execute(q, x, scoring) {
    if (!geoShapeApplies(q, x.mappings)) return ScoredDocs.empty();
    const score = scoring && q.query !== 'xy_shape' && !(x.openSearch && q.query === 'geo_shape') ? q.boost : 0;
    return yield* byDocValues(q.field, x, score, (vs) => pointsRelate(vs, q.shape, q.relation));
  },
  matches: (q, e) => geoShapeApplies(q, e.mappings) && pointsRelate(e.fields.get(q.field)?.values ?? [], q.shape, q.relation),
};
