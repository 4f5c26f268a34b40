import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { openEmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { HttpBackend } from '../../lib/engine/http/index.js';
import type { Backend } from '../../lib/engine/index.js';
import { AppCredentials } from '../../lib/auth/credentials/app-credentials.js';
import { CredentialStore } from '../../lib/auth/credentials/credential-store.js';
import { admitWithin, inheritRestrictions, type Grantor } from '../../lib/auth/credentials/grant.js';
import { hashSecret, verifySecret } from '../../lib/auth/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import { spawnEngine, tempDir } from '../support/servers.js';

/**
 * Hostile-tenant review of the credentials API after the grant rule (a tenant reaches only
 * credentials within its own rights) and of the generated-secret hashing (issue 32). A tenant
 * holding `credentials` + write on `mine*` tries to read, reset, widen or delete credentials that
 * are not within its rights — the admin's wider pair for its index, an `admin`-role credential,
 * another tenant's — through every spelling of the API; and the stored hashes must be scrypt for
 * every chosen password, and only the shapes the gateway writes must verify.
 */

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 80);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3233);

/** Spellings of `/_credentials/{user}` a tenant may try, `U` the target's username. */
const TARGET_SPELLINGS = [
  '/_credentials/U', '//_credentials/U', '/%5Fcredentials/U', '/%5fcredentials/U', '/_CREDENTIALS/U', '/_Credentials/U', '/_credentials/U/',
  '/_credentials//U', '/_credentials/./U', '/_credentials/x/../U', '/_credentials/%2E/U', '/_credentials/%2e%2e/U', '/./_credentials/U',
  '/_credentials%2FU', '/_credentials/U%20', '/_credentials/%20U', '/_credentials/U%00', '/_credentials/U;x', '/_credentials/U?username=U',
  '/_credentials/U?pretty', '/_credentials/U?source=%7B%7D', '/mine-1/_credentials/U', '/mine-1/../_credentials/U', '/_credentials/ENC',
  '/_credentials/UPPER', '/_credentials/U,x', '/_credentials/x,U', '/_credentials/U%2Cx', '/_credentials/*', '/_credentials/_all', '/_credentials/U*',
  '/%2F_credentials/U', '/_credentials/%252E%252E/U', '/_credentials/U#x',
];
const LIST_SPELLINGS = [
  '/_credentials', '//_credentials', '/%5Fcredentials', '/_credentials/', '/_credentials?username=U', '/_credentials?source=%7B%7D', '/_CREDENTIALS',
  '/mine-1/_credentials', '/mine-1/_credentials?username=U', '/mine-1//_credentials', '/mine-1/%5Fcredentials', '/mine-1/_credentials/', '/mine*/_credentials',
  '/mine-1,other-1/_credentials', '/_all/_credentials', '/*/_credentials', '/mine-alias-to-other/_credentials', '/%3Cmine-%7Bnow%2Fd%7D%3E/_credentials',
  '/other-1/_credentials', '/mine-1/_credentials/_all', '/./mine-1/_credentials',
];

function spell(template: string, username: string): string {
  const encoded = [...username].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  return template.replace(/ENC/g, encoded).replace(/UPPER/g, username.toUpperCase()).replace(/U/g, username);
}

for (const backend of BACKENDS) {
  describe(`hostile tenant against the credentials API (${backend.name})`, function () {
    this.timeout(300_000);
    let url: string;
    let stop: () => Promise<void>;
    let tenant: string;
    let tenantName: string;
    /** Credentials the tenant may not reach, by username, as the admin sees them. */
    const targets: Record<string, unknown> = {};
    let child: string;

    const asTenant = (method: string, path: string, body?: unknown): Promise<Reply> => call(url, method, path, { auth: tenant, body });
    const adminView = async (username: string) => (await call(url, 'GET', `/_credentials/${username}`)).json;

    /** Nothing of a credential the tenant may not reach, and no hash, in any answer; never a 5xx. */
    function expectNothingOf(res: Reply, what: string): void {
      expect(res.status, `${what} → ${res.status} ${res.text}`).to.be.below(500);
      for (const text of ['hash', 'scrypt$', 'ssha256$']) expect(res.text, `${what}: ${res.text}`).not.to.contain(text);
      if (res.status < 300) {
        const shown = JSON.stringify(res.json ?? {});
        for (const name of Object.keys(targets)) expect(shown, `${what} shows ${name}: ${res.text}`).not.to.match(new RegExp(`"username":"${name}"`, 'i'));
      }
      // Elasticsearch's own answer to a path it has no handler for is `{"error": "no handler found…"}`
      if (res.status >= 400 && res.text && res.status !== 405 && !/^no handler found/.test(res.json?.error)) expect(res.json?.status, `${what}: ${res.text}`).to.equal(res.status);
    }

    before(async () => {
      // the attacker's password is tried after every attack: no sign-in budget may stand in for the check
      const started = await backend.start({ AUTH_MAX_FAILURES_PER_MINUTE: '1000000', AUTH_MAX_FAILURES_PER_IP_PER_MINUTE: '1000000' });
      url = started.gateway.url;
      stop = started.stop;
      for (const ix of ['mine-1', 'other-1']) expect((await call(url, 'PUT', `/${ix}`)).status).to.equal(200);
      expect((await call(url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'other-1', alias: 'mine-alias-to-other' } }] } })).status).to.equal(200);
      const made = await call(url, 'POST', '/_credentials', {
        body: { username: 'tenant-a', password: 'tenant-a-pass-1', indices: ['mine*'], categories: ['credentials', 'docs', 'search'], ops: ['read', 'write'], exclude_fields: ['secret*'], max_size: 50 },
      });
      expect(made.status, made.text).to.equal(201);
      tenantName = 'tenant-a';
      tenant = basic('tenant-a', 'tenant-a-pass-1');
      for (const [username, body] of [
        // the admin's wider pair for the tenant's index (categories and ops the tenant lacks)
        ['wide.pair@x-1', { indices: ['mine-1'], categories: ['docs', 'search', 'indices', 'streams'], ops: ['read', 'write', 'delete'] }],
        // within the tenant's indices, but without its field rule
        ['unruled', { indices: ['mine-1'], categories: ['docs'], ops: ['read'] }],
        ['root-like', { indices: ['mine-1'], categories: ['docs'], ops: ['read'], role: 'admin' }],
        ['other-tenant', { indices: ['other*'], categories: ['credentials', 'docs'], ops: ['read', 'write'] }],
        ['everything', { indices: ['*'], categories: ['docs'], ops: ['read'], exclude_fields: ['secret*'], max_size: 10 }],
      ] as const) {
        const res = await call(url, 'POST', '/_credentials', { body: { username, password: `${username}-pass-1`, ...body } });
        expect(res.status, res.text).to.equal(201);
        targets[username] = res.json.credential;
      }
      const own = await asTenant('POST', '/_credentials', { username: 'tenant-a-child', password: 'child-pass-12', indices: ['mine-1'], categories: ['docs'], ops: ['read'] });
      expect(own.status, own.text).to.equal(201);
      child = own.json.credential.username;
    });
    after(() => stop());

    it('the tenant reaches its own narrower credential (the rule is not a blanket refusal)', async () => {
      const read = await asTenant('GET', `/_credentials/${child}`);
      expect(read.status, read.text).to.equal(200);
      expect(read.json.credential.exclude_fields).to.deep.equal(['secret*']);
      expect(read.json.credential.max_size).to.equal(50);
      const listed = await asTenant('GET', '/mine-1/_credentials');
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.json.credentials.map((c: { username: string }) => c.username)).to.include(child);
      expectNothingOf(listed, 'GET /mine-1/_credentials');
    });

    it('GET, HEAD, PATCH and DELETE of a credential beyond the tenant, in every spelling, change and show nothing (generated)', async () => {
      const names = Object.keys(targets);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...TARGET_SPELLINGS), fc.constantFrom(...names), fc.constantFrom('GET', 'HEAD', 'PATCH', 'DELETE', 'PUT', 'POST'), async (template, name, method) => {
          const path = spell(template, name);
          const body = method === 'PATCH' || method === 'PUT' || method === 'POST' ? { description: 'taken', password: 'attacker-pass-1' } : undefined;
          const res = await asTenant(method, path, body);
          expectNothingOf(res, `${method} ${path}`);
          expect(res.status, `${method} ${path} → ${res.text}`).to.be.oneOf([400, 403, 404, 405]);
          // the target is as it was, and the attacker's password opens nothing
          expect(await adminView(name), `${method} ${path}`).to.deep.equal({ credential: targets[name] });
          expect((await call(url, 'GET', '/_security/_authenticate', { auth: basic(name, 'attacker-pass-1') })).status).to.equal(401);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('no listing shows a credential beyond the tenant, or any hash (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...LIST_SPELLINGS), fc.constantFrom(...Object.keys(targets)), fc.constantFrom('GET', 'HEAD'), async (template, name, method) => {
          const path = spell(template, name);
          expectNothingOf(await asTenant(method, path), `${method} ${path}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('a PATCH that would widen its own child is refused, whatever else it carries, and the child stays within the tenant', async () => {
      for (const patch of [
        { categories: ['docs', 'indices'] }, { ops: ['read', 'delete'] }, { exclude_fields: null }, { exclude_fields: [] }, { exclude_fields: ['secret'] },
        { max_size: null }, { max_size: 51 }, { indices: ['*'] }, { indices: ['mine-1', 'other-1'] }, { role: 'admin' }, { allow_raw_dsl: true },
        { app: 'other-1' }, { cluster_privileges: ['manage'] }, { include_fields: ['*'], exclude_fields: [] }, { username: 'root-like' },
        { description: 'fine', categories: ['credentials', 'indices'] },
      ]) {
        const res = await asTenant('PATCH', `/_credentials/${child}`, patch);
        expectNothingOf(res, `PATCH ${JSON.stringify(patch)}`);
        expect(res.status, `PATCH ${JSON.stringify(patch)} → ${res.text}`).to.be.oneOf([400, 403]);
      }
      const after = (await adminView(child)).credential;
      expect(after.exclude_fields).to.deep.equal(['secret*']);
      expect(after.max_size).to.equal(50);
      expect(after.categories).to.deep.equal(['docs']);
    });

    it('racing PATCHes, each within the tenant alone, leave the child within the tenant; none of the wider ones lands', async () => {
      const patches = [
        { ops: ['read', 'write'] }, { categories: ['docs', 'search'] }, { max_size: 10 }, { exclude_fields: ['secret*', 'x'] }, { description: 'a' },
        { max_size: null }, { exclude_fields: [] }, { categories: ['docs', 'indices'] }, { indices: ['*'] }, { password: 'raced-pass-1' },
      ];
      for (let round = 0; round < 3; round++) {
        const replies = await Promise.all(patches.map((p) => asTenant('PATCH', `/_credentials/${child}`, p)));
        for (const [i, res] of replies.entries()) expect(res.status, `${JSON.stringify(patches[i])} → ${res.text}`).to.be.oneOf([200, 403, 409]);
        const now = (await adminView(child)).credential;
        expect(now.exclude_fields).to.include('secret*');
        expect(now.max_size).to.be.at.most(50);
        expect(now.categories).not.to.include('indices');
        expect(now.indices).to.deep.equal(['mine-1']);
      }
    });

    it('POST /{index}/_credentials for an index through an alias, a pattern, a list or date math never mints beyond the tenant', async () => {
      for (const index of ['mine-alias-to-other', 'other-1', 'mine*', '*', '_all', 'mine-1,other-1', 'mine-1%2Cother-1', '%3Cother-%7Bnow%2Fd%7D%3E', '%3Cmine-%7Bnow%2Fd%7D%3E', '.gateway-credentials', '%2Egateway-credentials']) {
        for (const body of [{}, { read_only: true }, { read_only: true, password: 'chosen-pass-1' }, { read_only: true, username: 'root-like' }]) {
          const res = await asTenant('POST', `/${index}/_credentials`, body);
          expectNothingOf(res, `POST /${index}/_credentials ${JSON.stringify(body)}`);
          if (res.status === 201) {
            const minted = res.json.credential;
            expect(minted.indices.every((i: string) => i.startsWith('mine')), res.text).to.equal(true);
            expect(minted.categories.every((c: string) => ['credentials', 'docs', 'search'].includes(c)), res.text).to.equal(true);
            expect(minted.exclude_fields, res.text).to.include('secret*');
          } else expect(res.status, `POST /${index}/_credentials → ${res.text}`).to.be.oneOf([400, 403, 404]);
        }
      }
    });

    it('a chosen password for an app pair is refused (no member to carry it), and the tenant\'s own sign-in is unaffected', async () => {
      const res = await asTenant('POST', '/mine-1/_credentials', { password: 'chosen-pass-1' });
      expect(res.status, res.text).to.equal(400);
      expect((await call(url, 'GET', '/_security/_authenticate', { auth: tenant })).json.username).to.equal(tenantName);
    });
  });
}

/** The stores the credentials live in: the embedded engine in process, or a separate engine over HTTP. */
const STORES: Array<{ name: string; open(dataDir: string): Promise<{ backend: Backend; stop(): Promise<void> }> }> = [
  { name: 'embedded engine', async open(dataDir) { const backend = await openEmbeddedEngine({ dataDir }); return { backend, stop: () => backend.close() }; } },
  {
    name: 'HTTP backend (standalone engine)',
    async open(dataDir) {
      const server = await spawnEngine(dataDir);
      const backend = new HttpBackend(new URL(server.url), { timeoutMs: 10_000 });
      return { backend, async stop() { await backend.close(); await server.stop(); } };
    },
  },
];

for (const under of STORES) {
  describe(`generated-secret hashing cannot be abused (${under.name})`, function () {
    this.timeout(60_000);
    let store: CredentialStore;
    let backend: Backend;
    let stop: () => Promise<void>;
    let remove: () => Promise<void>;
    const hashOf = async (username: string) => (await store.findForLogin(username))?.hash ?? '';

    before(async () => {
      const data = await tempDir('gw-rev32-hash-');
      remove = data.remove;
      const opened = await under.open(data.dir);
      stop = opened.stop;
      backend = opened.backend;
      store = new CredentialStore(opened.backend, { reservedUsernames: ['admin'] });
    });
    after(async () => {
      await stop();
      await remove();
    });

    it('every chosen password is hashed with scrypt: on create, with or without a chosen name, by a PATCH, on behalf of a tenant', async () => {
      const tenant = await store.create({ username: 'h-tenant', password: 'tenant-pass-1', indices: ['mine*'], categories: ['credentials', 'docs'], ops: ['read', 'write'] });
      const grantor: Grantor = { credential: tenant.credential, action: 'cluster:admin/gateway/credentials/put' };
      expect(await hashOf('h-tenant')).to.match(/^scrypt\$16384\$8\$1\$/);
      const chosen = await store.create({ password: 'chosen-pass-1', indices: ['mine-1'] });
      expect(await hashOf(chosen.credential.username)).to.match(/^scrypt\$/);
      const named = await store.create({ username: 'h-named' });
      expect(await hashOf('h-named')).to.match(/^scrypt\$/);
      const minted = await store.create({ indices: ['mine-1'] });
      expect(await hashOf(minted.credential.username)).to.match(/^ssha256\$/);
      // a PATCH that sets a password on a minted (ssha256) record gives it scrypt
      await store.update(minted.credential.username, { password: 'now-chosen-1' });
      expect(await hashOf(minted.credential.username)).to.match(/^scrypt\$/);
      const byTenant = await store.create(inheritRestrictions(tenant.credential, { password: 'tenant-chose-1', indices: ['mine-1'], categories: ['docs'] }), { admit: admitWithin(grantor) });
      expect(await hashOf(byTenant.credential.username)).to.match(/^scrypt\$/);
      await store.update(byTenant.credential.username, { password: 'tenant-chose-2' }, { admit: admitWithin(grantor) });
      expect(await hashOf(byTenant.credential.username)).to.match(/^scrypt\$/);
      // app pairs carry generated secrets only
      const pair = await new AppCredentials(store).createReadOnly('mine-1', {}, grantor).catch((e: Error) => e);
      if (!(pair instanceof Error)) expect(await hashOf(pair.credential.username)).to.match(/^ssha256\$/);
    });

    it('a PATCH that keeps losing the race answers Elasticsearch\'s 409, not a 500; a DELETE re-checks the record it deletes', async () => {
      const made = await store.create({ username: 'h-raced', password: 'raced-pass-1', indices: ['mine-1'] });
      // every conditional write loses: another node changed the record each time
      const losing: Backend = {
        kind: backend.kind,
        request: (req) => (req.method === 'PUT' && /if_seq_no/.test(req.querystring ?? '')
          ? Promise.resolve({ status: 409, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":{"type":"version_conflict_engine_exception","reason":"conflict"},"status":409}') })
          : backend.request(req)),
        close: () => Promise.resolve(),
      };
      const racing = new CredentialStore(losing, { reservedUsernames: ['admin'] });
      const lost = await racing.update(made.credential.username, { description: 'x' }).catch((e: { status?: number; type?: string }) => e);
      expect(lost).to.include({ status: 409, type: 'version_conflict_engine_exception' });
      // a delete on behalf of a caller the record (as read now) is not within is refused, and nothing is deleted
      const refusal = Object.assign(new Error('wider'), { status: 403 });
      const refused = await store.delete('h-raced', { admit: () => { throw refusal; } }).catch((e: unknown) => e);
      expect(refused).to.equal(refusal);
      expect((await store.get('h-raced')).username).to.equal('h-raced');
      await store.delete('h-raced', { admit: () => undefined });
      expect(await store.findForLogin('h-raced')).to.equal(undefined);
    });

    it('only the shapes the gateway writes verify: an empty or short salt, a short hash, weak scrypt parameters or another shape open nothing', async () => {
      const password = 'chosen-pass-1';
      const salt = randomBytes(16);
      const digest = (s: Buffer) => createHash('sha256').update(s).update(password, 'utf8').digest().toString('base64');
      expect(await verifySecret(password, `ssha256$${salt.toString('base64')}$${digest(salt)}`)).to.equal(true);
      expect(await verifySecret(password, await hashSecret(password, 'generated'))).to.equal(true);
      expect(await verifySecret(password, await hashSecret(password))).to.equal(true);
      const forged = [
        `ssha256$$${digest(Buffer.alloc(0))}`,
        `ssha256$${salt.subarray(0, 4).toString('base64')}$${digest(salt.subarray(0, 4))}`,
        `ssha256$${salt.toString('base64')}$${digest(salt).slice(0, 12)}`,
        `ssha256$${salt.toString('base64')}$`,
        `ssha256$${salt.toString('base64')}$${digest(salt)}$x`,
        `SSHA256$${salt.toString('base64')}$${digest(salt)}`,
        `ssha256$${salt.toString('base64').replace(/=+$/, '')}$${digest(salt)}`,
        `scrypt$2$1$1$${salt.toString('base64')}$${(await weakScrypt(password, salt)).toString('base64')}`,
        `scrypt$16384$8$1$$${createHash('sha256').update(password).digest('base64')}`,
        'scrypt$1$2$3$4$5', 'scrypt$forged', '', '$', 'plain', password,
      ];
      for (const stored of forged) expect(await verifySecret(password, stored), stored).to.equal(false);
      expect(await verifySecret('', 'ssha256$$')).to.equal(false);
    });
  });
}

async function weakScrypt(password: string, salt: Buffer): Promise<Buffer> {
  const { scrypt } = await import('node:crypto');
  return new Promise((resolve, reject) => scrypt(password, salt, 32, { N: 2, r: 1, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))));
}
