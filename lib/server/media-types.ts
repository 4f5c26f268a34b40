import type { Middleware } from 'koa';
import type { GatewayState } from './state.js';

/**
 * Today's Elasticsearch clients ask for a REST API version in `Accept` and `Content-Type`:
 * `application/vnd.elasticsearch+json; compatible-with=9` (v9) or `=8` (v8). The engine behind
 * (the embedded one, or an Elasticsearch / OpenSearch cluster of version 8 or 2) serves version 8's
 * REST API, which is what version 9's clients speak: a v9 request goes on asking for 8. Every
 * answer of such a request is labelled in kind, as Elasticsearch labels it — the engine's, and the
 * gateway's own (credentials, apps, errors), which koa would call `application/json`. Any other
 * version is left to the version checks further in (7 and 8 are served, others refused with
 * Elasticsearch's `media_type_header_exception`).
 */
const VERSION = /compatible-with\s*=\s*(\d+)\b/i;

function askedVersion(value: string | string[] | undefined): 8 | 9 | undefined {
  if (typeof value !== 'string') return undefined;
  const v = VERSION.exec(value)?.[1];
  return v === '8' ? 8 : v === '9' ? 9 : undefined;
}

export function mediaTypes(): Middleware<GatewayState> {
  // a request that asks for no version (nearly every one) goes on without a promise of this step's own
  return (ctx, next) => {
    const headers = ctx.req.headers;
    const asked = askedVersion(headers.accept) ?? askedVersion(headers['content-type']);
    return asked === undefined ? next() : versioned(ctx, next, asked);
  };
}

async function versioned(ctx: Parameters<Middleware<GatewayState>>[0], next: () => Promise<unknown>, asked: 8 | 9): Promise<void> {
  const headers = ctx.req.headers;
  if (asked === 9) {
    for (const name of ['accept', 'content-type'] as const) {
      const value = headers[name];
      if (askedVersion(value) === 9) headers[name] = (value as string).replace(/compatible-with\s*=\s*9\b/gi, 'compatible-with=8');
    }
  }
  ctx.state.answerRead = true;
  await next();
  const answered = ctx.response.get('content-type');
  if (/^application\/json\b/i.test(answered) || /^application\/vnd\.elasticsearch\+json\s*;\s*compatible-with=8\b/i.test(answered)) {
    ctx.set('content-type', `application/vnd.elasticsearch+json;compatible-with=${asked}`);
  }
}
