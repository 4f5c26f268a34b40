import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, Pool, request } from 'undici';
import { call } from '../support/http.js';
import { halfSent } from '../support/raw-request.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';
import { openStream, type OpenStream } from '../support/stream-client.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

interface HoldingProxy {
  url: string;
  /** Requests held now. */
  held(): number;
  /** Resolves once `n` requests are held. */
  holding(n: number): Promise<void>;
  /** Forwards the held requests, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * The engine behind a proxy that holds the searches of one index until told: requests that are in
 * flight in the gateway for as long as the test wants, deterministically.
 */
async function holdingProxy(engineUrl: string, heldPrefix: string): Promise<HoldingProxy> {
  const pool = new Pool(new URL(engineUrl).origin, { connections: 128 });
  let released = false;
  const waiting: Array<() => void> = [];
  const watchers: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (!released && (req.url ?? '').startsWith(heldPrefix)) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          for (const w of watchers) w();
        });
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      try {
        const body = Buffer.concat(chunks);
        const up = await pool.request({ method: req.method as 'GET', path: req.url ?? '/', headers, body: body.length ? body : null });
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(up.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        res.writeHead(up.statusCode, out);
        res.end(Buffer.from(await up.body.arrayBuffer()));
      } catch (err) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    holding: (n) =>
      new Promise((resolve) => {
        const check = () => waiting.length >= n && resolve();
        watchers.push(check);
        check();
      }),
    release() {
      released = true;
      for (const forward of waiting.splice(0)) forward();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}

describe('graceful shutdown (SIGTERM)', function () {
  this.timeout(90_000);
  const SHUTDOWN_TIMEOUT_MS = 30_000;
  let data: { dir: string; remove(): Promise<void> };
  let engine: ChildServer;
  let proxy: HoldingProxy;
  let gw: ChildServer;

  before(async () => {
    data = await tempDir('gw-shutdown-');
    engine = await spawnEngine(data.dir);
    proxy = await holdingProxy(engine.url, '/slow/_search');
    gw = await spawnGateway({
      ENGINE_URL: proxy.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
  });
  after(async () => {
    proxy?.release();
    await gw?.stop('SIGKILL');
    await proxy?.close();
    await engine?.stop();
    await data?.remove();
  });

  it('ends 100 streams with their final object, answers 50 requests in flight, refuses new ones, writes the request logs and exits 0', async () => {
    expect((await call(gw.url, 'PUT', '/live/_doc/1?refresh=true', { body: { n: 1 } })).status).to.equal(201);
    expect((await call(gw.url, 'PUT', '/slow/_doc/1?refresh=true', { body: { n: 1 } })).status).to.equal(201);

    // 100 open streams: 50 on a document, 50 on a search, each with its initial message
    const streams: OpenStream[] = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? openStream(gw.url, '/live/_doc/1?stream=true')
        : openStream(gw.url, '/live/_search?stream=true', { method: 'POST', body: { query: { range: { n: { gte: i } } } } })));
    await Promise.all(streams.map((s) => s.until((m) => m.length >= 1, 20_000)));
    expect(streams.every((s) => s.status === 200)).to.equal(true);

    // 50 requests in flight: searches (each its own, so none shares another's answer) held upstream
    const searches = Array.from({ length: 50 }, (_, i) => call(gw.url, 'POST', '/slow/_search', { body: { query: { range: { n: { lte: 100 + i } } } } }));
    await proxy.holding(50);
    // and a request begun on an open connection, to finish once the shutdown began
    const late = await halfSent(gw.url, 'GET', '/slow/_count', { authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` });

    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      const sent = Date.now();
      gw.proc.once('exit', (code) => resolve({ code, ms: Date.now() - sent }));
    });
    gw.proc.kill('SIGTERM');

    // every stream ends, with its final object last
    await Promise.all(streams.map((s) => s.ended));
    for (const s of streams) {
      expect(s.messages[s.messages.length - 1]).to.deep.include({ _stream_end: true });
      expect(s.messages[s.messages.length - 1].reason).to.match(/shutting down/);
    }

    // the gateway no longer accepts connections; a request on an open one is answered 503
    const fresh = new Agent();
    const refused = await request(`${gw.url}/`, { dispatcher: fresh }).then(
      (res) => ({ status: res.statusCode, code: '' }),
      (err: Error & { code?: string }) => ({ status: 0, code: err.code ?? err.message }),
    );
    await fresh.close();
    expect(refused.code, JSON.stringify(refused)).to.equal('ECONNREFUSED');
    const lateReply = await late.finish();
    expect(lateReply.status).to.equal(503);
    expect(lateReply.json.error.type).to.equal('node_closed_exception');

    // the 50 requests in flight still get their answers
    expect(proxy.held()).to.equal(50);
    proxy.release();
    const answers = await Promise.all(searches);
    expect(answers.map((a) => a.status)).to.deep.equal(Array(50).fill(200));
    expect(answers.every((a) => a.json.hits.total.value === 1)).to.equal(true);

    const { code, ms } = await exited;
    expect(code).to.equal(0);
    expect(ms, 'it exited once the requests were answered, not at the timeout').to.be.below(SHUTDOWN_TIMEOUT_MS);

    // the request-log queue was written on the way out: the 50 searches and the 100 streams (logged when they end)
    const count = async (query: unknown) => (await call(engine.url, 'POST', '/.gateway-logs/_count', { auth: null, body: { query } })).json.count;
    expect(await count({ bool: { filter: [{ term: { indices: 'slow' } }, { term: { kind: 'search' } }] } })).to.equal(50);
    expect(await count({ term: { indices: 'live' } })).to.be.at.least(100);
  });
});
