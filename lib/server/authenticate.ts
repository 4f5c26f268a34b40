import type { Middleware } from 'koa';
import type { Authenticator } from '../auth/index.js';
import type { GatewayState } from './state.js';

/** Step 2: every route is authenticated; the principal travels in ctx.state.principal. */
export function authenticate(authenticator: Authenticator): Middleware<GatewayState> {
  return async (ctx, next) => {
    const ip = ctx.request.ip || ctx.req.socket.remoteAddress || undefined;
    ctx.state.principal = await authenticator.authenticate(ctx.get('authorization') || undefined, ctx.path, ip);
    await next();
  };
}
