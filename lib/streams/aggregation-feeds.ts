import { Observable, share, type Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent, DocumentChange } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import type { Query } from '../engine/embedded/matching.js';
import type { LiveSearch, LiveSearches } from './live-searches.js';

/** What an aggregation stream shows after its first message: the aggregations and the total. */
export interface AggregationState {
  aggregations: unknown;
  total: unknown;
}

/** One computation shared by the streams that ask the same: which changes concern it, and how it is computed. */
export interface AggregationFeedSpec {
  /**
   * Equal for two streams whose answers are equal: the index, the type, the query, the
   * aggregations and everything else of the request as authorization narrowed it that changes
   * them (streams of credentials whose field rules differ never share).
   */
  key: string;
  index: string;
  /** App-addressed searches see only their type. */
  type?: string;
  /** For the local matcher: which changed documents match the query. */
  query: Query;
  /** Set when the engine, not the local matcher, decides whether a changed document matches. */
  decide?: (change: DocumentChange) => Promise<boolean>;
  /** Ids of matching documents tracked at most (to know the ones that leave). */
  trackCap: number;
  /** Documents matching now (at most `cap`), and whether that is all of them. */
  readMatchingIds(cap: number): Promise<{ ids: string[]; complete: boolean }>;
  /** The aggregations and total as the engine answers them now. */
  compute(): Promise<AggregationState>;
}

/** What a feed tells its streams: a state it computed (run `run`, after the change at `position`), or that the index ended. */
export type FeedEvent =
  | { kind: 'state'; run: number; state: AggregationState; position?: string }
  | { kind: 'ended'; event: ChangeEvent };

/** A shared computation as one stream holds it. */
export interface AggregationFeed {
  readonly events: Observable<FeedEvent>;
  /** Resolves once every change to the index reaches the feed (after the stream subscribed to `events`). */
  readonly live: Promise<void>;
  /** Runs started so far: a stream ignores states of runs that started before it read its own answer. */
  readonly runs: number;
  /** Asks for a run now (coalesced like any other): a resumed stream gets the current state. */
  refresh(): void;
}

export interface AggregationFeedOptions {
  /** At most one computation per this many ms per feed (STREAM_AGG_INTERVAL_MS). */
  intervalMs: number;
  /**
   * An engine that shows writes at its next refresh (Elasticsearch): a change is computed again
   * this long after it, once it is visible. 0 where an acknowledged write is visible at once.
   */
  visibleAfterMs: number;
  log?: (line: string) => void;
}

interface Entry {
  spec: AggregationFeedSpec;
  events: Observable<FeedEvent>;
  live: Promise<void>;
  markLive: () => void;
  failLive: (err: unknown) => void;
  runs: number;
  trigger?: (position?: string) => void;
}

/**
 * The live aggregations of one node: one computation per distinct (index, query, aggregations,
 * narrowed request), shared by every stream that asks for it — a hundred browsers on one
 * dashboard make one engine search per change, not a hundred.
 *
 * A feed is an RxJS observable shared with `share({ resetOnRefCountZero: true })`: the first
 * stream registers a live search for the query in the node's index of live searches (the same
 * matcher that decides which documents enter or leave a search stream), the last one to leave
 * removes it. A change that matches the query, or concerns a document that matched it before,
 * marks the feed dirty; a dirty feed computes its aggregations again with one search (`compute`),
 * at most once per `intervalMs`, never two at once; every state it computes goes to its streams,
 * each of which pushes it only when it differs from what that stream showed last.
 */
export class AggregationFeeds {
  private readonly entries = new Map<string, Entry>();
  /** Computations made since start (every feed), for the node's figures and tests. */
  computations = 0;

  constructor(private readonly bus: ChangeBus, private readonly searches: LiveSearches, private readonly options: AggregationFeedOptions) {}

  /** Feeds computing now. */
  get size(): number {
    return this.entries.size;
  }

  /** The feed for `spec`: the one other streams share, or a new one. */
  feed(spec: AggregationFeedSpec): AggregationFeed {
    let entry = this.entries.get(spec.key);
    if (!entry) entry = this.create(spec);
    const e = entry;
    return {
      events: e.events,
      get live() {
        return e.live;
      },
      get runs() {
        return e.runs;
      },
      refresh: () => e.trigger?.(),
    };
  }

  private create(spec: AggregationFeedSpec): Entry {
    let markLive: () => void = () => {};
    let failLive: (err: unknown) => void = () => {};
    const live = new Promise<void>((resolve, reject) => {
      markLive = resolve;
      failLive = reject;
    });
    live.catch(() => {}); // a stream that awaits it sees the failure; nobody else must
    const entry: Entry = { spec, events: undefined as unknown as Observable<FeedEvent>, live, markLive, failLive, runs: 0 };
    entry.events = new Observable<FeedEvent>((subscriber) => this.run(entry, subscriber)).pipe(share({ resetOnRefCountZero: true }));
    this.entries.set(spec.key, entry);
    return entry;
  }

  /** One feed's life, from its first stream to its last. */
  private run(entry: Entry, subscriber: { next(e: FeedEvent): void; error(err: unknown): void; complete(): void; closed: boolean }): () => void {
    const { spec } = entry;
    const { intervalMs, visibleAfterMs } = this.options;
    let dirty = false;
    let running = false;
    let lastStart = -Infinity;
    let position: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settle: NodeJS.Timeout | undefined;
    let stopped = false;
    const subscriptions: Subscription[] = [];

    const schedule = () => {
      if (running || timer || stopped) return;
      timer = setTimeout(compute, Math.max(0, lastStart + intervalMs - Date.now()));
      timer.unref();
    };
    const compute = async () => {
      timer = undefined;
      if (!dirty || stopped) return;
      dirty = false;
      running = true;
      lastStart = Date.now();
      const run = ++entry.runs;
      const at = position;
      this.computations++;
      try {
        const state = await spec.compute();
        if (!stopped) subscriber.next({ kind: 'state', run, state, position: at });
      } catch (err) {
        if (!stopped) subscriber.error(err);
        return;
      } finally {
        running = false;
      }
      if (dirty) schedule();
    };
    const trigger = (at?: string) => {
      if (at !== undefined) position = at;
      dirty = true;
      schedule();
      if (visibleAfterMs > 0) {
        // the engine shows the change at its next refresh: computed again once it does
        clearTimeout(settle);
        settle = setTimeout(() => {
          settle = undefined;
          dirty = true;
          schedule();
        }, visibleAfterMs);
        settle.unref();
      }
    };
    entry.trigger = trigger;

    const search: LiveSearch = {
      query: spec.query,
      type: spec.type,
      tracked: new Set(),
      trackedComplete: true,
      trackCap: spec.trackCap,
      decide: spec.decide,
      onVerdict: (verdict) => trigger(verdict.change.position),
      onIndexEvent: (event) => {
        subscriber.next({ kind: 'ended', event });
        subscriber.complete();
      },
      onError: (err) => subscriber.error(err),
    };
    let remove: (() => void) | undefined;
    const index = this.searches.of(spec.index);
    (async () => {
      const ctx = spec.decide ? undefined : await this.searches.contexts.get(spec.index);
      if (!ctx && !spec.decide) throw new EsError(404, 'index_not_found_exception', `no such index [${spec.index}]`, { index: spec.index });
      remove = await index.add(search, ctx);
      if (stopped) return remove();
      // a document that matched before and was not tracked (more than trackCap matched) may leave
      // with any change: then every change of the index is one that may alter the answer
      subscriptions.push(this.bus.changes(spec.index).subscribe((event) => {
        if (event.kind === 'document' && !search.trackedComplete && (spec.type === undefined || event.type === spec.type)) trigger(event.position);
      }));
      await this.bus.subscribed(spec.index);
      const { ids, complete } = await spec.readMatchingIds(spec.trackCap);
      for (const id of ids) index.track(search, id);
      if (!complete) search.trackedComplete = false;
      entry.markLive();
    })().catch((err) => {
      entry.failLive(err);
      subscriber.error(err);
    });

    return () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(settle);
      remove?.();
      for (const s of subscriptions) s.unsubscribe();
      if (this.entries.get(spec.key) === entry) this.entries.delete(spec.key);
    };
  }
}
