import type { ServerResponse } from 'node:http';
import { Observable, Subscription } from 'rxjs';
import type { Framing, StreamMessage } from './framing.js';

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
}

/**
 * Writes an observable of messages to an HTTP response with the given framing: heartbeats while
 * idle, a bounded buffer, and teardown of the subscription when the client goes away.
 * Resolves when the response is finished (stream completed, errored, or client gone).
 */
export function writeStream(res: ServerResponse, messages: Observable<StreamMessage>, framing: Framing, options: WriteOptions): Promise<void> {
  return new Promise((resolve) => {
    let subscription: Subscription | undefined;
    let lastWrite = Date.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(heartbeat);
      subscription?.unsubscribe();
      if (!res.writableEnded) res.end();
      resolve();
    };
    const write = (text: string): boolean => {
      if (done) return false;
      lastWrite = Date.now();
      res.write(text);
      if (res.writableLength > options.maxBufferedBytes) {
        res.write(framing.frame(options.overflowMessage()));
        finish();
        return false;
      }
      return true;
    };
    const heartbeat = setInterval(() => {
      if (Date.now() - lastWrite >= options.heartbeatMs) write(framing.heartbeat);
    }, Math.max(50, Math.min(options.heartbeatMs, 1000)));
    heartbeat.unref();
    res.once('close', finish);
    if (framing.preamble) write(framing.preamble);
    subscription = messages.subscribe({
      next: (m) => void write(framing.frame(m)),
      error: (err) => {
        write(framing.frame(options.errorMessage(err)));
        finish();
      },
      complete: finish,
    });
    if (done) subscription.unsubscribe();
  });
}
