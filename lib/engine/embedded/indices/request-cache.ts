/**
 * The shard request cache's figures, as Elasticsearch's index stats report them
 * (`request_cache`): a search that may be cached (IndicesService.canCache: `size: 0` unless
 * `request_cache=true` asks, never with `request_cache=false`, `index.requests.cache.enable:
 * false`, a scroll or a `now` in the request) looks its request up in each shard of each index
 * it searches: a hit when the same request was answered since the index's documents last
 * changed (Elasticsearch keys an entry by the shard's reader, which a refresh that changed
 * something replaces), else a miss that caches it. The engine does not answer from the cache
 * (its answer would be the same); it keeps each entry's size, key and answer, as Elasticsearch
 * accounts them, until the documents change or `_cache/clear` drops them. An entry is held by
 * its key's digest: the key is the request itself, which a client may make megabytes long.
 *
 * An entry's answer is measured (serialized) only when its bytes are asked for or the next entry
 * is cached: until then the newest answer is held as the value the search returned. Under
 * constant writes (live dashboards) an index's entries are dropped by the next change before
 * anyone asks their size, and serializing every answer for it was 5% of each search's CPU.
 */
import { createHash } from 'node:crypto';
import type { InvertedIndex } from '../index/index.js';
import type { IndexHandle } from './index-handle.js';

interface ShardCache {
  /** The index's `changes` when its entries were cached: past it, they are stale. */
  version: number;
  /** Bytes of each entry (its key and its answer), by the request key's digest; the newest one's once measured. */
  entries: Map<string, number>;
  /** The newest entry, not yet measured (one at most: a held answer is the only memory this keeps beyond numbers). */
  unmeasured?: { digest: string; keyBytes: number; answer: () => number; shards: number };
}

const CACHES = new WeakMap<InvertedIndex, ShardCache>();

/** Entries of one index at most (a digest and a number each): past them, a request is not cached. */
const MAX_ENTRIES = 1_000;

/** Whether a search request may use the request cache (IndicesService.canCache). */
export function requestCacheable(handle: IndexHandle, requestCache: boolean | undefined, size: number, key: string): boolean {
  if (requestCache === false) return false;
  if (requestCache === undefined && (handle.meta.settings['index.requests.cache.enable'] === 'false' || size !== 0)) return false;
  // a request reading the clock (date math from `now`) is answered anew each time
  return !/"now[-+/|"]/.test(key);
}

/**
 * A cacheable search of `handle`: counts each of its shards' hit or miss, and caches a missed
 * request; `answerBytes` measures its answer, called when the entry's size is first needed.
 */
export function lookUpRequestCache(handle: IndexHandle, key: string, answerBytes: () => number): void {
  const inverted = handle.inverted?.origin;
  if (!inverted) return;
  let cache = CACHES.get(inverted);
  if (!cache || cache.version !== inverted.changes) CACHES.set(inverted, (cache = { version: inverted.changes, entries: new Map() }));
  const shards = Number(handle.meta.settings['index.number_of_shards'] ?? '1');
  const digest = createHash('sha256').update(key).digest('base64');
  if (cache.entries.has(digest)) handle.stats.requestCacheHits += shards;
  else {
    handle.stats.requestCacheMisses += shards;
    if (cache.entries.size >= MAX_ENTRIES) return;
    measure(cache);
    cache.entries.set(digest, 0);
    cache.unmeasured = { digest, keyBytes: key.length, answer: answerBytes, shards };
  }
}

/** The newest entry's bytes, measured now. */
function measure(cache: ShardCache): void {
  const e = cache.unmeasured;
  if (!e) return;
  cache.unmeasured = undefined;
  cache.entries.set(e.digest, (e.keyBytes + e.answer()) * e.shards);
}

/** The bytes the index's cached requests take (none once its documents changed). */
export function requestCacheBytes(handle: IndexHandle): number {
  const inverted = handle.inverted?.origin;
  const cache = inverted && CACHES.get(inverted);
  if (!cache || cache.version !== inverted.changes) return 0;
  measure(cache);
  let n = 0;
  for (const bytes of cache.entries.values()) n += bytes;
  return n;
}

/** `_cache/clear` with `request` (or every cache): the index's cached requests dropped; its counts stay. */
export function clearRequestCache(handle: IndexHandle): void {
  const inverted = handle.inverted?.origin;
  if (inverted) CACHES.delete(inverted);
}
