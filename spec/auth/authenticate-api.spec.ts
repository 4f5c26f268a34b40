import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`GET /_security/_authenticate: who the request's credential is (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/books', { body: { mappings: { properties: { title: { type: 'text' } } } } });
    });
    after(() => stop());

    it("the admin, through the official client's security.authenticate()", async () => {
      const client = new Client({ node: gw.url, auth: { username: ADMIN.user, password: ADMIN.password } });
      try {
        const me = await client.security.authenticate();
        expect(me.username).to.equal(ADMIN.user);
        expect(me.roles).to.deep.equal(['admin']);
        expect(me.enabled).to.equal(true);
        expect(me.authentication_realm).to.deep.equal({ name: 'search-gateway', type: 'gateway' });
        expect(me.authentication_type).to.equal('realm');
      } finally {
        await client.close();
      }
    });

    it('a scoped credential, whatever its categories: its username, role and what it may do — never a secret', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', {
        body: { indices: ['books'], categories: ['search'], ops: ['read'], exclude_fields: ['secret'], max_size: 20, description: 'a search box' },
      });
      expect(made.status, made.text).to.equal(201);
      const auth = basic(made.json.credential.username, made.json.password);
      const me = await call(gw.url, 'GET', '/_security/_authenticate', { auth });
      expect(me.status, me.text).to.equal(200);
      expect(me.json).to.deep.include({ username: made.json.credential.username, roles: ['user'], full_name: null, email: null, enabled: true });
      expect(me.json.metadata.gateway).to.deep.equal({ indices: ['books'], categories: ['search'], ops: ['read'], allow_raw_dsl: made.json.credential.allow_raw_dsl, exclude_fields: ['secret'], max_size: 20 });
      expect(me.text).not.to.contain(made.json.password);
      expect(me.text).not.to.match(/hash|scrypt/);
      // HEAD answers like GET, without a body
      expect((await call(gw.url, 'HEAD', '/_security/_authenticate', { auth })).status).to.equal(200);
      // the rest of `_security` is not the credential's: refused, never forwarded
      const other = await call(gw.url, 'GET', '/_security/user', { auth });
      expect(other.status).to.equal(403);
      expect(other.json.error.type).to.equal('security_exception');
    });

    it('no credentials, or a wrong password: 401 with the challenge', async () => {
      const none = await call(gw.url, 'GET', '/_security/_authenticate', { auth: null });
      expect(none.status).to.equal(401);
      expect(String(none.headers['www-authenticate'])).to.match(/^Basic /);
      const wrong = await call(gw.url, 'GET', '/_security/_authenticate', { auth: basic(ADMIN.user, 'not-the-password') });
      expect(wrong.status).to.equal(401);
      expect(wrong.json.error.type).to.equal('security_exception');
    });
  });
}
