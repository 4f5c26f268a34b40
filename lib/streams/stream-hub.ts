import { Observable, Subject, takeUntil } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import type { Backend } from '../engine/index.js';
import type { StreamConfig } from '../config/index.js';
import { DocumentListeners } from './document-listeners.js';
import { documentStream, type DocumentStreamSpec } from './document-stream.js';
import { LiveSearches } from './live-searches.js';
import { MatchContexts } from './match-contexts.js';
import { timeLimitMessage } from './messages.js';
import { searchStream, type SearchStreamSpec } from './search-stream.js';
import type { StreamMessage } from './transports/index.js';

/**
 * Everything the streams of one node share: the bus, the document listeners, the index of live
 * searches, the lifetime limit and the shutdown signal. Transports (HTTP, WebSocket) ask it for
 * observables and only turn them into bytes or frames.
 */
export class StreamHub {
  readonly documents: DocumentListeners;
  readonly searches: LiveSearches;
  private readonly shutdown$ = new Subject<void>();
  private open = 0;

  constructor(readonly bus: ChangeBus, backend: Backend, readonly config: StreamConfig) {
    this.documents = new DocumentListeners(bus);
    this.searches = new LiveSearches(bus, new MatchContexts(backend));
  }

  /** Streams currently open on this node. */
  get openStreams(): number {
    return this.open;
  }

  document(spec: DocumentStreamSpec): Observable<StreamMessage> {
    return this.bounded(documentStream(this.bus, this.documents, spec));
  }

  search(spec: SearchStreamSpec): Observable<StreamMessage> {
    return this.bounded(searchStream(this.bus, this.searches, spec));
  }

  /** Ends every stream cleanly (graceful shutdown). */
  closeAll(): void {
    this.shutdown$.next();
  }

  /** At most `maxDurationMs`, then a final message; ends on shutdown; counted while open. */
  private bounded(messages: Observable<StreamMessage>): Observable<StreamMessage> {
    const max = this.config.maxDurationMs;
    return new Observable<StreamMessage>((subscriber) => {
      this.open++;
      const timer = setTimeout(() => {
        subscriber.next(timeLimitMessage(max));
        subscriber.complete();
      }, max);
      timer.unref();
      const sub = messages.pipe(takeUntil(this.shutdown$)).subscribe(subscriber);
      return () => {
        this.open--;
        clearTimeout(timer);
        sub.unsubscribe();
      };
    });
  }
}
