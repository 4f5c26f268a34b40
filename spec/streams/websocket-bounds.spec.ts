import { expect } from 'chai';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { adminAuth, call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

const BOUND = 256 * 1024;
const big = 'x'.repeat(200_000);

/** A WebSocket client and the server's end of its TCP connection (to see what waits for it). */
async function connect(gw: TestGateway, app: string): Promise<{ ws: WebSocket; serverSocket: Socket; frames: any[]; next(match: (f: any) => boolean): Promise<any> }> {
  const upgraded = once(gw.server, 'upgrade') as Promise<[unknown, Socket]>;
  const ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/' + app);
  const frames: any[] = [];
  const waiters: Array<{ match: (f: any) => boolean; resolve: (f: any) => void }> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    frames.push(frame);
    for (const w of [...waiters]) if (w.match(frame)) waiters.splice(waiters.indexOf(w), 1), w.resolve(frame);
  });
  await once(ws, 'open');
  const [, serverSocket] = await upgraded;
  const next = (match: (f: any) => boolean) => new Promise<any>((resolve) => waiters.push({ match, resolve }));
  return { ws, serverSocket, frames, next };
}

/** The client stops reading: its socket is paused, the kernel buffers fill, the server's queue grows. */
const stopReading = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket.pause();
const startReading = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket.resume();

describe('a WebSocket client that does not read cannot grow memory without bound', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ STREAM_BUFFER_BYTES: '256kb' });
  });
  after(() => gw.close());

  it('a subscription whose unread bytes pass STREAM_BUFFER_BYTES ends with an error frame; the connection keeps serving', async () => {
    await call(gw.url, 'PUT', '/wsslow/_doc/1', { body: { v: 0 } });
    const client = await connect(gw, 'wsslow');
    const subscribed = client.next((f) => f.id === 'slow' && f.channel === 'slow');
    client.ws.send(JSON.stringify({ id: 'slow', path: 'wsslow/_doc/1?streamonly=true', method: 'GET', authorization: adminAuth() }));
    await subscribed;
    expect(gw.hub.openStreams).to.equal(1);
    stopReading(client.ws);
    let writes = 0;
    for (; writes < 150 && gw.hub.openStreams > 0; writes++) {
      await call(gw.url, 'PUT', '/wsslow/_doc/1', { body: { v: writes, big } });
    }
    expect(gw.hub.openStreams, 'the subscription should have been ended').to.equal(0);
    // what waits for the client: at most the bound, the push that crossed it and the error frame
    expect(client.serverSocket.writableLength).to.be.below(BOUND + big.length + 4096);
    const overflow = client.next((f) => f.id === 'slow' && f.status);
    startReading(client.ws);
    const error = await overflow;
    expect(error.status).to.equal(429);
    expect(error.error.type).to.equal('stream_buffer_overflow_exception');
    expect(error.message).to.equal(error.error.reason);
    const pushed = client.frames.filter((f) => f.channel === 'slow' && f.event);
    expect(writes).to.be.below(150);
    expect(pushed.length).to.be.greaterThan(0).and.at.most(writes);
    // the connection still serves: a new subscription is answered
    const again = client.next((f) => f.id === 'again' && f.channel === 'again');
    client.ws.send(JSON.stringify({ id: 'again', path: 'wsslow/_doc/1?streamonly=true', method: 'GET', authorization: adminAuth() }));
    await again;
    client.ws.close();
  });

  it('a client that goes on asking without reading is terminated once twice the bound waits for it', async () => {
    await call(gw.url, 'PUT', '/wsslow/_doc/2', { body: { big } });
    const client = await connect(gw, 'wsslow');
    const first = client.next((f) => f.id === 's0' && f.channel === 's0');
    client.ws.send(JSON.stringify({ id: 's0', path: 'wsslow/_doc/2?streamonly=true', method: 'GET', authorization: adminAuth() }));
    await first;
    stopReading(client.ws);
    const serverClosed = once(client.serverSocket, 'close');
    let closed = false;
    void serverClosed.then(() => (closed = true));
    // each subscription's initial message carries the 200 kB document; the client reads none of it
    for (let i = 1; i <= 100 && !closed; i++) {
      client.ws.send(JSON.stringify({ id: `s${i}`, path: 'wsslow/_doc/2?stream=true', method: 'GET', authorization: adminAuth() }));
      // paces the loop on the server (no sleep): the frames are handled meanwhile
      await call(gw.url, 'GET', '/');
      if (client.serverSocket.destroyed) break;
    }
    await serverClosed;
    expect(gw.hub.openStreams).to.equal(0);
    client.ws.terminate();
  });
});
