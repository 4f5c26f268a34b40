import type { Middleware } from 'koa';
import type { Authenticator } from '../auth/index.js';

/** Every route is authenticated; the principal travels in ctx.state.principal. */
export function authenticate(authenticator: Authenticator): Middleware {
  return async (ctx, next) => {
    ctx.state.principal = await authenticator.authenticate(ctx.get('authorization') || undefined, ctx.path);
    await next();
  };
}
