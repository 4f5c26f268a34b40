import { expect } from 'chai';
import { call } from '../support/http.js';
import { ADMIN, spawnGateway, type ChildServer } from '../support/servers.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { within } from '../support/within.js';
import { registerPipeline } from './support.js';

describe('pipelines across gateway nodes', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;
  let a: ChildServer;
  let b: ChildServer;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-pipelines-engine-');
    ({ a, b } = nodes);
    await call(a.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => nodes?.stop());

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
    const c = await spawnGateway({ ENGINE_URL: nodes.engine.url, REDIS_URL: nodes.redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password });
    try {
      expect((await call(c.url, 'GET', '/stored')).json).to.deep.equal({ ok: true });
    } finally {
      await c.stop();
    }
  });
});
