import type { FlatSettings } from '../store/index.js';

/**
 * Which shard of an index a routing value (or, without one, the document id) selects, computed as
 * Elasticsearch computes it. The embedded engine keeps one copy of every document whatever its
 * shard, but a read, delete or update sent with a routing that selects another shard than the
 * document's must miss it, as it does on Elasticsearch (a multi-shard index only; one shard always
 * matches).
 */

/** Lucene's murmurhash3_x86_32 (seed 0) over the UTF-16 code units of `s`, little-endian, as ES's Murmur3HashFunction. */
export function routingHash(s: string): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const len = s.length * 2;
  let h = 0;
  const byteAt = (i: number) => {
    const unit = s.charCodeAt(i >> 1);
    return i & 1 ? (unit >>> 8) & 0xff : unit & 0xff;
  };
  const blocks = len & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = byteAt(i) | (byteAt(i + 1) << 8) | (byteAt(i + 2) << 16) | (byteAt(i + 3) << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (len & 3) {
    // UTF-16 input is an even number of bytes, so the tail is exactly one code unit.
    let k = byteAt(blocks) | (byteAt(blocks + 1) << 8);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** ES's default `index.number_of_routing_shards`: the largest numShards·2^x not above 1024 (at least one split). */
export function defaultRoutingShards(numShards: number): number {
  const log2NumShards = numShards <= 1 ? 0 : 32 - Math.clz32(numShards - 1);
  return numShards * 2 ** Math.max(1, 10 - log2NumShards);
}

/** The shard `routing ?? id` selects in an index with these settings. */
export function shardOf(settings: FlatSettings, id: string, routing: string | undefined): number {
  const shards = Number(settings['index.number_of_shards'] ?? '1');
  if (!(shards > 1)) return 0;
  const configured = Number(settings['index.number_of_routing_shards']);
  const routingShards = configured > 0 ? configured : defaultRoutingShards(shards);
  const hash = routingHash(routing ?? id);
  const mod = ((hash % routingShards) + routingShards) % routingShards;
  return Math.floor(mod / (routingShards / shards));
}

/** Whether a request with `requestRouting` reaches the shard a document stored with `docRouting` lives on. */
export function reachesDocument(settings: FlatSettings, id: string, docRouting: string | undefined, requestRouting: string | undefined): boolean {
  if (docRouting === requestRouting) return true;
  return shardOf(settings, id, docRouting) === shardOf(settings, id, requestRouting);
}
