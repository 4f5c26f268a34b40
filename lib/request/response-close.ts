import type { ServerResponse } from 'node:http';

type FinishedCallback = (err: unknown, msg: ServerResponse) => void;

/** on-finished's listener of a message: its callbacks' queue, run once (then null). */
export interface FinishedListener {
  (err?: unknown): void;
  queue: FinishedCallback[] | null;
  /** the gateway's own callbacks (`onResponseClose`), apart from on-finished's queue: a live stream empties that one */
  ends: (() => void)[] | null;
}

type FinishedResponse = ServerResponse & { __onFinished?: FinishedListener | null };

/**
 * Puts on a response the one `close` listener that tells everything waiting for its end: the
 * listener with a queue that on-finished keeps on a message (`__onFinished`), so that koa's own
 * callbacks (asked through on-finished) queue on it, and the gateway's (`onResponseClose`) in a
 * list of their own beside it.
 */
export function closeQueueOn(res: ServerResponse): void {
  const listener: FinishedListener = Object.assign(
    () => {
      if ((res as FinishedResponse).__onFinished === listener) (res as FinishedResponse).__onFinished = null;
      const { queue, ends } = listener;
      listener.queue = listener.ends = null;
      if (queue) for (let i = 0; i < queue.length; i++) queue[i](undefined, res);
      if (ends) for (let i = 0; i < ends.length; i++) ends[i]();
    },
    { queue: [] as FinishedCallback[] | null, ends: [] as (() => void)[] | null },
  );
  (res as FinishedResponse).__onFinished = listener;
  res.on('close', listener);
}

/**
 * Calls `done` once the response is over (sent or cut). On a response with the close queue
 * (`closeQueueOn`, every response of the gateway's server) it is queued there: no listener of
 * its own. A streamed body's pipeline adds seven `close` listeners of node's, so each one the
 * gateway added per request took a streamed answer past node's warning of ten.
 */
export function onResponseClose(res: ServerResponse, done: () => void): void {
  const ends = (res as FinishedResponse).__onFinished?.ends;
  if (ends) ends.push(done);
  else res.once('close', done);
}
