import { randomBytes } from 'node:crypto';
import { EsError } from '../../../../errors/index.js';
import type { IndexStats } from '../../indices/index-stats.js';
import type { EngineContext } from '../types.js';

/** A scroll: the hits of the search, fixed when it started (a point-in-time view), and a cursor. */
export interface ScrollContext {
  hits: unknown[];
  /** The `hits` object of the first response, without its hits (total, max_score). */
  header: Record<string, unknown>;
  shards: unknown;
  next: number;
  size: number;
  /** Stats of the indices searched: a scroll counts there once freed, with its lifetime. */
  stats: IndexStats[];
  opened: number;
  expires: NodeJS.Timeout;
}

const MAX_KEEP_ALIVE_MS = 24 * 3_600_000;

/** The open scrolls of one engine, each freed when its keep-alive passes unused. */
export class ScrollContexts {
  private readonly open = new Map<string, ScrollContext>();

  add(context: Omit<ScrollContext, 'expires' | 'opened'>, keepAliveMs: number): string {
    const id = randomBytes(24).toString('base64url');
    this.open.set(id, { ...context, opened: performance.now(), expires: this.timer(id, keepAliveMs) });
    return id;
  }

  private timer(id: string, keepAliveMs: number): NodeJS.Timeout {
    if (keepAliveMs > MAX_KEEP_ALIVE_MS) {
      throw new EsError(400, 'illegal_argument_exception',
        `Keep alive for request (${Math.round(keepAliveMs / 60000)}m) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`);
    }
    const t = setTimeout(() => this.free(id), keepAliveMs);
    t.unref();
    return t;
  }

  /** The scroll with this id, its keep-alive renewed; 404 search_context_missing_exception when gone. */
  take(id: string, keepAliveMs: number | undefined): ScrollContext {
    const c = this.open.get(id);
    if (!c) throw new EsError(404, 'search_context_missing_exception', `No search context found for id [${id}]`);
    if (keepAliveMs !== undefined) {
      clearTimeout(c.expires);
      c.expires = this.timer(id, keepAliveMs);
    }
    return c;
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  free(id: string): boolean {
    const c = this.open.get(id);
    if (!c) return false;
    clearTimeout(c.expires);
    this.open.delete(id);
    const lifetime = performance.now() - c.opened;
    for (const s of c.stats) {
      s.scrollTotal++;
      s.scrollMs += lifetime;
    }
    return true;
  }

  /** Open scrolls over an index (its stats' `open_contexts`). */
  openOver(stats: IndexStats): number {
    let n = 0;
    for (const c of this.open.values()) if (c.stats.includes(stats)) n++;
    return n;
  }

  freeAll(): number {
    const n = this.open.size;
    for (const id of [...this.open.keys()]) this.free(id);
    return n;
  }
}

const byEngine = new WeakMap<EngineContext, ScrollContexts>();

export function scrollContexts(ctx: EngineContext): ScrollContexts {
  let s = byEngine.get(ctx);
  if (!s) byEngine.set(ctx, (s = new ScrollContexts()));
  return s;
}
