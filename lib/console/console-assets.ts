import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { EsError } from '../errors/index.js';

/** Where the console is served. */
export const CONSOLE_PATH = '/_console';
/** The built console (`make build`, or `npm --prefix console run build`), beside `dist/` in the repository. */
export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../console/dist');

/**
 * What the console's pages may load and talk to: only the gateway itself — no inline script or
 * style, no other origin, never framed.
 */
const CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The console is not built</h1><p>Build it with <code>make build</code> (or <code>npm --prefix console ci &amp;&amp; npm --prefix console run build</code>) and reload this page.</p></body></html>`;

/**
 * The console's static files at `/_console/…` (GET and HEAD), answered before authentication:
 * they hold no data — every call the console makes goes to the gateway's public APIs with the
 * credential the user signs in with. Hashed assets are cached for a year, the page itself never;
 * any other path under `/_console/` is the page (the console routes in the browser). Without a
 * built console: a 404 page that says how to build it. Anything else goes on.
 */
export function consoleAssets(dist = CONSOLE_DIST): Middleware {
  const served: Middleware = async (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    // the page's relative URLs need the slash; the request as sent says whether it has it (the
    // path every step reads is canonical, empty segments dropped: `/_console/` reads `/_console`)
    if (ctx.path === CONSOLE_PATH && !ctx.originalUrl.split('?')[0].endsWith('/')) {
      ctx.redirect(`${CONSOLE_PATH}/`);
      return;
    }
    if (!existsSync(path.join(dist, 'index.html'))) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = NOT_BUILT;
      return;
    }
    const file = ctx.path.slice(CONSOLE_PATH.length + 1);
    if (file.startsWith('assets/')) {
      // koa-send refuses paths that leave `root` (403) and answers 404 for a missing file
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      try {
        await send(ctx, file, { root: dist });
      } catch (err) {
        // a missing file, or a path that leaves the console (koa-send's 403): never the file system's words
        const status = (err as { status?: number }).status === 404 ? 404 : 400;
        ctx.remove('Cache-Control');
        throw new EsError(status, status === 404 ? 'resource_not_found_exception' : 'illegal_argument_exception', `no console file [${file}]`);
      }
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root: dist });
  };
  // any other request goes on without a promise of this step's own
  return (ctx, next) => {
    const asked = ctx.path;
    if (asked !== CONSOLE_PATH && !asked.startsWith(CONSOLE_PREFIX)) return next();
    return ctx.method === 'GET' || ctx.method === 'HEAD' ? served(ctx, next) : next();
  };
}

const CONSOLE_PREFIX = `${CONSOLE_PATH}/`;
