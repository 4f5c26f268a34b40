import type { Middleware } from 'koa';
import { hasBody, requestTarget } from '../request/index.js';
import { EsError } from '../errors/index.js';
import type { GatewayState } from './state.js';

/**
 * The edge's first step: the request target read once (`requestTarget`) and the request made to
 * say exactly that — its URL is the canonical path and query string, and a `source` parameter
 * becomes its body — so that every later step, the authorization and the engine read one and the
 * same request. A target that cannot be decoded is a 400 before anything else reads it.
 */
export function canonicalRequest(): Middleware<GatewayState> {
  return (ctx, next) => {
    const url = originForm(ctx.url);
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const target = requestTarget(rawPath, rawQuery, hasBody(ctx));
    if (target.path !== rawPath || target.querystring !== rawQuery) {
      ctx.url = target.querystring ? `${target.path}?${target.querystring}` : target.path;
    }
    if (target.source) {
      // the parameter's body is the request's body from here on, for every step and the engine
      const headers = ctx.req.headers;
      headers['content-length'] = String(Buffer.byteLength(target.source.text));
      headers['content-type'] = target.source.contentType;
      delete headers['transfer-encoding'];
      ctx.state.body = target.source.text;
    }
    ctx.state.target = target;
    return next();
  };
}

/** `http://host/path?q` (absolute form) → `/path?q`; `*` and other forms name no resource here. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.pathname + parsed.search;
  } catch {
    /* refused below */
  }
  throw new EsError(400, 'illegal_argument_exception', `invalid request target [${url}]`);
}
