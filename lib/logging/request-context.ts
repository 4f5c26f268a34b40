import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatewayState } from '../auth/index.js';
import type { EndedRequest, RequestArrival, RequestEnd } from '../logs/index.js';
import { onResponseClose } from '../request/index.js';
import { AccessLog } from './access-log.js';

/**
 * A client's own X-Request-Id is kept when it is this sane; any other is replaced by a generated one.
 * Neither needs escaping in a JSON string (`RequestArrival.requestId`'s contract).
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

export interface RequestContextOptions {
  /** Where access lines go; absent: none. */
  logger?: Logger;
  /** ACCESS_LOG: one access line per request. */
  accessLog: boolean;
  /** What else runs once each response is over (the request log's record), after the access line. */
  ends?: readonly RequestEnd[];
}

/**
 * The request's context, before anything else (README, "The request's way through", step 1):
 *
 * - every response answers an `X-Request-Id`: the client's own when it sent a sane one, else a
 *   generated UUID; the access line carries the same id;
 * - a client's `X-Opaque-Id` is echoed on every response, as Elasticsearch does, whichever engine
 *   (or gateway API, or the search cache) answers; it reaches the engine with the client's headers;
 * - what the request's end needs (`RequestArrival`) is read once as it comes in, and one `close`
 *   listener runs the access line (ACCESS_LOG, with a logger at `info` or below) and the other
 *   `ends` once the response is over: one listener and one small value per request, whatever
 *   reads them;
 * - a response that outlives its handling (a live stream: its handler took the response over and
 *   its head is out) lets its koa context go: what its end reads is kept apart (`EndedRequest`),
 *   so that a node holding tens of thousands of streams does not hold as many request contexts.
 */
export function requestContext(options: RequestContextOptions): Middleware<GatewayState> {
  const access = options.accessLog && options.logger?.isLevelEnabled('info') ? new AccessLog(options.logger) : undefined;
  const ends: RequestEnd[] = [...(access ? [access.end] : []), ...(options.ends ?? [])];
  return (ctx, next) => {
    // read as koa's `ctx.get` reads them ('' when absent), without its lower-casing of the name
    const headers = ctx.req.headers as Record<string, string | undefined>;
    const sent = headers['x-request-id'] || '';
    const requestId = SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    // nothing is sent yet: the header goes straight onto the response (koa's `set` checks and converts)
    ctx.res.setHeader('X-Request-Id', requestId);
    const opaqueId = headers['x-opaque-id'] || '';
    if (opaqueId) ctx.set('X-Opaque-Id', opaqueId);
    if (!ends.length) return next();
    const arrival: RequestArrival = {
      requestId,
      started: performance.now(),
      time: Date.now(),
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      opaqueId,
      ip: ctx.request.ip,
    };
    const ending = new RequestEnding(ctx, arrival, ends);
    return next().then(() => ending.handled(ctx));
  };
}

/**
 * A request's end, waiting for its response to be over: what the `ends` read (the context while
 * the request is handled, a few values of it after), with the one `close` listener that runs them.
 * A class rather than a closure: a closure over the middleware's scope would keep the context.
 */
class RequestEnding {
  private request: EndedRequest;

  constructor(ctx: Context & { state: GatewayState }, private readonly arrival: RequestArrival, private readonly ends: readonly RequestEnd[]) {
    this.request = ctx;
    onResponseClose(ctx.res, this.closed);
  }

  /** The handlers are done: a response they took over and keep open is let go of its context. */
  handled(ctx: Context & { state: GatewayState }): void {
    if (ctx.respond !== false || ctx.res.writableEnded || ctx.res.destroyed) return;
    const { request, principal, body } = ctx.state;
    // of the classification, what the ends read (its sources, segments, parsed body are let go too)
    const classification = request && {
      family: request.family, category: request.category, operation: request.operation, action: request.action,
      indices: request.indices.slice(), allIndices: request.allIndices,
    };
    this.request = { req: ctx.req, res: ctx.res, method: ctx.method, state: { request: classification, principal, body }, body: undefined };
  }

  private readonly closed = (): void => {
    const { request, arrival, ends } = this;
    for (let i = 0; i < ends.length; i++) ends[i](request, arrival);
  };
}
