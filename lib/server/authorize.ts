import type { Middleware } from 'koa';
import type { Authorizer } from '../auth/authorizer.js';
import { CREDENTIALS_INDEX, type Principal } from '../auth/index.js';
import { EsError } from '../errors/index.js';

const CREDENTIALS_PATH = new RegExp(`^/([^/]*,)?${CREDENTIALS_INDEX.replace('.', '\\.')}(,|/|$)`);
import { bufferBody } from './request-body.js';

/** Requests whose body names indices (or sizes) the authorizer must read. */
const BODY_NAMES_INDICES = /\/(_bulk|_msearch|_mget|_reindex|_declarative(\/validate)?|_aliases|_credentials(\/[^/]+)?|_search(\/template)?|_count|_delete_by_query|_update_by_query)$/;

/**
 * Authorization of every request after authentication: the admin passes; a scoped credential is
 * checked by the Authorizer, and the request continues narrowed (index wildcards expanded to what
 * the credential may see, its field rules on `_source`).
 */
export function authorize(authorizer: Authorizer, maxContentLength: number): Middleware {
  return async (ctx, next) => {
    const principal = ctx.state.principal as Principal;
    if (CREDENTIALS_PATH.test(ctx.path)) {
      // hashes never leave the gateway, not even for the admin: credentials are managed through /_credentials
      throw new EsError(403, 'security_exception', `index [${CREDENTIALS_INDEX}] is reachable only through the /_credentials API`);
    }
    if (principal.role === 'admin') return next();
    const body = BODY_NAMES_INDICES.test(ctx.path) ? await bufferBody(ctx, maxContentLength) : undefined;
    const decision = await authorizer.authorize(principal, {
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      body,
      ip: ctx.request.ip || ctx.req.socket.remoteAddress || '',
      referer: ctx.get('referer') || undefined,
    });
    ctx.state.classification = decision.classification;
    if (decision.path !== ctx.path) ctx.path = decision.path;
    if (decision.querystring !== ctx.querystring) ctx.querystring = decision.querystring;
    await next();
  };
}
