import { expect } from 'chai';
import { basic, call } from '../../support/http.js';
import { RECORDED_BACKENDS } from '../../support/recording-upstream.js';
import type { TestGateway } from '../../support/servers.js';

/**
 * Rights only narrow, in what a tenant is shown and may touch too: a credential holding
 * `credentials` sees, reads, changes and deletes only the credentials it could have granted
 * itself (within its indices, categories, operations and limits), never a wider pair the admin
 * minted for its own index.
 */
for (const backend of RECORDED_BACKENDS) {
  describe(`a tenant sees and manages only credentials within its own rights (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;
    let tenantName: string;
    let adminPair: string;
    let narrower: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/mine-1/_doc/1?refresh=true', { body: { f: 1 } })).status).to.equal(201);
      const pair = await call(gw.url, 'POST', '/mine-1/_credentials', { body: {} });
      expect(pair.status, pair.text).to.equal(201);
      adminPair = pair.json.credential.username;
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine*'], categories: ['search', 'credentials'], ops: ['read', 'write'] } });
      expect(made.status, made.text).to.equal(201);
      tenantName = made.json.credential.username;
      tenant = basic(tenantName, made.json.password);
      const own = await call(gw.url, 'POST', '/_credentials', { auth: tenant, body: { indices: ['mine-1'], categories: ['search'], ops: ['read'] } });
      expect(own.status, own.text).to.equal(201);
      narrower = own.json.credential.username;
    });
    after(() => stop?.());

    it('GET /{index}/_credentials lists the narrower credential, not the admin\'s wider pair; the admin sees both', async () => {
      const listed = await call(gw.url, 'GET', '/mine-1/_credentials', { auth: tenant });
      expect(listed.status, listed.text).to.equal(200);
      const names = listed.json.credentials.map((c: { username: string }) => c.username);
      expect(names).to.include(narrower);
      expect(names).to.not.include(adminPair);
      const byAdmin = await call(gw.url, 'GET', '/mine-1/_credentials');
      expect(byAdmin.json.credentials.map((c: { username: string }) => c.username)).to.include.members([adminPair, narrower]);
    });

    for (const [method, body] of [['GET', undefined], ['PATCH', { description: 'mine now' }], ['DELETE', undefined]] as const) {
      it(`${method} /_credentials/{the admin's pair}: 403, and the pair is unchanged`, async () => {
        const res = await call(gw.url, method, `/_credentials/${adminPair}`, { auth: tenant, body });
        expect(res.status, res.text).to.equal(403);
        expect(res.json.error.type).to.equal('security_exception');
        const still = await call(gw.url, 'GET', `/_credentials/${adminPair}`);
        expect(still.status).to.equal(200);
        expect(still.json.credential.description).to.not.equal('mine now');
      });
    }

    it('the narrower credential stays the tenant\'s to read and change', async () => {
      expect((await call(gw.url, 'GET', `/_credentials/${narrower}`, { auth: tenant })).status).to.equal(200);
      const patched = await call(gw.url, 'PATCH', `/_credentials/${narrower}`, { auth: tenant, body: { description: 'ok' } });
      expect(patched.status, patched.text).to.equal(200);
    });
  });
}
