import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatewayState } from '../auth/index.js';
import type { RequestArrival, RequestEnd } from '../logs/index.js';
import { AccessLog } from './access-log.js';

/** A client's own X-Request-Id is kept when it is this sane; any other is replaced by a generated one. */
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
 *   reads them.
 */
export function requestContext(options: RequestContextOptions): Middleware<GatewayState> {
  const access = options.accessLog && options.logger?.isLevelEnabled('info') ? new AccessLog(options.logger) : undefined;
  const ends: RequestEnd[] = [...(access ? [access.end] : []), ...(options.ends ?? [])];
  return (ctx, next) => {
    const sent = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    ctx.set('X-Request-Id', requestId);
    const opaqueId = ctx.get('x-opaque-id');
    if (opaqueId) ctx.set('X-Opaque-Id', opaqueId);
    if (ends.length) {
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
      // `on`, not `once`: a response closes once, and `once` wraps the listener in another per request
      ctx.res.on('close', () => {
        for (let i = 0; i < ends.length; i++) ends[i](ctx, arrival);
      });
    }
    return next();
  };
}
