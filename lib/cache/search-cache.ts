import { LRUCache } from 'lru-cache';
import { simpleMatch } from '../wildcard/index.js';

/** One cached engine answer, with the indices it read. */
export interface CachedAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  indices: readonly string[];
}

export interface SearchCacheOptions {
  /** Bytes of answers held at most (keys and bodies). */
  maxBytes: number;
  /** How long an answer is kept at most, whatever happens (a safety net: eviction is by change). */
  ttlMs: number;
}

/** Generations of the indices an answer reads, and of the whole cache. */
export interface Snapshot {
  all: number;
  each: number[];
}

export type EvictionCause = 'change' | 'evict' | 'size' | 'ttl';

/**
 * The pseudo-index every answer read through a wildcard, an alias or `_all` is also kept under:
 * evicting it drops the answers whose set of indices an index operation may have changed.
 */
export const RESOLVED = '\u0000resolved';

/** Bytes an entry holds besides its body and key, as counted against the bound. */
const ENTRY_OVERHEAD = 512;

export interface SearchCacheStats {
  entries: number;
  bytes: number;
  max_bytes: number;
  hits: number;
  misses: number;
  evictions: Record<EvictionCause, number>;
  hit_ratio: number;
}

/**
 * Engine answers by request key, bounded by bytes (lru-cache's `maxSize`) and by a TTL, with the
 * index → keys map that eviction by change needs.
 *
 * Contract (what makes an answer never stale): every index has a generation, bumped by every
 * eviction of it (and the whole cache one, bumped by `clear` and wildcard evictions). A caller
 * takes a `snapshot(indices)` before it asks the engine and stores the answer with `set(…,
 * snapshot)`: an answer read while a change of one of its indices arrived is not stored.
 */
export class SearchCache {
  private entries: LRUCache<string, CachedAnswer>;
  private ttlMs: number;
  private readonly byIndex = new Map<string, Set<string>>();
  private readonly generation = new Map<string, number>();
  private hits = 0;
  private misses = 0;
  private readonly evictions: Record<EvictionCause, number> = { change: 0, evict: 0, size: 0, ttl: 0 };
  /** Why the entries being disposed of now go (set around explicit deletions). */
  private deleting: EvictionCause | undefined;

  constructor(options: SearchCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.entries = this.lru(options.maxBytes);
  }

  /** Bytes held at most and how long an answer is kept: a new bound drops what is held. */
  configure(options: SearchCacheOptions): void {
    if (options.maxBytes !== this.entries.maxSize) {
      this.clear('evict');
      this.entries = this.lru(options.maxBytes);
    }
    this.ttlMs = options.ttlMs;
  }

  private lru(maxBytes: number): LRUCache<string, CachedAnswer> {
    return new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      ttl: this.ttlMs,
      // an entry's age read from the clock on each lookup, not kept a millisecond by a timer set
      // every millisecond a lookup is made in (a hit's wake-up of its own, at one request at a time)
      ttlResolution: 0,
      // the body, the key (UTF-16) and what an entry holds besides (headers, indices, the LRU's own)
      sizeCalculation: (value, key) => value.body.length + key.length * 2 + ENTRY_OVERHEAD,
      dispose: (value, key, reason) => {
        this.unindex(key, value.indices);
        if (reason === 'set') return; // replaced by a newer answer of the same key
        const cause: EvictionCause = this.deleting ?? (reason === 'expire' ? 'ttl' : reason === 'evict' ? 'size' : 'evict');
        this.evictions[cause]++;
      },
    });
  }

  get(key: string): CachedAnswer | undefined {
    const hit = this.entries.get(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  /** A lookup that missed was answered by an identical request's answer, kept meanwhile: a hit after all. */
  shared(): void {
    this.misses--;
    this.hits++;
  }

  /** What `set` compares with: taken before the engine is asked. */
  snapshot(indices: readonly string[]): Snapshot {
    return { all: this.globalGeneration, each: indices.map((i) => this.generation.get(i) ?? 0) };
  }

  /** Stores unless one of its indices changed since the snapshot was taken; true when stored. */
  set(key: string, answer: CachedAnswer, snapshot: Snapshot): boolean {
    if (snapshot.all !== this.globalGeneration) return false;
    if (answer.indices.some((index, i) => (this.generation.get(index) ?? 0) !== snapshot.each[i])) return false;
    this.entries.set(key, answer, { ttl: this.ttlMs });
    if (!this.entries.has(key)) return false; // larger than the whole cache
    for (const index of answer.indices) {
      let keys = this.byIndex.get(index);
      if (!keys) this.byIndex.set(index, (keys = new Set()));
      keys.add(key);
    }
    return true;
  }

  /** Drops every answer that read an index `pattern` matches (a name, or a wildcard). */
  evictIndex(pattern: string, cause: EvictionCause = 'change'): void {
    const wildcard = /[*?]/.test(pattern) || pattern === '_all';
    // a wildcard also covers indices nobody has cached yet, and what names stand for (RESOLVED) is
    // also what an answer being read now was resolved with: neither may be stored
    if (wildcard || pattern === RESOLVED) this.bumpAll();
    const names = wildcard ? [...this.byIndex.keys()].filter((i) => pattern === '_all' || simpleMatch(pattern, i)) : [pattern];
    for (const name of names) {
      this.generation.set(name, (this.generation.get(name) ?? 0) + 1);
      const keys = this.byIndex.get(name);
      if (!keys) continue;
      this.deleting = cause;
      try {
        for (const key of [...keys]) this.entries.delete(key);
      } finally {
        this.deleting = undefined;
      }
    }
  }

  /** Drops everything (an explicit evict, or a change feed that lost events). */
  clear(cause: EvictionCause = 'evict'): void {
    this.bumpAll();
    this.deleting = cause;
    try {
      this.entries.clear();
    } finally {
      this.deleting = undefined;
    }
  }

  stats(): SearchCacheStats {
    const lookups = this.hits + this.misses;
    return {
      entries: this.entries.size,
      bytes: this.entries.calculatedSize,
      max_bytes: this.entries.maxSize,
      hits: this.hits,
      misses: this.misses,
      evictions: { ...this.evictions },
      hit_ratio: lookups ? this.hits / lookups : 0,
    };
  }

  private globalGeneration = 0;

  private bumpAll(): void {
    this.globalGeneration++;
  }

  private unindex(key: string, indices: readonly string[]): void {
    for (const index of indices) {
      const keys = this.byIndex.get(index);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byIndex.delete(index);
    }
  }
}
