import { expect } from 'chai';
import { Client as OpenSearch } from '@opensearch-project/opensearch3';
import { adminAuth, basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

const PREFIXES = ['/_plugins/_security', '/_opendistro/_security'];

for (const backend of BACKENDS) {
  describe(`OpenSearch's Security plugin: who the request's principal is (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let scoped: { username: string; password: string; auth: string };
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/books', { body: { mappings: { properties: { title: { type: 'text' } } } } });
      // a credential that may only search books: none of its categories is about credentials or the cluster
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'], exclude_fields: ['secret'], description: 'a search box' } });
      expect(made.status, made.text).to.equal(201);
      scoped = { username: made.json.credential.username, password: made.json.password, auth: basic(made.json.credential.username, made.json.password) };
    });
    after(() => stop());

    it("authinfo: the admin's name, role and address, under both prefixes and both methods", async () => {
      for (const prefix of PREFIXES) {
        for (const method of ['GET', 'POST']) {
          const info = await call(gw.url, method, `${prefix}/authinfo`);
          expect(info.status, info.text).to.equal(200);
          expect(info.json).to.deep.include({
            user: `User [name=${ADMIN.user}, backend_roles=[], requestedTenant=null]`,
            user_name: ADMIN.user, user_requested_tenant: null, backend_roles: [], custom_attribute_names: [], roles: ['admin'],
            tenants: {}, principal: null, peer_certificates: '0', sso_logout_url: null, gateway: { indices: ['*'] },
          });
          expect(info.json.remote_address).to.match(/^(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:.]+\]):\d+$/);
          expect(info.json).not.to.have.property('size_of_user');
        }
      }
    });

    it("through opensearch-js's security API, as a scoped credential", async () => {
      const client = new OpenSearch({ node: gw.url, auth: { username: scoped.username, password: scoped.password } });
      try {
        expect((await client.security.authinfo()).body).to.deep.include({ user_name: scoped.username, roles: ['user'] });
        expect((await client.security.whoAmI()).body).to.deep.equal({ dn: null, is_admin: false, is_node_certificate_request: false });
        expect((await client.security.whoAmIProtected()).body.is_admin).to.equal(false);
        expect((await client.security.health({ mode: 'strict' })).body).to.deep.equal({ message: null, mode: 'strict', status: 'UP' });
        expect((await client.security.getDashboardsInfo()).body.user_name).to.equal(scoped.username);
        expect((await client.security.getAccountDetails()).body.user_name).to.equal(scoped.username);
      } finally {
        await client.close();
      }
    });

    it('authinfo?verbose adds the sizes; a verbose that is no boolean is a 400; auth_type is taken', async () => {
      const verbose = await call(gw.url, 'GET', '/_plugins/_security/authinfo?verbose=true&auth_type=basic');
      expect(verbose.status, verbose.text).to.equal(200);
      expect(verbose.json.size_of_user).to.match(/^\d+ bytes$/);
      expect(verbose.json.size_of_custom_attributes).to.equal('2 bytes');
      expect(verbose.json.size_of_backendroles).to.equal('2 bytes');
      const quiet = await call(gw.url, 'GET', '/_plugins/_security/authinfo?verbose=false');
      expect(quiet.json).not.to.have.property('size_of_user');
      const wrong = await call(gw.url, 'GET', '/_plugins/_security/authinfo?verbose=maybe');
      expect(wrong.status, wrong.text).to.equal(400);
      expect(wrong.json.error.type).to.equal('illegal_argument_exception');
      // a parameter the endpoint does not take is a 400, as OpenSearch answers it; the common ones are taken
      const unknown = await call(gw.url, 'GET', '/_plugins/_security/whoami?foo=bar');
      expect(unknown.status, unknown.text).to.equal(400);
      expect(unknown.json.error.reason).to.equal('request [/_plugins/_security/whoami] contains unrecognized parameter: [foo]');
      expect((await call(gw.url, 'GET', '/_plugins/_security/health?pretty&mode=strict')).status).to.equal(200);
    });

    it('whoami, whoamiprotected, health and dashboardsinfo answer in the plugin\'s shape', async () => {
      for (const prefix of PREFIXES) {
        for (const path of ['whoami', 'whoamiprotected']) {
          const me = await call(gw.url, 'GET', `${prefix}/${path}`);
          expect(me.status, me.text).to.equal(200);
          expect(me.json).to.deep.equal({ dn: null, is_admin: false, is_node_certificate_request: false });
        }
        expect((await call(gw.url, 'POST', `${prefix}/whoami`)).status).to.equal(200);
        expect((await call(gw.url, 'GET', `${prefix}/health`)).json).to.deep.equal({ message: null, mode: 'strict', status: 'UP' });
        expect((await call(gw.url, 'POST', `${prefix}/health?mode=lenient`)).json).to.deep.equal({ message: null, mode: 'lenient', status: 'UP' });
        for (const path of ['dashboardsinfo', 'kibanainfo']) {
          const info = await call(gw.url, 'GET', `${prefix}/${path}`);
          expect(info.status, info.text).to.equal(200);
          expect(info.json).to.deep.include({ user_name: ADMIN.user, multitenancy_enabled: false, private_tenant_enabled: false, sign_in_options: ['BASIC'] });
          // the gateway's own password rule: what the credentials API takes
          const rule = new RegExp(info.json.password_validation_regex);
          expect(rule.test('short')).to.equal(false);
          expect(rule.test('long-enough-password')).to.equal(true);
        }
      }
    });

    it("account: the admin's (reserved); changing its password is refused and the password stays", async () => {
      const account = await call(gw.url, 'GET', '/_plugins/_security/api/account');
      expect(account.status, account.text).to.equal(200);
      expect(account.json).to.deep.equal({
        user_name: ADMIN.user, is_reserved: true, is_hidden: false, is_internal_user: false, user_requested_tenant: null,
        backend_roles: [], custom_attribute_names: [], tenants: {}, roles: ['admin'],
      });
      const change = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { body: { current_password: ADMIN.password, password: 'another-password-1' } });
      expect(change.status, change.text).to.equal(403);
      expect(change.json.error.type).to.equal('security_exception');
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: adminAuth() })).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic(ADMIN.user, 'another-password-1') })).status).to.equal(401);
    });

    it('a scoped credential sees only itself, with what it may do — never a secret', async () => {
      const auth = scoped.auth;
      const authenticate = await call(gw.url, 'GET', '/_security/_authenticate', { auth });
      for (const prefix of PREFIXES) {
        const info = await call(gw.url, 'GET', `${prefix}/authinfo`, { auth });
        expect(info.status, info.text).to.equal(200);
        expect(info.json).to.deep.include({ user_name: scoped.username, roles: ['user'], backend_roles: [] });
        expect(info.json.gateway).to.deep.equal(authenticate.json.metadata.gateway);
        expect(info.json.gateway).to.deep.include({ indices: ['books'], categories: ['search'], ops: ['read'], exclude_fields: ['secret'] });
        expect(info.text).not.to.contain(scoped.password);
        expect(info.text).not.to.contain(ADMIN.user);
        expect(info.text).not.to.match(/hash|scrypt/);
        for (const path of ['whoami', 'whoamiprotected', 'health']) expect((await call(gw.url, 'GET', `${prefix}/${path}`, { auth })).status, path).to.equal(200);
        const dashboards = await call(gw.url, 'POST', `${prefix}/dashboardsinfo`, { auth });
        expect(dashboards.json.user_name).to.equal(scoped.username);
        expect(dashboards.text).not.to.contain(ADMIN.user);
        const account = await call(gw.url, 'GET', `${prefix}/api/account`, { auth });
        expect(account.status, account.text).to.equal(200);
        expect(account.json).to.deep.include({ user_name: scoped.username, is_reserved: false, is_internal_user: false, roles: ['user'] });
      }
      // its password is not changed here: refused, and the old one still works
      const change = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body: { current_password: scoped.password, password: 'a-new-password-123' } });
      expect(change.status, change.text).to.equal(403);
      expect(change.json.error.type).to.equal('security_exception');
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic(scoped.username, 'a-new-password-123') })).status).to.equal(401);
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth })).status).to.equal(200);
    });

    it("the plugin's other APIs stay unserved: a scoped credential is refused, the admin's request gets an ES-shaped error", async () => {
      const others: Array<[string, string]> = [
        ['GET', '/_plugins/_security/api/internalusers'], ['PUT', '/_plugins/_security/api/internalusers/mallory'], ['GET', '/_plugins/_security/api/roles'],
        ['GET', '/_plugins/_security/api/rolesmapping'], ['GET', '/_plugins/_security/api/actiongroups'], ['GET', '/_plugins/_security/api/tenants'],
        ['GET', '/_plugins/_security/api/audit'], ['GET', '/_plugins/_security/tenantinfo'], ['GET', '/_opendistro/_security/api/internalusers'],
        // a method the endpoint does not take
        ['DELETE', '/_plugins/_security/authinfo'], ['DELETE', '/_plugins/_security/api/account'], ['POST', '/_plugins/_security/whoamiprotected'],
      ];
      for (const [method, path] of others) {
        const refused = await call(gw.url, method, path, { auth: scoped.auth, body: method === 'PUT' ? { password: 'mallory-password-1' } : undefined });
        expect(refused.status, `${method} ${path}: ${refused.text}`).to.equal(403);
        expect(refused.json.error.type).to.equal('security_exception');
        const admin = await call(gw.url, method, path, { body: method === 'PUT' ? { password: 'mallory-password-1' } : undefined });
        expect(admin.status, `${method} ${path}: ${admin.text}`).to.be.within(400, 499);
        expect(admin.json, admin.text).to.have.property('error');
      }
    });

    it('no credentials, or a wrong password: 401 with the challenge', async () => {
      for (const path of ['/_plugins/_security/authinfo', '/_plugins/_security/whoami', '/_plugins/_security/health', '/_plugins/_security/api/account']) {
        const none = await call(gw.url, 'GET', path, { auth: null });
        expect(none.status, path).to.equal(401);
        expect(String(none.headers['www-authenticate'])).to.match(/^Basic /);
        expect((await call(gw.url, 'GET', path, { auth: basic(scoped.username, 'not-the-password') })).status, path).to.equal(401);
      }
    });
  });
}
