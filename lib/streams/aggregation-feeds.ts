import { defer, filter, finalize, map, merge, Observable, share, Subject, takeWhile } from 'rxjs';
import type { ChangeBus, ChangeEvent, DocumentChange } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import type { Query } from '../engine/embedded/index.js';
import { coalescedRuns } from './coalesced-runs.js';
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

/** What a stream pushes of a state: `{aggregations, hits: {total}}`. */
export interface StateData {
  aggregations: unknown;
  hits: { total: unknown };
}

/**
 * What a feed tells its streams: a state it computed (run `run`, after the change at `position`;
 * `data`, what a stream pushes of it, and `text`, that as JSON — made once for every stream, which
 * compares it with what it showed and sends it as it is), or that the index ended. Every stream of
 * the feed receives the same event object.
 */
export type FeedEvent =
  | { kind: 'state'; run: number; data: StateData; text: string; position?: string }
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
  /** The node's limit on live computations in flight (see CoalescedRunsOptions.limit). */
  limit?: <R>(work: () => Promise<R>) => Promise<R>;
  log?: (line: string) => void;
}

interface Entry {
  events: Observable<FeedEvent>;
  live: Promise<void>;
  runs: number;
  /** Triggers a run of the feed (a resumed stream asks for the current state). */
  refresh$: Subject<void>;
}

/** What reaches a feed from the index: a change that may alter its answer, or the index's end. */
type Trigger = { kind: 'change'; position?: string } | { kind: 'ended'; event: ChangeEvent };

/**
 * The live aggregations of one node: one computation per distinct (index, query, aggregations,
 * narrowed request), shared by every stream that asks for it — a hundred browsers on one
 * dashboard make one engine search per change, not a hundred.
 *
 * A feed is an RxJS pipeline shared with `share({ resetOnRefCountZero: true })`: the first stream
 * registers a live search for the query in the node's index of live searches (the matcher that
 * decides which documents enter or leave a search stream), the last one to leave removes it. A
 * change that matches the query, or concerns a document that matched it before, is a trigger;
 * triggers become computations of the aggregations by one search (`coalescedRuns`: at most one
 * per `intervalMs`, never two at once); every state computed goes to the feed's streams, each of
 * which pushes it only when it differs from what that stream showed last.
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

  /**
   * The feed for `spec`: the one other streams share, or a new one — looked up when the stream
   * subscribes to its events, so that a stream asked for and never subscribed to (its client gone
   * meanwhile) leaves nothing behind.
   */
  feed(spec: AggregationFeedSpec): AggregationFeed {
    let e: Entry | undefined;
    // the entry shared now; after it ended (its last stream left, or a gap reset it) the next
    // subscription joins, or starts, the one shared then
    const entry = () => (e !== undefined && this.entries.get(spec.key) === e ? e : (e = this.entries.get(spec.key) ?? this.create(spec)));
    return {
      events: defer(() => entry().events),
      get live() {
        return entry().live;
      },
      get runs() {
        return entry().runs;
      },
      refresh: () => entry().refresh$.next(),
    };
  }

  private create(spec: AggregationFeedSpec): Entry {
    const refresh$ = new Subject<void>();
    const entry: Entry = { events: undefined as unknown as Observable<FeedEvent>, live: Promise.resolve(), runs: 0, refresh$ };
    const triggers = this.triggers(spec, entry).pipe(share());
    const changes = merge(triggers.pipe(filter((t) => t.kind === 'change')), refresh$.pipe(map((): Trigger => ({ kind: 'change' }))));
    const states = changes.pipe(
      coalescedRuns(() => spec.compute(), {
        intervalMs: this.options.intervalMs,
        settleMs: this.options.visibleAfterMs,
        limit: this.options.limit,
        onStart: () => {
          entry.runs++;
          this.computations++;
        },
      }),
      map((r): FeedEvent => {
        const data = stateData(r.value);
        return { kind: 'state', run: entry.runs, data, text: JSON.stringify(data), position: r.trigger.kind === 'change' ? r.trigger.position : undefined };
      }),
    );
    const ended = triggers.pipe(filter((t) => t.kind === 'ended'), map((t): FeedEvent => ({ kind: 'ended', event: (t as Extract<Trigger, { kind: 'ended' }>).event })));
    entry.events = merge(states, ended).pipe(
      takeWhile((e) => e.kind !== 'ended', true),
      finalize(() => {
        if (this.entries.get(spec.key) === entry) this.entries.delete(spec.key);
      }),
      share({ resetOnRefCountZero: true }),
    );
    this.entries.set(spec.key, entry);
    return entry;
  }

  /**
   * The changes of the index that may alter a feed's answer, while subscribed: a live search for
   * its query (registered on subscription, removed on teardown), and — once more documents matched
   * than it could track, so that one may leave unseen — every document change of the index.
   */
  private triggers(spec: AggregationFeedSpec, entry: Entry): Observable<Trigger> {
    return new Observable<Trigger>((subscriber) => {
      let markLive: () => void = () => {};
      let failLive: (err: unknown) => void = () => {};
      // live again with every subscription: a stream awaits the registration that serves it
      entry.live = new Promise<void>((resolve, reject) => {
        markLive = resolve;
        failLive = reject;
      });
      entry.live.catch(() => {}); // a stream that awaits it sees the failure; nobody else must
      let stopped = false;
      let remove: (() => void) | undefined;
      const search: LiveSearch = {
        query: spec.query,
        type: spec.type,
        trackedComplete: true,
        trackCap: spec.trackCap,
        decide: spec.decide,
        onVerdict: (verdict) => subscriber.next({ kind: 'change', position: verdict.change.position }),
        onIndexEvent: (event) => subscriber.next({ kind: 'ended', event }),
        onError: (err) => subscriber.error(err),
      };
      const untracked = this.bus.changes(spec.index).subscribe({
        next: (event) => {
          if (event.kind === 'document' && !search.trackedComplete && (spec.type === undefined || event.type === spec.type)) {
            subscriber.next({ kind: 'change', position: event.position });
          }
        },
        error: (err) => subscriber.error(err),
      });
      const index = this.searches.of(spec.index);
      (async () => {
        const ctx = spec.decide ? undefined : await this.searches.contexts.get(spec.index);
        if (!ctx && !spec.decide) throw new EsError(404, 'index_not_found_exception', `no such index [${spec.index}]`, { index: spec.index });
        remove = await index.add(search, ctx);
        if (stopped) return remove();
        await this.bus.subscribed(spec.index);
        const { ids, complete } = await spec.readMatchingIds(spec.trackCap);
        for (const id of ids) index.track(search, id);
        if (!complete) search.trackedComplete = false;
        markLive();
      })().catch((err) => {
        failLive(err);
        subscriber.error(err);
      });
      return () => {
        stopped = true;
        remove?.();
        untracked.unsubscribe();
      };
    });
  }
}

/** What a stream pushes of a state. */
export const stateData = (state: AggregationState): StateData => ({ aggregations: state.aggregations, hits: { total: state.total } });
