/**
 * The grid aggregations over geo_point fields: `geotile_grid` (the map tiles of a zoom level,
 * keyed `zoom/x/y`, GeoTileUtils) and `geohash_grid` (the geohash cells of a length). A document
 * counts once in each cell one of its points falls in; points are read at doc-value precision.
 * Buckets come by doc_count, descending, ties by the cell's long hash descending (as
 * InternalGeoGrid's BucketPriorityQueue pops them), at most `size`.
 */
import { EsError } from '../../../../errors/index.js';
import { encodeGeohash, quantizeLat, quantizeLon } from '../../mapping/geo-point.js';
import { withSubs } from './aggregations.js';
import { checkField, geoPoints } from './geo.js';
import { docCount, emptyDocSet } from './source.js';
import type { AggregationType, DocSet } from './types.js';
import { unknownField } from './unknown-field.js';

interface GridParams {
  field: string;
  precision: number;
  size: number;
}

interface Grid {
  name: 'geotile_grid' | 'geohash_grid';
  defaultPrecision: number;
  checkPrecision(precision: number): void;
  /** The cell of a point: its key and the hash buckets are ordered by among equal counts. */
  cell(lat: number, lon: number, precision: number): { key: string; hash: bigint };
}

const MAX_ZOOM = 29;

/** GeoTileUtils.getXTile / getYTile: Web Mercator tiles, edge values clipped into the grid. */
function tileOf(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const tiles = 2 ** zoom;
  const clip = (t: number) => (t < 0 ? 0 : t >= tiles ? tiles - 1 : t);
  const x = clip(Math.floor(((lon + 180) / 360) * tiles));
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = clip(Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * tiles));
  return { x, y };
}

const geotile: Grid = {
  name: 'geotile_grid',
  defaultPrecision: 7,
  checkPrecision(p) {
    if (p < 0 || p > MAX_ZOOM) throw new EsError(400, 'illegal_argument_exception', `Invalid geotile_grid precision of ${p}. Must be between 0 and ${MAX_ZOOM}.`);
  },
  cell(lat, lon, zoom) {
    const { x, y } = tileOf(lat, lon, zoom);
    return { key: `${zoom}/${x}/${y}`, hash: (BigInt(zoom) << 58n) | (BigInt(x) << 29n) | BigInt(y) };
  },
};

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

const geohash: Grid = {
  name: 'geohash_grid',
  defaultPrecision: 5,
  checkPrecision(p) {
    if (p < 1 || p > 12) throw new EsError(400, 'illegal_argument_exception', `Invalid geohash aggregation precision of ${p}. Must be between 1 and 12.`);
  },
  cell(lat, lon, precision) {
    const key = encodeGeohash(lat, lon, precision);
    let bits = 0n;
    for (const c of key) bits = (bits << 5n) | BigInt(BASE32.indexOf(c));
    return { key, hash: (bits << 4n) | BigInt(precision) };
  },
};

function integerParam(grid: Grid, key: string, v: unknown): number {
  const n = typeof v === 'string' && /^[+-]?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${grid.name}] failed to parse field [${key}]`);
  return n;
}

function gridAggregation(grid: Grid): AggregationType<GridParams> {
  return {
    kind: 'bucket',
    parse(name, body) {
      const known = ['field', 'precision', 'size', 'shard_size', 'bounds'];
      for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField(grid.name, k, known);
      if (body.bounds !== undefined) throw new EsError(400, 'illegal_argument_exception', `[bounds] in [${grid.name}] aggregations is not supported by the embedded engine`);
      const field = checkField(grid.name, name, body);
      const precision = body.precision === undefined ? grid.defaultPrecision : integerParam(grid, 'precision', body.precision);
      grid.checkPrecision(precision);
      const size = body.size === undefined ? 10_000 : integerParam(grid, 'size', body.size);
      if (size <= 0) throw new EsError(400, 'illegal_argument_exception', `[size] must be greater than 0. Found [${size}] in [${name}]`);
      if (body.shard_size !== undefined) {
        const shardSize = integerParam(grid, 'shard_size', body.shard_size);
        if (shardSize <= 0) throw new EsError(400, 'illegal_argument_exception', `[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
      }
      return { field, precision, size };
    },
    run(node, docs, ctx) {
      const p = node.params;
      const points = geoPoints(docs, p.field, grid.name);
      const cells = new Map<string, { hash: bigint; set: DocSet }>();
      docs.forEach((seg, si) => {
        const pointsOf = points[si];
        if (!pointsOf) return;
        for (const ord of seg.ords) {
          const vs = pointsOf(ord);
          if (!vs) continue;
          const seen = new Set<string>();
          for (let i = 0; i + 1 < vs.length; i += 2) {
            const { key, hash } = grid.cell(quantizeLat(vs[i] as number), quantizeLon(vs[i + 1] as number), p.precision);
            if (seen.has(key)) continue;
            seen.add(key);
            let c = cells.get(key);
            if (!c) cells.set(key, (c = { hash, set: emptyDocSet(docs) }));
            c.set[si].ords.push(ord);
          }
        }
      });
      const counted = [...cells].map(([key, c]) => ({ key, hash: c.hash, set: c.set, count: docCount(c.set) }));
      counted.sort((a, b) => b.count - a.count || (b.hash > a.hash ? 1 : b.hash < a.hash ? -1 : 0));
      const buckets = counted.slice(0, p.size).map((c) => withSubs({ key: c.key, doc_count: c.count }, node.subs, c.set, ctx));
      return { typed: grid.name, body: { buckets } };
    },
  };
}

export const geotileGrid = gridAggregation(geotile);
export const geohashGrid = gridAggregation(geohash);
