import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatewayState } from '../auth/index.js';
import { AccessLog } from './access-log.js';

/** A client's own X-Request-Id is kept when it is this sane; any other is replaced by a generated one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

export interface RequestContextOptions {
  /** Where access lines go; absent: none. */
  logger?: Logger;
  /** ACCESS_LOG: one access line per request. */
  accessLog: boolean;
}

/**
 * The request's context, before anything else (README, "The request's way through", step 1):
 *
 * - every response answers an `X-Request-Id`: the client's own when it sent a sane one, else a
 *   generated UUID; the access line carries the same id;
 * - a client's `X-Opaque-Id` is echoed on every response, as Elasticsearch does, whichever engine
 *   (or gateway API, or the search cache) answers; it reaches the engine with the client's headers;
 * - with ACCESS_LOG (and a logger at `info` or below), the request's access line (`AccessLog`).
 */
export function requestContext(options: RequestContextOptions): Middleware<GatewayState> {
  const access = options.accessLog && options.logger?.isLevelEnabled('info') ? new AccessLog(options.logger) : undefined;
  return (ctx, next) => {
    const sent = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    ctx.set('X-Request-Id', requestId);
    const opaqueId = ctx.get('x-opaque-id');
    if (opaqueId) ctx.set('X-Opaque-Id', opaqueId);
    access?.begin(ctx, requestId);
    return next();
  };
}
