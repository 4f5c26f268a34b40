import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { onResponseClose } from '../../lib/request/index.js';
import { finishedOnClose } from '../../lib/server/response-finished.js';

/** A server on an ephemeral port; resolves with its origin. */
async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Opens `path` and resolves with the response once its head has arrived. */
function open(origin: string, path: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get(`${origin}${path}`, resolve).on('error', reject));
}

/** The listeners of the events on-finished listens to, on a response and on its socket. */
function finishListeners(res: http.ServerResponse): Record<string, number> {
  const socket = res.socket!;
  return {
    'response end': res.listenerCount('end'),
    'response finish': res.listenerCount('finish'),
    'socket error': socket.listenerCount('error'),
    'socket close': socket.listenerCount('close'),
  };
}

/**
 * Koa asks on-finished to call it back once each response is over; the gateway's server answers
 * that from the response's one `close` listener (`finishedOnClose`) rather than from on-finished's
 * four listeners and their closures, which a live stream would keep for hours.
 */
describe('a response is over: koa is told from the response close alone', function () {
  this.timeout(30_000);
  const servers: http.Server[] = [];
  after(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  it("destroys a streamed body when its client goes away (koa's own use of on-finished)", async () => {
    let body: Readable | undefined;
    const app = new Koa();
    app.silent = true; // as the gateway's
    app.use((ctx) => {
      // a body that never ends by itself
      body = new Readable({ read() {} });
      body.push('{"first":true}');
      ctx.body = body;
    });
    const server = http.createServer(finishedOnClose(app.callback()));
    servers.push(server);
    const origin = await listen(server);
    const response = await open(origin, '/never-ending');
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    const destroyed = new Promise<void>((resolve) => body!.once('close', () => resolve()));
    response.destroy();
    await destroyed;
    expect(body!.destroyed).to.equal(true);
  });

  it('keeps no listener of its own on a response held open, nor on its socket, beyond the one close', async () => {
    // node:http alone holding the same response open: the listeners node keeps itself
    let bare: http.ServerResponse | undefined;
    const bareServer = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{}');
      bare = res;
    });
    servers.push(bareServer);
    const bareResponse = await open(await listen(bareServer), '/held');

    let held: http.ServerResponse | undefined;
    const app = new Koa();
    app.silent = true; // as the gateway's
    app.use((ctx) => {
      ctx.respond = false; // the handler takes the response over and keeps it open, as a live stream does
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      ctx.res.write('{}');
      held = ctx.res;
    });
    const server = http.createServer(finishedOnClose(app.callback()));
    servers.push(server);
    const response = await open(await listen(server), '/held');
    // koa's handling is over once the handler returned
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));

    expect(finishListeners(held!)).to.deep.equal(finishListeners(bare!));
    expect(held!.listenerCount('close'), 'the response: the one close listener, next to node:http’s own').to.equal(bare!.listenerCount('close') + 1);

    // and koa's callbacks still run when it closes
    const over = new Promise<void>((resolve) => held!.once('close', () => resolve()));
    response.destroy();
    bareResponse.destroy();
    await over;
    expect((held as http.ServerResponse & { __onFinished?: unknown }).__onFinished ?? null).to.equal(null);
  });

  it("queues the gateway's own end callbacks on that listener: a streamed body stays under node's warning of ten", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    let closeListeners = -1;
    const ends: string[] = [];
    const app = new Koa();
    app.silent = true;
    app.use(async (ctx, next) => {
      // the request log's, the in-flight breaker's and the proxy's waits, as the gateway's middleware puts them
      for (const name of ['request log', 'in-flight', 'upstream']) onResponseClose(ctx.res, () => ends.push(name));
      await next();
    });
    app.use((ctx) => {
      const body = new Readable({ read() {} });
      ctx.body = body; // koa pipes it: node's pipeline adds its own close listeners
      setImmediate(() => {
        closeListeners = ctx.res.listenerCount('close');
        body.push('{"streamed":true}');
        body.push(null);
      });
    });
    const server = http.createServer(finishedOnClose(app.callback()));
    servers.push(server);
    const response = await open(await listen(server), '/streamed');
    const text = await new Promise<string>((resolve) => {
      let all = '';
      response.on('data', (c: Buffer) => (all += c)).on('end', () => resolve(all));
    });
    // the response's close comes after the client has the whole answer: wait for the callbacks it runs
    while (ends.length < 3) await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(text).to.equal('{"streamed":true}');
    expect(ends).to.deep.equal(['request log', 'in-flight', 'upstream']);
    expect(closeListeners, 'close listeners while the body streams').to.be.within(1, 10);
    expect(warnings.map((w) => w.name)).to.not.include('MaxListenersExceededWarning');
  });
});
