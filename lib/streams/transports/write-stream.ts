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
 * idle, a bounded buffer, and teardown of the subscription when the client goes away.
 * Resolves when the response is finished (stream completed, errored, or client gone).
 */
export function writeStream(res: ServerResponse, messages: Observable<StreamMessage>, framing: Framing, options: WriteOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    let subscription: Subscription | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    let lastWrite = Date.now();
    let started = false;
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
    const start = () => {
      if (started) return;
      started = true;
      options.start();
      heartbeat = setInterval(() => {
        if (Date.now() - lastWrite >= options.heartbeatMs) write(framing.heartbeat);
      }, Math.max(50, Math.min(options.heartbeatMs, 1000)));
      heartbeat.unref();
      if (framing.preamble) write(framing.preamble);
    };
    res.once('close', finish);
    if (!options.awaitFirst) start();
    subscription = messages.subscribe({
      next: (m) => {
        start();
        const text = framing.frame(m);
        if (text) write(text);
      },
      error: (err) => {
        if (!started) {
          done = true;
          subscription?.unsubscribe();
          reject(err);
          return;
        }
        write(framing.frame(options.errorMessage(err)));
        finish();
      },
      complete: () => {
        start();
        finish();
      },
    });
    if (done) subscription.unsubscribe();
  });
}
