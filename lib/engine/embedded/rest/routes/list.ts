import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { numberOfReplicas, numberOfShards, shardCopies } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { catIndexTargets, catIndicesOf } from './cat.js';
import { catShardsOf, shardTargets } from './cat-shards.js';

/**
 * OpenSearch 2.18's `_list` APIs: `_cat/indices` and `_cat/shards` in pages. Indices are paged in
 * the order of their creation (`sort=asc`, or `desc`: newest first), ties by name; the answer
 * carries the `next_token` that names where the next page starts (the last index of this one,
 * and for shards its last shard), `null` on the last page. A token only says where to start: what
 * a page lists is still the indices the request's expression resolves to.
 */

const LISTING = ['=^.^=', '/_list/indices', '/_list/indices/{index}', '/_list/shards', '/_list/shards/{index}'].map((l) => `${l}\n`).join('');

const TAINTED = 'Parameter [next_token] has been tainted and is incorrect. Please provide a valid [next_token].';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface PageParams {
  size: number;
  desc: boolean;
  /** The token's parts, decoded and checked. */
  after?: string[];
}

/** `size`, `sort` and `next_token`, checked as RestIndicesListAction and RestShardsListAction check them. */
function pageParams(req: RestRequest, fallback: number, min: number, max: number, parts: number): PageParams {
  const raw = req.params.get('size');
  if (raw !== null && !/^[+-]?\d+$/.test(raw)) throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [size] with value [${raw}]`);
  const size = raw === null ? fallback : Number(raw);
  if (size <= 0) throw new EsError(400, 'illegal_argument_exception', 'size must be greater than zero');
  if (size < min) throw new EsError(400, 'illegal_argument_exception', `size should at least be [${min}]`);
  if (size > max) throw new EsError(400, 'illegal_argument_exception', `size should be less than [${max}]`);
  const sort = req.params.get('sort') ?? 'asc';
  if (sort !== 'asc' && sort !== 'desc') throw new EsError(400, 'illegal_argument_exception', 'value of sort can either be asc or desc');
  const token = req.params.get('next_token');
  if (token === null) return { size, desc: sort === 'desc' };
  const decoded = BASE64.test(token) ? Buffer.from(token, 'base64').toString('utf8').split('|') : [];
  const numbers = decoded.slice(0, parts - 1);
  if (decoded.length !== parts || !decoded[parts - 1] || numbers.some((n) => !/^\d+$/.test(n))) throw new EsError(400, 'parse_exception', TAINTED);
  return { size, desc: sort === 'desc', after: decoded };
}

const token = (...parts: Array<string | number>): string => Buffer.from(parts.join('|'), 'utf8').toString('base64');

/** The indices in page order: by creation time, then name (reversed for `desc`). */
function inPageOrder(handles: IndexHandle[], desc: boolean): IndexHandle[] {
  const sorted = [...handles].sort((a, b) => a.meta.creationDate - b.meta.creationDate || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return desc ? sorted.reverse() : sorted;
}

/** Whether `h` comes after the position (creation time, name) in the page order. */
function isAfter(h: IndexHandle, time: number, name: string, desc: boolean): boolean {
  const cmp = h.meta.creationDate - time || (h.name < name ? -1 : h.name > name ? 1 : 0);
  return desc ? cmp < 0 : cmp > 0;
}

function listIndices(req: RestRequest, ctx: EngineContext): RestResponse {
  const page = pageParams(req, 500, 1, 5000, 2);
  let ordered = inPageOrder(catIndexTargets(req, ctx), page.desc);
  if (page.after) {
    const [time, name] = page.after;
    ordered = ordered.filter((h) => isAfter(h, Number(time), name, page.desc));
  }
  const shown = ordered.slice(0, page.size);
  const last = shown[shown.length - 1];
  const nextToken = ordered.length > page.size ? token(last.meta.creationDate, last.name) : null;
  // OpenSearch's own API: its columns in every dialect
  return catIndicesOf(req, true, shown, { key: 'indices', nextToken });
}

function listShards(req: RestRequest, ctx: EngineContext): RestResponse {
  const page = pageParams(req, 2000, 2000, 20000, 3);
  let ordered = inPageOrder(shardTargets(req, ctx).filter((h) => h.isOpen), page.desc);
  let firstShard = 0;
  if (page.after) {
    const [shard, time, name] = page.after;
    const current = ordered.find((h) => h.name === name && h.meta.creationDate === Number(time));
    ordered = ordered.filter((h) => h === current || isAfter(h, Number(time), name, page.desc));
    if (current) firstShard = Number(shard) + 1;
  }
  // whole shards (every copy of one) until the page is full; at least one, so that a page moves on
  const taken: Array<{ index: IndexHandle; from: number; to: number }> = [];
  let copies = 0;
  let next: string | null = null;
  outer: for (const [at, h] of ordered.entries()) {
    const from = at === 0 ? firstShard : 0;
    const perShard = 1 + numberOfReplicas(h);
    for (let shard = from; shard < numberOfShards(h); shard++) {
      if (copies > 0 && copies + perShard > page.size) {
        const lastTaken = taken[taken.length - 1];
        next = token(lastTaken.to - 1, lastTaken.index.meta.creationDate, lastTaken.index.name);
        break outer;
      }
      copies += perShard;
      const open = taken[taken.length - 1];
      if (open?.index === h) open.to = shard + 1;
      else taken.push({ index: h, from: shard, to: shard + 1 });
    }
  }
  const rows = () => taken.flatMap(({ index, from, to }) => shardCopies([index]).filter((c) => c.shard >= from && c.shard < to));
  return catShardsOf(req, ctx, true, rows, { key: 'shards', nextToken: next });
}

export const listRoutes: Route[] = [
  { id: 'opensearch.list_help', handler: () => ({ status: 200, text: LISTING }) },
  { id: 'opensearch.list_indices', handler: listIndices },
  { id: 'opensearch.list_shards', handler: listShards },
];
