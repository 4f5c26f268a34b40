import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Koa from 'koa';
import { Subject } from 'rxjs';
import type { GatewayState } from '../../lib/auth/index.js';
import { requestContext } from '../../lib/logging/index.js';
import type { RequestEnd } from '../../lib/logs/index.js';
import { writeLiveStream } from '../../lib/streams/http-streams.js';
import type { StreamHub } from '../../lib/streams/stream-hub.js';
import { StreamTallies } from '../../lib/streams/stream-tallies.js';
import type { StreamMessage } from '../../lib/streams/transports/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * An HTTP stream lives for hours; the request that opened it does not. Once the stream's head is
 * out, what the stream keeps is its response and its own small state: the request's koa context
 * (its request value, its state, its parsed parameters) is not kept alive by the stream.
 */
describe('an HTTP stream keeps nothing of the request context once its head is out', function () {
  this.timeout(30_000);
  let server: http.Server;
  const messages = new Subject<StreamMessage>();
  let context: WeakRef<object> | undefined;
  let headOut: Promise<void> | undefined;

  before(async () => {
    const app = new Koa();
    const hub = { config: { heartbeatMs: 30_000, maxBufferedBytes: 1 << 20 }, tallies: new StreamTallies() } as unknown as StreamHub;
    server = http.createServer((req, res) => {
      // the context as the middlewares see it, and nothing else holding it (not koa's own
      // response handling, which lets it go when the response ends)
      const ctx = app.createContext(req, res);
      ctx.state.request = { some: 'parsed request', params: new Map([['stream', 'true']]) };
      context = new WeakRef(ctx);
      headOut = writeLiveStream(ctx, hub, 'document', messages.asObservable());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('lets the context go while the stream goes on', async () => {
    const { port } = server.address() as AddressInfo;
    const received: string[] = [];
    let arrived: () => void = () => undefined;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/books/_doc/1?stream=true' }, resolve);
      req.on('error', reject);
      // the request reaches the server: its first message makes the head go out
      const waitForHandler = () => (headOut ? messages.next({ data: { _id: '1', found: true } }) : setImmediate(waitForHandler));
      waitForHandler();
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      received.push(chunk);
      arrived();
    });
    await headOut;
    expect(response.statusCode).to.equal(200);

    // the handler's job is over: a full collection once its frames are gone
    await new Promise((r) => setImmediate(r));
    gc();
    expect(context?.deref(), 'the koa context of a stream whose head is out').to.equal(undefined);

    // and the stream is still there, and still delivers
    const next = new Promise<void>((resolve) => (arrived = resolve));
    received.length = 0;
    messages.next({ data: { _id: '1', _source: { n: 2 } } });
    await next;
    expect(received.join('')).to.contain('"n":2');
    response.destroy();
  });
});

/**
 * The same through koa's own request handling (`app.callback()`, which holds each context until
 * its response is over) and the request context's end (the access line and the request log read
 * the request once the response closes): neither keeps the context of a stream whose head is out,
 * and the end still reads what it needs when the stream closes.
 */
describe('an HTTP stream behind koa and the request context keeps nothing of the context', function () {
  this.timeout(30_000);
  let server: http.Server;
  const messages = new Subject<StreamMessage>();
  let context: WeakRef<object> | undefined;
  let headOut: Promise<void> | undefined;
  const ended: Array<{ status: number; category?: string; user?: string; requestId: string }> = [];
  let endedOne: () => void = () => undefined;

  before(async () => {
    const app = new Koa<GatewayState>();
    const hub = { config: { heartbeatMs: 30_000, maxBufferedBytes: 1 << 20 }, tallies: new StreamTallies() } as unknown as StreamHub;
    const end: RequestEnd = (request, arrival) => {
      ended.push({ status: request.res.statusCode, category: request.state.request?.category, user: request.state.principal?.username, requestId: arrival.requestId });
      endedOne();
    };
    app.use(requestContext({ accessLog: false, ends: [end] }));
    app.use(async (ctx) => {
      ctx.state.principal = { username: 'reader', role: 'admin' } as GatewayState['principal'];
      ctx.state.request = { family: 'engine', category: 'streams', operation: 'read', action: 'indices:data/read/get', indices: ['books'], allIndices: false } as GatewayState['request'];
      context = new WeakRef(ctx);
      headOut = writeLiveStream(ctx, hub, 'document', messages.asObservable());
      await headOut;
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('lets the context go while the stream goes on, and its end reads the request when it closes', async () => {
    const { port } = server.address() as AddressInfo;
    let arrived: () => void = () => undefined;
    const received: string[] = [];
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/books/_doc/1?stream=true', headers: { 'x-request-id': 'stream-1' } }, resolve);
      req.on('error', reject);
      const waitForHandler = () => (headOut ? messages.next({ data: { _id: '1', found: true } }) : setImmediate(waitForHandler));
      waitForHandler();
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      received.push(chunk);
      arrived();
    });
    await headOut;
    expect(response.statusCode).to.equal(200);

    // koa's handling and the request context's are over once the handler returns: a few turns, then a full collection
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    gc();
    expect(context?.deref(), 'the koa context of a stream whose head is out').to.equal(undefined);
    expect(ended, 'no end while the stream is open').to.deep.equal([]);

    const next = new Promise<void>((resolve) => (arrived = resolve));
    messages.next({ data: { _id: '1', _source: { n: 2 } } });
    await next;
    expect(received.join('')).to.contain('"n":2');

    const closed = new Promise<void>((resolve) => (endedOne = resolve));
    response.destroy();
    await closed;
    expect(ended).to.deep.equal([{ status: 200, category: 'streams', user: 'reader', requestId: 'stream-1' }]);
  });
});
