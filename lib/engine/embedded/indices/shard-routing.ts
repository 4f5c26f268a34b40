import { EsError } from '../../../errors/index.js';
import type { Mappings } from '../mapping/index.js';
import { murmur3 } from '../search/murmur3.js';
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
  return murmur3(Buffer.from(s, 'utf16le'), 0);
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

/**
 * Elasticsearch's RoutingMissingException: an index mapped with `"_routing": {"required": true}`
 * takes no operation on a document by id (index, create, get, delete, update, a `_mget` or
 * `_bulk` item) without a routing, whether the document exists or not.
 */
export function checkRoutingGiven(index: { name: string; mappings: Mappings }, id: string, routing: string | undefined): void {
  if (routing !== undefined) return;
  const mapping = index.mappings._routing as { required?: unknown } | undefined;
  if (mapping?.required !== true && mapping?.required !== 'true') return;
  throw new EsError(400, 'routing_missing_exception', `routing is required for [${index.name}]/[${id}]`, { index_uuid: '_na_', index: index.name });
}
