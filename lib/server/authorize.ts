import type { Middleware } from 'koa';
import type { Authorizer } from '../auth/authorizer.js';
import { CREDENTIALS_INDEX, type Principal } from '../auth/index.js';
import { EsError } from '../errors/index.js';

const CREDENTIALS_PATH = new RegExp(`^/([^/]*,)?${CREDENTIALS_INDEX.replace('.', '\\.')}(,|/|$)`);
import { Readable } from 'node:stream';
import { ScrollOwners, scrollIdsOf } from '../auth/scroll-owners.js';
import { readBody } from '../engine/index.js';
import { bufferBody } from './request-body.js';

/** Requests whose body names indices (or sizes) the authorizer must read. */
const BODY_NAMES_INDICES = /\/(_bulk|_msearch|_mget|_reindex|_declarative(\/validate)?|_aliases|_credentials(\/[^/]+)?|_search(\/template|\/scroll(\/[^/]+)?)?|_count|_delete_by_query|_update_by_query)$/;
const SCROLL_PATH = /^\/_search\/scroll(\/[^/]+)?$/;

/**
 * Authorization of every request after authentication: the admin passes; a scoped credential is
 * checked by the Authorizer, and the request continues narrowed (index wildcards expanded to what
 * the credential may see, its field rules on `_source`).
 */
export function authorize(authorizer: Authorizer, maxContentLength: number): Middleware {
  const scrolls = new ScrollOwners();
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
    if (SCROLL_PATH.test(ctx.path)) {
      for (const id of scrollIdsOf(ctx.path, ctx.querystring, body)) {
        if (!scrolls.owns(id, principal.username)) {
          throw new EsError(403, 'security_exception', `action [${decision.classification.action}] is unauthorized for user [${principal.username}]: the scroll was not opened by this credential`);
        }
      }
    }
    if (decision.path !== ctx.path) ctx.path = decision.path;
    if (decision.querystring !== ctx.querystring) ctx.querystring = decision.querystring;
    await next();
    // a scroll this credential opens (or continues) is recorded as its own
    if ((new URLSearchParams(ctx.querystring).has('scroll') || SCROLL_PATH.test(ctx.path)) && ctx.status === 200 && ctx.body) {
      const body = ctx.body as unknown;
      const text = body instanceof Readable || Buffer.isBuffer(body) ? (await readBody(body)).toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
      const id = /"_scroll_id"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      if (id) scrolls.record(id, principal.username);
      ctx.body = text;
    }
  };
}
