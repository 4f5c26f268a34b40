import { expect } from 'chai';
import { adminAuth, call } from '../support/http.js';
import { halfSent } from '../support/raw-request.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

/** What a load balancer's probe sees: no credentials. */
const probe = (base: string, path: string, method = 'GET') => call(base, method, path, { auth: null });

describe('health and readiness probes', function () {
  this.timeout(60_000);

  describe('on the embedded engine', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway();
    });
    after(() => gw.close());

    it('GET /_gateway/health answers 200 {status: ok} without credentials', async () => {
      const res = await probe(gw.url, '/_gateway/health');
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal({ status: 'ok' });
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('GET /_gateway/ready answers 200 with each check, without credentials; no redis check without REDIS_URL', async () => {
      const res = await probe(gw.url, '/_gateway/ready');
      expect(res.status).to.equal(200);
      expect(res.json.status).to.equal('ready');
      expect(res.json.checks.engine).to.include({ ok: true });
      expect(res.json.checks.engine.took_ms).to.be.a('number');
      expect(res.json.checks.system_indices).to.include({ ok: true });
      expect(res.json.checks).not.to.have.property('redis');
    });

    it('HEAD is answered too', async () => {
      expect((await probe(gw.url, '/_gateway/health', 'HEAD')).status).to.equal(200);
      expect((await probe(gw.url, '/_gateway/ready', 'HEAD')).status).to.equal(200);
    });

    it('anything else under /_gateway, or another method, goes on to authentication', async () => {
      expect((await probe(gw.url, '/_gateway/health', 'POST')).status).to.equal(401);
      // a path is read one way (empty segments dropped, as Elasticsearch's router drops them): this is the probe
      expect((await probe(gw.url, '/_gateway/ready/')).status).to.equal(200);
      expect((await probe(gw.url, '/_gateway/ready/x')).status).to.equal(401);
      expect((await probe(gw.url, '/_gateway/other')).status).to.equal(401);
      expect((await probe(gw.url, '/_gateway/healthz')).status).to.equal(401);
    });
  });

  describe('with ENGINE_URL', () => {
    let data: { dir: string; remove(): Promise<void> };
    let engine: ChildServer;
    let gw: TestGateway;
    before(async () => {
      data = await tempDir('gw-health-engine-');
      engine = await spawnEngine(data.dir);
      gw = await startTestGateway({ ENGINE_URL: engine.url });
    });
    after(async () => {
      await gw?.close();
      await engine?.stop();
      await data?.remove();
    });

    it('is not ready (503) while the engine is stopped, and ready again once it is back', async () => {
      expect((await probe(gw.url, '/_gateway/ready')).status).to.equal(200);
      const port = new URL(engine.url).port;
      await engine.stop();

      let down: any;
      await within(10_000, async () => {
        const res = await probe(gw.url, '/_gateway/ready');
        down = res;
        return res.status === 503;
      });
      expect(down.json.status).to.equal('not_ready');
      expect(down.json.checks.engine.ok).to.equal(false);
      expect(down.json.checks.engine.error).to.be.a('string').and.not.empty;
      expect(down.json.checks.system_indices.ok).to.equal(false);
      // liveness is the process, not its dependencies
      expect((await probe(gw.url, '/_gateway/health')).status).to.equal(200);

      engine = await spawnEngine(data.dir, { ENGINE_PORT: port });
      await within(10_000, async () => (await probe(gw.url, '/_gateway/ready')).status === 200);
      const up = await probe(gw.url, '/_gateway/ready');
      expect(up.json.checks.engine.ok).to.equal(true);
      expect(up.json.checks.system_indices.ok).to.equal(true);
    });
  });

  describe('with REDIS_URL', () => {
    let redis: TestRedis;
    let gw: TestGateway;
    before(async function () {
      redis = await startRedis(this);
      gw = await startTestGateway({ REDIS_URL: redis.url });
    });
    after(async () => {
      await gw?.close();
      await redis?.stop();
    });

    it('reports Redis, is not ready (503) while Redis is down, and ready again once it is back', async () => {
      await within(10_000, async () => (await probe(gw.url, '/_gateway/ready')).status === 200);
      expect((await probe(gw.url, '/_gateway/ready')).json.checks.redis).to.include({ ok: true });

      await redis.kill();
      let down: any;
      await within(10_000, async () => {
        down = await probe(gw.url, '/_gateway/ready');
        return down.status === 503;
      });
      expect(down.json.status).to.equal('not_ready');
      expect(down.json.checks.redis.ok).to.equal(false);
      expect(down.json.checks.redis.error).to.be.a('string').and.not.empty;
      expect(down.json.checks.engine.ok, 'the engine is fine').to.equal(true);

      await redis.restart();
      await within(10_000, async () => (await probe(gw.url, '/_gateway/ready')).status === 200);
      expect((await probe(gw.url, '/_gateway/ready')).json.checks.redis).to.include({ ok: true });
    });
  });

  describe('during shutdown', () => {
    it('ready answers 503 shutting_down, and any other request on an open connection is refused with 503', async () => {
      const gw = await startTestGateway();
      const ready = await halfSent(gw.url, 'GET', '/_gateway/ready');
      const other = await halfSent(gw.url, 'GET', '/_cat/indices', { authorization: adminAuth() });
      const health = await halfSent(gw.url, 'GET', '/_gateway/health');
      const closed = gw.close({ drainMs: 10_000 });

      const notReady = await ready.finish();
      expect(notReady.status).to.equal(503);
      expect(notReady.json).to.deep.equal({ status: 'not_ready', reason: 'shutting_down', checks: {} });
      const refused = await other.finish();
      expect(refused.status).to.equal(503);
      expect(refused.json.error.type).to.equal('node_closed_exception');
      expect(refused.headers.connection).to.equal('close');
      // the process still answers
      expect((await health.finish()).status).to.equal(200);
      await closed;
    });
  });
});
