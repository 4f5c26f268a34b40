import type { Context, Middleware, Next } from 'koa';
import { credentialAllowsOrigin, type CredentialOrigins } from './credential-origins.js';
import type { GatewayState } from './state.js';

/** What an allowed page may call with. */
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, DELETE, PATCH';

/**
 * The request headers allowed when a preflight names none (it names the ones it will send, and
 * those are allowed as named): what Elasticsearch clients and the ReactiveSearch libraries send.
 */
const ALLOW_HEADERS = [
  'Authorization', 'Content-Type', 'Accept', 'X-Opaque-Id', 'X-Elastic-Client-Meta', 'Last-Event-ID',
  'X-Search-Query', 'X-Search-Filters', 'X-Search-Id', 'X-Search-Click', 'X-Search-Click-Position',
  'X-Search-Conversion', 'X-Search-Custom-Event', 'X-Search-Suggestions-Click', 'X-Search-Suggestions-Click-Position',
  'X-Search-Client', 'X-User-Id', 'X-Enable-Telemetry', 'X-Timestamp',
].join(', ');

/** The response headers a page may read besides the CORS-safelisted ones (Content-Type, Content-Length…). */
const EXPOSE_HEADERS = [
  'X-Search-Id', 'X-Request-Cache', 'X-Opaque-Id', 'X-Elastic-Product', 'Warning', 'WWW-Authenticate', 'Retry-After', 'Location',
].join(', ');

/** How long a browser may keep a preflight's answer (Chromium keeps it 2 hours at most). */
const MAX_AGE_SECONDS = '7200';

/** A header list as a preflight names it: field names only, anything else dropped. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Cross-origin requests from browsers, allowed two ways:
 *
 * - `CORS_ORIGINS`: exact origins (`https://app.example.com`), or `*` for any — for every request;
 * - a credential's `referers` (`https://shop.example/*`): the origins they allow (credential-origins.ts),
 *   for the requests made with that credential.
 *
 * `beforeAuthentication` answers a browser's preflight (`OPTIONS` with `Access-Control-Request-Method`),
 * which carries no credentials: one from an origin `CORS_ORIGINS` or any stored credential allows
 * is answered there, 204, and goes no further; and an answer to an origin of `CORS_ORIGINS` — an
 * error too, a 401 — carries the headers that let the page read it. `afterAuthentication` gives
 * them to an origin allowed only by credentials when the request's own credential allows it. A
 * request from any other origin, a preflight too, gets no CORS header and is answered as without
 * this step (a preflight: 401, it has no credentials), so that the browser keeps the page from
 * reading anything. The request is authorized as any request is either way (a credential's
 * `referers` are checked against its `Referer`).
 *
 * With a list, the answer says which origin it allows and that credentials may be sent, and varies
 * by `Origin`; with `*` it allows any origin and no browser-held credentials (an `Authorization`
 * header the page sets itself is still sent: it is allowed like any header).
 */
export function cors(origins: readonly string[], byCredentials?: CredentialOrigins): { beforeAuthentication: Middleware; afterAuthentication: Middleware<GatewayState> } {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const configured = (origin: string) => any || allowed.has(origin);
  const allow = (ctx: Context, origin: string, wildcard: boolean) => {
    ctx.set('Access-Control-Allow-Origin', wildcard ? '*' : origin);
    if (!wildcard) ctx.set('Access-Control-Allow-Credentials', 'true');
  };
  // a request without Origin (every non-browser client) pays no promise of this step's own
  const beforeAuthentication: Middleware = (ctx, next) => {
    // the answer to the same request differs by origin: caches must keep them apart
    if (!any && origins.length) ctx.vary('Origin');
    const origin = ctx.req.headers.origin ?? '';
    return origin === '' ? next() : fromOrigin(ctx, next, origin);
  };
  const fromOrigin = async (ctx: Context, next: Next, origin: string): Promise<void> => {
    const byConfiguration = configured(origin);
    const byCredential = !byConfiguration && (await byCredentials?.allow(origin)) === true;
    if (byCredential) ctx.vary('Origin');
    if (ctx.method !== 'OPTIONS' || ctx.get('access-control-request-method') === '') {
      if (byConfiguration) {
        allow(ctx, origin, any);
        ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      }
      return next();
    }
    if (!byConfiguration && !byCredential) return next();
    allow(ctx, origin, any && byConfiguration);
    ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
    ctx.set('Access-Control-Allow-Headers', requestedHeaders(ctx.get('access-control-request-headers')) ?? ALLOW_HEADERS);
    ctx.set('Access-Control-Max-Age', MAX_AGE_SECONDS);
    ctx.vary('Access-Control-Request-Headers');
    ctx.status = 204;
  };
  const afterAuthentication: Middleware<GatewayState> = (ctx, next) => {
    const origin = ctx.req.headers.origin ?? '';
    if (origin === '' || configured(origin) || !credentialAllowsOrigin(ctx.state.principal.credential, origin)) return next();
    ctx.vary('Origin');
    allow(ctx, origin, false);
    ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    return next();
  };
  return { beforeAuthentication, afterAuthentication };
}

/** The headers a preflight asks for, to be allowed as asked; undefined when it names none. */
function requestedHeaders(asked: string): string | undefined {
  const names = asked.split(',').map((n) => n.trim()).filter((n) => FIELD_NAME.test(n));
  return names.length ? names.join(', ') : undefined;
}
