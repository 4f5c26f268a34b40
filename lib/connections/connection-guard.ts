import type http from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { EsError, errorBody } from '../errors/index.js';
import { SLICE_MS } from '../cooperative/index.js';
import { letGo } from './let-go.js';

/** What one HTTP server lets its clients hold: connections, and time to send a request. */
export interface ConnectionLimits {
  /** HTTP_MAX_CONNECTIONS: open client connections at most; one more is answered 503 and closed. */
  maxConnections: number;
  /** HTTP_MAX_CONNECTIONS_PER_CLIENT: open connections from one client address at most; one more is answered 429 and closed. */
  maxConnectionsPerClient: number;
  /** HTTP_HEADERS_TIMEOUT_MS: a request's line and headers must have arrived within this long (408). */
  headersTimeoutMs: number;
  /**
   * HTTP_BODY_TIMEOUT_MS and HTTP_BODY_MIN_RATE: while a body is read, every HTTP_BODY_TIMEOUT_MS
   * must bring at least HTTP_BODY_MIN_RATE bytes a second of it (from the client; time the server
   * itself is not reading does not count), or the request is answered 408 and its connection closed.
   */
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /**
   * HTTP_ACCEPT_BACKLOG: connections the kernel holds for the server before it takes them (the
   * listen backlog, capped by `net.core.somaxconn`). Past it a new connection's SYN is dropped and
   * the client tries again a second or more later: with Node's default of 511, a crowd connecting
   * at once cost every other client's new connection that second.
   */
  acceptBacklog: number;
}

/** Until when (performance.now() ms) the server holds each request's body back (`holdBodyBack`). */
const heldBack = new WeakMap<http.IncomingMessage, number>();

/**
 * The server holds `req`'s body back for the next `ms` (large bodies read at the node's pace,
 * BodyPace): a body-watch window in which that happened is the server's doing, not its client's,
 * whatever the body's buffers look like when the window is checked (a paced reader drains them
 * between its waits).
 */
export function holdBodyBack(req: http.IncomingMessage, ms: number): void {
  heldBack.set(req, performance.now() + ms);
}

export interface ConnectionGuardOptions {
  /** A line for the log when a slow body is cut or a connection refused (refusals at most once a second). */
  log: (line: string) => void;
  /** Peers not held to the per-client cap (trusted reverse proxies: their connections carry many clients). */
  sharedPeer?: (address: string) => boolean;
}

export interface ConnectionGuard {
  /** Connections open now, and those refused or cut since the start. */
  stats(): { open: number; refused: number; slowBodiesCut: number };
  /** Stops the body watch (the server's own close ends the connections). */
  close(): void;
}

/** Options for `http.createServer` that carry the limits Node enforces itself. */
export function serverOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // the whole request has no deadline of its own (a large body on a slow but steady link is fine):
    // the body's minimum rate bounds it instead
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the headers deadline this often: a tenth of it keeps the overshoot small
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 10))),
  };
}

/** `server.listen` with the limits' accept backlog; resolves once it listens. */
export function listenWithin(server: http.Server, limits: Pick<ConnectionLimits, 'acceptBacklog'>, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: limits.acceptBacklog }, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
}

/** An error as the whole HTTP answer that closes its connection. */
function rawAnswerBytes(err: EsError): Buffer {
  const body = JSON.stringify(errorBody(err));
  return Buffer.from(
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Elastic-Product: Elasticsearch\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** What `make` returns, built with no stack trace captured (an error made for a client, not for a reader of logs). */
function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function destroyOnError(this: Socket): void {
  this.destroy();
}

/**
 * The answer to a connection refused at its `connection` event, before any HTTP parser: written,
 * and the socket closed as soon as the kernel has it. A crowd reconnects as fast as it is refused
 * (thousands a second), so this is the cheapest way that still answers: no read of what the client
 * sent, no timer, no closure per socket (about a third less CPU than reading the client's bytes to
 * their end and closing on a timer). The answer leaves in one segment before the close.
 */
function rawAnswer(socket: Socket, answer: Buffer): void {
  socket.on('error', destroyOnError);
  socket.end(answer);
  socket.destroySoon();
}

/**
 * Slow bodies cut in one turn of the event loop at most. A cut's cost mostly comes after it, in the
 * same turn, where a clock read in the sweep does not see it: its answer's write completes, its
 * socket closes, the handler waiting for the body fails and its request is logged (~0.2 ms a cut,
 * loaded). Sliced by the sweep's own 5 ms, a crowd of 4,000 cut together held the loop 50-190 ms at
 * a time (profiled, bench:isolation); a few a turn, each turn stays within a few ms.
 */
const CUTS_PER_TURN = 16;

/** How long a client answered 408 has to read its answer before its connection is let go regardless. */
const UNREAD_ANSWER_MS = 2_000;

/** Refusals rendered, by what they say: a crowd reconnecting as fast as it is refused gets the same few answers. */
const RENDERED_REFUSALS = 1_024;

function hasBody(req: http.IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A request answered before its body was read to the end (refused: 413, 429, 408…) closes its
 * connection (`Connection: close`), as Elasticsearch closes the channel: the rest of that body is
 * not read, and a client that went on using the connection would wait for an answer forever.
 */
function closeWhenAnsweredEarly(req: http.IncomingMessage, res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

interface WatchedBody {
  /** The request and its response while the body is coming; undefined once it closed (read to its end, or gone). */
  live: { req: http.IncomingMessage; res: http.ServerResponse } | undefined;
  windowStart: number;
  bytesAtWindowStart: number;
  firstByteAt: number;
  bytesAtFirst: number;
}

/**
 * The watched bodies in the order their windows end: one queue, not a timer per body. A body joins
 * at the back when its window starts (now), so the front is always the next window to end, and a look
 * takes only the bodies whose windows have ended.
 */
class BodyWindows {
  private items: Array<WatchedBody | undefined> = [];
  private head = 0;

  push(entry: WatchedBody): void {
    this.items.push(entry);
  }

  /** The next body whose window started at or before `startedBy`, taken off the queue; undefined when none. */
  due(startedBy: number): WatchedBody | undefined {
    const entry = this.items[this.head];
    if (!entry || entry.windowStart > startedBy) return undefined;
    this.items[this.head++] = undefined;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }
}

/**
 * The server's request handlers (the app) begin requests a time slice at a time. A crowd whose
 * requests arrive in one poll of the event loop (thousands of sockets readable at once: 12,000 slow
 * clients reconnecting) had every one of them run through the app's middleware up to its body read
 * in that one piece of the loop (0.8 s of CPU); past the slice, requests wait and are begun a slice
 * per event loop turn, timers and other sockets served in between. A request that finds none
 * waiting and the slice not used up begins at once, as before.
 *
 * Those that wait are begun a client at a time, in turn, and within a client a connection at a
 * time: one request of each client address with requests waiting, then the next of each. A
 * connection that sent thousands at once (HTTP pipelining: one write of 20,000 requests) waits
 * behind the others, not they behind it — in one queue, every other client's request waited for all
 * of them (19 s, where handling them as they came was 3 s). So does a crowd of thousands of
 * connections from a few addresses reconnecting at once (12,000 slow-body clients from 4
 * addresses): by connection, another client's request waited for one of each of theirs (~0.2 s,
 * loaded); by client, for one of each address. `clientOf` names a connection's client (a shared
 * peer, a trusted proxy, carries many: each of its connections is a client of its own).
 */
function admitInSlices(server: http.Server, clientOf: (socket: Socket) => Socket | string): void {
  const handlers = server.listeners('request') as Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>;
  server.removeAllListeners('request');
  const begin = (req: http.IncomingMessage, res: http.ServerResponse) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  /**
   * Waiting requests by client, then by connection: the client whose turn is next first, and in
   * each client the connection whose turn is next first (a Map keeps insertion order).
   */
  const waiting = new Map<Socket | string, Map<Socket, ConnectionQueue>>();
  /** When this turn's slice ends; 0 while no request began since the last turn. */
  let sliceEnd = 0;
  const nextTurn = async () => {
    if (waiting.size === 0) {
      sliceEnd = 0;
      return;
    }
    sliceEnd = performance.now() + SLICE_MS;
    while (waiting.size > 0 && performance.now() < sliceEnd) {
      const [client, connections] = waiting.entries().next().value!;
      waiting.delete(client);
      const [socket, queue] = connections.entries().next().value!;
      connections.delete(socket);
      const [req, res] = queue.take();
      // the connection's next request, and the client's next connection, wait for the others' turns
      if (queue.size > 0) connections.set(socket, queue);
      if (connections.size > 0) waiting.set(client, connections);
      begin(req, res);
      // a begun request goes on in microtasks (its middleware's awaits), which would otherwise all run
      // after this turn, past the slice's clock (slices of 10 ms made blocks of 60-100 ms of CPU,
      // profiled, loaded): the next begins after them, so the slice counts them
      await undefined;
    }
    setImmediate(nextTurn);
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (waiting.size > 0) return wait(req, res);
    const now = performance.now();
    if (sliceEnd === 0) {
      sliceEnd = now + SLICE_MS;
      setImmediate(nextTurn);
    } else if (now >= sliceEnd) {
      return wait(req, res);
    }
    begin(req, res);
  });
  const wait = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    const client = clientOf(socket);
    let connections = waiting.get(client);
    if (!connections) waiting.set(client, (connections = new Map()));
    const queue = connections.get(socket);
    if (queue) queue.add(req, res);
    else connections.set(socket, new ConnectionQueue(req, res));
  };
}

/** One connection's requests waiting to begin, in the order it sent them. */
class ConnectionQueue {
  private items: Array<[http.IncomingMessage, http.ServerResponse] | undefined>;
  private head = 0;

  constructor(req: http.IncomingMessage, res: http.ServerResponse) {
    this.items = [[req, res]];
  }

  get size(): number {
    return this.items.length - this.head;
  }

  add(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.items.push([req, res]);
  }

  take(): [http.IncomingMessage, http.ServerResponse] {
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return item;
  }
}

/**
 * Holds an HTTP server to `limits`: every connection over a cap is answered (503 over
 * HTTP_MAX_CONNECTIONS, 429 over HTTP_MAX_CONNECTIONS_PER_CLIENT) and closed at once, never left
 * unanswered; a body that trickles in slower than the minimum rate is cut with a 408 and a log line.
 * The server must have been made with `serverOptions(limits)`. A connection holds one descriptor
 * (its socket) and nothing else here: the counts are plain numbers, the body watch one sweep.
 */
export function guardConnections(server: http.Server, limits: ConnectionLimits, options: ConnectionGuardOptions): ConnectionGuard {
  const perClient = new Map<string, number>();
  let open = 0;
  let refused = 0;
  let slowBodiesCut = 0;
  let lastRefusalLog = 0;

  // a refused connection costs its accept and a write: the answer (an EsError, its JSON, the bytes) is
  // made once for what it says, not for each of thousands of reconnections a second
  const rendered = new Map<string, { reason: string; answer: Buffer }>();
  const refusalOf = (overall: boolean, address: string, count: number) => {
    const key = `${overall ? '' : address}|${count}`;
    let refusal = rendered.get(key);
    if (!refusal) {
      const err = overall
        ? new EsError(503, 'es_rejected_execution_exception',
            `rejected connection: [${count}] connections are open, which is the limit of [${limits.maxConnections}] (HTTP_MAX_CONNECTIONS)`)
        : new EsError(429, 'es_rejected_execution_exception',
            `rejected connection from [${address}]: [${count}] connections from this client are open, which is the limit of [${limits.maxConnectionsPerClient}] (HTTP_MAX_CONNECTIONS_PER_CLIENT)`);
      if (rendered.size >= RENDERED_REFUSALS) rendered.clear();
      rendered.set(key, (refusal = { reason: err.reason, answer: rawAnswerBytes(err) }));
    }
    return refusal;
  };

  // the HTTP server's own connection handling runs only for the connections the caps admit
  const httpListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromClient = options.sharedPeer?.(address) ? 0 : (perClient.get(address) ?? 0);
    const overall = open >= limits.maxConnections;
    if (overall || fromClient >= limits.maxConnectionsPerClient) {
      refused++;
      const refusal = refusalOf(overall, address, overall ? open : fromClient);
      const now = Date.now();
      if (now - lastRefusalLog >= 1_000) {
        lastRefusalLog = now;
        options.log(`${refusal.reason} (${refused} refused so far)`);
      }
      rawAnswer(socket, refusal.answer);
      return;
    }
    open++;
    perClient.set(address, (perClient.get(address) ?? 0) + 1);
    // `on`, not `once`: a socket closes once, and `once` wraps the listener in two objects more per connection
    socket.on('close', () => {
      open--;
      const left = (perClient.get(address) ?? 1) - 1;
      if (left > 0) perClient.set(address, left);
      else perClient.delete(address);
    });
    for (const listener of httpListeners) listener.call(server, socket);
  });

  admitInSlices(server, (socket) => {
    const address = socket.remoteAddress ?? '';
    return options.sharedPeer?.(address) ? socket : address;
  });

  // the body watch: requests whose bodies are still coming, in the order their windows end
  const watched = new BodyWindows();
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!hasBody(req) || req.complete) return;
    closeWhenAnsweredEarly(req, res);
    const bytes = req.socket.bytesRead;
    const now = performance.now();
    const entry: WatchedBody = { live: { req, res }, windowStart: now, bytesAtWindowStart: bytes, firstByteAt: now, bytesAtFirst: bytes };
    watched.push(entry);
    // a request read to its end (or gone) is let go at once and leaves the queue when its window ends
    // (`close` follows `end` too, so one listener does)
    req.on('close', () => (entry.live = undefined));
  };
  server.prependListener('request', onRequest);

  const windowMs = limits.bodyTimeoutMs;
  const minBytes = (limits.bodyMinBytesPerSecond * windowMs) / 1000;
  const cutLine = (entry: WatchedBody, req: http.IncomingMessage, now: number) => {
    const got = req.socket.bytesRead - entry.bytesAtFirst;
    const took = Math.round(now - entry.firstByteAt);
    return `request body from [${req.socket.remoteAddress}] cut: ${got} bytes in ${took} ms, slower than ${limits.bodyMinBytesPerSecond} bytes/s ` +
      `over ${windowMs} ms (HTTP_BODY_MIN_RATE, HTTP_BODY_TIMEOUT_MS): ${req.method} ${req.url?.split('?')[0]}`;
  };
  const cutReason = `the request body arrived slower than [${limits.bodyMinBytesPerSecond}] bytes a second over [${windowMs}ms] (HTTP_BODY_MIN_RATE)`;
  const cutBody = JSON.stringify(errorBody(new EsError(408, 'request_timeout_exception', cutReason)));
  const cutHead = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(cutBody), 'x-elastic-product': 'Elasticsearch', connection: 'close' };
  const answerCut = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // the handler still waiting for the body fails with this 408 (not a premature close, which it
    // would take for the gateway's own failure and log). Made without a stack: a crowd is cut
    // thousands at a time, and the stream's destroy reads the stack of the error it is given (a
    // captured and formatted stack per cut was a twentieth of the gateway's CPU under 12,000 slow clients)
    const err = withoutStack(() => new EsError(408, 'request_timeout_exception', cutReason));
    if (res.headersSent) {
      req.destroy(err);
      return;
    }
    res.shouldKeepAlive = false;
    res.writeHead(408, cutHead);
    // the handler's own answer to that failure is not written: this one was
    res.end(cutBody, () => req.destroy(err));
    // a client that does not read its answer is let go by a later sweep (not a timer per cut: a
    // crowd cut at once had thousands of them go off in one piece of work two seconds later)
    unread.push({ socket: req.socket, at: performance.now() + UNREAD_ANSWER_MS });
  };
  /** Sockets answered 408, by when their answer must have been read (in cut order, so by time). */
  const unread: Array<{ socket: Socket; at: number }> = [];
  const letGoUnread = (now: number) => {
    let expired = 0;
    while (expired < unread.length && unread[expired]!.at <= now) {
      const { socket } = unread[expired++]!;
      if (!socket.destroyed) letGo(socket);
    }
    unread.splice(0, expired);
  };
  // a crowd of slow clients is cut a few at a time, a turn of the event loop between (thousands of
  // answers in one go would hold it), and logged as one line per look: the first cut in full, the
  // others counted
  let sweeping = false;
  const sweepOnce = (cuts: { first?: string; more: number }) => {
    const now = performance.now();
    let made = 0;
    for (let entry = watched.due(now - windowMs); entry; entry = watched.due(now - windowMs)) {
      const req = entry.live?.req;
      if (!req || req.complete || req.destroyed) continue;
      const bytes = req.socket.bytesRead;
      // a request whose unread body fills its buffer, or that the server held back in this window,
      // is waiting on the server, not the client
      const serverBound = req.readableLength >= req.readableHighWaterMark || req.socket.isPaused() || (heldBack.get(req) ?? -Infinity) >= entry.windowStart;
      if (!serverBound && bytes - entry.bytesAtWindowStart < minBytes) {
        slowBodiesCut++;
        if (cuts.first === undefined) cuts.first = cutLine(entry, req, now);
        else cuts.more++;
        answerCut(req, entry.live!.res);
        if (++made === CUTS_PER_TURN) {
          setImmediate(() => sweepOnce(cuts));
          return;
        }
      } else {
        entry.windowStart = now;
        entry.bytesAtWindowStart = bytes;
        watched.push(entry);
      }
    }
    sweeping = false;
    if (cuts.first !== undefined) options.log(cuts.more ? `${cuts.first} (and ${cuts.more} more bodies cut)` : cuts.first);
  };
  // each body is looked at when its own window ends (to within an eighth of it, 250 ms at most): a
  // look every quarter window, at every body whose window had ended, cut a crowd that connected over
  // a second all in one look, and they reconnected together a second later — the same wave again,
  // every cycle, with all its requests begun at once
  const sweep = setInterval(() => {
    letGoUnread(performance.now());
    if (sweeping) return;
    sweeping = true;
    sweepOnce({ more: 0 });
  }, Math.max(10, Math.min(250, Math.floor(windowMs / 8))));
  sweep.unref();

  return {
    stats: () => ({ open, refused, slowBodiesCut }),
    close() {
      clearInterval(sweep);
      server.removeListener('request', onRequest);
    },
  };
}
