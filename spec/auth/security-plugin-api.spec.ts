import { expect } from 'chai';
import { Client as OpenSearch } from '@opensearch-project/opensearch3';
import { adminAuth, basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';
import { callJson } from '../../lib/engine/index.js';
import { LOGS_INDEX } from '../../lib/logs/index.js';

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

    it("account: the admin's (reserved); changing its password is refused in the plugin's shape and the password stays", async () => {
      const account = await call(gw.url, 'GET', '/_plugins/_security/api/account');
      expect(account.status, account.text).to.equal(200);
      expect(account.json).to.deep.equal({
        user_name: ADMIN.user, is_reserved: true, is_hidden: false, is_internal_user: false, user_requested_tenant: null,
        backend_roles: [], custom_attribute_names: [], tenants: {}, roles: ['admin'],
      });
      const change = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { body: { current_password: ADMIN.password, password: 'another-password-1' } });
      expect(change.status, change.text).to.equal(403);
      expect(change.json).to.deep.equal({ status: 'FORBIDDEN', message: `Resource '${ADMIN.user}' is reserved.` });
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: adminAuth() })).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic(ADMIN.user, 'another-password-1') })).status).to.equal(401);
    });

    it('account: a credential changes its own password — the current one checked, the rule kept, the old header refused at once', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search', 'docs'], ops: ['read', 'write'], password: 'first-password-1' } });
      expect(made.status, made.text).to.equal(201);
      const name = made.json.credential.username as string;
      const old = basic(name, 'first-password-1');
      // verified (and cached) before the change
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: old })).status).to.equal(200);
      const put = (auth: string, body: unknown) => call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body });

      const wrong = await put(old, { current_password: 'not-the-password', password: 'second-password-2' });
      expect(wrong.status, wrong.text).to.equal(400);
      expect(wrong.json).to.deep.equal({ status: 'BAD_REQUEST', message: 'Could not validate your current password.' });
      const short = await put(old, { current_password: 'first-password-1', password: 'short' });
      expect(short.status, short.text).to.equal(400);
      const rule = (await call(gw.url, 'GET', '/_plugins/_security/dashboardsinfo', { auth: old })).json.password_validation_error_message;
      expect(short.json).to.deep.equal({ status: 'BAD_REQUEST', message: rule });
      for (const body of [{ current_password: 'first-password-1', hash: '$2y$12$abc' }, { password: 'second-password-2' }, { current_password: 'first-password-1', password: 'second-password-2', username: 'admin' }]) {
        const refused = await put(old, body);
        expect(refused.status, refused.text).to.equal(400);
        expect(refused.json.status).to.equal('BAD_REQUEST');
      }
      // none of those changed anything
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: old })).status).to.equal(200);

      const changed = await put(old, { current_password: 'first-password-1', password: 'second-password-2' });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.json).to.deep.equal({ status: 'OK', message: `'${name}' updated.` });
      expect(changed.text).not.to.contain('password-');
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: old })).status).to.equal(401);
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic(name, 'second-password-2') })).status).to.equal(200);
      // its grant is as it was: only the hash changed
      const stored = await call(gw.url, 'GET', `/_credentials/${name}`);
      expect(stored.json.credential).to.deep.include({ indices: ['books'], categories: ['search', 'docs'], ops: ['read', 'write'], role: 'user' });
      expect(stored.text).not.to.match(/hash|second-password/);
    });

    it("account: a read-only credential (a browser's shared pair) cannot change its password", async () => {
      const pair = await call(gw.url, 'POST', '/books/_credentials', { body: { read_only: true } });
      expect(pair.status, pair.text).to.equal(201);
      const auth = basic(pair.json.credential.username, pair.json.password);
      for (const current of [pair.json.password, 'not-the-password']) {
        const refused = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body: { current_password: current, password: 'taken-over-pw-1' } });
        expect(refused.status, refused.text).to.equal(403);
        expect(refused.json.status).to.equal('FORBIDDEN');
        expect(refused.json.message).to.contain('read-only');
      }
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth })).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic(pair.json.credential.username, 'taken-over-pw-1') })).status).to.equal(401);
    });

    it('permissionsinfo: the caller\'s own — the admin has the REST API, a scoped credential not; the unserved endpoints are named', async () => {
      for (const prefix of PREFIXES) {
        const admin = await call(gw.url, 'GET', `${prefix}/api/permissionsinfo`);
        expect(admin.status, admin.text).to.equal(200);
        expect(admin.json).to.deep.include({ user_name: ADMIN.user, has_api_access: true });
        expect(admin.json.disabled_endpoints).to.include.keys('INTERNALUSERS', 'ROLES', 'ROLESMAPPING', 'ACTIONGROUPS', 'TENANTS');
        const mine = await call(gw.url, 'GET', `${prefix}/api/permissionsinfo`, { auth: scoped.auth });
        expect(mine.status, mine.text).to.equal(200);
        expect(mine.json).to.deep.include({ user: `User [name=${scoped.username}, backend_roles=[], requestedTenant=null]`, user_name: scoped.username, has_api_access: false });
        expect(mine.text).not.to.contain(ADMIN.user);
      }
    });

    it("cache: DELETE flushes this node's verified headers (admin only); its other methods are 405", async () => {
      const cached = async () => {
        const res = await call(gw.url, 'GET', '/_gateway/metrics');
        expect(res.status, res.text).to.equal(200);
        return Number(/^gateway_auth_cached_headers (\d+)$/m.exec(res.text)?.[1]);
      };
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: scoped.auth })).status).to.equal(200);
      expect(await cached()).to.be.at.least(2); // the admin's header and the scoped one's
      const refused = await call(gw.url, 'DELETE', '/_plugins/_security/api/cache', { auth: scoped.auth });
      expect(refused.status, refused.text).to.equal(403);
      expect(await cached()).to.be.at.least(2);
      const flushed = await call(gw.url, 'DELETE', '/_opendistro/_security/api/cache');
      expect(flushed.status, flushed.text).to.equal(200);
      expect(flushed.json).to.deep.equal({ status: 'OK', message: 'Cache flushed successfully.' });
      expect(await cached()).to.equal(1); // the scrape's own, verified again
      // every header still works: verified again
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: scoped.auth })).status).to.equal(200);
      for (const method of ['GET', 'POST', 'PUT']) {
        const other = await call(gw.url, method, '/_plugins/_security/api/cache');
        expect(other.status, `${method}: ${other.text}`).to.equal(405);
        expect(other.json).to.deep.equal({ status: 'METHOD_NOT_ALLOWED', message: `Method ${method} not supported for this action.` });
        expect(String(other.headers.allow)).to.equal('DELETE');
      }
    });

    it("the configuration the gateway has, read in the plugin's shapes; writes it cannot honour refused, nothing changed", async () => {
      const config = await call(gw.url, 'GET', '/_plugins/_security/api/securityconfig');
      expect(config.status, config.text).to.equal(200);
      expect(config.json.config.dynamic.authc.basic_internal_auth_domain).to.deep.include({ http_enabled: true, http_authenticator: { challenge: true, type: 'basic', config: {} } });
      expect(config.json.config.dynamic.kibana).to.deep.include({ multitenancy_enabled: false });
      const putConfig = await call(gw.url, 'PUT', '/_plugins/_security/api/securityconfig/config', { body: { dynamic: { http: { anonymous_auth_enabled: true } } } });
      expect(putConfig.status, putConfig.text).to.equal(403);
      expect(putConfig.json.status).to.equal('FORBIDDEN');
      expect(putConfig.json.message).to.contain('admin certificate');

      const tenancy = await call(gw.url, 'GET', '/_plugins/_security/api/tenancy/config');
      expect(tenancy.json).to.deep.equal({ multitenancy_enabled: false, private_tenant_enabled: false, default_tenant: '' });
      const same = await call(gw.url, 'PUT', '/_plugins/_security/api/tenancy/config', { body: { multitenancy_enabled: false } });
      expect(same.status, same.text).to.equal(200);
      const widen = await call(gw.url, 'PUT', '/_plugins/_security/api/tenancy/config', { body: { multitenancy_enabled: true, default_tenant: 'admin_tenant' } });
      expect(widen.status, widen.text).to.equal(400);
      expect(widen.json.message).to.contain('multitenancy_enabled');
      expect((await call(gw.url, 'GET', '/_plugins/_security/api/tenancy/config')).json.multitenancy_enabled).to.equal(false);

      const audit = await call(gw.url, 'GET', '/_plugins/_security/api/audit');
      expect(audit.status, audit.text).to.equal(200);
      expect(audit.json.config.enabled).to.equal(false);
      const enable = await call(gw.url, 'PATCH', '/_plugins/_security/api/audit', { body: [{ op: 'add', path: '/config/enabled', value: true }] });
      expect(enable.status, enable.text).to.equal(400);
      expect((await call(gw.url, 'GET', '/_plugins/_security/api/audit')).json.config.enabled).to.equal(false);

      expect((await call(gw.url, 'GET', '/_plugins/_security/api/_upgrade_check')).json).to.deep.equal({ status: 'OK', upgradeAvailable: false, upgradeActions: {} });
      const unknownParam = await call(gw.url, 'GET', '/_plugins/_security/api/securityconfig?foo=bar');
      expect(unknownParam.status, unknownParam.text).to.equal(400);
      expect(unknownParam.json.error.reason).to.equal('request [/_plugins/_security/api/securityconfig] contains unrecognized parameter: [foo]');
      expect((await call(gw.url, 'GET', '/_plugins/_security/api/certificates?cert_type=all')).status).to.equal(403);
      expect((await call(gw.url, 'POST', '/_plugins/_security/api/_upgrade_perform', { body: { config: ['roles'] } })).status).to.equal(400);
      for (const [method, path] of [['GET', 'api/ssl/certs'], ['PUT', 'api/ssl/http/reloadcerts'], ['GET', 'api/certificates'], ['GET', 'api/allowlist']]) {
        const cert = await call(gw.url, method, `/_plugins/_security/${path}`);
        expect(cert.status, `${path}: ${cert.text}`).to.equal(403);
        expect(cert.json.status).to.equal('FORBIDDEN');
      }
      for (const [method, path] of [['GET', 'api/nodesdn'], ['POST', 'api/migrate'], ['GET', 'api/validate']]) {
        const refused = await call(gw.url, method, `/_plugins/_security/${path}`);
        expect(refused.status, `${path}: ${refused.text}`).to.equal(400);
        expect(refused.json.status).to.equal('BAD_REQUEST');
      }
      const ssl = await call(gw.url, 'GET', '/_opendistro/_security/sslinfo?show_dn=false', { auth: scoped.auth });
      expect(ssl.status, ssl.text).to.equal(200);
      expect(ssl.json).to.deep.include({ principal: null, peer_certificates: '0', ssl_protocol: null });
      // disabled, in the plugin's plain text
      const obo = await call(gw.url, 'POST', '/_plugins/_security/api/generateonbehalfoftoken', { auth: scoped.auth, body: { description: 'x', duration: '60' } });
      expect(obo.status, obo.text).to.equal(400);
      expect(String(obo.headers['content-type'])).to.match(/^text\/plain/);
      const tenantinfo = await call(gw.url, 'GET', '/_plugins/_security/tenantinfo');
      expect(tenantinfo.status, tenantinfo.text).to.equal(403);
      expect(String(tenantinfo.headers['content-type'])).to.match(/^text\/plain/);
    });

    it("the plugin's multi-grant APIs are refused in its shape, saying why; nothing is stored; a scoped credential is refused every configuration API", async () => {
      const unserved: Array<[string, string, unknown?]> = [
        ['GET', '/_plugins/_security/api/internalusers'], ['PUT', '/_plugins/_security/api/internalusers/mallory', { password: 'mallory-password-1', backend_roles: ['admin'] }],
        ['GET', '/_plugins/_security/api/roles'], ['PUT', '/_plugins/_security/api/roles/test', { cluster_permissions: ['*'] }],
        ['GET', '/_plugins/_security/api/rolesmapping'], ['GET', '/_plugins/_security/api/actiongroups'], ['GET', '/_plugins/_security/api/tenants'],
        ['POST', '/_plugins/_security/api/authtoken'], ['GET', '/_opendistro/_security/api/internalusers'], ['PUT', '/_plugins/_security/api/user/mallory', { password: 'mallory-password-1' }],
        // a method the endpoint does not take
        ['DELETE', '/_plugins/_security/authinfo'], ['DELETE', '/_plugins/_security/api/account'], ['POST', '/_plugins/_security/whoamiprotected'],
      ];
      for (const [method, path, body] of unserved) {
        const admin = await call(gw.url, method, path, { body });
        expect(admin.status, `${method} ${path}: ${admin.text}`).to.equal(403);
        expect(admin.json.status).to.equal('FORBIDDEN');
        expect(admin.json.message).to.contain('is not served').and.to.contain('/_credentials');
      }
      expect((await call(gw.url, 'GET', '/_plugins/_security/whoami', { auth: basic('mallory', 'mallory-password-1') })).status).to.equal(401);
      // a scoped credential: refused by its rights, even one that holds the cluster category and `manage`
      const manager = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['*'], categories: ['cluster'], ops: ['read', 'write', 'delete'], cluster_privileges: ['manage'] } });
      expect(manager.status, manager.text).to.equal(201);
      for (const auth of [scoped.auth, basic(manager.json.credential.username, manager.json.password)]) {
        for (const [method, path, body] of [...unserved, ['DELETE', '/_plugins/_security/api/cache'], ['GET', '/_plugins/_security/api/securityconfig'],
          ['GET', '/_plugins/_security/api/tenancy/config'], ['GET', '/_plugins/_security/api/audit'], ['GET', '/_plugins/_security/tenantinfo']] as Array<[string, string, unknown?]>) {
          const refused = await call(gw.url, method, path, { auth, body });
          expect(refused.status, `${method} ${path}: ${refused.text}`).to.equal(403);
          expect(refused.json.error.type).to.equal('security_exception');
        }
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

  describe(`OpenSearch's Security plugin: a change of password in the request logs (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ LOGS_BODIES: 'true', LOGS_FLUSH_MS: '50' }));
    });
    after(() => stop());

    it('is never logged: the request logs keep its body with both passwords redacted', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['docs'], ops: ['read', 'write'], password: 'logged-password-1' } });
      expect(made.status, made.text).to.equal(201);
      const auth = basic(made.json.credential.username, 'logged-password-1');
      const failed = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body: { current_password: 'wrong-guess-42', password: 'never-seen-pw-3' } });
      expect(failed.status, failed.text).to.equal(400);
      const done = await call(gw.url, 'PUT', '/_plugins/_security/api/account', { auth, body: { current_password: 'logged-password-1', password: 'never-seen-pw-4' } });
      expect(done.status, done.text).to.equal(200);
      let records: Array<{ method: string; path: string; request_body?: string }> = [];
      await within(15_000, async () => {
        records = (await call(gw.url, 'GET', '/_logs?size=1000')).json.logs.filter((l: { method: string; path: string }) => l.method === 'PUT' && l.path === '/_plugins/_security/api/account');
        return records.length === 2;
      });
      for (const record of records) expect(record.request_body, JSON.stringify(record)).to.contain('[redacted]');
      const stored = await callJson(gw.backend, 'POST', `/${LOGS_INDEX}/_search`, { size: 10_000, query: { match_all: {} } });
      expect(JSON.stringify(stored.body)).not.to.match(/logged-password-1|wrong-guess-42|never-seen-pw/);
    });
  });
}
