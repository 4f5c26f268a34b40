import type { Middleware } from 'koa';
import { checkSystemIndices } from '../auth/index.js';
import { classifyRequest } from '../auth/classify/index.js';
import { bufferBody, hasBody } from '../request/index.js';
import type { GatewayState } from './state.js';

/**
 * Step 3: the request is classified once, into `ctx.state.request`. The classifier says whether it
 * needs the body; if so the body is read here, and what it read (rebuilt: NDJSON lines, JSON
 * re-serialized) replaces the body for every later step and for the engine — what is forwarded is
 * exactly what was authorized. The gateway's system indices are refused here for every principal.
 */
export function classify(maxContentLength: number): Middleware<GatewayState> {
  return async (ctx, next) => {
    const req = { method: ctx.method, path: ctx.path, querystring: ctx.querystring };
    let info = classifyRequest(req);
    if (info.readsBody && hasBody(ctx)) {
      const body = (await bufferBody(ctx, maxContentLength))?.toString('utf8');
      info = classifyRequest({ ...req, body });
      if (info.forward !== undefined && info.forward !== body) ctx.state.body = Buffer.from(info.forward);
    }
    checkSystemIndices(info);
    ctx.state.request = info;
    await next();
  };
}
