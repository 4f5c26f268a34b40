import compose from 'koa-compose';
import type { Context, Middleware } from 'koa';
import type { Classification, RouteFamily } from '../request/index.js';
import type { GatewayState } from './state.js';

/**
 * A handler of a route family; with `route`, it takes only the requests of that route id (the one
 * route table's, in the request value); with `claims`, only the requests it says yes to.
 */
export interface FamilyHandler {
  route?: string;
  claims?: (info: Classification, ctx: Context) => boolean;
  handler: Middleware<GatewayState>;
}

export type FamilyHandlers = Partial<Record<RouteFamily, FamilyHandler[]>>;

/**
 * Step 5, the one router table: a request goes to the handlers of its route family
 * (`ctx.state.request.family`, decided once by the classifier) that claim it, in order; whatever
 * they leave (they call `next`) goes on to the thin path. A request no handler claims goes
 * straight to the thin path: the engine family's pass-through meets no other middleware.
 */
export function dispatch(handlers: FamilyHandlers, thinPath: Middleware<GatewayState>): Middleware<GatewayState> {
  const table = new Map<RouteFamily, FamilyHandler[]>();
  for (const [family, list] of Object.entries(handlers) as Array<[RouteFamily, FamilyHandler[]]>) table.set(family, list);
  // a chain per set of claiming handlers, composed once
  const chains = new Map<string, Middleware<GatewayState>>();
  const chainOf = (claiming: FamilyHandler[], key: string) => {
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = compose([...claiming.map((h) => h.handler), thinPath])));
    return chain;
  };
  return (ctx, next) => {
    const info = ctx.state.request;
    const { route } = ctx.state.gatewayRequest;
    const list = table.get(info.family);
    if (!list) return thinPath(ctx, next);
    let key = '';
    let claiming: FamilyHandler[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const h = list[i];
      if ((h.route !== undefined && h.route !== route) || (h.claims && !h.claims(info, ctx))) continue;
      (claiming ??= []).push(h);
      key += `${i},`;
    }
    return claiming ? chainOf(claiming, `${info.family}:${key}`)(ctx, next) : thinPath(ctx, next);
  };
}
