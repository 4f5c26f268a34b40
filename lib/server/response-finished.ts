import type { IncomingMessage, ServerResponse } from 'node:http';

type FinishedCallback = (err: unknown, msg: ServerResponse) => void;

/** on-finished's listener of a message: its callbacks' queue, run once (then null). */
interface FinishedListener {
  (err?: unknown): void;
  queue: FinishedCallback[] | null;
}

/**
 * Koa asks `on-finished` to call it back once each response is over (its error handler, and the
 * `destroy` of a streamed body). on-finished listens for that with `ee-first` on the response
 * (`end`, `finish`) and on its socket (`error`, `close`): four listeners and about ten closures
 * with their scopes per response, kept as long as the response is open — hours for a live
 * stream, about 1.5 KB for each of tens of thousands (bench:streams prints the RSS per stream).
 *
 * The response's `close` tells the same — it is emitted once the response is over, sent or cut
 * (its socket's error or close) — with one listener: it is put on each response before koa asks,
 * as the listener with a queue that on-finished keeps on a message (`__onFinished`); on-finished
 * then only queues its callbacks on it. The callbacks are called without the socket's error:
 * koa's handler reports it to the app's `error` event only, which is silent here (`app.silent`,
 * no listener), and a body's `destroy` takes no error.
 */
export function finishedOnClose(handle: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const listener = finishedListener(res);
    (res as FinishedResponse).__onFinished = listener;
    res.on('close', listener);
    void handle(req, res);
  };
}

type FinishedResponse = ServerResponse & { __onFinished?: FinishedListener | null };

/** A response's listener with its queue, run once, as on-finished's own (`createListener`). */
function finishedListener(res: FinishedResponse): FinishedListener {
  const listener: FinishedListener = Object.assign(
    () => {
      if (res.__onFinished === listener) res.__onFinished = null;
      const queue = listener.queue;
      if (!queue) return;
      listener.queue = null;
      for (let i = 0; i < queue.length; i++) queue[i](undefined, res);
    },
    { queue: [] as FinishedCallback[] | null },
  );
  return listener;
}
