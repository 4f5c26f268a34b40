import type { Context, Middleware, Next } from 'koa';
import type { TypedDocuments } from '../apps/typed-documents.js';
import type { Backend } from '../engine/index.js';
import { readJsonBody } from '../request/index.js';
import { errorMessage, overflowMessage } from './messages.js';
import type { StreamHub } from './stream-hub.js';
import { openRequestedStream, streamTarget, wantsStream } from './stream-requests.js';
import { framingFor, writeStream } from './transports/index.js';

/**
 * `?stream=true` / `?streamonly=true` on document GETs and searches, in both address styles:
 * the response stays open and carries the stream in the framing the client accepts.
 */
export function httpStreams(hub: StreamHub, backend: Backend, typed: TypedDocuments, maxContentLength: number): Middleware {
  return async (ctx: Context, next: Next) => {
    if (!wantsStream(ctx.querystring)) return next();
    const segments = ctx.path.split('/').filter(Boolean).map(decodeURIComponent);
    const target = streamTarget(ctx.method, segments);
    if (!target) return next();
    const body = target.kind === 'search' ? await readJsonBody(ctx, maxContentLength) : undefined;
    const framing = framingFor(ctx.get('accept'));
    const messages = await openRequestedStream(hub, backend, typed, target, {
      method: ctx.method, segments, querystring: ctx.querystring, body, lastEventId: ctx.get('last-event-id') || undefined, transport: framing.name,
    });
    const params = new URLSearchParams(ctx.querystring);
    ctx.respond = false;
    await writeStream(ctx.res, messages, framing, {
      heartbeatMs: hub.config.heartbeatMs,
      maxBufferedBytes: hub.config.maxBufferedBytes,
      overflowMessage: () => {
        hub.tallies.of(target.kind, framing.name).dropped++;
        return overflowMessage();
      },
      errorMessage,
      // a stream that starts with the current state answers only once it has it: a failed read is the answer's status
      awaitFirst: !wantsChangesOnly(params, ctx.get('last-event-id')),
      start: () => {
        ctx.res.writeHead(200, {
          'content-type': framing.contentType,
          'cache-control': 'no-cache',
          'x-accel-buffering': 'no',
          'x-elastic-product': 'Elasticsearch',
        });
        ctx.res.flushHeaders();
      },
    }).catch((err) => {
      ctx.respond = true; // nothing was written: the error middleware answers
      throw err;
    });
  };
}

/** `streamonly=true` (changes only), or a resume (`since`, SSE's Last-Event-ID): no initial message comes first. */
function wantsChangesOnly(params: URLSearchParams, lastEventId: string): boolean {
  const isTrue = (v: string | null) => v !== null && v !== 'false';
  return (isTrue(params.get('streamonly')) && !isTrue(params.get('stream'))) || params.has('since') || lastEventId !== '';
}
