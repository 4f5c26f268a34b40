import type { Middleware } from 'koa';
import { pathOf, type Authorizer } from '../auth/authorizer.js';
import { EsError } from '../errors/index.js';
import { Readable } from 'node:stream';
import { ScrollOwners, scrollIdsOf } from '../auth/scroll-owners.js';
import { readBody } from '../engine/index.js';
import { bufferBody } from '../request/index.js';
import type { GatewayState } from './state.js';

const SCROLL_ACTIONS = new Set(['indices:data/read/scroll', 'indices:data/read/scroll/clear']);

/**
 * Authorization of every request after authentication: the admin passes; a scoped credential is
 * checked by the Authorizer, and the request continues narrowed (index wildcards expanded to what
 * the credential may see, its field rules on `_source`).
 */
export function authorize(authorizer: Authorizer, maxContentLength: number): Middleware<GatewayState> {
  const scrolls = new ScrollOwners();
  const scoped: Middleware<GatewayState> = async (ctx, next) => {
    const { principal, request: info } = ctx.state;
    const scrolling = SCROLL_ACTIONS.has(info.action);
    const scrollBody = scrolling ? await bufferBody(ctx, maxContentLength) : undefined;
    const body = scrollBody ?? ctx.state.body ?? undefined;
    const decision = await authorizer.authorize(principal, {
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      body,
      ip: ctx.request.ip || ctx.req.socket.remoteAddress || '',
      referer: ctx.get('referer') || undefined,
    }, info);
    if (scrolling) {
      for (const id of scrollIdsOf(ctx.path, ctx.querystring, scrollBody)) {
        if (!scrolls.owns(id, principal.username)) {
          throw new EsError(403, 'security_exception', `action [${decision.classification.action}] is unauthorized for user [${principal.username}]: the scroll was not opened by this credential`);
        }
      }
    }
    if (decision.path !== ctx.path) ctx.path = decision.path;
    // the engine gets the path as it was read: no encoding or empty segment it could read otherwise
    else if (/%|\/\//.test(ctx.path)) ctx.path = pathOf(info.segments);
    if (decision.querystring !== ctx.querystring) ctx.querystring = decision.querystring;
    await next();
    // a scroll this credential opens (or continues) is recorded as its own
    if ((new URLSearchParams(ctx.querystring).has('scroll') || scrolling) && ctx.status === 200 && ctx.body) {
      const body = ctx.body as unknown;
      const text = body instanceof Readable || Buffer.isBuffer(body) ? (await readBody(body)).toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
      const id = /"_scroll_id"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      if (id) scrolls.record(id, principal.username);
      ctx.body = text;
    }
  };
  // the admin passes without a promise of this step's own
  return (ctx, next) => (ctx.state.principal.role === 'admin' ? next() : scoped(ctx, next));
}
