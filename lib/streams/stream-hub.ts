import { Observable, Subject } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import type { Backend } from '../engine/index.js';
import type { StreamConfig } from '../config/index.js';
import { AggregationFeeds } from './aggregation-feeds.js';
import pLimit from 'p-limit';
import { SharedRuns } from './shared-runs.js';
import { DocumentListeners } from './document-listeners.js';
import { documentStream, type DocumentStreamSpec } from './document-stream.js';
import { LiveSearches } from './live-searches.js';
import { MatchContexts } from './match-contexts.js';
import { shutdownMessage, timeLimitMessage } from './messages.js';
import { searchStream, type SearchStreamSpec } from './search-stream.js';
import type { StreamMessage } from './transports/index.js';
import { StreamTallies, type StreamTransport } from './stream-tallies.js';

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
  private readonly shutdown$ = new Subject<void>();
  private shuttingDown = false;
  private open = 0;

  constructor(readonly bus: ChangeBus, backend: Backend, readonly config: StreamConfig) {
    this.documents = new DocumentListeners(bus);
    this.searches = new LiveSearches(bus, new MatchContexts(backend));
    // live aggregations and declarative UIs share one limit on the computations in flight
    const limit = pLimit(config.aggConcurrency);
    this.aggregations = new AggregationFeeds(bus, this.searches, { intervalMs: config.aggIntervalMs, visibleAfterMs: config.visibleAfterMs, limit });
    this.declaratives = new SharedRuns(limit);
  }

  /** Streams currently open on this node. */
  get openStreams(): number {
    return this.open;
  }

  /** `transport`: how the stream reaches its client, for the node's counts (`tallies`). */
  document(spec: DocumentStreamSpec, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    return this.tallies.track('document', transport, this.bounded(documentStream(this.bus, this.documents, spec)));
  }

  search(spec: SearchStreamSpec, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    return this.tallies.track('search', transport, this.bounded(searchStream(this.bus, this.searches, spec)));
  }

  /** A live declarative UI (`liveDeclarative`), with the limits and counts of every stream. */
  declarative(messages: Observable<StreamMessage>, transport: StreamTransport = 'json'): Observable<StreamMessage> {
    return this.tallies.track('declarative', transport, this.bounded(messages));
  }

  /**
   * Ends every stream with its final message (`_stream_end`), open now or opened later
   * (graceful shutdown: a stream whose request was in flight ends as soon as it starts).
   */
  closeAll(): void {
    this.shuttingDown = true;
    this.shutdown$.next();
  }

  /**
   * At most `maxDurationMs`, then a final message; ends on shutdown with one too (at once for a
   * stream asked for while the node shuts down); counted while open. This is `takeUntil(timer or shutdown)` + the final message + `finalize`, written out:
   * the operator chain costs about 9 KiB more per open stream (measured with bench:streams at
   * 10,000 document streams: 29.0 against 19.7 KiB), and a node holds tens of thousands.
   */
  private bounded(messages: Observable<StreamMessage>): Observable<StreamMessage> {
    const max = this.config.maxDurationMs;
    return new Observable<StreamMessage>((subscriber) => {
      const end = (final: StreamMessage) => {
        subscriber.next(final);
        subscriber.complete();
      };
      if (this.shuttingDown) {
        end(shutdownMessage());
        return;
      }
      this.open++;
      const timer = setTimeout(() => end(timeLimitMessage(max)), max);
      timer.unref();
      const stop = this.shutdown$.subscribe(() => end(shutdownMessage()));
      const sub = messages.subscribe(subscriber);
      return () => {
        this.open--;
        clearTimeout(timer);
        stop.unsubscribe();
        sub.unsubscribe();
      };
    });
  }

}
