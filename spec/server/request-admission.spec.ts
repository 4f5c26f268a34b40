import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { guardConnections, serverOptions, type ConnectionLimits } from '../../lib/connections/index.js';
import { SLICE_MS } from '../../lib/cooperative/index.js';

const LIMITS: ConnectionLimits = {
  maxConnections: 1_000,
  maxConnectionsPerClient: 1_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  bodyMinBytesPerSecond: 1,
  keepAliveTimeoutMs: 5_000,
  acceptBacklog: 511,
};

/** Work that holds the thread (a request's middleware for a crowd of them), longer than one time slice. */
function holdThread(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** `count` connections to `port`, each connected before the next is opened. */
async function connectEach(port: number, count: number, localAddress: (i: number) => string = () => '127.0.0.1'): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: localAddress(i) });
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
  }
  return sockets;
}

/** What each socket receives, once it ends with the handlers' `ok`. */
function answersOf(sockets: net.Socket[]): Array<Promise<string>> {
  return sockets.map((socket) => new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (text.endsWith('ok')) resolve(text);
    });
  }));
}

/**
 * The guard every HTTP server of the project runs behind (the gateway's and the standalone
 * engine's): requests that arrive together are begun a time slice at a time, so a crowd arriving in
 * one poll of the event loop does not run through the app in one piece.
 */
describe('connection guard: requests begun a time slice at a time', () => {
  it('of requests that arrive in one poll, those past the slice begin after the event loop had a turn, and all are answered', async () => {
    const events: string[] = [];
    let turnAsked = false;
    const server = http.createServer(serverOptions(LIMITS), (req, res) => {
      events.push(`begin ${req.url}`);
      if (!turnAsked) {
        turnAsked = true;
        setImmediate(() => events.push('turn'));
      }
      holdThread(SLICE_MS + 2);
      res.end('ok');
    });
    const guard = guardConnections(server, LIMITS, { log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // connected first; then every request written in one go, so the server finds them all readable in one poll
    const sockets = await connectEach(port, 4);
    try {
      const answers = answersOf(sockets);
      sockets.forEach((socket, i) => socket.write(`GET /${i} HTTP/1.1\r\nHost: x\r\n\r\n`));
      const texts = await Promise.all(answers);
      for (const text of texts) expect(text).to.match(/^HTTP\/1\.1 200 /);
      expect(events.filter((e) => e.startsWith('begin')).sort()).to.deep.equal(['begin /0', 'begin /1', 'begin /2', 'begin /3']);
      // the first request used up the slice: the turn came before the last one began (not after all four)
      const lastBegin = events.map((e) => e.startsWith('begin')).lastIndexOf(true);
      expect(events.indexOf('turn'), events.join(', ')).to.be.below(lastBegin);
    } finally {
      for (const socket of sockets) socket.destroy();
      guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a crowd's requests from one address wait behind another client's request, not it behind them", async () => {
    const CROWD = 40;
    const begun: string[] = [];
    const server = http.createServer(serverOptions(LIMITS), (req, res) => {
      begun.push(req.url!);
      // each of the crowd's requests uses up a slice: one begins a turn
      if (req.url !== '/probe') holdThread(SLICE_MS + 2);
      res.end('ok');
    });
    const guard = guardConnections(server, LIMITS, { log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // the crowd (one address, a connection each) and the probe (another address), all connected first
    const sockets = await connectEach(port, CROWD + 1, (i) => (i < CROWD ? '127.0.0.20' : '127.0.0.1'));
    try {
      const answers = answersOf(sockets);
      // the crowd's requests first, the probe's last, in one go
      sockets.forEach((socket, i) => socket.write(`GET /${i < CROWD ? `crowd-${i}` : 'probe'} HTTP/1.1\r\nHost: x\r\n\r\n`));
      await Promise.all(answers);
      expect(begun).to.have.length(CROWD + 1);
      // by connection, the probe began after every crowd request that was waiting before it (~40th);
      // by client, in the second turn: after the one that began at once and one of the crowd's turn
      expect(begun.indexOf('/probe'), begun.join(' ')).to.be.within(0, 2);
    } finally {
      for (const socket of sockets) socket.destroy();
      guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a request that goes on in microtasks (after an await) counts in the slice of the turn that began it', async () => {
    const CROWD = 40;
    /** Each request's work ('work'), and each turn of the event loop ('turn'), in order. */
    const events: string[] = [];
    let ticking = true;
    const tick = () => {
      events.push('turn');
      if (ticking) setImmediate(tick);
    };
    const server = http.createServer(serverOptions(LIMITS), async (req, res) => {
      // a middleware chain's work mostly comes after its first await
      await undefined;
      events.push('work');
      holdThread(SLICE_MS / 4);
      res.end('ok');
    });
    const guard = guardConnections(server, LIMITS, { log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets = await connectEach(port, CROWD);
    try {
      const answers = answersOf(sockets);
      setImmediate(tick);
      sockets.forEach((socket, i) => socket.write(`GET /${i} HTTP/1.1\r\nHost: x\r\n\r\n`));
      await Promise.all(answers);
      ticking = false;
      const runs = events.join(' ').split('turn').map((run) => run.split('work').length - 1);
      expect(runs.reduce((a, b) => a + b, 0)).to.equal(CROWD);
      // a slice holds four requests' work, and the one that ends it: not the whole crowd's in one turn
      expect(Math.max(...runs), `requests' work between turns of the event loop: ${runs.filter((n) => n > 0).join(' ')}`).to.be.at.most(6);
    } finally {
      ticking = false;
      for (const socket of sockets) socket.destroy();
      guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
