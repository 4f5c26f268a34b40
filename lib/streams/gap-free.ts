import { Observable } from 'rxjs';
import { liveMessage } from './messages.js';
import type { StreamMessage } from './transports/index.js';

/**
 * How a stream starts: what it shows first, while the changes it follows are already arriving.
 * `emit` sends a message to the client (the current state, or the changes replayed from history;
 * `end`: the last one, the stream ends with it); `closed` tells whether the stream is over (the
 * client gone, or ended).
 */
export type StreamStart = (emit: (message: StreamMessage, end?: boolean) => void, closed: () => boolean) => Promise<void>;

/**
 * The skeleton every stream shares (documents, searches, aggregations, declarative UIs):
 * subscribe to what changes first, then read, hold what arrives meanwhile, and flush it once the
 * read is shown — so that no change falls between the read and the subscription. Then the live
 * marker (`liveMessage`), then every change as it comes.
 *
 * `changes` is subscribed at once; `start` runs after it (the current state, or a replay of the
 * history after a resume position) and may set what `render` needs to drop the changes it
 * already reflects; `render` turns a change into its message, or undefined when the client must
 * not see it (already shown, another document, not a change of the answer). A change may end
 * the stream by rendering a final message and returning `end: true`.
 *
 * An error of `changes`, of `start` or of `render` errors the stream; unsubscribing tears
 * `changes` down.
 */
export function gapFree<T>(
  changes: Observable<T>,
  start: StreamStart,
  render: (change: T) => { message: StreamMessage; end?: boolean } | undefined,
): Observable<StreamMessage> {
  return new Observable<StreamMessage>((subscriber) => {
    let live = false;
    const held: T[] = [];
    const deliver = (change: T) => {
      if (subscriber.closed) return;
      const out = render(change);
      if (!out) return;
      subscriber.next(out.message);
      if (out.end) subscriber.complete();
    };
    const subscription = changes.subscribe({
      next: (change) => {
        if (!live) held.push(change);
        else {
          try {
            deliver(change);
          } catch (err) {
            subscriber.error(err);
          }
        }
      },
      error: (err) => subscriber.error(err),
      complete: () => subscriber.complete(),
    });
    const emit = (message: StreamMessage, end?: boolean) => {
      if (subscriber.closed) return;
      subscriber.next(message);
      if (end) subscriber.complete();
    };
    start(emit, () => subscriber.closed)
      .then(() => {
        live = true;
        for (const change of held.splice(0)) deliver(change);
        if (!subscriber.closed) subscriber.next(liveMessage());
      })
      .catch((err) => subscriber.error(err));
    return () => subscription.unsubscribe();
  });
}
