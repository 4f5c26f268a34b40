import type { Context } from 'koa';
import type { GatewayState } from '../auth/index.js';

/**
 * What is known of a request as it comes in, read once at the edge (lib/logging's
 * `requestContext`) for whatever runs once its response is over: the access line, the request log.
 */
export interface RequestArrival {
  /** The request's X-Request-Id (the client's own when sane, else generated). */
  readonly requestId: string;
  /** `performance.now()` as it came in. */
  readonly started: number;
  /** Epoch milliseconds as it came in. */
  readonly time: number;
  readonly method: string;
  /** The path as requested, without the query string. */
  readonly path: string;
  /** The query string as requested, '' when none (not redacted: each reader redacts what it keeps). */
  readonly querystring: string;
  /** The client's X-Opaque-Id, '' when none. */
  readonly opaqueId: string;
  /** The client address (`ctx.request.ip`). */
  readonly ip: string;
}

/**
 * Runs once a request's response is over (a live stream: when it ends), from the one `close`
 * listener the request context registers: it must not throw, and it does what it can later (the
 * request's thread has answered already, but the next request waits behind it).
 */
export type RequestEnd = (ctx: Context & { state: GatewayState }, arrival: RequestArrival) => void;
