import type { ServerResponse } from 'node:http';
import type { Observable, Observer, Subscription } from 'rxjs';
import { frameBytes, type Framing, type StreamMessage } from './framing.js';
import { heartbeatClock, type Beating } from './heartbeats.js';

export interface WriteOptions {
  heartbeatMs: number;
  /**
   * Bytes allowed to wait in the socket buffer for a slow client. Past it the stream ends with an
   * error object rather than growing memory without bound.
   */
  maxBufferedBytes: number;
  /** The message sent (then the stream ends) when the buffer cap is hit. */
  overflowMessage: () => StreamMessage;
  /** The message sent (then the stream ends) when the observable errors. */
  errorMessage: (err: unknown) => StreamMessage;
  /**
   * Writes the response head. With `awaitFirst`, it is called on the first message, and an error
   * before it rejects the returned promise instead of being written: a stream whose initial read
   * fails answers with that error's status, not with a 200 carrying an error object.
   */
  start: () => void;
  awaitFirst?: boolean;
}

/**
 * Writes an observable of messages to an HTTP response with the given framing: heartbeats while
 * idle (one shared timer, `heartbeatClock`), a bounded buffer, and teardown of the subscription
 * when the client goes away.
 *
 * Resolves once the response has started (its head written: at once, or with the first message
 * under `awaitFirst`; or the client left first), so that the caller's request handling ends there
 * and keeps nothing of a stream that lives for hours; what must happen when the response is over
 * listens to its `close`.
 */
export function writeStream(res: ServerResponse, messages: Observable<StreamMessage>, framing: Framing, options: WriteOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = new HttpSink(res, framing, options, resolve, reject);
    sink.subscribe(messages);
  });
}

/**
 * One HTTP stream: the observer of its messages and its heartbeat, as one object (a node holds
 * tens of thousands; closures per stream would cost each of them more).
 */
class HttpSink implements Observer<StreamMessage>, Beating {
  private subscription: Subscription | undefined;
  private started = false;
  private finished = false;
  /** Heartbeat ticks since the last write. */
  private idleTicks = 0;
  private readonly ticksPerBeat: number;
  private readonly clock: ReturnType<typeof heartbeatClock>;

  constructor(
    private readonly res: ServerResponse,
    private readonly framing: Framing,
    private readonly options: WriteOptions,
    private readonly resolveStart: () => void,
    private readonly rejectStart: (err: unknown) => void,
  ) {
    const periodMs = Math.max(50, Math.min(options.heartbeatMs, 1000));
    this.ticksPerBeat = Math.max(1, Math.round(options.heartbeatMs / periodMs));
    this.clock = heartbeatClock(periodMs);
    res.once('close', () => this.finish());
  }

  subscribe(messages: Observable<StreamMessage>): void {
    if (!this.options.awaitFirst) this.start();
    this.subscription = messages.subscribe(this);
    if (this.finished) this.subscription.unsubscribe();
  }

  next(message: StreamMessage): void {
    this.start();
    const bytes = frameBytes(this.framing, message);
    if (bytes) this.write(bytes);
  }

  error(err: unknown): void {
    if (!this.started) {
      this.finished = true;
      this.subscription?.unsubscribe();
      this.rejectStart(err);
      return;
    }
    this.write(frameBytes(this.framing, this.options.errorMessage(err)));
    this.finish();
  }

  complete(): void {
    this.start();
    this.finish();
  }

  tick(): void {
    if (++this.idleTicks >= this.ticksPerBeat) this.write(this.framing.heartbeat);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.options.start();
    this.clock.add(this);
    if (this.framing.preamble) this.write(this.framing.preamble);
    this.resolveStart();
  }

  private write(bytes: Buffer | string | undefined): void {
    if (this.finished || bytes === undefined) return;
    this.idleTicks = 0;
    const res = this.res;
    res.write(bytes);
    if (res.writableLength > this.options.maxBufferedBytes) {
      res.write(frameBytes(this.framing, this.options.overflowMessage()) ?? '');
      this.finish();
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.clock.delete(this);
    this.subscription?.unsubscribe();
    if (!this.res.writableEnded) this.res.end();
    // over before it began (the client left first): nothing was written, nothing to answer
    if (!this.started) this.resolveStart();
  }
}
