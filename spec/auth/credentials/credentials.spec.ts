import { expect } from 'chai';
import { openEmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import { HttpBackend } from '../../../lib/engine/http/index.js';
import { callJson, type Backend } from '../../../lib/engine/index.js';
import { MemoryChangeBus } from '../../../lib/changes/index.js';
import { CREDENTIALS_INDEX } from '../../../lib/auth/index.js';
import { basic } from '../../support/http.js';
import { spawnEngine, tempDir } from '../../support/servers.js';
import { within } from '../../support/within.js';
import { startNode, type TestNode } from './support.js';

const PUBLIC_MEMBERS = [
  'username', 'indices', 'categories', 'ops', 'sources', 'referers', 'allow_raw_dsl', 'role', 'created_at', 'updated_at',
];

/** The store works through the Backend: the embedded engine in process, or a separate engine over HTTP. */
const BACKENDS: Array<{ name: string; open(dataDir: string): Promise<{ backend: Backend; stop(): Promise<void> }> }> = [
  {
    name: 'embedded engine',
    async open(dataDir) {
      const backend = await openEmbeddedEngine({ dataDir });
      return { backend, stop: () => backend.close() };
    },
  },
  {
    name: 'HTTP backend (standalone engine)',
    async open(dataDir) {
      const server = await spawnEngine(dataDir);
      const backend = new HttpBackend(new URL(server.url), { timeoutMs: 10_000 });
      return {
        backend,
        async stop() {
          await backend.close();
          await server.stop();
        },
      };
    },
  },
];

for (const backendUnderTest of BACKENDS) describe(`credentials API and Basic authentication with scoped credentials (${backendUnderTest.name})`, function () {
  this.timeout(30_000);
  let engine: Backend;
  let stopEngine: () => Promise<void>;
  let bus: MemoryChangeBus;
  let node: TestNode;
  let removeData: () => Promise<void>;
  /** Every plaintext password the suite handed out or chose; the scan at the end looks for each. */
  const passwords = new Set<string>();

  before(async () => {
    const data = await tempDir('gw-credentials-');
    removeData = data.remove;
    ({ backend: engine, stop: stopEngine } = await backendUnderTest.open(data.dir));
    bus = new MemoryChangeBus();
    node = await startNode(engine, bus);
  });
  after(async () => {
    await node.close();
    await bus.close();
    await stopEngine();
    await removeData();
  });

  const create = async (body: unknown) => {
    const res = await node.request('POST', '/_credentials', { body });
    if (res.json?.password) passwords.add(res.json.password);
    return res;
  };
  const whoami = (user: string, password: string) => node.request('GET', '/_whoami', { auth: basic(user, password) });

  describe('CRUD', () => {
    it('POST /_credentials creates a credential: 201 {credential, password}, never the hash', async () => {
      const body = {
        username: 'reporter',
        password: 'reporter-password-1',
        description: 'reads the books',
        indices: ['books', 'films-*'],
        categories: ['docs', 'search'],
        ops: ['read'],
        sources: ['10.0.0.0/8', '2001:db8::/32'],
        referers: ['https://*.example.com/*'],
        expires_at: '2099-01-01T00:00:00Z',
        rate_limit: { per_second: 10, per_ip_per_hour: 1000 },
        include_fields: ['title', 'year'],
        exclude_fields: ['secret'],
        max_size: 50,
        allow_raw_dsl: false,
      };
      passwords.add(body.password);
      const res = await create(body);
      expect(res.status).to.equal(201);
      expect(res.json).to.have.keys('credential', 'password');
      expect(res.json.password).to.equal(body.password);
      const { password: _p, ...expected } = body;
      expect(res.json.credential).to.deep.include({ ...expected, expires_at: '2099-01-01T00:00:00.000Z', role: 'user' });
      expect(res.json.credential).not.to.have.property('hash');
      expect(res.json.credential).not.to.have.property('password');
      expect(res.json.credential.created_at).to.equal(res.json.credential.updated_at);
      expect(Date.parse(res.json.credential.created_at)).to.be.closeTo(Date.now(), 10_000);

      const read = await node.request('GET', '/_credentials/reporter');
      expect(read.status).to.equal(200);
      expect(read.json).to.deep.equal({ credential: res.json.credential });
    });

    it('a credential naming thousands of index patterns is answered whole, serialized as it is sent (no Content-Length), on create, read, update and list', async () => {
      const indices = Array.from({ length: 5_000 }, (_, i) => `tenant-${i}-*`);
      const res = await create({ username: 'many-tenants', password: 'many-tenants-password-1', indices, categories: ['search'] });
      expect(res.status).to.equal(201);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.json.credential.indices).to.deep.equal(indices);
      expect(res.json.password).to.equal('many-tenants-password-1');
      const read = await node.request('GET', '/_credentials/many-tenants');
      expect(read.headers['content-length']).to.equal(undefined);
      expect(read.json).to.deep.equal({ credential: res.json.credential });
      const patched = await node.request('PATCH', '/_credentials/many-tenants', { body: { indices: [...indices, 'one-more'] } });
      expect(patched.status).to.equal(200);
      expect(patched.headers['content-length']).to.equal(undefined);
      expect(patched.json.credential.indices).to.have.length(5_001);
      const list = await node.request('GET', '/_credentials');
      expect(list.headers['content-length']).to.equal(undefined);
      expect(list.json.credentials.find((c: { username: string }) => c.username === 'many-tenants').indices).to.have.length(5_001);
      // a small answer keeps its length
      const small = await node.request('GET', '/_credentials/reporter');
      expect(small.headers['content-length']).to.equal(String(Buffer.byteLength(small.text)));
      expect((await node.request('DELETE', '/_credentials/many-tenants')).status).to.equal(200);
    });

    it('creates with least-privilege defaults and a generated username and password that work for Basic auth', async () => {
      const res = await create({ description: 'generated' });
      expect(res.status).to.equal(201);
      const { credential, password } = res.json;
      expect(credential.username).to.match(/^[a-zA-Z0-9]{16}$/);
      expect(password).to.be.a('string').with.length(24);
      expect(credential).to.have.keys([...PUBLIC_MEMBERS, 'description']);
      expect(credential).to.deep.include({ indices: [], categories: [], ops: ['read'], sources: [], referers: [], allow_raw_dsl: false, role: 'user' });

      const me = await whoami(credential.username, password);
      expect(me.status).to.equal(200);
      expect(me.json).to.deep.equal({ username: credential.username, role: 'user', credential });
    });

    it('GET /_credentials lists every scoped credential by username, without hashes and without the admin', async () => {
      await create({ username: 'zed', password: 'zed-password-1' });
      await create({ username: 'alpha', password: 'alpha-password-1' });
      const res = await node.request('GET', '/_credentials');
      expect(res.status).to.equal(200);
      expect(res.json).to.have.keys('credentials');
      const names: string[] = res.json.credentials.map((c: { username: string }) => c.username);
      expect(names).to.include.members(['alpha', 'reporter', 'zed']);
      expect(names).not.to.include('admin');
      expect([...names].sort()).to.deep.equal(names);
      for (const c of res.json.credentials) expect(c).not.to.have.property('hash');
    });

    it('an existing username → 409; the admin username is reserved → 400', async () => {
      const again = await create({ username: 'reporter', password: 'another-password' });
      expect(again.status).to.equal(409);
      expect(again.json.error).to.include({ type: 'resource_already_exists_exception', reason: 'credential [reporter] already exists' });
      const admin = await create({ username: 'admin', password: 'another-password' });
      expect(admin.status).to.equal(400);
      expect(admin.json.error.reason).to.contain('[username]').and.contain('reserved');
    });

    it('GET, PATCH and DELETE of an unknown username → 404 resource_not_found_exception', async () => {
      for (const [method, body] of [['GET', undefined], ['PATCH', { description: 'x' }], ['DELETE', undefined]] as const) {
        const res = await node.request(method, '/_credentials/nobody', { body });
        expect(res.status, method).to.equal(404);
        expect(res.json.error, method).to.include({ type: 'resource_not_found_exception', reason: 'credential [nobody] not found' });
        expect(res.json.status).to.equal(404);
      }
      expect((await node.request('GET', '/_credentials/admin')).status).to.equal(404);
    });

    it('PATCH changes only the members given; null clears an optional member; updated_at moves', async () => {
      const before = (await node.request('GET', '/_credentials/reporter')).json.credential;
      // the clock has moved past the creation time (timestamps are in milliseconds)
      await within(1_000, () => new Date().toISOString() > before.updated_at, () => `the clock past ${before.updated_at}`);
      const res = await node.request('PATCH', '/_credentials/reporter', {
        body: { description: 'reads books and films', ops: ['read', 'write'], expires_at: null, rate_limit: null, username: 'reporter' },
      });
      expect(res.status).to.equal(200);
      expect(res.json).to.have.keys('credential');
      const after = res.json.credential;
      expect(after).to.deep.include({ description: 'reads books and films', ops: ['read', 'write'], indices: before.indices, categories: before.categories });
      expect(after).not.to.have.property('expires_at');
      expect(after).not.to.have.property('rate_limit');
      expect(after.created_at).to.equal(before.created_at);
      expect(after.updated_at > before.updated_at).to.equal(true);
      expect((await node.request('GET', '/_credentials/reporter')).json.credential).to.deep.equal(after);
    });

    it('DELETE removes the credential: 200 {acknowledged, username}, then 404 and 401 at once', async () => {
      await create({ username: 'short-lived', password: 'short-lived-pw' });
      expect((await whoami('short-lived', 'short-lived-pw')).status).to.equal(200); // now cached
      const res = await node.request('DELETE', '/_credentials/short-lived');
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal({ acknowledged: true, username: 'short-lived' });
      expect((await node.request('GET', '/_credentials/short-lived')).status).to.equal(404);
      expect((await whoami('short-lived', 'short-lived-pw')).status).to.equal(401);
      expect((await node.request('DELETE', '/_credentials/short-lived')).status).to.equal(404);
    });

    it('the records live in .gateway-credentials through the Backend, hashed with scrypt', async () => {
      const doc = await callJson<{ _source: Record<string, unknown> }>(engine, 'GET', `/${CREDENTIALS_INDEX}/_doc/reporter`);
      expect(doc.status).to.equal(200);
      expect(doc.body._source.hash).to.match(/^scrypt\$/);
      expect(JSON.stringify(doc.body._source)).not.to.contain('reporter-password-1');
    });

    it('a generated name and password are stored as a salted SHA-256 (random secrets need no slow hash), and only the password opens it', async () => {
      const res = await create({ description: 'minted' });
      const { credential, password } = res.json;
      const doc = await callJson<{ _source: Record<string, unknown> }>(engine, 'GET', `/${CREDENTIALS_INDEX}/_doc/${credential.username}`);
      expect(doc.body._source.hash).to.match(/^ssha256\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
      expect(JSON.stringify(doc.body._source)).not.to.contain(password);
      expect((await whoami(credential.username, password)).status).to.equal(200);
      for (const wrong of [password.slice(0, -1), `${password}x`, password.toLowerCase() === password ? password.toUpperCase() : password.toLowerCase(), '']) {
        expect((await whoami(credential.username, wrong)).status, wrong).to.equal(401);
      }
      // a chosen name with a generated password keeps scrypt: its sign-in costs what an unknown name's does
      const named = await create({ username: 'named-minted' });
      const stored = await callJson<{ _source: Record<string, unknown> }>(engine, 'GET', `/${CREDENTIALS_INDEX}/_doc/named-minted`);
      expect(stored.body._source.hash).to.match(/^scrypt\$/);
      expect((await whoami('named-minted', named.json.password)).status).to.equal(200);
    });
  });

  describe('validation: 400 naming the member', () => {
    const cases: Array<[string, unknown, string]> = [
      ['username with a space', { username: 'bad name' }, '[username]'],
      ['username too long', { username: 'u'.repeat(65) }, '[username]'],
      ['password too short', { password: 'short' }, '[password]'],
      ['password not a string', { password: 12345678 }, '[password]'],
      ['indices not an array', { indices: 'books' }, '[indices]'],
      ['an uppercase index', { indices: ['books', 'Books'] }, '[indices][1]'],
      ['an index with a comma', { indices: ['a,b'] }, '[indices][0]'],
      ['an unknown category', { categories: ['docs', 'everything'] }, '[categories][1]'],
      ['an unknown op', { ops: ['read', 'admin'] }, '[ops][1]'],
      ['a malformed CIDR', { sources: ['10.0.0.0/33'] }, '[sources][0]'],
      ['a hostname as source', { sources: ['example.com'] }, '[sources][0]'],
      ['a bad IPv6 range', { sources: ['2001:db8::/129'] }, '[sources][0]'],
      ['expires_at not a date', { expires_at: 'tomorrow' }, '[expires_at]'],
      ['rate_limit not an object', { rate_limit: 5 }, '[rate_limit]'],
      ['rate_limit.per_second zero', { rate_limit: { per_second: 0 } }, '[rate_limit.per_second]'],
      ['rate_limit unknown member', { rate_limit: { per_minute: 5 } }, '[rate_limit.per_minute]'],
      ['include_fields with a number', { include_fields: ['a', 1] }, '[include_fields][1]'],
      ['max_size negative', { max_size: -1 }, '[max_size]'],
      ['max_size fractional', { max_size: 1.5 }, '[max_size]'],
      ['allow_raw_dsl not boolean', { allow_raw_dsl: 'yes' }, '[allow_raw_dsl]'],
      ['an unknown role', { role: 'root' }, '[role]'],
      ['app with a wildcard', { app: 'books*' }, '[app]'],
      ['an unknown member', { indexes: ['books'] }, '[indexes]'],
      ['the hash', { hash: 'scrypt$1$2$3$4$5' }, '[hash]'],
      ['created_at', { created_at: '2020-01-01T00:00:00Z' }, '[created_at]'],
    ];
    for (const [what, body, member] of cases) {
      it(`POST with ${what} → 400 naming ${member}`, async () => {
        const res = await create(body);
        expect(res.status).to.equal(400);
        expect(res.json.error.type).to.equal('illegal_argument_exception');
        expect(res.json.error.reason).to.contain(member);
      });
    }

    it('a body that is not a JSON object → 400 parse_exception', async () => {
      for (const body of ['[1,2]', '"text"', '{not json']) {
        const res = await node.request('POST', '/_credentials', { body });
        expect(res.status, body).to.equal(400);
        expect(res.json.error.type, body).to.equal('parse_exception');
      }
    });

    it('PATCH: a new username, null for a required member, or a bad value → 400 naming the member; nothing changes', async () => {
      const before = (await node.request('GET', '/_credentials/reporter')).json.credential;
      const cases: Array<[unknown, string]> = [
        [{ username: 'renamed' }, '[username]'],
        [{ ops: null }, '[ops]'],
        [{ indices: ['ok', 'NotOk'] }, '[indices][1]'],
        [{ password: 'short' }, '[password]'],
        [{ created_at: '2020-01-01T00:00:00Z' }, '[created_at]'],
      ];
      for (const [body, member] of cases) {
        const res = await node.request('PATCH', '/_credentials/reporter', { body });
        expect(res.status, member).to.equal(400);
        expect(res.json.error.reason, member).to.contain(member);
      }
      expect((await node.request('GET', '/_credentials/reporter')).json.credential).to.deep.equal(before);
    });
  });

  describe('authentication', () => {
    it('unknown user and wrong password get the same 401 with WWW-Authenticate, after a similar scrypt-bound time', async () => {
      await create({ username: 'timing', password: 'timing-password' });
      const wrong = await whoami('timing', 'not-the-password');
      const unknown = await whoami('nobody-here', 'not-the-password');
      for (const res of [wrong, unknown]) {
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.match(/^Basic realm="search-gateway"/);
        expect(res.json.error.type).to.equal('security_exception');
      }
      expect(wrong.json.error.reason.replace('timing', 'U')).to.equal(unknown.json.error.reason.replace('nobody-here', 'U'));

      // the cost is counted in this process's CPU time (the scrypt runs on libuv's threads, which it
      // includes), not in wall-clock time, which a busy machine stretches at random
      const median = async (user: string) => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const start = process.cpuUsage();
          await whoami(user, `wrong-${i}-password`);
          const used = process.cpuUsage(start);
          times.push((used.user + used.system) / 1000);
        }
        return times.sort((a, b) => a - b)[2];
      };
      const known = await median('timing');
      const missing = await median('nobody-here');
      expect(missing).to.be.greaterThan(known * 0.5, `unknown ${missing} ms of CPU vs known ${known} ms`);
    });

    it('PATCH password rotation: the old password stops working at once on this node, the new one works', async () => {
      await create({ username: 'rotating', password: 'first-password' });
      passwords.add('second-password');
      expect((await whoami('rotating', 'first-password')).status).to.equal(200);
      expect((await whoami('rotating', 'first-password')).status).to.equal(200); // served from the cache
      expect(node.authenticator.cache.size('rotating')).to.equal(1);
      const res = await node.request('PATCH', '/_credentials/rotating', { body: { password: 'second-password' } });
      expect(res.status).to.equal(200);
      expect(res.json).to.have.keys('credential');
      expect(node.authenticator.cache.size('rotating')).to.equal(0);
      expect((await whoami('rotating', 'first-password')).status).to.equal(401);
      expect((await whoami('rotating', 'second-password')).status).to.equal(200);
    });

    it('a PATCH of permissions is seen by the next request (the cached principal is dropped)', async () => {
      expect((await whoami('rotating', 'second-password')).json.credential.categories).to.deep.equal([]);
      await node.request('PATCH', '/_credentials/rotating', { body: { categories: ['search'] } });
      expect((await whoami('rotating', 'second-password')).json.credential.categories).to.deep.equal(['search']);
    });

    it('an expired credential → 401 saying it expired (the right password only); one expiring later stops working then, cached or not', async () => {
      await create({ username: 'expired', password: 'expired-password', expires_at: '2000-01-01T00:00:00Z' });
      const res = await whoami('expired', 'expired-password');
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.match(/^Basic /);
      expect(res.json.error.reason).to.contain('credential [expired] expired at [2000-01-01T00:00:00.000Z]');
      const wrong = await whoami('expired', 'wrong-password');
      expect(wrong.status).to.equal(401);
      expect(wrong.json.error.reason).not.to.contain('expired at');

      // time enough to create it and use it once on a loaded machine (a password hash each)
      const expiresAt = new Date(Date.now() + 4_000).toISOString();
      await create({ username: 'expiring', password: 'expiring-password', expires_at: expiresAt });
      expect((await whoami('expiring', 'expiring-password')).status).to.equal(200);
      expect(node.authenticator.cache.size('expiring')).to.equal(1);
      await within(10_000, () => Date.now() > Date.parse(expiresAt), () => `the clock past ${expiresAt}`);
      const late = await whoami('expiring', 'expiring-password');
      expect(late.status).to.equal(401);
      expect(late.json.error.reason).to.contain('expired at');

      // un-expiring it by PATCH works at once
      await node.request('PATCH', '/_credentials/expiring', { body: { expires_at: null } });
      expect((await whoami('expiring', 'expiring-password')).status).to.equal(200);
    });

    it('the admin still authenticates, as a principal with role admin', async () => {
      const me = await node.request('GET', '/_whoami');
      expect(me.status).to.equal(200);
      expect(me.json).to.include({ username: 'admin', role: 'admin' });
      expect(me.json.credential).to.include({ role: 'admin' });
    });
  });

  describe('per-index credentials and app pairs', () => {
    it('POST /{index}/_credentials issues a read-write pair for that index; {"read_only": true} a read-only one', async () => {
      const rw = await node.request('POST', '/books/_credentials');
      expect(rw.status).to.equal(201);
      passwords.add(rw.json.password);
      expect(rw.json.credential).to.deep.include({
        indices: ['books'], app: 'books', categories: ['docs', 'search', 'streams', 'declarative'],
        ops: ['read', 'write', 'delete'], allow_raw_dsl: true, role: 'user',
      });
      const ro = await node.request('POST', '/books/_credentials', { body: { read_only: true, description: 'for the web page' } });
      expect(ro.status).to.equal(201);
      passwords.add(ro.json.password);
      expect(ro.json.credential).to.deep.include({
        indices: ['books'], app: 'books', categories: ['docs', 'search', 'streams', 'declarative'],
        ops: ['read'], allow_raw_dsl: false, description: 'for the web page',
      });
      for (const issued of [rw.json, ro.json]) {
        const me = await whoami(issued.credential.username, issued.password);
        expect(me.status).to.equal(200);
        expect(me.json.credential).to.deep.equal(issued.credential);
      }
    });

    it('GET /{index}/_credentials lists the credentials whose names or patterns cover the index', async () => {
      await create({ username: 'books-exact', password: 'books-exact-pw', indices: ['books'] });
      await create({ username: 'books-pattern', password: 'books-pattern-pw', indices: ['boo*'] });
      await create({ username: 'films-only', password: 'films-only-pw', indices: ['films'] });
      const res = await node.request('GET', '/books/_credentials');
      expect(res.status).to.equal(200);
      expect(res.json.index).to.equal('books');
      const names: string[] = res.json.credentials.map((c: { username: string }) => c.username);
      expect(names).to.include.members(['books-exact', 'books-pattern']);
      expect(names).not.to.include('films-only');
      expect(res.json.credentials.filter((c: { app?: string }) => c.app === 'books')).to.have.length(2);
      const films = await node.request('GET', '/films/_credentials');
      expect(films.json.credentials.map((c: { username: string }) => c.username)).to.deep.equal(['films-only']);
      const none = await node.request('GET', '/nothing-here/_credentials');
      expect(none.json).to.deep.equal({ index: 'nothing-here', credentials: [] });
    });

    it('per-index requests with a pattern, a bad body or a bad index name → 400', async () => {
      expect((await node.request('GET', '/boo*/_credentials')).status).to.equal(400);
      expect((await node.request('POST', '/a,b/_credentials')).status).to.equal(400);
      const badMember = await node.request('POST', '/books/_credentials', { body: { readonly: true } });
      expect(badMember.status).to.equal(400);
      expect(badMember.json.error.reason).to.contain('[readonly]');
      const badValue = await node.request('POST', '/books/_credentials', { body: { read_only: 'yes' } });
      expect(badValue.json.error.reason).to.contain('[read_only]');
      const badIndex = await node.request('POST', '/Books/_credentials');
      expect(badIndex.status).to.equal(400);
      expect(badIndex.json.error.reason).to.contain('[indices][0]');
    });
  });

  describe('secrets', () => {
    it('no plaintext password or hash in any response of any route, nor in a log line', async () => {
      const password = 'scan-me-password-123';
      passwords.add(password);
      const created = await create({ username: 'scanned', password, indices: ['books'] });
      // the one place a password may appear: the create response's `password` member
      expect(JSON.stringify(created.json.credential)).not.to.contain(password);
      const createReplies = new Set(node.replies.filter((r) => r.json?.password !== undefined));

      // every route, successes and failures, with the secret in play
      await whoami('scanned', password);
      await whoami('scanned', `${password}-wrong`);
      await node.request('GET', '/_credentials');
      await node.request('GET', '/_credentials/scanned');
      await node.request('GET', '/books/_credentials');
      await create({ username: 'scanned', password });
      await create({ username: 'bad name', password });
      await create({ password: password.slice(0, 5) });
      await node.request('PATCH', '/_credentials/scanned', { body: { password, description: 'rotated to itself' } });
      await node.request('PATCH', '/_credentials/scanned', { body: { password: 'x' } });
      await node.request('PATCH', '/_credentials/scanned', { body: { password: { value: password } } });
      await node.request('POST', '/books/_credentials', { body: { read_only: true, password } });
      await node.request('DELETE', '/_credentials/scanned');

      const stored = await callJson<{ hits: { hits: Array<{ _source: { hash?: string } }> } }>(
        engine, 'POST', `/${CREDENTIALS_INDEX}/_search`, { size: 1000 },
      );
      const hashes = stored.body.hits.hits.map((h) => h._source.hash).filter((h): h is string => !!h);
      expect(hashes.length).to.be.greaterThan(5);
      const secrets = [...passwords, ...hashes, ...hashes.map((h) => h.split('$').pop()!)];
      expect(passwords.size).to.be.greaterThan(10);

      let scanned = 0;
      for (const reply of node.replies) {
        const issuedHere = createReplies.has(reply) || reply.json?.password !== undefined;
        const text = issuedHere ? JSON.stringify({ ...reply.json, password: undefined }) : reply.text;
        for (const secret of secrets) expect(text, `a ${reply.status} response`).not.to.contain(secret);
        for (const value of Object.values(reply.headers)) for (const secret of secrets) expect(String(value)).not.to.contain(secret);
        scanned++;
      }
      expect(scanned).to.be.greaterThan(80);
      for (const line of node.logs) for (const secret of secrets) expect(line).not.to.contain(secret);
    });
  });
});
