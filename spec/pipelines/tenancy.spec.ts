import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

/** A tenant's pipeline: registered with a scoped credential, it reaches that tenant alone. */
describe('pipelines and tenants', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  let shopAuth: string;
  let blogAuth: string;
  const definition = (id: string) => ({
    id,
    routes: [{ path: '/{index}/_search', method: 'POST' }],
    stages: [{ id: 'answer', script: 'function handleRequest() { return { response: { body: JSON.stringify({ intercepted: context.envs.index }), code: 200 } }; }' }],
  });

  before(async () => {
    gw = await startTestGateway();
    for (const app of ['shop', 'blog']) {
      await call(gw.url, 'PUT', `/_apps/${app}`);
      await call(gw.url, 'PUT', `/${app}/_doc/1?refresh=true`, { body: { a: 1 } });
    }
    const make = async (index: string) => {
      // (a pipeline's stages have its owner's categories at most: `docs`, for the writer below)
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: [index], categories: ['docs', 'search', 'pipelines'], ops: ['read', 'write', 'delete'] } });
      return basic(res.json.credential.username, res.json.password);
    };
    shopAuth = await make('shop');
    blogAuth = await make('blog');
  });
  after(() => gw.close());

  it("a tenant's pipeline claims requests to its own indices only", async () => {
    const reg = await call(gw.url, 'POST', '/_pipeline', { auth: shopAuth, body: definition('shop-intercept') });
    expect(reg.status, reg.text).to.equal(201);
    expect((await call(gw.url, 'POST', '/shop/_search', { auth: shopAuth, body: {} })).json).to.deep.equal({ intercepted: 'shop' });
    const blog = await call(gw.url, 'POST', '/blog/_search', { auth: blogAuth, body: {} });
    expect(blog.status).to.equal(200);
    expect(blog.json.hits.total.value).to.equal(1); // the built-in search, untouched
    const admin = await call(gw.url, 'POST', '/blog/_search', { body: {} });
    expect(admin.json).to.have.property('hits');
  });

  it("another tenant can neither see nor change it", async () => {
    expect((await call(gw.url, 'GET', '/_pipelines', { auth: blogAuth })).json.pipelines).to.deep.equal([]);
    expect((await call(gw.url, 'GET', '/_pipeline/shop-intercept', { auth: blogAuth })).status).to.equal(403);
    expect((await call(gw.url, 'PUT', '/_pipeline/shop-intercept', { auth: blogAuth, body: definition('shop-intercept') })).status).to.equal(403);
    expect((await call(gw.url, 'DELETE', '/_pipeline/shop-intercept', { auth: blogAuth })).status).to.equal(403);
    expect((await call(gw.url, 'GET', '/_pipelines', { auth: shopAuth })).json.pipelines.map((p: { id: string }) => p.id)).to.deep.equal(['shop-intercept']);
    expect((await call(gw.url, 'GET', '/_pipelines')).json.pipelines.map((p: { id: string }) => p.id)).to.include('shop-intercept');
  });

  it("its stages run with its owner's rights intersected with the caller's, whoever calls it", async () => {
    // a shop tenant's pipeline whose stage turns a shop search into a blog search
    const sneaky = {
      id: 'shop-sneaky',
      routes: [{ path: '/{index}/_count', method: 'POST' }],
      stages: [
        { id: 'retarget', script: 'function handleRequest() { return { request: { path: "/blog/_search" } }; }' },
        { id: 'search', use: 'engineQuery' },
      ],
    };
    const reg = await call(gw.url, 'POST', '/_pipeline', { auth: shopAuth, body: sneaky });
    expect(reg.status, reg.text).to.equal(201);
    for (const [who, auth] of [['the admin', undefined], ['the owner', shopAuth]] as const) {
      const res = await call(gw.url, 'POST', '/shop/_count', { auth, body: {} });
      expect(res.status, `${who}: ${res.text}`).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
      expect(res.text).to.not.include('"hits"');
    }
    // the admin's own pipeline is the admin's: its stages reach what the admin may
    const own = await call(gw.url, 'POST', '/_pipeline', { body: { ...sneaky, id: 'admin-retarget', routes: [{ path: '/shop/_count', method: 'GET' }] } });
    expect(own.status, own.text).to.equal(201);
    const res = await call(gw.url, 'GET', '/shop/_count');
    expect(res.status, res.text).to.equal(200);
    expect(res.json.hits.hits[0]._index).to.equal('blog');
  });

  it('a write made by a pipeline stage publishes its change: live streams see it', async () => {
    const writer = {
      id: 'shop-writer',
      routes: [{ path: '/{index}/_doc/{id}', method: 'PUT' }],
      stages: [{ id: 'write', use: 'engineQuery' }],
    };
    expect((await call(gw.url, 'POST', '/_pipeline', { auth: shopAuth, body: writer })).status).to.equal(201);
    const stream = await openStream(gw.url, '/shop/_doc/live?streamonly=true');
    expect(stream.status).to.equal(200);
    try {
      // the admin calls it: the stage writes with the admin's rights within the owner's indices
      const put = await call(gw.url, 'PUT', '/shop/_doc/live', { body: { title: 'through a pipeline' } });
      expect(put.status, put.text).to.be.oneOf([200, 201]);
      const [message] = await stream.until((messages) => messages.length >= 1);
      expect(message).to.deep.include({ _id: 'live', _source: { title: 'through a pipeline' } });
    } finally {
      stream.close();
    }
  });
});
