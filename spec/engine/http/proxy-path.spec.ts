import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { adminAuth, call } from '../../support/http.js';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from '../../support/servers.js';
import { within } from '../../support/within.js';

/** A scripted upstream, to observe what the proxy path sends and when. */
function upstream(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    }),
  );
}

describe('thin proxy path (ENGINE_URL set)', function () {
  this.timeout(30_000);
  let engine: ChildServer;
  let engineData: { dir: string; remove(): Promise<void> };
  let gw: TestGateway;
  let engineUrl: string;

  before(async () => {
    engineData = await tempDir('gw-engine-');
    engine = await spawnEngine(engineData.dir, { ENGINE_AUTH: 'elastic:upstream-secret' });
    const url = new URL(engine.url);
    url.username = 'elastic';
    url.password = 'upstream-secret';
    engineUrl = url.href;
    gw = await startTestGateway({ ENGINE_URL: engineUrl });
  });
  after(async () => {
    await gw.close();
    await engine.stop();
    await engineData.remove();
  });

  it('passes status codes, bodies and query strings through unchanged', async () => {
    expect((await call(gw.url, 'PUT', '/proxied', { body: { settings: { number_of_shards: 1 } } })).status).to.equal(200);
    const created = await call(gw.url, 'PUT', '/proxied/_doc/1?refresh=true', { body: { a: 1 } });
    expect(created.status).to.equal(201);
    const missing = await call(gw.url, 'GET', '/proxied/_doc/404');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.include({ found: false, _id: '404' });
    const unknownParam = await call(gw.url, 'GET', '/proxied/_doc/1?no_such_param=1');
    expect(unknownParam.status).to.equal(400);
    expect(unknownParam.json.error.reason).to.contain('no_such_param');
    const filtered = await call(gw.url, 'GET', '/proxied/_doc/1?filter_path=_source');
    expect(filtered.json).to.deep.equal({ _source: { a: 1 } });
    expect(filtered.headers['x-elastic-product']).to.equal('Elasticsearch');
  });

  it('HEAD works', async () => {
    expect((await call(gw.url, 'HEAD', '/proxied')).status).to.equal(200);
    expect((await call(gw.url, 'HEAD', '/nothing-here')).status).to.equal(404);
    expect((await call(gw.url, 'HEAD', '/proxied/_doc/1')).status).to.equal(200);
  });

  it('sends the ENGINE_URL userinfo upstream, never the client credentials', async () => {
    const noCreds = await startTestGateway({ ENGINE_URL: engine.url });
    try {
      const res = await call(noCreds.url, 'GET', '/proxied/_doc/1');
      expect(res.status).to.equal(401); // the engine's answer: the client's admin header was not forwarded
      expect(res.json.error.type).to.equal('security_exception');
    } finally {
      await noCreds.close();
    }
  });

  it('upstream unreachable → 502 with an ES-shaped error', async () => {
    const dead = await upstream(() => {});
    const deadUrl = dead.url;
    await dead.close();
    const gw3 = await startTestGatewayAllowingDeadEngine(deadUrl);
    try {
      const res = await call(gw3.url, 'GET', '/anything/_search');
      expect(res.status).to.equal(502);
      expect(res.json.error.type).to.equal('bad_gateway_exception');
      expect(res.json.status).to.equal(502);
    } finally {
      await gw3.close();
    }
  });

  it('upstream not answering in time → 504', async () => {
    const slow = await upstream(() => {}); // accepts, never answers
    const gw2 = await startTestGatewayAllowingDeadEngine(slow.url, { ENGINE_TIMEOUT_MS: '300' });
    try {
      const res = await call(gw2.url, 'GET', '/slow/_search');
      expect(res.status).to.equal(504);
      expect(res.json.error.type).to.equal('gateway_timeout_exception');
    } finally {
      await gw2.close();
      await slow.close();
    }
  });

  // A body the gateway must read (a `_bulk`, a search naming indices) is read whole, checked and
  // forwarded as read (spec/auth/body-lines.spec.ts); any other body streams through.
  it('streams request bodies it does not read: the engine sees the first bytes before the client has sent the last', async () => {
    let firstChunkAt = 0;
    let bytes = 0;
    const recorder = await upstream((req, res) => {
      if (!req.url?.startsWith('/_ingest/pipeline/_simulate')) {
        // what the gateway asks at start (its index template): not the request under test
        req.resume();
        res.setHeader('content-type', 'application/json');
        res.end('{"acknowledged":true}');
        return;
      }
      req.on('data', (c: Buffer) => {
        bytes += c.length;
        if (!firstChunkAt) firstChunkAt = Date.now();
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ docs: [] }));
      });
    });
    const gw2 = await startTestGatewayAllowingDeadEngine(recorder.url);
    try {
      const line = JSON.stringify({ pad: 'y'.repeat(1000) }) + '\n';
      // the client sends the rest only once the engine has seen the first bytes: a gateway that
      // buffered the body would never forward them, and the wait would fail
      async function* slowBody() {
        yield Buffer.from(line.repeat(100));
        await within(15_000, () => firstChunkAt > 0, () => 'the engine to see the first bytes before the client sends the rest');
        for (let i = 1; i < 10; i++) yield Buffer.from(line.repeat(100));
      }
      const res = await request(`${gw2.url}/_ingest/pipeline/_simulate`, {
        method: 'POST',
        headers: { authorization: adminAuth(), 'content-type': 'application/json' },
        body: Readable.from(slowBody()),
      });
      expect(res.statusCode).to.equal(200);
      await res.body.json();
      expect(bytes).to.equal(line.length * 1000);
    } finally {
      await gw2.close();
      await recorder.close();
    }
  });

  it('streams response bodies: the client sees the first bytes before the engine has finished', async () => {
    let finishedAt = 0;
    const dribbler = await upstream(async (req, res) => {
      if (req.url?.startsWith('/.gateway-credentials')) { res.statusCode = 404; res.end('{}'); return; }
      res.setHeader('content-type', 'application/json');
      res.write('{"hits":[');
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 60));
        res.write(`${i ? ',' : ''}${i}`);
      }
      finishedAt = Date.now();
      res.end(']}');
    });
    const gw2 = await startTestGatewayAllowingDeadEngine(dribbler.url);
    try {
      const res = await request(`${gw2.url}/big/_search`, { headers: { authorization: adminAuth() } });
      let firstAt = 0;
      let text = '';
      for await (const chunk of res.body) {
        if (!firstAt) firstAt = Date.now();
        text += chunk.toString();
      }
      expect(JSON.parse(text)).to.deep.equal({ hits: [0, 1, 2, 3, 4] });
      expect(firstAt).to.be.lessThan(finishedAt - 150);
    } finally {
      await gw2.close();
      await dribbler.close();
    }
  });

  it('refuses a body over http.max_content_length with 413 before forwarding it', async () => {
    const small = await startTestGateway({ ENGINE_URL: engineUrl, MAX_CONTENT_LENGTH: '1kb' });
    try {
      const res = await call(small.url, 'POST', '/proxied/_doc', { body: { pad: 'x'.repeat(4000) } });
      expect(res.status).to.equal(413);
      expect(res.json.status).to.equal(413);
      expect((await call(small.url, 'GET', '/proxied/_doc/1')).status).to.equal(200);
    } finally {
      await small.close();
    }
  });
});

/**
 * A gateway whose engine is a scripted server: the admin comes from configuration, so start-up
 * reads nothing from the engine.
 */
async function startTestGatewayAllowingDeadEngine(url: string, env: Record<string, string> = {}): Promise<TestGateway> {
  return startTestGateway({ ENGINE_URL: url, ...env });
}
