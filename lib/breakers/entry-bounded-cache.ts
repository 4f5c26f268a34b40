import { LRUCache } from 'lru-cache';

const oneEntry = (): number => 1;

/**
 * An LRU cache of at most `maxEntries` entries, each counting one against lru-cache's `maxSize`:
 * the bound of `max` without its cost (lru-cache allocates and fills arrays of `max` slots when a
 * cache is made, ~20 ms of CPU for 100,000 at every gateway start; a size-bounded cache grows with
 * what it holds).
 */
export function entryBoundedCache<K extends {}, V extends {}>(maxEntries: number, options: { ttl?: number } = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: maxEntries, sizeCalculation: oneEntry });
}
