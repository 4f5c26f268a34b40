import { expect } from 'chai';
import { call } from '../support/http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';

/** Polls a condition until it holds; the time it took, or a failure past `ms`. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('query rules and relevancy settings across gateway nodes', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let engine: ChildServer;
  let a: ChildServer;
  let b: ChildServer;
  let data: { remove(): Promise<void>; dir: string };
  const search = (node: ChildServer) =>
    call(node.url, 'POST', '/shop/_declarative', { body: { query: [{ id: 's', value: 'dune' }] } });

  before(async function () {
    redis = await startRedis(this);
    data = await tempDir('gw-rules-engine-');
    engine = await spawnEngine(data.dir);
    const env = { ENGINE_URL: engine.url, REDIS_URL: redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
    await call(a.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await engine?.stop();
    await redis?.stop();
    await data?.remove();
  });

  it('a rule and a relevancy setting stored on node A apply on node B within 1 s, and so do their deletion', async () => {
    expect((await call(a.url, 'PUT', '/_searchrelevancy/shop', { body: { search: { dataField: 'title' } } })).status).to.equal(201);
    await within(1000, async () => (await search(b)).status === 200);
    expect((await call(a.url, 'PUT', '/_rule/r', { body: { trigger: { type: 'query', value: 'dune' }, actions: { custom_data: 'first' } } })).status).to.equal(201);
    await within(1000, async () => (await search(b)).json?.s?.customData === 'first');
    await call(a.url, 'PUT', '/_rule/r', { body: { trigger: { type: 'query', value: 'dune' }, actions: { custom_data: 'second' } } });
    await within(1000, async () => (await search(b)).json?.s?.customData === 'second');
    await call(a.url, 'DELETE', '/_rule/r');
    await within(1000, async () => (await search(b)).json?.s?.customData === undefined);
    await call(a.url, 'DELETE', '/_searchrelevancy/shop');
    await within(1000, async () => (await search(b)).status === 400);
  });
});
