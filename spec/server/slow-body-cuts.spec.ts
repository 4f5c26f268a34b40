import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { guardConnections, serverOptions, type ConnectionLimits } from '../../lib/connections/index.js';

const LIMITS: ConnectionLimits = {
  maxConnections: 1_000,
  maxConnectionsPerClient: 1_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 400,
  bodyMinBytesPerSecond: 1024,
  keepAliveTimeoutMs: 5_000,
  acceptBacklog: 511,
};

const CROWD = 200;

/**
 * The guard's body watch (lib/connections): a crowd of slow bodies whose windows end together is
 * cut a few at a time, the event loop getting a turn between (a cut's cost mostly comes after it,
 * in the same turn: its answer's write completes, its socket closes, its handler fails), each one
 * still answered 408, counted, and logged as one counted line per sweep.
 */
describe('connection guard: a crowd of slow bodies is cut a few at a time', () => {
  it('every body cut with its 408, counted and logged, at most 16 in one turn of the event loop', async () => {
    const logged: string[] = [];
    /** Cuts in the current turn (ends at the next check phase), and the most seen in one. */
    let turn: { cuts: number } | undefined;
    let most = 0;
    let begun = 0;
    const server = http.createServer(serverOptions(LIMITS), (req, res) => {
      begun++;
      req.on('data', () => undefined);
      req.on('error', () => undefined);
      // the cut's answer begins in the sweep itself (what follows it, in the same turn, is its cost)
      const writeHead = res.writeHead;
      res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
        if (args[0] === 408) {
          if (!turn) {
            const current = (turn = { cuts: 0 });
            setImmediate(() => {
              if (turn === current) turn = undefined;
            });
          }
          most = Math.max(most, ++turn.cuts);
        }
        return writeHead.apply(this, args);
      } as typeof writeHead;
    });
    const guard = guardConnections(server, LIMITS, { log: (line) => logged.push(line) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < CROWD; i++) {
        const socket = net.connect({ port, host: '127.0.0.1' });
        await new Promise((resolve) => socket.once('connect', resolve));
        sockets.push(socket);
      }
      const answers = sockets.map((socket) => new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        socket.once('close', () => resolve(text));
        socket.once('error', () => undefined);
      }));
      // every head and a byte of its body written in one go: their windows end together
      for (const socket of sockets) socket.write('POST /_search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      const texts = await Promise.all(answers);
      expect(begun).to.equal(CROWD);
      expect(texts.filter((t) => !t.startsWith('HTTP/1.1 408 ')).map((t) => t.slice(0, 40)), 'answers other than 408').to.deep.equal([]);
      expect(texts[0]).to.include('request_timeout_exception').and.include('HTTP_BODY_MIN_RATE');
      expect(guard.stats().slowBodiesCut).to.equal(CROWD);
      // one line per sweep: the first cut in full, the others counted
      const counted = logged.reduce((n, line) => n + 1 + Number(/\(and (\d+) more bodies cut\)$/.exec(line)?.[1] ?? 0), 0);
      expect(counted, logged.join('\n')).to.equal(CROWD);
      expect(logged.length).to.be.below(CROWD / 10);
      expect(logged[0]).to.match(/^request body from \[127\.0\.0\.1\] cut: \d+ bytes in \d+ ms, slower than 1024 bytes\/s over 400 ms .*: POST \/_search/);
      expect(most, 'cuts made in one turn of the event loop').to.be.within(1, 16);
    } finally {
      for (const socket of sockets) socket.destroy();
      guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/**
 * Each slow body is cut when its own window ends, not at the next of a few looks a window: a crowd
 * that connected over a second, cut all in one look, reconnected all at once and came back as the
 * same wave every cycle (12,000 slow clients, bench:isolation).
 */
describe('connection guard: each slow body is cut at the end of its own window', () => {
  it('bodies begun over a second are each cut within an eighth of a window of their window\'s end', async () => {
    const limits = { ...LIMITS, bodyTimeoutMs: 4_000 };
    const begunAt = new Map<http.IncomingMessage, number>();
    const lateness: number[] = [];
    const server = http.createServer(serverOptions(limits), (req, res) => {
      begunAt.set(req, performance.now());
      req.on('data', () => undefined);
      req.on('error', () => undefined);
      const writeHead = res.writeHead;
      res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
        if (args[0] === 408) lateness.push(performance.now() - begunAt.get(req)! - limits.bodyTimeoutMs);
        return writeHead.apply(this, args);
      } as typeof writeHead;
    });
    const guard = guardConnections(server, limits, { log: () => undefined });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets: net.Socket[] = [];
    try {
      // 16 bodies begun 1/16 s apart: over a second, every phase of a look once a window quarter
      const answers = Array.from({ length: 16 }, (_, i) => new Promise<string>((resolve) => {
        setTimeout(() => {
          const socket = net.connect({ port, host: '127.0.0.1' });
          sockets.push(socket);
          let text = '';
          socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
          socket.once('close', () => resolve(text));
          socket.once('error', () => undefined);
          socket.write('POST /_search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
        }, i * 62);
      }));
      const texts = await Promise.all(answers);
      expect(texts.filter((t) => !t.startsWith('HTTP/1.1 408 ')).map((t) => t.slice(0, 40)), 'answers other than 408').to.deep.equal([]);
      expect(lateness).to.have.length(16);
      // an eighth of the window is 500 ms, capped at 250 ms; the rest is slack for a loaded machine
      // (a look a window quarter, 1 s here, cut the body begun just after a look ~940 ms late)
      expect(Math.max(...lateness), `ms after their windows' ends: ${lateness.map((ms) => ms.toFixed(0)).join(', ')}`).to.be.below(600);
    } finally {
      for (const socket of sockets) socket.destroy();
      guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
