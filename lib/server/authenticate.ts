import type { Middleware } from 'koa';
import type { Authenticator } from '../auth/index.js';
import type { GatewayState } from './state.js';

/**
 * Step 2: every route is authenticated; the principal travels in ctx.state.principal. A header
 * verified before is found without waiting; only a new one waits for its verification.
 */
export function authenticate(authenticator: Authenticator): Middleware<GatewayState> {
  return (ctx, next) => {
    const ip = ctx.request.ip || ctx.req.socket.remoteAddress || undefined;
    const header = ctx.req.headers.authorization || undefined;
    const known = authenticator.verified(header, ctx.path, ip);
    if (known) {
      ctx.state.principal = known;
      return next();
    }
    return authenticator.authenticate(header, ctx.path, ip).then((principal) => {
      ctx.state.principal = principal;
      return next();
    });
  };
}
