import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import { isHistoryGone, type ChangeBus } from '../changes/index.js';
import type { InterceptedBackend } from '../engine/index.js';
import type { StreamConfig } from '../config/index.js';
import { AggregationFeeds } from './aggregation-feeds.js';
import pLimit from 'p-limit';
import { SharedRuns } from './shared-runs.js';
import { DocumentListeners } from './document-listeners.js';
import { documentStream, type DocumentStreamSpec } from './document-stream.js';
import { LiveSearches } from './live-searches.js';
import { MatchContexts } from './match-contexts.js';
import { resetMessage, shutdownMessage, timeLimitMessage } from './messages.js';
import { searchStream, type SearchStreamSpec } from './search-stream.js';
import { StreamSubscriber, type StreamMessage } from './transports/index.js';
import { StreamLifetimes, type Ending } from './stream-lifetimes.js';
import { StreamTallies, type StreamKind, type StreamTally, type StreamTransport } from './stream-tallies.js';

/** How a hub stream (re)opens what it carries: the first time with the client's resume position, after a reset without one. */
type Opener = (since: string | undefined) => Observable<StreamMessage>;

/**
 * One stream as the hub bounds it, as one object (a node holds tens of thousands): counted while
 * open (`tallies`), ended at its maximum duration or on shutdown with a final message
 * (`StreamLifetimes`), and surviving a discontinuity: when the history cannot bridge a gap
 * (`historyGone`: the position it resumes from is gone, or its node's live delivery lost changes
 * it cannot recover), the client is told `_reset` and the stream starts again from the current
 * state — never a silent gap, never a stream that just ends.
 */
class HubStream implements Ending {
  private attempt: Attempt | undefined;
  /** Counted among the open streams (`StreamLifetimes`) until it is over. */
  private entered = false;
  /** `StreamLifetimes`' own. */
  deadline = 0;

  constructor(
    private readonly out: Subscriber<StreamMessage>,
    private readonly open: Opener,
    private readonly tally: StreamTally,
    private readonly lifetimes: StreamLifetimes,
    private readonly maxDurationMs: number,
  ) {}

  run(since: string | undefined): TeardownLogic {
    this.tally.open++;
    this.entered = true;
    this.lifetimes.enter(this);
    this.subscribe(since);
    return this;
  }

  /** `StreamLifetimes`: the stream's time is up, or the node shuts down. */
  end(why: 'time' | 'shutdown'): void {
    const final = why === 'time' ? timeLimitMessage(this.maxDurationMs) : shutdownMessage();
    this.tally.pushed++;
    this.out.next(final);
    this.out.complete();
  }

  /** A message of the current attempt. */
  pushed(message: StreamMessage): void {
    if (!message.live) this.tally.pushed++;
    this.out.next(message);
  }

  failed(err: unknown): void {
    const out = this.out;
    if (!isHistoryGone(err)) return out.error(err);
    this.pushed(resetMessage(err));
    // once the failed subscriptions' teardowns have run: the new one subscribes afresh
    setImmediate(() => {
      if (!out.closed) this.subscribe(undefined);
    });
  }

  completed(): void {
    this.out.complete();
  }

  unsubscribe(): void {
    if (!this.entered) return;
    this.entered = false;
    this.tally.open--;
    this.lifetimes.leave(this);
    this.attempt?.unsubscribe();
  }

  private subscribe(since: string | undefined): void {
    const attempt = (this.attempt = new Attempt(this));
    this.open(since).subscribe(attempt);
  }
}

/** One subscription of a `HubStream` to what it carries (a new one after each reset). */
class Attempt extends StreamSubscriber<StreamMessage> {
  constructor(private readonly stream: HubStream) {
    super();
  }

  protected override _next(message: StreamMessage): void {
    this.stream.pushed(message);
  }

  protected override _error(err: unknown): void {
    this.unsubscribe();
    this.stream.failed(err);
  }

  protected override _complete(): void {
    this.unsubscribe();
    this.stream.completed();
  }
}

/**
 * Everything the streams of one node share: the bus, the document listeners, the index of live
 * searches, the lifetime limit and the shutdown signal. Transports (HTTP, WebSocket) ask it for
 * observables and only turn them into bytes or frames.
 */
export class StreamHub {
  readonly documents: DocumentListeners;
  readonly searches: LiveSearches;
  /** The live aggregations of this node's search streams, one computation per distinct search. */
  readonly aggregations: AggregationFeeds;
  /** The shared computations of live declarative UIs. */
  readonly declaratives: SharedRuns;
  /** Streams by kind and transport: open, messages pushed, dropped for a client that does not read. */
  readonly tallies = new StreamTallies();
  private readonly lifetimes: StreamLifetimes;
  private shuttingDown = false;
  /**
   * The usernames whose credentials changed (Authenticator.credentialChanges), on any node: a
   * scoped credential's stream, of any kind and on any transport, ends when its credential does.
   */
  credentialChanges?: Observable<string>;

  constructor(readonly bus: ChangeBus, backend: InterceptedBackend, readonly config: StreamConfig) {
    this.documents = new DocumentListeners(bus);
    this.searches = new LiveSearches(bus, new MatchContexts(backend));
    // live aggregations and declarative UIs share one limit on the computations in flight
    const limit = pLimit(config.aggConcurrency);
    this.aggregations = new AggregationFeeds(bus, this.searches, { intervalMs: config.aggIntervalMs, visibleAfterMs: config.visibleAfterMs, limit });
    this.declaratives = new SharedRuns(limit);
    this.lifetimes = new StreamLifetimes(config.maxDurationMs);
  }

  /** Streams currently open on this node. */
  get openStreams(): number {
    return this.lifetimes.size;
  }

  /** `transport`: how the stream reaches its client, for the node's counts (`tallies`). */
  document(spec: DocumentStreamSpec, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    return this.bounded('document', transport, (since) => documentStream(this.bus, this.documents, { ...spec, since }), spec.since);
  }

  search(spec: SearchStreamSpec, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    return this.bounded('search', transport, (since) => searchStream(this.bus, this.searches, { ...spec, since }), spec.since);
  }

  /** A live declarative UI (`liveDeclarative`), with the limits, counts and resets of every stream. */
  declarative(messages: Observable<StreamMessage>, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    // `messages` starts afresh on each subscription (a new shared run, a new first answer)
    return this.bounded('declarative', transport, () => messages);
  }

  /**
   * Ends every stream with its final message (`_stream_end`), open now or opened later
   * (graceful shutdown: a stream whose request was in flight ends as soon as it starts).
   */
  closeAll(): void {
    this.shuttingDown = true;
    this.lifetimes.endAll();
  }

  /**
   * At most `maxDurationMs`, then a final message; ends on shutdown with one too (at once for a
   * stream asked for while the node shuts down); counted while open (`tallies`: open streams and
   * messages pushed, the live marker not counted); reset after a discontinuity. This is
   * `takeUntil(timer or shutdown)` + the final message + `finalize` + a retry on `historyGone`,
   * written as one object per stream (`HubStream`) over one timer for all streams
   * (`StreamLifetimes`): a node holds tens of thousands of streams, and each operator, timer and
   * subscription costs every one of them memory (bench:streams prints the RSS per stream).
   */
  private bounded(kind: StreamKind, transport: StreamTransport, open: Opener, since?: string): Observable<StreamMessage> {
    return new Observable<StreamMessage>((out) => {
      const tally = this.tallies.of(kind, transport);
      if (this.shuttingDown) {
        tally.pushed++;
        out.next(shutdownMessage());
        out.complete();
        return undefined;
      }
      return new HubStream(out, open, tally, this.lifetimes, this.config.maxDurationMs).run(since);
    });
  }
}
