import { hash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Subscription } from 'rxjs';
import type { ChangeBus } from '../../changes/index.js';
import { CREDENTIALS_INDEX } from '../admin-credential.js';

export interface CredentialCacheOptions {
  max?: number;
  ttlMs?: number;
}

/**
 * Verified Authorization headers → what they authenticated as. scrypt is slow by design, so a
 * verified header is remembered; the key is a SHA-256 digest of a per-process random prefix and the
 * header value (a keyed hash), so neither the password nor a reusable hash of it is kept in memory.
 *
 * Invalidation: `dropUser` removes every entry of a username at once (a header per password the
 * user has used). A lookup that started before an invalidation must not cache what it read:
 * take a `ticket()` before reading the store and pass it to `set`, which refuses stale tickets.
 * While `enabled` is false (the change feed is not live), nothing is cached.
 */
export class CredentialCache<T extends { username: string }> implements InvalidatableCache {
  /** A per-process secret prefix: keys are keyed digests, never the headers (which carry passwords). */
  private readonly keyPrefix = randomBytes(32).toString('base64');
  private readonly byUser = new Map<string, Set<string>>();
  private readonly entries: LRUCache<string, T>;
  private generation = 0;
  enabled = true;

  constructor(options: CredentialCacheOptions = {}) {
    this.entries = new LRUCache<string, T>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      // an entry's age read from the clock on each lookup: lru-cache's default (the clock read
      // kept for a millisecond) sets a timer every millisecond a request arrives in, for every request
      ttlResolution: 0,
      dispose: (value, key) => this.unindex(value.username, key),
    });
  }

  keyOf(header: string): string {
    // one-shot digest of secret prefix + header: a keyed hash at a sixth of an HMAC object's cost,
    // as a 32-character binary (latin1) string (a Map key only: no base64 encoding, and half the characters to hash)
    return hash('sha256', this.keyPrefix + header, 'binary');
  }

  get(header: string): T | undefined {
    return this.entries.get(this.keyOf(header));
  }

  /** A marker of "now", to hand to `set` after a slow lookup. */
  ticket(): number {
    return this.generation;
  }

  /** Caches unless disabled or an invalidation happened since `ticket`; true when cached. */
  set(header: string, value: T, ticket: number): boolean {
    if (!this.enabled || ticket !== this.generation) return false;
    const key = this.keyOf(header);
    this.entries.set(key, value);
    let keys = this.byUser.get(value.username);
    if (!keys) this.byUser.set(value.username, (keys = new Set()));
    keys.add(key);
    return true;
  }

  dropUser(username: string): void {
    this.generation++;
    const keys = this.byUser.get(username);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
    this.byUser.delete(username);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byUser.clear();
  }

  /** Cached entries, of one user or in all. */
  size(username?: string): number {
    return username === undefined ? this.entries.size : (this.byUser.get(username)?.size ?? 0);
  }

  private unindex(username: string, key: string): void {
    const keys = this.byUser.get(username);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.byUser.delete(username);
  }
}

/** What the change feed needs of a cache. */
export interface InvalidatableCache {
  enabled: boolean;
  dropUser(username: string): void;
  clear(): void;
}

export interface CredentialChangeFeed {
  /** Resolves once changes made on other nodes reach the cache (caching is off until then). */
  readonly live: Promise<void>;
  stop(): void;
}

/**
 * Keeps a node's cache true to changes made on any node: every document change of
 * `.gateway-credentials` on the bus drops that username's entries; an index change (deleted,
 * closed) drops everything. If the feed fails (a gap the bus cannot fill), the cache is emptied
 * and switched off until the feed is live again, so no entry outlives a change it missed.
 */
export function followCredentialChanges(
  bus: ChangeBus,
  cache: InvalidatableCache,
  log: (line: string) => void = () => {},
  retryMs = 1_000,
): CredentialChangeFeed {
  let subscription: Subscription | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let markLive: () => void = () => {};
  const live = new Promise<void>((resolve) => (markLive = resolve));

  const goDark = () => {
    cache.enabled = false;
    cache.clear();
  };
  const start = () => {
    if (stopped) return;
    goDark();
    subscription = bus.changes(CREDENTIALS_INDEX).subscribe({
      next: (event) => (event.kind === 'document' ? cache.dropUser(event.id) : cache.clear()),
      error: (err: Error) => {
        log(`credential change feed failed, cache off until it resumes: ${err.message}`);
        goDark();
        retry = setTimeout(start, retryMs);
        retry.unref?.();
      },
      complete: goDark, // the bus was closed: nothing will tell us about changes any more
    });
    bus.subscribed(CREDENTIALS_INDEX).then(
      () => {
        if (stopped || subscription?.closed) return;
        cache.clear(); // anything cached before the feed was live may have missed a change
        cache.enabled = true;
        markLive();
      },
      (err: Error) => {
        if (stopped) return;
        log(`credential change feed not live, cache off: ${err.message}`);
      },
    );
  };
  start();
  return {
    live,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      subscription?.unsubscribe();
      goDark();
    },
  };
}
