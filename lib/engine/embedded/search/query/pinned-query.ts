/**
 * The `pinned` query (Elasticsearch's PinnedQueryBuilder): documents named by `ids` or `docs` come
 * first, in the order given, then the hits of `organic`. As in Elasticsearch, it runs as a dis_max
 * of a constant score per pinned document and the organic query with its scores capped below
 * 2^127: pinned documents score the floats just above the cap, the first highest, so they sort
 * first in their order whatever the organic scores (and score so whether or not organic matches).
 */
import { simpleMatch } from '../../../../wildcard/index.js';
import type { PinnedDocument, Query } from './query.js';
import { boostOf, checkFields, failedToBuild, inField, isObject, malformed, requiredFields, textArray, unsupportedValue } from './query-fields.js';

/** How many documents a pinned query may name. */
export const MAX_PINNED_HITS = 100;

const FLOAT = new DataView(new ArrayBuffer(4));

function floatOfBits(bits: number): number {
  FLOAT.setUint32(0, bits);
  return FLOAT.getFloat32(0);
}

/** The bits of 2^127, Elasticsearch's MAX_ORGANIC_SCORE (`Float.intBitsToFloat(0xfe << 23) - 1` rounds to it). */
const MAX_ORGANIC_BITS = 0x7f000000;
export const MAX_ORGANIC_SCORE = floatOfBits(MAX_ORGANIC_BITS);

/** The score of the `rank`-th (0-based) of `count` pinned documents: the floats right above the organic cap, descending. */
export function pinnedScore(rank: number, count: number): number {
  return floatOfBits(MAX_ORGANIC_BITS + 1 + count - rank);
}

/** Elasticsearch's Item.toString (pretty-printed), for its duplicate message. */
function describeDoc(d: PinnedDocument): string {
  return `{\n  "_index" : ${JSON.stringify(d.index)},\n  "_id" : ${JSON.stringify(d.id)}\n}`;
}

function parseDoc(body: unknown): PinnedDocument {
  if (!isObject(body)) throw unsupportedValue('pinned', 'docs', body);
  checkFields('item', body, ['_index', '_id']);
  for (const k of ['_index', '_id'] as const) if (body[k] !== undefined && typeof body[k] !== 'string') throw unsupportedValue('item', k, body[k]);
  const missing = (['_index', '_id'] as const).filter((k) => body[k] === undefined);
  if (missing.length) throw requiredFields(missing);
  return { index: body._index as string, id: body._id as string };
}

/** The `pinned` query's body, refused as Elasticsearch 8.15 refuses it. */
export function parsePinnedQuery(body: unknown, parseQuery: (q: unknown) => Query): Extract<Query, { type: 'pinned' }> {
  if (!isObject(body)) throw malformed('pinned');
  checkFields('pinned', body, ['organic', 'ids', 'docs', 'boost', '_name']);
  if (body.organic !== undefined && !isObject(body.organic)) throw unsupportedValue('pinned', 'organic', body.organic);
  const organic = body.organic === undefined ? undefined : inField('pinned', 'organic', () => parseQuery(body.organic));
  const ids = body.ids === undefined || body.ids === null ? undefined : textArray('pinned', 'ids', body.ids);
  let docs: PinnedDocument[] | undefined;
  if (body.docs !== undefined && body.docs !== null) {
    if (typeof body.docs !== 'object') throw unsupportedValue('pinned', 'docs', body.docs);
    docs = inField('pinned', 'docs', () => (Array.isArray(body.docs) ? body.docs : [body.docs]).map(parseDoc));
  }
  const boost = boostOf('pinned', body.boost);
  if (!organic) throw requiredFields(['organic']);
  if (!ids && !docs) throw failedToBuild('pinned', '[pinned] ids and docs cannot both be null');
  if (ids && docs) throw failedToBuild('pinned', '[pinned] ids and docs cannot both be used');
  const documents: PinnedDocument[] = [];
  if (ids) {
    if (ids.length > MAX_PINNED_HITS) throw failedToBuild('pinned', `[pinned] Max of ${MAX_PINNED_HITS} ids exceeded: ${ids.length} provided.`);
    const seen = new Set<string>();
    for (const id of ids) {
      if (id === null) throw failedToBuild('pinned', '[pinned] id cannot be null');
      if (seen.has(id)) throw failedToBuild('pinned', `[pinned] duplicate id found in list: ${id}`);
      seen.add(id);
      documents.push({ id });
    }
  } else {
    if (docs!.length > MAX_PINNED_HITS) throw failedToBuild('pinned', `[pinned] Max of ${MAX_PINNED_HITS} docs exceeded: ${docs!.length} provided.`);
    const seen = new Set<string>();
    for (const d of docs!) {
      const key = JSON.stringify([d.index, d.id]);
      if (seen.has(key)) throw failedToBuild('pinned', `[pinned] duplicate doc found in list: ${describeDoc(d)}`);
      seen.add(key);
      documents.push(d);
    }
  }
  return { type: 'pinned', organic, documents, boost };
}

/**
 * The pinned query as it runs on one index: a document named with an `_index` pins only on the
 * indices that name matches (a pattern), though it keeps its rank among all named.
 */
export function lowerPinnedQuery(q: Extract<Query, { type: 'pinned' }>, indexName: string | undefined): Query {
  const count = q.documents.length;
  const pins: Query[] = [];
  q.documents.forEach((d, rank) => {
    if (d.index !== undefined && (indexName === undefined || !simpleMatch(d.index, indexName))) return;
    pins.push({ type: 'constant_score', filter: { type: 'ids', values: [d.id], boost: 1 }, boost: pinnedScore(rank, count) });
  });
  const organic: Query = { type: 'capped_score', query: q.organic, cap: MAX_ORGANIC_SCORE, boost: 1 };
  if (!pins.length) return { ...organic, boost: q.boost };
  return { type: 'dis_max', queries: [{ type: 'dis_max', queries: pins, tieBreaker: 0, boost: 1 }, organic], tieBreaker: 0, boost: q.boost };
}
