import { expect } from 'chai';
import { request } from 'undici';
import { loadConfig, ConfigError } from '../../lib/config/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

const APP = 'https://app.example.com';
const LOCAL = 'http://localhost:3000';
const EVIL = 'https://evil.example.com';

/** A browser's preflight: no credentials, the method and headers it is about to send. */
function preflight(base: string, path: string, origin: string, method = 'POST', headers?: string): Promise<Reply> {
  const h: Record<string, string> = { origin, 'access-control-request-method': method };
  if (headers !== undefined) h['access-control-request-headers'] = headers;
  return call(base, 'OPTIONS', path, { auth: null, headers: h });
}

const corsHeaders = (res: Reply) => Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
const listed = (value: unknown) => String(value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

for (const backend of BACKENDS) {
  describe(`CORS for browser clients (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let shopOnly: string;
    let fromTheSite: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ CORS_ORIGINS: `${APP}, ${LOCAL}/` }));
      await call(gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'hat' } });
      await call(gw.url, 'PUT', '/blog/_doc/1?refresh=true', { body: { title: 'hello' } });
      const shop = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['docs', 'search', 'streams'], ops: ['read'] } });
      shopOnly = basic(shop.json.credential.username, shop.json.password);
      const site = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['docs', 'search'], ops: ['read'], referers: [`${APP}/*`] } });
      fromTheSite = basic(site.json.credential.username, site.json.password);
    });
    after(() => stop());

    it('a preflight from an allowed origin is answered 204 before authentication', async () => {
      const res = await preflight(gw.url, '/shop/_search', APP, 'POST', 'authorization,content-type,x-search-client,x-enable-telemetry');
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      expect(res.headers['access-control-allow-origin']).to.equal(APP);
      expect(res.headers['access-control-allow-credentials']).to.equal('true');
      expect(listed(res.headers['access-control-allow-methods'])).to.have.members(['get', 'head', 'post', 'put', 'delete', 'patch']);
      expect(listed(res.headers['access-control-allow-headers'])).to.have.members(['authorization', 'content-type', 'x-search-client', 'x-enable-telemetry']);
      expect(Number(res.headers['access-control-max-age'])).to.be.greaterThan(0);
      expect(listed(res.headers.vary)).to.include('origin');
    });

    it('a preflight that names no headers is allowed the ones clients send', async () => {
      const res = await preflight(gw.url, '/shop/_doc/1', LOCAL, 'GET');
      expect(res.status).to.equal(204);
      expect(res.headers['access-control-allow-origin']).to.equal(LOCAL);
      expect(listed(res.headers['access-control-allow-headers'])).to.include.members([
        'authorization', 'content-type', 'x-search-query', 'x-search-filters', 'x-user-id', 'x-enable-telemetry', 'x-search-client',
      ]);
    });

    it('a preflight from another origin gets no CORS header, and the 401 any request without credentials gets', async () => {
      for (const origin of [EVIL, 'null', `${APP}.evil.example`, 'http://app.example.com']) {
        const res = await preflight(gw.url, '/shop/_search', origin, 'POST', 'authorization');
        expect(res.status, origin).to.equal(401);
        expect(corsHeaders(res), origin).to.deep.equal([]);
        expect(res.json.error.type).to.equal('security_exception');
      }
    });

    it('an allowed origin\'s requests are authenticated as any, and their answers readable: 200, 401, 403, 404', async () => {
      const ok = await call(gw.url, 'GET', '/shop/_doc/1', { auth: shopOnly, headers: { origin: APP } });
      expect(ok.status).to.equal(200);
      expect(ok.headers['access-control-allow-origin']).to.equal(APP);
      expect(ok.headers['access-control-allow-credentials']).to.equal('true');
      expect(listed(ok.headers['access-control-expose-headers'])).to.include.members(['x-search-id', 'x-request-cache', 'x-opaque-id', 'warning']);
      expect(listed(ok.headers.vary)).to.include('origin');

      const anonymous = await call(gw.url, 'GET', '/shop/_doc/1', { auth: null, headers: { origin: APP } });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers['access-control-allow-origin']).to.equal(APP);
      const otherIndex = await call(gw.url, 'GET', '/blog/_doc/1', { auth: shopOnly, headers: { origin: APP } });
      expect(otherIndex.status).to.equal(403);
      expect(otherIndex.headers['access-control-allow-origin']).to.equal(APP);
      expect(otherIndex.text).not.to.contain('hello');
      const missing = await call(gw.url, 'GET', '/shop/_doc/nope', { headers: { origin: APP } });
      expect(missing.status).to.equal(404);
      expect(missing.headers['access-control-allow-origin']).to.equal(APP);
      const bad = await call(gw.url, 'POST', '/shop/_search', { headers: { origin: APP }, body: '{"query":' });
      expect(bad.status).to.equal(400);
      expect(bad.headers['access-control-allow-origin']).to.equal(APP);
    });

    it('an actual request from another origin is answered as without CORS, with no CORS header', async () => {
      const res = await call(gw.url, 'GET', '/shop/_doc/1', { auth: shopOnly, headers: { origin: EVIL } });
      expect(res.status).to.equal(200);
      expect(corsHeaders(res)).to.deep.equal([]);
      const none = await call(gw.url, 'GET', '/shop/_doc/1', { auth: shopOnly });
      expect(corsHeaders(none)).to.deep.equal([]);
    });

    it('a credential\'s referers still apply to a browser\'s requests', async () => {
      const fromSite = await call(gw.url, 'GET', '/shop/_doc/1', { auth: fromTheSite, headers: { origin: APP, referer: `${APP}/` } });
      expect(fromSite.status, fromSite.text).to.equal(200);
      const fromLocal = await call(gw.url, 'GET', '/shop/_doc/1', { auth: fromTheSite, headers: { origin: LOCAL, referer: `${LOCAL}/` } });
      expect(fromLocal.status).to.equal(403);
      expect(fromLocal.headers['access-control-allow-origin']).to.equal(LOCAL);
      expect(fromLocal.json.error.reason).to.contain('referer');
    });

    it('the headers the ReactiveSearch libraries send are accepted on the thin path, searches and streams', async () => {
      const headers = { origin: APP, 'x-search-client': 'ReactiveSearch%20React', 'x-enable-telemetry': 'false', 'x-timestamp': String(Date.now()), 'x-user-id': 'u1' };
      const search = await call(gw.url, 'POST', '/shop/_search', { auth: shopOnly, headers, body: { query: { match_all: {} } } });
      expect(search.status, search.text).to.equal(200);
      expect(search.json.hits.total.value).to.equal(1);
      const doc = await call(gw.url, 'GET', '/shop/_doc/1', { auth: shopOnly, headers });
      expect(doc.status, doc.text).to.equal(200);
      // a stream answers with its headers first: they carry CORS too
      const stream = await request(`${gw.url}/shop/_doc/1?stream=true`, { headers: { ...headers, authorization: shopOnly } });
      expect(stream.statusCode).to.equal(200);
      expect(stream.headers['access-control-allow-origin']).to.equal(APP);
      await stream.body.destroy();
    });
  });
}

describe('CORS configuration', function () {
  this.timeout(30_000);

  it('CORS_ORIGINS unset: no CORS header at all, a preflight is a request like any', async () => {
    const gw = await startTestGateway();
    try {
      const res = await call(gw.url, 'GET', '/', { headers: { origin: APP } });
      expect(res.status).to.equal(200);
      expect(corsHeaders(res)).to.deep.equal([]);
      expect(res.headers.vary).to.equal(undefined);
      const pre = await preflight(gw.url, '/', APP, 'GET');
      expect(pre.status).to.equal(401);
      expect(corsHeaders(pre)).to.deep.equal([]);
    } finally {
      await gw.close();
    }
  });

  it('CORS_ORIGINS=*: any origin, without browser-held credentials', async () => {
    const gw = await startTestGateway({ CORS_ORIGINS: '*' });
    try {
      const pre = await preflight(gw.url, '/_search', EVIL, 'POST', 'authorization, content-type');
      expect(pre.status).to.equal(204);
      expect(pre.headers['access-control-allow-origin']).to.equal('*');
      expect(pre.headers['access-control-allow-credentials']).to.equal(undefined);
      expect(listed(pre.headers['access-control-allow-headers'])).to.have.members(['authorization', 'content-type']);
      const res = await call(gw.url, 'GET', '/', { headers: { origin: EVIL } });
      expect(res.status).to.equal(200);
      expect(res.headers['access-control-allow-origin']).to.equal('*');
      expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
      expect(listed(res.headers['access-control-expose-headers'])).to.include('x-search-id');
    } finally {
      await gw.close();
    }
  });

  it('origins are read as browsers write them; anything else is a configuration error', () => {
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).to.deep.equal([]);
    expect(loadConfig({ CORS_ORIGINS: 'HTTPS://App.Example.com:443/, http://localhost:3000,capacitor://localhost' }).corsOrigins)
      .to.deep.equal(['https://app.example.com', 'http://localhost:3000', 'capacitor://localhost']);
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).to.deep.equal(['*']);
    for (const bad of ['*,https://a.example', 'https://a.example/path', 'a.example', 'https://user@a.example', 'https://a.example?x=1']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).to.throw(ConfigError, /CORS_ORIGINS/);
    }
  });
});
