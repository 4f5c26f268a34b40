import type { Middleware } from 'koa';
import type { Backend } from '../engine/index.js';
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
    // once the client has its answer (or has gone), koa destroys the upstream body: not an error
    if (!Buffer.isBuffer(res.body)) res.body.on('error', () => {});
    ctx.body = res.body; // koa writes no body for HEAD
    for (const [name, value] of Object.entries(res.headers)) {
      if (name === 'x-elastic-product') continue;
      ctx.set(name, value);
    }
  };
}
