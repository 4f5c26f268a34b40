import { expect } from 'chai';
import { call } from '../support/http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';
import { registerPipeline } from './support.js';

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('pipelines across gateway nodes', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let engine: ChildServer;
  let a: ChildServer;
  let b: ChildServer;
  let data: { remove(): Promise<void>; dir: string };

  before(async function () {
    redis = await startRedis(this);
    data = await tempDir('gw-pipelines-engine-');
    engine = await spawnEngine(data.dir);
    const env = { ENGINE_URL: engine.url, REDIS_URL: redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
    await call(a.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await engine?.stop();
    await redis?.stop();
    await data?.remove();
  });

  it('a pipeline registered, changed and deleted on node A takes effect on node B within 1 s', async () => {
    const def = (word: string) => `
id: hello
routes: [{ path: /hello, method: GET }]
stages:
  - { id: answer, script: "function handleRequest() { return { response: { code: 200, body: { word: '${word}' } } }; }" }
`;
    expect((await registerPipeline(a.url, def('first'))).status).to.equal(201);
    await within(1000, async () => (await call(b.url, 'GET', '/hello')).json?.word === 'first');
    expect((await registerPipeline(a.url, def('second'), {}, { method: 'PUT', path: '/_pipeline/hello' })).status).to.equal(200);
    await within(1000, async () => (await call(b.url, 'GET', '/hello')).json?.word === 'second');
    expect((await call(b.url, 'GET', '/_pipeline/hello')).json.pipeline.id).to.equal('hello');
    await call(a.url, 'DELETE', '/_pipeline/hello');
    await within(1000, async () => (await call(b.url, 'GET', '/hello')).json?.word === undefined);
  });

  it('a node started later loads the stored pipelines', async () => {
    const def = `
id: stored
routes: [{ path: /stored, method: GET }]
stages:
  - { id: answer, script: "function handleRequest() { return { response: { code: 200, body: { ok: true } } }; }" }
`;
    await registerPipeline(a.url, def);
    const c = await spawnGateway({ ENGINE_URL: engine.url, REDIS_URL: redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password });
    try {
      expect((await call(c.url, 'GET', '/stored')).json).to.deep.equal({ ok: true });
    } finally {
      await c.stop();
    }
  });
});
