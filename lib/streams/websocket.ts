import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Observable, Unsubscribable } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TypedDocuments } from '../apps/index.js';
import { checkSystemIndices, type Authenticator, type Authorizer, type Principal } from '../auth/index.js';
import { readRequest } from '../auth/classify/index.js';
import { checkFieldRules } from '../auth/index.js';
import type { InterceptedBackend } from '../engine/index.js';
import { errorBody, errors, toEsError, type EsError, type EsErrorBody } from '../errors/index.js';
import { parseJsonText } from '../ndjson/index.js';
import { canonicalPath, requestTarget, serializeQuery, withParam, type RequestTarget } from '../request/index.js';
import { overflowMessage } from './messages.js';
import type { StreamHub } from './stream-hub.js';
import type { StreamKind } from './stream-tallies.js';
import { openRequestedStream, streamTarget } from './stream-requests.js';
import { boundToCredential } from './credential-bound.js';
import { messageJson, StreamSubscriber, type StreamMessage } from './transports/index.js';

/** A subscribe (or unsubscribe) frame of the appbase WebSocket protocol. */
interface Frame {
  id?: unknown;
  path?: unknown;
  method?: unknown;
  body?: unknown;
  authorization?: unknown;
  unsubscribe?: unknown;
}

export interface WebSocketDeps {
  hub: StreamHub;
  backend: InterceptedBackend;
  typed: TypedDocuments;
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Largest frame accepted (bytes). */
  maxPayload: number;
  /**
   * Bytes the client may leave unread (STREAM_BUFFER_BYTES). A push that leaves more ends its
   * subscription with an error frame; past twice as much the connection is terminated.
   */
  maxBufferedBytes: number;
  /** The client's address as the trusted proxies tell it (TRUSTED_PROXIES); absent = the socket's peer. */
  clientAddress?: (req: http.IncomingMessage) => string;
  /** Frames failing authentication (401 or 429) before the connection is closed with 1008. */
  maxAuthFailures: number;
  /** STREAM_HEARTBEAT_MS: how often each connection is pinged; a ping unanswered by the next one drops it. */
  heartbeatMs: number;
}

/** WebSocket close code for a policy violation (RFC 6455, 7.4.1). */
const POLICY_VIOLATION = 1008;

/**
 * `ws://host/{app}` speaking the appbase frame protocol: a subscribe frame
 * `{id, path: "app/type/id?streamonly=true", method, body, authorization}` is answered with
 * `{id, channel}` (and `body` when there is an initial message), then every change is pushed as
 * `{channel, event}` (its members in any order, as JSON allows); `{…, unsubscribe: true}` ends that subscription; errors are
 * `{id, message, status, error}`. Each frame is authenticated like the equivalent HTTP request;
 * a connection whose frames fail authentication `maxAuthFailures` times is closed (1008).
 *
 * Memory is bounded per connection: unread bytes (`ws.bufferedAmount`) past `maxBufferedBytes`
 * after a push end that subscription with a 429 error frame; a client that still does not read is
 * terminated once its unread bytes pass twice the bound, whatever is being sent.
 *
 * Every `heartbeatMs` each connection is pinged; one that has not answered the previous ping
 * with a pong by then is terminated: a peer gone without a close (a dropped network, a suspended
 * laptop) does not keep its subscriptions open until the kernel gives up on the socket.
 */
export function attachWebSocket(server: http.Server, deps: WebSocketDeps): { close(): void; terminate(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayload });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    let app: readonly string[];
    try {
      app = canonicalPath((req.url ?? '/').split('?')[0]).segments;
    } catch {
      // a path that cannot be decoded is refused before anything reads it, as on HTTP
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    if (app.length !== 1 || app[0].startsWith('_')) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const client = { ip: deps.clientAddress?.(req) ?? req.socket.remoteAddress ?? '', referer: req.headers.referer ?? req.headers.origin };
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, socket, app[0], req.headers.authorization, client, deps));
  });

  return {
    close() {
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      wss.close();
    },
    /** Drops the connections whose clients did not answer the close (end of a shutdown's drain). */
    terminate() {
      for (const client of wss.clients) client.terminate();
    },
  };
}

function serve(ws: WebSocket, socket: Duplex, app: string, upgradeAuthorization: string | undefined, client: { ip: string; referer?: string }, deps: WebSocketDeps): void {
  const subscriptions = new Map<string, Unsubscribable>();
  let authFailures = 0;
  /** A frame (an object, or its JSON text); `last`: the final frame of a subscription, sent even past the bound (one per subscription). */
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const send = (payload: unknown, last = false) => {
    if (ws.readyState !== ws.OPEN) return;
    if (!last && ws.bufferedAmount > 2 * deps.maxBufferedBytes) {
      ws.terminate(); // the client does not read: drop what it left, and every subscription with it
      return;
    }
    // the frames of one turn of the event loop (the changes of a burst reach every connection's
    // subscriptions in the same turn) leave in one write to the socket, not one write each
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    if (payload instanceof Uint8Array) ws.send(payload, TEXT_FRAME);
    else ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  };
  const errorFrame = (id: unknown, e: EsError) => ({ id, message: e.reason, status: e.status, error: errorBody(e).error });
  const fail = (id: unknown, err: unknown) => {
    send(errorFrame(id, toEsError(err)));
    if (authFailures >= deps.maxAuthFailures && ws.readyState === ws.OPEN) {
      ws.close(POLICY_VIOLATION, 'too many failed authentication attempts');
    }
  };
  /** A push to subscription `id`; past the buffer bound the subscription ends with an error frame. */
  const push = (id: string, kind: StreamKind, payload: unknown) => {
    send(payload);
    if (ws.bufferedAmount <= deps.maxBufferedBytes) return;
    deps.hub.tallies.of(kind, 'websocket').dropped++;
    const sub = subscriptions.get(id);
    subscriptions.delete(id);
    sub?.unsubscribe();
    const overflow = overflowMessage().data as EsErrorBody;
    send({ id, message: overflow.error.reason, status: overflow.status, error: overflow.error }, true);
  };

  const connection: Connection = {
    push,
    fail,
    forget(id) {
      subscriptions.delete(id);
    },
  };

  ws.on('message', (data) => {
    if (ws.readyState !== ws.OPEN) return; // closing: no more work for this client
    let frame: Frame;
    try {
      // read as a request body is: Elasticsearch's nesting limit, a 400 for what is not JSON
      frame = parseJsonText(data.toString()) as Frame;
    } catch (err) {
      return fail(undefined, err);
    }
    handle(frame).catch((err) => fail(frame?.id, err));
  });
  let answered = true;
  ws.on('pong', () => (answered = true));
  const heartbeat = setInterval(() => {
    // judged once pending I/O is read: a pong that came while this process was busy counts
    setImmediate(() => {
      if (ws.readyState !== ws.OPEN) return;
      if (!answered) return ws.terminate();
      answered = false;
      ws.ping();
    });
  }, deps.heartbeatMs);
  heartbeat.unref();
  ws.on('close', () => {
    clearInterval(heartbeat);
    for (const sub of subscriptions.values()) sub.unsubscribe();
    subscriptions.clear();
  });
  ws.on('error', () => ws.terminate());

  async function handle(frame: Frame): Promise<void> {
    if (frame === null || typeof frame !== 'object' || typeof frame.id !== 'string' || !frame.id) {
      throw toEsError({ status: 400, message: 'a frame needs a string "id"' });
    }
    const id = frame.id;
    if (frame.unsubscribe === true) {
      subscriptions.get(id)?.unsubscribe();
      subscriptions.delete(id);
      return;
    }
    if (subscriptions.has(id)) throw toEsError({ status: 400, message: `subscription [${id}] already exists on this connection` });
    if (typeof frame.path !== 'string') throw toEsError({ status: 400, message: 'a subscribe frame needs a string "path"' });
    const authorization = typeof frame.authorization === 'string' ? frame.authorization : upgradeAuthorization;
    const framed = frame.body && typeof frame.body === 'object' && Object.keys(frame.body).length ? frame.body : undefined;
    // the frame's target is read once, as an HTTP request's is: its path and query string as the
    // engine will read them, and a `source` parameter as the body
    const q = frame.path.indexOf('?');
    const target = requestTarget('/' + (q < 0 ? frame.path : frame.path.slice(0, q)), q < 0 ? '' : frame.path.slice(q + 1), framed !== undefined);
    let principal: Principal;
    try {
      principal = await deps.authenticator.authenticate(authorization, target.path, client.ip || undefined);
    } catch (err) {
      authFailures++; // `fail` closes the connection once the error frame is out
      throw err;
    }
    const requested = target.segments;
    if (requested[0] !== app) throw toEsError({ status: 400, message: `this connection serves app [${app}]; the path names [${requested[0]}]` });
    const method = typeof frame.method === 'string' ? frame.method.toUpperCase() : 'GET';
    const body = framed ?? (target.source ? sourceBody(target.source.text) : undefined);
    // a frame is authorized exactly like the equivalent HTTP request
    const streaming = target.params.has('stream') || target.params.has('streamonly');
    const asked = readRequest({
      method,
      target: streaming ? target : withStreamParam(target),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    checkSystemIndices(asked.info);
    const decision = await deps.authorizer.authorize(principal, asked, { ip: client.ip, referer: client.referer });
    // a credential's field rules hold for a frame as for the equivalent HTTP request
    checkFieldRules(principal, decision, await deps.authorizer.derivedFieldsFor(principal, asked.info));
    const { params, segments } = decision;
    const streamed = streamTarget(method, segments);
    if (!streamed) throw toEsError({ status: 400, message: `[${method} ${target.path}] is not a document or search that can be streamed` });
    const messages = await openRequestedStream(deps.hub, deps.backend, deps.typed, streamed, {
      method, segments, params, body, transport: 'websocket', request: decision,
    });
    if (ws.readyState !== ws.OPEN) return;
    send({ id, channel: id });
    // a scoped credential's subscription ends when its credential changes, as an HTTP stream does
    follow(id, streamed.kind, principal.role === 'admin' ? messages : boundToCredential(messages, deps.hub.credentialChanges, principal.username));
  }

  /**
   * Pushes a subscription's messages as frames (`SubscriptionFrames`: one object per
   * subscription, which keeps only its id, kind and this connection).
   */
  function follow(id: string, kind: StreamKind, messages: Observable<StreamMessage>): void {
    const sub = new SubscriptionFrames(connection, id, kind);
    subscriptions.set(id, sub);
    messages.subscribe(sub);
  }
}

/** What a subscription of a connection needs of it. */
interface Connection {
  push(id: string, kind: StreamKind, payload: unknown): void;
  fail(id: unknown, err: unknown): void;
  forget(id: string): void;
}

/** Options of `ws.send` for a frame given as bytes: a text frame (JSON), not a binary one. */
const TEXT_FRAME = { binary: false } as const;

/**
 * A change's frame `{"event":…,"position":…,"channel":` up to its channel, as bytes: built once
 * per change however many subscriptions it reaches (kept on the message, `messageJson`).
 */
function changeFrameHead(message: StreamMessage): Buffer {
  const encoded = (message.encoded ??= {});
  return (encoded.wsHead ??= Buffer.from(`{"event":${messageJson(message)}${message.id === undefined ? '' : `,"position":${JSON.stringify(message.id)}`},"channel":`));
}

/**
 * One subscription's messages as frames. A change's frame is `{channel, event}` around the
 * change's JSON, serialized once for every subscription it reaches (`messageJson`).
 */
class SubscriptionFrames extends StreamSubscriber<StreamMessage> {
  /** The end of this subscription's change frames: its channel (`"s1"}`). */
  private readonly channelTail: string;

  constructor(private readonly connection: Connection, private readonly id: string, private readonly kind: StreamKind) {
    super();
    this.channelTail = `${JSON.stringify(id)}}`;
  }

  protected override _next(message: StreamMessage): void {
    const { id, kind, connection } = this;
    // `position`: the stream's resume token (an SSE client's event id), for `since=` on a
    // subscribe frame after a reconnect — to this node or any other
    if (message.live) connection.push(id, kind, { id, channel: id, live: true });
    else if (message.initial) connection.push(id, kind, { id, channel: id, body: message.data, position: message.id });
    else {
      // the change's part of the frame is encoded once for every subscription it reaches; each
      // subscription adds its channel
      const head = changeFrameHead(message);
      const tail = this.channelTail;
      const frame = Buffer.allocUnsafe(head.length + Buffer.byteLength(tail));
      head.copy(frame, 0);
      frame.write(tail, head.length);
      connection.push(id, kind, frame);
    }
  }

  protected override _error(err: unknown): void {
    this.unsubscribe();
    this.connection.forget(this.id);
    this.connection.fail(this.id, err);
  }

  protected override _complete(): void {
    this.unsubscribe();
    this.connection.forget(this.id);
  }
}

/** A frame's `source` parameter, read as its body would be: a JSON object. */
function sourceBody(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (err) {
    throw errors.parse(`the [source] parameter is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errors.parse('the [source] parameter must be a JSON object');
  return value as Record<string, unknown>;
}

/** A frame's target with `stream=true` among its parameters: a frame always asks for a stream. */
function withStreamParam(target: RequestTarget): RequestTarget {
  const params = withParam(target.params, 'stream', 'true');
  return { ...target, params, querystring: serializeQuery(params) };
}
