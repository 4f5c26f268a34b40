import type { Middleware } from 'koa';
import type { GatewayState } from './state.js';

/**
 * Today's Elasticsearch clients (v9) ask for `compatible-with=9` in `Accept` and `Content-Type`.
 * The engine behind (the embedded one, or an Elasticsearch / OpenSearch cluster of version 8 or 2)
 * serves version 8's REST API, which is what version 9's clients speak: the request goes on
 * asking for 8, and its answer says 9 again, in kind — so a v9 client works unchanged on every
 * engine. Any other version is left to the version checks further in (7 and 8 are served, others
 * refused with Elasticsearch's `media_type_header_exception`).
 */
const ASKS_9 = /compatible-with\s*=\s*9\b/i;

export function mediaTypes(): Middleware<GatewayState> {
  const asks9 = (value: string | string[] | undefined) => typeof value === 'string' && ASKS_9.test(value);
  const inKind = async (ctx: Parameters<Middleware<GatewayState>>[0], next: () => Promise<unknown>) => {
    const headers = ctx.req.headers;
    for (const name of ['accept', 'content-type'] as const) {
      const value = headers[name];
      if (asks9(value)) headers[name] = (value as string).replace(/compatible-with\s*=\s*9\b/gi, 'compatible-with=8');
    }
    await next();
    const answered = ctx.response.get('content-type');
    if (/compatible-with=8/.test(answered)) ctx.set('content-type', answered.replace('compatible-with=8', 'compatible-with=9'));
  };
  return (ctx, next) => (asks9(ctx.req.headers.accept) || asks9(ctx.req.headers['content-type']) ? inKind(ctx, next) : next());
}
