import type { Context, Middleware, Next } from 'koa';
import { checkSystemIndices } from '../auth/index.js';
import { classifyRequest, prepareBody } from '../auth/classify/index.js';
import { bufferText, hasBody, type Classification, type ClassifiableRequest } from '../request/index.js';
import type { GatewayState } from './state.js';

/**
 * Step 3: the request is classified once, into `ctx.state.request`. The classifier says whether it
 * needs the body; if so the body is read here, and what it read (rebuilt: NDJSON lines, JSON
 * re-serialized) replaces the body for every later step and for the engine — what is forwarded is
 * exactly what was authorized. A large body is read ahead in pieces (`prepareBody`), so that it
 * does not hold the event loop. The gateway's system indices are refused here for every principal.
 */
/** `sameParser`: the engine parses JSON as the classifier does and takes parsed bodies (see `prepareBody`). */
export function classify(maxContentLength: number, sameParser = false): Middleware<GatewayState> {
  const withBody = async (ctx: Context & { state: GatewayState }, next: Next, req: ClassifiableRequest, info: Classification) => {
    const body = await bufferText(ctx, maxContentLength);
    const prepared = body === undefined ? undefined : await prepareBody(info, body, sameParser);
    const read = classifyRequest({ ...req, body, prepared });
    if (read.forward !== undefined && read.forward !== body) ctx.state.body = read.forward;
    checkSystemIndices(read);
    ctx.state.request = read;
    return next();
  };
  return (ctx, next) => {
    const req = { method: ctx.method, path: ctx.path, querystring: ctx.querystring };
    const info = classifyRequest(req);
    if (info.readsBody && hasBody(ctx)) return withBody(ctx, next, req, info);
    checkSystemIndices(info);
    ctx.state.request = info;
    return next();
  };
}
