import { randomBytes } from 'node:crypto';
import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { IndexStats } from '../../indices/index-stats.js';
import type { EngineContext } from '../types.js';
import { timeValue } from './search-target.js';

/** What every kept search context has: the stats of the indices it reads (it counts there once freed). */
interface KeptContext {
  stats: IndexStats[];
}

/** A scroll: the hits of the search, fixed when it started (a point-in-time view), and a cursor. */
export interface ScrollContext extends KeptContext {
  hits: unknown[];
  /** The `hits` object of the first response, without its hits (total, max_score). */
  header: Record<string, unknown>;
  shards: unknown;
  next: number;
  size: number;
}

/**
 * A point in time: a frozen view of each index it reads (documents as they were when it was
 * opened, see holdPointInTimeView), in the order their `_shard_doc` values number them.
 */
export interface PointInTimeContext extends KeptContext {
  views: IndexHandle[];
  /** Lets the views go when the point in time is freed (they are shared, and bounded: holdPointInTimeView). */
  release(): void;
  /** The live indices' uuids: a point in time over an index deleted since is gone. */
  uuids: string[];
}

/** `search.max_keep_alive`'s default (a dynamic cluster setting): 1d. */
const MAX_KEEP_ALIVE_MS = 24 * 3_600_000;

/** A duration as Elasticsearch's TimeValue prints it: its largest whole unit, one decimal at most (`2m`, `1.5h`, `1d`). */
export function timeValueText(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms >= size) return `${oneDecimal(ms / size)}${unit}`;
  }
  return `${oneDecimal(ms)}ms`;
}

/** Java's Strings.format1Decimals: the integer when the first decimal is 0, else cut after it. */
function oneDecimal(v: number): string {
  const tenths = Math.floor(v * 10) % 10;
  return tenths === 0 ? String(Math.floor(v)) : `${Math.floor(v)}.${tenths}`;
}
/** Open contexts of each kind at most (Elasticsearch's `search.max_open_scroll_context` default). */
export const MAX_OPEN_CONTEXTS = 500;

type Opened<T> = T & { opened: number; expires: NodeJS.Timeout; createdAt: number; keepAliveMs: number };

/**
 * The open search contexts of one kind (scrolls, points in time) of one engine: each freed when
 * its keep-alive passes unused, at most MAX_OPEN_CONTEXTS at once so that they cannot grow memory
 * without bound. Contexts are found by their whole id string.
 */
export class SearchContexts<T extends KeptContext> {
  private readonly open = new Map<string, Opened<T>>();

  constructor(
    private readonly kind: 'scroll' | 'point in time',
    /** What a context holds that must be let go when it is freed. */
    private readonly onFree: (context: T) => void = () => {},
    /** `search.max_keep_alive` now: the longest keep-alive a request may ask for. */
    private readonly maxKeepAliveMs: () => number = () => MAX_KEEP_ALIVE_MS,
  ) {}

  add(context: T, keepAliveMs: number, id: string = randomBytes(24).toString('base64url')): string {
    if (this.open.size >= MAX_OPEN_CONTEXTS) {
      throw new EsError(500, 'exception', this.kind === 'scroll'
        ? `Trying to create too many scroll contexts. Must be less than or equal to: [${MAX_OPEN_CONTEXTS}]. This limit can be set by changing the [search.max_open_scroll_context] setting.`
        : `Trying to create too many point in time contexts. Must be less than or equal to: [${MAX_OPEN_CONTEXTS}].`);
    }
    const expires = this.timer(id, keepAliveMs);
    this.open.set(id, { ...context, opened: performance.now(), expires, createdAt: Date.now(), keepAliveMs });
    return id;
  }

  private timer(id: string, keepAliveMs: number): NodeJS.Timeout {
    const max = this.maxKeepAliveMs();
    if (keepAliveMs > max) {
      throw new EsError(400, 'illegal_argument_exception',
        `Keep alive for request (${timeValueText(keepAliveMs)}) is too large. It must be less than (${timeValueText(max)}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`);
    }
    const t = setTimeout(() => this.free(id), keepAliveMs);
    t.unref();
    return t;
  }

  /** The context with this id, its keep-alive renewed; undefined when gone. */
  find(id: string, keepAliveMs: number | undefined): T | undefined {
    const c = this.open.get(id);
    if (c && keepAliveMs !== undefined) {
      const expires = this.timer(id, keepAliveMs);
      clearTimeout(c.expires);
      c.expires = expires;
      c.keepAliveMs = keepAliveMs;
    }
    return c;
  }

  /** The context with this id, its keep-alive renewed; 404 search_context_missing_exception when gone. */
  take(id: string, keepAliveMs: number | undefined): T {
    const c = this.find(id, keepAliveMs);
    if (!c) throw new EsError(404, 'search_context_missing_exception', `No search context found for id [${id}]`);
    return c;
  }

  /** Each open context's id, creation time (epoch ms) and keep-alive (OpenSearch's list of points in time). */
  list(): Array<{ id: string; createdAt: number; keepAliveMs: number }> {
    return [...this.open].map(([id, c]) => ({ id, createdAt: c.createdAt, keepAliveMs: c.keepAliveMs }));
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  free(id: string): boolean {
    const c = this.open.get(id);
    if (!c) return false;
    clearTimeout(c.expires);
    this.open.delete(id);
    this.onFree(c);
    // Only scrolls count in the search stats' scroll figures, as in Elasticsearch.
    if (this.kind !== 'scroll') return true;
    const lifetime = performance.now() - c.opened;
    for (const s of c.stats) {
      s.scrollTotal++;
      s.scrollMs += lifetime;
    }
    return true;
  }

  /** Open contexts over an index (its stats' `open_contexts`). */
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

export type ScrollContexts = SearchContexts<ScrollContext>;

/** Per engine (its node: a request's own context, with its rights, shares the engine's contexts). */
const byEngine = new WeakMap<EngineContext['node'], { scrolls: ScrollContexts; pits: SearchContexts<PointInTimeContext> }>();

function contextsOf(ctx: EngineContext) {
  let s = byEngine.get(ctx.node);
  if (!s) {
    const settings = ctx.clusterSettings;
    const maxKeepAlive = (): number => {
      const set = settings.get('search.max_keep_alive');
      return set === undefined ? MAX_KEEP_ALIVE_MS : timeValue('search.max_keep_alive', String(set));
    };
    s = {
      scrolls: new SearchContexts<ScrollContext>('scroll', undefined, maxKeepAlive),
      pits: new SearchContexts<PointInTimeContext>('point in time', (pit) => pit.release(), maxKeepAlive),
    };
    byEngine.set(ctx.node, s);
  }
  return s;
}

export function scrollContexts(ctx: EngineContext): ScrollContexts {
  return contextsOf(ctx).scrolls;
}

export function pointInTimeContexts(ctx: EngineContext): SearchContexts<PointInTimeContext> {
  return contextsOf(ctx).pits;
}
