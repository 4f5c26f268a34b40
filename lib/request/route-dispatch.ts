import type { Context, Middleware, Next } from 'koa';
import type { GatewayRequest } from './gateway-request.js';

/** A handler of one route id, given the route's decoded path parameters. */
export type RouteHandler = (ctx: Context, params: Readonly<Record<string, string>>, next: Next) => unknown;

/**
 * The dispatcher of a module's routes: the handler of the request value's route id (the one route
 * table's `GATEWAY_ROUTES`), called with its path parameters; a request of another
 * route goes on (`next`).
 */
export function byRoute(handlers: Readonly<Partial<Record<string, RouteHandler>>>): Middleware {
  return async (ctx, next) => {
    const req = (ctx.state as { gatewayRequest?: GatewayRequest }).gatewayRequest;
    const handler = req && Object.hasOwn(handlers, req.route) ? handlers[req.route] : undefined;
    if (handler) await handler(ctx, req!.pathParams, next);
    else await next();
  };
}
