import { expect } from 'chai';
import http from 'node:http';
import { basic, call } from '../support/http.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';

describe('authentication (every route)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  const routes: Array<[string, string]> = [
    ['GET', '/'],
    ['GET', '/_cluster/health'],
    ['PUT', '/some-index'],
    ['GET', '/some-index/_doc/1'],
    ['POST', '/_search'],
    ['GET', '/_apps'],
    ['PUT', '/_apps/anapp'],
    ['GET', '/anapp/tweet/1'],
    ['DELETE', '/some-index'],
  ];

  for (const [method, path] of routes) {
    it(`${method} ${path} without credentials → 401 with a Basic challenge`, async () => {
      const res = await call(gw.url, method, path, { auth: null });
      expect(res.status).to.equal(401);
      expect(String(res.headers['www-authenticate'])).to.match(/^Basic realm="[^"]+"/);
      expect(res.headers['x-elastic-product']).to.equal('Elasticsearch');
      expect(res.json.error.type).to.equal('security_exception');
      expect(res.json.error.root_cause[0].type).to.equal('security_exception');
      expect(res.json.error.reason).to.contain('missing authentication credentials');
      expect(res.json.status).to.equal(401);
    });
  }

  it('wrong password → 401 naming the user, never the password', async () => {
    const res = await call(gw.url, 'GET', '/', { auth: basic(ADMIN.user, 'nope-wrong') });
    expect(res.status).to.equal(401);
    expect(res.json.error.reason).to.equal('unable to authenticate user [admin] for REST request [/]');
    expect(res.text).not.to.contain('nope-wrong');
  });

  it('unknown user and malformed headers → 401', async () => {
    expect((await call(gw.url, 'GET', '/', { auth: basic('mallory', ADMIN.password) })).status).to.equal(401);
    expect((await call(gw.url, 'GET', '/', { auth: 'Basic !!!notbase64' })).status).to.equal(401);
    expect((await call(gw.url, 'GET', '/', { auth: 'Bearer abc' })).status).to.equal(401);
    expect((await call(gw.url, 'GET', '/', { auth: 'Basic ' + Buffer.from('nocolon').toString('base64') })).status).to.equal(401);
  });

  it('the admin credential reaches the engine, in the header or as URL userinfo', async () => {
    const res = await call(gw.url, 'GET', '/');
    expect(res.status).to.equal(200);
    expect(res.json.tagline).to.equal('You Know, for Search');
    // curl turns user:pass@host into this header, and so does node's http client
    const url = new URL(gw.url + '/_cluster/health');
    url.username = ADMIN.user;
    url.password = ADMIN.password;
    const viaUserinfo = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, resolve).on('error', reject));
    viaUserinfo.resume();
    expect(viaUserinfo.statusCode).to.equal(200);
    expect(viaUserinfo.headers['x-elastic-product']).to.equal('Elasticsearch');
  });
});
