import type { ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import type { Observable } from 'rxjs';
import type { TypedDocuments } from '../apps/index.js';
import type { InterceptedBackend } from '../engine/index.js';
import { readJsonBody, type GatewayRequest } from '../request/index.js';
import { errorMessage, overflowMessage } from './messages.js';
import type { StreamHub } from './stream-hub.js';
import type { StreamKind } from './stream-tallies.js';
import { openRequestedStream, streamTarget, wantsStream } from './stream-requests.js';
import { boundToCredential } from './credential-bound.js';
import { framingFor, writeStream, type Framing, type StreamMessage, type WriteOptions } from './transports/index.js';

/**
 * `?stream=true` / `?streamonly=true` on document GETs and searches, in both address styles:
 * the response stays open and carries the stream in the framing the client accepts.
 */
export function httpStreams(hub: StreamHub, backend: InterceptedBackend, typed: TypedDocuments, maxContentLength: number): Middleware {
  return async (ctx: Context, next: Next) => {
    const request = (ctx.state as { gatewayRequest: GatewayRequest }).gatewayRequest;
    const { segments, params } = request;
    if (!wantsStream(params)) return next();
    const target = streamTarget(ctx.method, segments);
    if (!target) return next();
    const body = target.kind === 'search' ? await readJsonBody(ctx, maxContentLength) : undefined;
    const framing = framingFor(ctx.get('accept'));
    const messages = await openRequestedStream(hub, backend, typed, target, {
      method: ctx.method, segments, params, body, lastEventId: ctx.get('last-event-id') || undefined, transport: framing.name, request,
    });
    await writeLiveStream(ctx, hub, target.kind, messages);
  };
}

/**
 * Writes a stream to an HTTP response in the framing the request accepts, with the node's limits
 * (heartbeat, STREAM_BUFFER_BYTES; the duration is the hub's). The response head goes out with
 * the stream's first message — its current state, or the live marker of a stream of changes
 * only: a stream that fails before it (a failed read or subscription) is answered as an error,
 * with its status, by the error middleware. Resolves once the head is out: the request's way
 * through the middlewares ends there, and the stream goes on with the response alone (the
 * access line and the request's log record are written when the response closes).
 * A scoped credential's stream ends when its credential changes (`boundToCredential`): the
 * client's reconnection is authorized again.
 */
export async function writeLiveStream(ctx: Context, hub: StreamHub, kind: StreamKind, stream: Observable<StreamMessage>): Promise<void> {
  const framing = framingFor(ctx.get('accept'));
  const principal = (ctx.state as { principal?: { role: string; username: string } }).principal;
  const messages = principal && principal.role !== 'admin' ? boundToCredential(stream, hub.credentialChanges, principal.username) : stream;
  ctx.respond = false;
  // what the stream keeps for its life is the response, not the request's context
  await writeStream(ctx.res, messages, framing, streamOptions(ctx.res, hub, kind, framing)).catch((err) => {
    ctx.respond = true; // nothing was written: the error middleware answers
    throw err;
  });
}

/** How an HTTP stream writes (the node's limits, its head); made apart from the request's context, which its closures would keep. */
function streamOptions(res: ServerResponse, hub: StreamHub, kind: StreamKind, framing: Framing): WriteOptions {
  const tally = hub.tallies.of(kind, framing.name);
  return {
    heartbeatMs: hub.config.heartbeatMs,
    maxBufferedBytes: hub.config.maxBufferedBytes,
    overflowMessage: () => {
      tally.dropped++;
      return overflowMessage();
    },
    errorMessage,
    awaitFirst: true,
    start: () => {
      res.writeHead(200, {
        'content-type': framing.contentType,
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        'x-elastic-product': 'Elasticsearch',
      });
      res.flushHeaders();
    },
  };
}
