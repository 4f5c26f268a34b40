import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeQueueOn } from '../request/index.js';

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
    closeQueueOn(res);
    void handle(req, res);
  };
}
