import type { Middleware } from 'koa';
import type { Backend } from '../engine/index.js';
import { DocTypeInjection, carriesDocuments } from '../engine/http/doc-type-injection.js';
import { bodyStream } from './request-body.js';

/**
 * The thin path: whatever the gateway does not handle itself goes to the engine unchanged.
 * Bodies stream both ways; nothing here parses JSON.
 */
export function proxy(backend: Backend, maxContentLength: number): Middleware {
  return async (ctx) => {
    const abort = new AbortController();
    // the client went away before the answer was written: stop the upstream call too
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) abort.abort();
    });
    const res = await backend.request({
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      headers: ctx.headers,
      body: bodyStream(ctx, maxContentLength),
      signal: abort.signal,
    });
    ctx.status = res.status;
    let body = res.body;
    const headers = { ...res.headers };
    if (!Buffer.isBuffer(body)) {
      // once the client has its answer (or has gone), koa destroys the upstream body: not an error
      body.on('error', () => {});
      if (backend.kind === 'http' && res.status < 300 && carriesDocuments(ctx.method, ctx.path) && String(headers['content-type'] ?? '').includes('json')) {
        body = body.pipe(new DocTypeInjection());
        delete headers['content-length'];
      }
    }
    ctx.body = body; // koa writes no body for HEAD
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'x-elastic-product') continue;
      ctx.set(name, value);
    }
  };
}
