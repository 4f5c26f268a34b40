import type { Context } from 'koa';
import type { Logger } from 'pino';
import { redactQuerystring } from '../logs/index.js';
import type { GatewayState } from '../auth/index.js';

/** An X-Opaque-Id is logged up to this many characters. */
const MAX_OPAQUE_ID = 256;

/**
 * One access line per request, once its response is over (a live stream: when it ends), at `info`:
 *
 *     {"level":"info","time":"…","log":"access","request_id":"…","method":"GET","path":"/books/_search",
 *      "query":"q=tolkien","status":200,"took":1.8,"family":"engine","category":"search","user":"admin",
 *      "opaque_id":"…","ip":"127.0.0.1","msg":"GET /books/_search 200"}
 *
 * Built field by field: no header but X-Opaque-Id, no body, the query string with the values of
 * secret-looking parameters redacted (`lib/logs/redact.ts`), never the URL as sent (it may carry
 * userinfo). `family`, `category` and `user` are absent when the request was refused before it was
 * classified or authenticated; `aborted` says the client went away before the whole answer was written.
 */
export class AccessLog {
  private readonly lines: Logger;

  constructor(logger: Logger) {
    this.lines = logger.child({ log: 'access' });
  }

  /** Called as the request comes in: what the line needs from the request as it was sent. */
  begin(ctx: Context & { state: GatewayState }, requestId: string): void {
    const started = performance.now();
    const { method, path, querystring } = ctx;
    const opaqueId = ctx.get('x-opaque-id');
    const ip = ctx.request.ip;
    ctx.res.once('close', () => {
      const status = ctx.res.statusCode;
      const info = ctx.state.request;
      this.lines.info({
        request_id: requestId,
        method,
        path,
        query: querystring ? redactQuerystring(querystring) : undefined,
        status,
        took: Math.round((performance.now() - started) * 10) / 10,
        family: info?.family,
        category: info?.category,
        user: ctx.state.principal?.username,
        opaque_id: opaqueId ? opaqueId.slice(0, MAX_OPAQUE_ID) : undefined,
        ip,
        aborted: ctx.res.writableFinished ? undefined : true,
      }, `${method} ${path} ${status}`);
    });
  }
}
