import type { Middleware } from 'koa';
import { EsError, errorBody, toEsError } from '../errors/index.js';

/**
 * Outermost middleware: every response says it is Elasticsearch (official clients check the
 * header), and every failure below becomes an ES-shaped error body with its status.
 */
export function esResponse(log: (line: string) => void): Middleware {
  const answerError = (ctx: Parameters<Middleware>[0], err: unknown) => {
    // a client that hung up before its request was read (`aborted`) gets nothing, and it is no
    // failure of the gateway's to log: a crowd that vanishes at once costs no error, stack or body each
    if (ctx.req.destroyed && (err as { code?: unknown } | undefined)?.code === 'ECONNRESET') {
      ctx.status = 400;
      return;
    }
    const esErr = toEsError(err);
    // an error the code meant (an EsError: a cancelled search, a failed shard) is one line; any
    // other failure is the gateway's own, with its stack
    if (esErr.status >= 500) log(`${ctx.method} ${ctx.path} failed: ${err instanceof EsError ? `${err.status} ${err.type}: ${err.reason}` : (err as Error)?.stack ?? err}`);
    ctx.status = esErr.status;
    ctx.set(esErr.headers);
    ctx.set('X-Elastic-Product', 'Elasticsearch');
    ctx.type = 'application/json';
    ctx.body = errorBody(esErr);
  };
  return (ctx, next) => {
    // nothing is sent yet: straight onto the response (koa's `set` checks and converts)
    ctx.res.setHeader('X-Elastic-Product', 'Elasticsearch');
    // koa-compose hands back a promise, a rejected one for a step that threw
    return next().then(undefined, (err: unknown) => answerError(ctx, err));
  };
}
