import type { IncomingMessage, ServerResponse } from 'node:http';
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
  await writeStream(ctx.res, messages, framing, streamOptions(hub, kind, framing)).catch((err) => {
    ctx.respond = true; // nothing was written: the error middleware answers
    throw err;
  });
  releaseKoaHold(ctx.res);
  releaseParsedRequest(ctx.req);
}

/**
 * Koa holds each request's context until its response is over: it queues, with `on-finished`,
 * its context's error handler for an error of the response's socket. Once a stream's head is out
 * that handler has nothing to do (koa sees the head sent and only emits the error on the app,
 * which is silent here; the stream's own `close` listener ends it), and the context it keeps —
 * the request, its state, its parsed value — would stay alive as long as the stream, hours for
 * tens of thousands of them: the queue is emptied. (`on-finished` keeps it on the response as
 * `__onFinished.queue`; a response koa answers itself never gets here.)
 */
function releaseKoaHold(res: ServerResponse): void {
  const finished = (res as ServerResponse & { __onFinished?: { queue?: unknown[] | null } | null }).__onFinished;
  if (finished?.queue) finished.queue.length = 0;
}

/**
 * What node and koa parsed of the request line and headers once asked (the headers as an object,
 * koa's parsed URL: `parseurl`'s `_parsedUrl`) stays on the request as long as its stream, a few
 * hundred bytes for each of tens of thousands: once the head is out both are let go, and made
 * again from the request's raw lines if anything reads them (the request log, when the stream
 * ends, reads a header or two).
 */
function releaseParsedRequest(req: IncomingMessage): void {
  (req as { headers: IncomingMessage['headers'] | undefined }).headers = undefined;
  (req as IncomingMessage & { _parsedUrl?: unknown })._parsedUrl = undefined;
}

/**
 * How an HTTP stream writes (the node's limits, its head): one value per hub, kind and framing,
 * shared by all their streams — made apart from the request's context, which its closures would keep.
 */
function streamOptions(hub: StreamHub, kind: StreamKind, framing: Framing): WriteOptions {
  let byKind = optionsByHub.get(hub);
  if (!byKind) optionsByHub.set(hub, (byKind = new Map()));
  const key = `${kind}\u0000${framing.name}`;
  let options = byKind.get(key);
  if (!options) byKind.set(key, (options = newStreamOptions(hub, kind, framing)));
  return options;
}

const optionsByHub = new WeakMap<StreamHub, Map<string, WriteOptions>>();

function newStreamOptions(hub: StreamHub, kind: StreamKind, framing: Framing): WriteOptions {
  const tally = hub.tallies.of(kind, framing.name);
  const head = {
    'content-type': framing.contentType,
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-elastic-product': 'Elasticsearch',
  };
  return {
    heartbeatMs: hub.config.heartbeatMs,
    maxBufferedBytes: hub.config.maxBufferedBytes,
    overflowMessage: () => {
      tally.dropped++;
      return overflowMessage();
    },
    errorMessage,
    awaitFirst: true,
    start: (res) => {
      res.writeHead(200, head);
      res.flushHeaders();
    },
  };
}
