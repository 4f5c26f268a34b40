import type { Middleware } from 'koa';
import type { CircuitBreakers } from '../breakers/index.js';
import { hasBody, holdBodyIn, onResponseClose } from '../request/index.js';

/**
 * network.breaker.inflight_requests: every request body is counted against the in-flight breaker
 * as it is read, and released once its response is over; a body the breaker (or the parent, on
 * real memory) cannot hold is answered 429 `circuit_breaking_exception` where it is being read.
 */
export function inFlightRequests(breakers: CircuitBreakers): Middleware {
  const counted: Middleware = async (ctx, next) => {
    const held = breakers.reservation('in_flight_requests', '<http_request>');
    holdBodyIn(ctx.req, held);
    onResponseClose(ctx.res, () => held.release());
    try {
      await next();
    } finally {
      // a streamed answer keeps the body's bytes no longer than its handler did
      if (ctx.res.writableFinished || ctx.res.destroyed) held.release();
    }
  };
  // a request without a body goes on without a promise of this step's own
  return (ctx, next) => (hasBody(ctx) ? counted(ctx, next) : next());
}
