import compose from 'koa-compose';
import type { Middleware } from 'koa';
import type { RouteFamily } from '../request/index.js';
import type { GatewayState } from './state.js';

export type FamilyHandlers = Partial<Record<RouteFamily, Middleware<GatewayState>[]>>;

/**
 * Step 5, the one router table: a request goes to the handlers of its route family
 * (`ctx.state.request.family`, decided once by the classifier), and whatever they leave (they
 * call `next`) goes on to the thin path. A request of the engine family no feature claims meets
 * no other middleware on its way to the proxy.
 */
export function dispatch(handlers: FamilyHandlers, thinPath: Middleware<GatewayState>): Middleware<GatewayState> {
  const composed = new Map<RouteFamily, Middleware<GatewayState>>();
  for (const [family, list] of Object.entries(handlers) as Array<[RouteFamily, Middleware<GatewayState>[]]>) {
    composed.set(family, compose([...list, thinPath]));
  }
  return (ctx, next) => (composed.get(ctx.state.request.family) ?? thinPath)(ctx, next);
}
