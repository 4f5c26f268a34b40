import type { ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import { StreamSubscriber } from './stream-subscriber.js';
import { chunkBytes, frameBytes, type Framing, type StreamMessage } from './framing.js';
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
   * fails answers with that error's status, not with a 200 carrying an error object. It is given
   * the response, so that one options value can serve every stream of a kind.
   */
  start: (res: ServerResponse) => void;
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
    sink.follow(messages);
  });
}

/** A framing's heartbeat as bytes, and as a chunk. */
const heartbeats = new Map<Framing, StreamMessage>();
const heartbeatOf = (framing: Framing): StreamMessage => {
  let beat = heartbeats.get(framing);
  if (beat === undefined) heartbeats.set(framing, (beat = { data: undefined, encoded: { framing, bytes: Buffer.from(framing.heartbeat) } }));
  return beat;
};

/**
 * One HTTP stream: the subscriber of its messages and its heartbeat, as one object (a node holds
 * tens of thousands; closures, or a subscriber wrapping it, would cost each of them more). Once
 * the head is out, a message is one write of its bytes, framed once for every stream that sends
 * it (`chunkBytes`), to the socket.
 */
class HttpSink extends StreamSubscriber<StreamMessage> implements Beating {
  private started = false;
  private finished = false;
  /** Heartbeat ticks since the last write. */
  private idleTicks = 0;
  private readonly ticksPerBeat: number;
  private readonly clock: ReturnType<typeof heartbeatClock>;
  /** Until the head is written: how the caller learns it (then dropped). */
  private settle: { resolve: () => void; reject: (err: unknown) => void } | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly framing: Framing,
    private readonly options: WriteOptions,
    resolveStart: () => void,
    rejectStart: (err: unknown) => void,
  ) {
    super();
    this.settle = { resolve: resolveStart, reject: rejectStart };
    const periodMs = Math.max(50, Math.min(options.heartbeatMs, 1000));
    this.ticksPerBeat = Math.max(1, Math.round(options.heartbeatMs / periodMs));
    this.clock = heartbeatClock(periodMs);
    // `on`, not `once`: finish is idempotent, and `once` wraps the listener in two objects more per stream
    res.on('close', () => this.finish());
  }

  follow(messages: Observable<StreamMessage>): void {
    if (!this.options.awaitFirst) this.start();
    messages.subscribe(this);
    if (this.finished) this.unsubscribe();
  }

  protected override _next(message: StreamMessage): void {
    this.start();
    this.write(message);
  }

  protected override _error(err: unknown): void {
    if (!this.started) {
      this.finished = true;
      this.unsubscribe();
      const settle = this.settle;
      this.settle = undefined;
      settle?.reject(err);
      return;
    }
    this.write(this.options.errorMessage(err));
    this.finish();
  }

  protected override _complete(): void {
    this.start();
    this.finish();
  }

  tick(): void {
    if (++this.idleTicks >= this.ticksPerBeat) this.write(heartbeatOf(this.framing));
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.options.start(this.res);
    this.clock.add(this);
    if (this.framing.preamble) this.write({ data: undefined, encoded: { framing: this.framing, bytes: Buffer.from(this.framing.preamble) } });
    const settle = this.settle;
    this.settle = undefined;
    settle?.resolve();
  }

  private write(message: StreamMessage): void {
    if (this.finished) return;
    const res = this.res;
    const socket = res.socket;
    // the head is out and nothing waits in the response's own buffer: the message goes to the
    // socket as it is (or as its chunk), in one write; else through the response, which queues it
    if (socket !== null && res.headersSent && res.writableLength === socket.writableLength && !socket.destroyed) {
      const bytes = res.chunkedEncoding ? chunkBytes(this.framing, message) : frameBytes(this.framing, message);
      if (bytes === undefined) return;
      this.idleTicks = 0;
      socket.write(bytes);
    } else {
      const bytes = frameBytes(this.framing, message);
      if (bytes === undefined) return;
      this.idleTicks = 0;
      res.write(bytes);
    }
    if (res.writableLength > this.options.maxBufferedBytes) {
      const overflow = frameBytes(this.framing, this.options.overflowMessage());
      if (overflow) res.write(overflow);
      this.finish();
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.clock.delete(this);
    this.unsubscribe();
    if (!this.res.writableEnded) this.res.end();
    // over before it began (the client left first): nothing was written, nothing to answer
    if (!this.started) {
      const settle = this.settle;
      this.settle = undefined;
      settle?.resolve();
    }
  }
}
