import http from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import { CLUSTER_PRIVILEGES } from '../../../lib/auth/credentials/index.js';
import { BACKENDS } from '../../support/backends.js';
import { basic, call, type CallOptions, type Reply, jsonOrUndefined } from '../../support/http.js';
import type { TestGateway } from '../../support/servers.js';

/**
 * Rights only narrow (issue 32): a credential holding `credentials` + write creates, changes and
 * mints only credentials within its own rights, on both deployments, whatever the path's spelling.
 */

const FUTURE = '2031-01-01T00:00:00.000Z';
const REFERER = 'https://shop.example.com/admin';

/** A scoped caller: its Basic header and the headers its requests need (its referer rule). */
interface Caller {
  username: string;
  auth: string;
  headers: Record<string, string>;
}

/** One request whose path is sent exactly as written (no URL normalisation on the way). */
function rawCall(base: string, method: string, path: string, auth: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  const url = new URL(base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, method, path,
      headers: { authorization: auth, ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const json = jsonOrUndefined(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const expectSecurityException = (res: Reply, what: string) => {
  expect(res.status, `${what}: ${res.text}`).to.equal(403);
  expect(res.json?.error?.type, what).to.equal('security_exception');
  expect(res.json?.status, what).to.equal(403);
};

for (const backend of BACKENDS) describe(`credentials API: rights only narrow (${backend.name})`, function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let stop: () => Promise<void>;
  /** Restricted in every member: what it creates must be too. */
  let tenant: Caller;
  let tenantRecord: Record<string, unknown>;
  let seq = 0;
  const fresh = (prefix: string) => `${prefix}-${++seq}`;

  const asAdmin = (method: string, path: string, options?: CallOptions) => call(gw.url, method, path, options);
  const as = (caller: Caller, method: string, path: string, body?: unknown) =>
    call(gw.url, method, path, { auth: caller.auth, headers: caller.headers, ...(body === undefined ? {} : { body }) });
  /** A caller the admin creates (its referer rule, if any, is met by REFERER or the given header). */
  async function callerWith(body: Record<string, unknown>, referer = REFERER): Promise<Caller> {
    const res = await asAdmin('POST', '/_credentials', { body });
    expect(res.status, res.text).to.equal(201);
    const username = res.json.credential.username as string;
    return { username, auth: basic(username, res.json.password), headers: { referer } };
  }
  const stored = async (username: string) => {
    const res = await asAdmin('GET', `/_credentials/${encodeURIComponent(username)}`);
    return res.status === 200 ? (res.json.credential as Record<string, any>) : undefined;
  };

  before(async () => {
    ({ gateway: gw, stop } = await backend.start());
    tenantRecord = {
      indices: ['shop', 'logs-*'],
      categories: ['credentials', 'docs', 'search'],
      ops: ['read', 'write'],
      sources: ['127.0.0.0/8'],
      referers: ['https://shop.example.com/*'],
      expires_at: FUTURE,
      rate_limit: { per_second: 1000, per_ip_per_hour: 100000 },
      include_fields: ['title', 'user'],
      exclude_fields: ['secret'],
      max_size: 20,
      cluster_privileges: ['manage_pipeline'],
    };
    tenant = await callerWith(tenantRecord);
  });
  after(() => stop());

  const narrow = { indices: ['shop'], categories: ['docs'], ops: ['read'] };

  describe('create (POST /_credentials)', () => {
    const wider: Array<[string, Record<string, unknown>]> = [
      ['no exclude_fields', { exclude_fields: [] }],
      ['another exclude_fields', { exclude_fields: ['other'] }],
      ['no include_fields', { include_fields: [] }],
      ['a wider include_fields', { include_fields: ['title', 'price'] }],
      ['a larger max_size', { max_size: 21 }],
      ['any source', { sources: ['0.0.0.0/0'] }],
      ['a source outside', { sources: ['10.0.0.1'] }],
      ['any referer', { referers: ['*'] }],
      ['a referer outside', { referers: ['https://*.example.com/*'] }],
      ['a later expires_at', { expires_at: '2032-01-01T00:00:00Z' }],
      ['a higher rate limit', { rate_limit: { per_second: 1001 } }],
      ['raw query DSL', { allow_raw_dsl: true }],
      ['the admin role', { role: 'admin' }],
      ['an index outside', { indices: ['shop', 'other'] }],
      ['a wider pattern', { indices: ['logs*'] }],
      ['a category not held', { categories: ['docs', 'indices'] }],
      ['an operation not held', { ops: ['read', 'delete'] }],
      ['a cluster privilege not held', { cluster_privileges: ['manage'] }],
      ['an app tag outside', { app: 'other' }],
    ];
    for (const [what, change] of wider) {
      it(`refuses ${what}: 403 security_exception, nothing stored`, async () => {
        const username = fresh('wider');
        const res = await as(tenant, 'POST', '/_credentials', { username, ...narrow, ...change });
        expectSecurityException(res, what);
        expect(await stored(username), what).to.equal(undefined);
      });
    }

    it('a member left out inherits the caller\'s restriction', async () => {
      const res = await as(tenant, 'POST', '/_credentials', narrow);
      expect(res.status, res.text).to.equal(201);
      const record = await stored(res.json.credential.username);
      for (const member of ['sources', 'referers', 'expires_at', 'rate_limit', 'include_fields', 'exclude_fields', 'max_size']) {
        expect(record?.[member], member).to.deep.equal(tenantRecord[member]);
      }
      expect(record?.allow_raw_dsl).to.equal(false);
      expect(record?.cluster_privileges).to.equal(undefined);
    });

    it('a credential narrower in every member is created as asked', async () => {
      const asked = {
        ...narrow, indices: ['logs-app'], sources: ['127.0.0.1'], referers: ['https://shop.example.com/admin*'], expires_at: '2030-06-01T00:00:00.000Z',
        rate_limit: { per_second: 5, per_ip_per_hour: 50 }, include_fields: ['user.name'], exclude_fields: ['secret', 'user.email'], max_size: 5,
        cluster_privileges: ['manage_pipeline'],
      };
      const res = await as(tenant, 'POST', '/_credentials', asked);
      expect(res.status, res.text).to.equal(201);
      const record = await stored(res.json.credential.username);
      for (const [member, value] of Object.entries(asked)) expect(record?.[member], member).to.deep.equal(value);
    });

    it('the admin is not restricted', async () => {
      const res = await asAdmin('POST', '/_credentials', { body: { indices: ['*'], categories: ['docs'], ops: ['read', 'write', 'delete'], allow_raw_dsl: true, cluster_privileges: ['manage'] } });
      expect(res.status, res.text).to.equal(201);
    });
  });

  describe('change (PATCH /_credentials/{username})', () => {
    let child: string;
    beforeEach(async () => {
      const res = await as(tenant, 'POST', '/_credentials', narrow);
      expect(res.status, res.text).to.equal(201);
      child = res.json.credential.username;
    });

    it('a patch whose result stays within the caller is applied', async () => {
      const res = await as(tenant, 'PATCH', `/_credentials/${child}`, { description: 'narrower still', max_size: 3 });
      expect(res.status, res.text).to.equal(200);
      expect((await stored(child))?.max_size).to.equal(3);
    });

    const widening: Array<[string, Record<string, unknown>]> = [
      ['clearing exclude_fields', { exclude_fields: null }],
      ['clearing include_fields', { include_fields: null }],
      ['clearing max_size', { max_size: null }],
      ['clearing expires_at', { expires_at: null }],
      ['clearing rate_limit', { rate_limit: null }],
      ['clearing sources', { sources: [] }],
      ['raising max_size', { max_size: 1000 }],
      ['raw query DSL', { allow_raw_dsl: true }],
      ['the admin role', { role: 'admin' }],
      ['an index outside', { indices: ['other'] }],
    ];
    for (const [what, patch] of widening) {
      it(`refuses ${what}: 403, the record unchanged`, async () => {
        const before = await stored(child);
        const res = await as(tenant, 'PATCH', `/_credentials/${child}`, patch);
        expectSecurityException(res, what);
        expect(await stored(child), what).to.deep.equal(before);
      });
    }

    it('refuses a patch of a credential wider than the caller, even one that changes nothing wide', async () => {
      const open = await asAdmin('POST', '/_credentials', { body: { indices: ['shop'], categories: ['docs'], ops: ['read'] } });
      const res = await as(tenant, 'PATCH', `/_credentials/${open.json.credential.username}`, { description: 'mine now' });
      expectSecurityException(res, 'patch of a wider credential');
    });

    it('refuses a patch of itself that widens it', async () => {
      const res = await as(tenant, 'PATCH', `/_credentials/${tenant.username}`, { exclude_fields: null });
      expectSecurityException(res, 'self-widening');
      expect((await stored(tenant.username))?.exclude_fields).to.deep.equal(['secret']);
    });
  });

  describe('the target, however the path is spelled', () => {
    let other: string;
    before(async () => {
      const res = await asAdmin('POST', '/_credentials', { body: { indices: ['other'], categories: ['docs'], ops: ['read'] } });
      other = res.json.credential.username;
    });

    for (const spell of [(u: string) => `/_credentials/${u}`, (u: string) => `//_credentials/${u}`, (u: string) => `/%5Fcredentials/${u}`, (u: string) => `/_credentials//${u}`, (u: string) => `/%5fcredentials/${encodeURIComponent(u).replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)}`]) {
      it(`another tenant's credential is out of reach at ${spell('{user}')}`, async () => {
        for (const [method, body] of [['GET', undefined], ['PATCH', { description: 'taken' }], ['DELETE', undefined]] as const) {
          const res = await rawCall(gw.url, method, spell(other), tenant.auth, tenant.headers, body);
          expectSecurityException(res, `${method} ${spell(other)}`);
        }
        const record = await stored(other);
        expect(record, 'still there').to.not.equal(undefined);
        expect(record?.description).to.equal(undefined);
      });
    }

    it('the full list is the admin\'s, however spelled; shapes the API does not have are refused', async () => {
      for (const path of ['/_credentials', '//_credentials', '/%5Fcredentials/', '/shop/_credentials/x', `/_credentials/${other}/x`]) {
        const res = await rawCall(gw.url, 'GET', path, tenant.auth, tenant.headers);
        expectSecurityException(res, path);
      }
    });
  });

  describe('minting an app pair (POST /{index}/_credentials)', () => {
    it('a credential holding only `credentials` + write gets no pair, read-write or read-only', async () => {
      const minter = await callerWith({ indices: ['shop'], categories: ['credentials'], ops: ['write'] });
      expectSecurityException(await as(minter, 'POST', '/shop/_credentials'), 'read-write pair');
      expectSecurityException(await as(minter, 'POST', '/shop/_credentials', { read_only: true }), 'read-only pair');
      const listed = await asAdmin('GET', '/shop/_credentials');
      expect(listed.json.credentials.filter((c: { app?: string }) => c.app === 'shop')).to.have.length(0);
    });

    it('a caller without raw query DSL gets a read-only pair but no read-write one', async () => {
      const minter = await callerWith({ indices: ['shop'], categories: ['credentials', 'docs', 'search', 'streams', 'declarative'], ops: ['read', 'write', 'delete'] });
      expectSecurityException(await as(minter, 'POST', '/shop/_credentials'), 'read-write pair');
      const ro = await as(minter, 'POST', '/shop/_credentials', { read_only: true });
      expect(ro.status, ro.text).to.equal(201);
      expect(ro.json.credential.allow_raw_dsl).to.equal(false);
    });

    it('a pair minted by a restricted caller inherits its restrictions', async () => {
      const minter = await callerWith({
        indices: ['shop'], categories: ['credentials', 'docs', 'search', 'streams', 'declarative'], ops: ['read', 'write', 'delete'], allow_raw_dsl: true,
        exclude_fields: ['secret'], max_size: 10, sources: ['127.0.0.0/8'], expires_at: FUTURE,
      });
      const pair = await as(minter, 'POST', '/shop/_credentials');
      expect(pair.status, pair.text).to.equal(201);
      const record = await stored(pair.json.credential.username);
      expect(record).to.include({ app: 'shop', allow_raw_dsl: true, max_size: 10, expires_at: FUTURE });
      expect(record?.exclude_fields).to.deep.equal(['secret']);
      expect(record?.sources).to.deep.equal(['127.0.0.0/8']);
      expectSecurityException(await as(minter, 'POST', '/other/_credentials'), 'another index');
    });

    it('registering an app (PUT /_apps/{app}) hands a scoped caller no pair wider than itself', async () => {
      const name = fresh('tenantapp');
      const creator = await callerWith({ indices: [`${name}*`], categories: ['indices', 'docs'], ops: ['read', 'write'] });
      const res = await as(creator, 'PUT', `/_apps/${name}`);
      if (res.status === 200) expect.fail(`a read-write, raw-DSL pair was handed out: ${res.text}`);
      expect(res.status, res.text).to.equal(403);
      const listed = await asAdmin('GET', '/_credentials');
      expect(JSON.stringify(listed.json)).not.to.include(`"app":"${name}"`);
    });

    it('the admin mints the full pair', async () => {
      const pair = await asAdmin('POST', '/shop/_credentials');
      expect(pair.status, pair.text).to.equal(201);
      expect(pair.json.credential).to.include({ allow_raw_dsl: true, app: 'shop' });
    });
  });

  describe('property: a create succeeds iff the asked credential (with what it inherits) lies within the caller', () => {
    // Small worlds whose coverage is written out by hand here, independently of lib/auth/credentials/grant.ts.
    const INDICES = ['shop', 'logs-*', 'logs-app', 'logs-app-*', 'other', '*'];
    const indexCovered = (own: readonly string[], p: string) => own.some((o) => o === p || (o === 'logs-*' && p.startsWith('logs-')));
    const INCLUDES = ['title', 'user', 'user.name', 'price', '*'];
    const fieldCovered = (own: string[], f: string) => own.some((o) => o === f || f.startsWith(`${o}.`));
    const SOURCES = ['127.0.0.1', '127.0.0.0/16', '127.0.0.0/8', '10.0.0.0/8', '10.1.0.0/16', '0.0.0.0/0', '192.168.0.0/16'];
    const INSIDE: Record<string, string[]> = { '127.0.0.0/8': ['127.0.0.1', '127.0.0.0/16', '127.0.0.0/8'], '10.0.0.0/8': ['10.0.0.0/8', '10.1.0.0/16'] };
    const REFERERS = ['https://a.example/*', 'https://a.example/page', 'https://b.example/app', 'https://b.example/*', '*'];
    const refererCovered = (own: readonly string[], r: string) => own.some((o) => o === r || (o === 'https://a.example/*' && r.startsWith('https://a.example/')));
    const DATES = ['2030-01-01T00:00:00.000Z', '2031-01-01T00:00:00.000Z', '2032-01-01T00:00:00.000Z', '2033-01-01T00:00:00.000Z'];
    const OTHER_CATEGORIES = ['docs', 'search', 'streams', 'declarative', 'indices'];

    const rateLimit = (low: number, high: number) => fc.record({ per_second: fc.integer({ min: low, max: high }), per_ip_per_hour: fc.integer({ min: low * 10, max: high * 10 }) }, { requiredKeys: [] });
    const callerArb = fc.record({
      indices: fc.subarray(['shop', 'logs-*', 'logs-app'], { minLength: 1 }),
      categories: fc.subarray(OTHER_CATEGORIES).map((c) => ['credentials', ...c]),
      ops: fc.subarray(['read', 'delete']).map((o) => ['write', ...o]),
      allow_raw_dsl: fc.boolean(),
      cluster_privileges: fc.option(fc.subarray([...CLUSTER_PRIVILEGES]), { nil: undefined }),
      include_fields: fc.option(fc.subarray(['title', 'user', 'price'], { minLength: 1 }), { nil: undefined }),
      exclude_fields: fc.option(fc.subarray(['secret', 'internal'], { minLength: 1 }), { nil: undefined }),
      max_size: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      expires_at: fc.option(fc.constantFrom(DATES[1], DATES[2]), { nil: undefined }),
      rate_limit: fc.option(rateLimit(100, 200), { nil: undefined }),
      // the test's requests come from 127.0.0.1 with REFERER-like headers: every caller admits them
      sources: fc.constantFrom([], ['127.0.0.0/8'], ['127.0.0.0/8', '10.0.0.0/8']),
      referers: fc.constantFrom([], ['https://a.example/*'], ['https://a.example/*', 'https://b.example/app']),
    });
    /**
     * The asked credential, member by member: mostly a narrowing of the caller's value (so that
     * creates succeed often enough to check what is stored), sometimes any value of the world
     * (often wider), sometimes left out (inherited or defaulted).
     */
    type CallerBody = typeof callerArb extends fc.Arbitrary<infer T> ? T : never;
    const member = <T>(narrowed: fc.Arbitrary<T>, any: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: narrowed, weight: 12 }, { arbitrary: any, weight: 1 }, { arbitrary: fc.constant(undefined), weight: 4 });
    const atMost = (limit: number | undefined, fallback: number) => fc.integer({ min: 1, max: limit ?? fallback });
    const askedFor = (caller: CallerBody) => fc.record({
      // (an empty `indices` given outright is refused by the classifier, which reads `[]` as unreadable: not generated)
      indices: member(fc.subarray(caller.indices, { minLength: 1 }), fc.subarray(INDICES, { minLength: 1 })),
      categories: member(fc.subarray(caller.categories), fc.subarray(['credentials', ...OTHER_CATEGORIES])),
      ops: member(fc.subarray(caller.ops), fc.subarray(['read', 'write', 'delete'])),
      allow_raw_dsl: member(caller.allow_raw_dsl ? fc.boolean() : fc.constant(false), fc.boolean()),
      role: member(fc.constant('user'), fc.constantFrom('user', 'admin')),
      cluster_privileges: member(fc.subarray([...(caller.cluster_privileges ?? [])]), fc.subarray([...CLUSTER_PRIVILEGES])),
      include_fields: member(caller.include_fields ? fc.subarray(caller.include_fields, { minLength: 1 }) : fc.subarray(INCLUDES), fc.subarray(INCLUDES)),
      exclude_fields: member(fc.subarray(['other', 'secret.key']).map((more) => [...(caller.exclude_fields ?? []), ...more]), fc.subarray(['secret', 'internal', 'secret.key', 'other'])),
      max_size: member(fc.integer({ min: 0, max: caller.max_size ?? 150 }), fc.integer({ min: 0, max: 150 })),
      expires_at: member(fc.constantFrom(...DATES.filter((d) => caller.expires_at === undefined || d <= caller.expires_at)), fc.constantFrom(...DATES)),
      rate_limit: member(
        fc.record({ per_second: atMost(caller.rate_limit?.per_second, 300), per_ip_per_hour: atMost(caller.rate_limit?.per_ip_per_hour, 3000) }),
        rateLimit(50, 300),
      ),
      sources: member(
        caller.sources.length ? fc.subarray(caller.sources.flatMap((o: string) => INSIDE[o]), { minLength: 1 }) : fc.subarray(SOURCES),
        fc.subarray(SOURCES),
      ),
      referers: member(
        caller.referers.length ? fc.subarray(REFERERS.filter((r) => refererCovered(caller.referers, r)), { minLength: 1 }) : fc.subarray(REFERERS),
        fc.subarray(REFERERS),
      ),
      app: member(fc.constantFrom(...['shop', 'logs-app'].filter((a) => indexCovered(caller.indices, a)), 'shop'), fc.constantFrom('shop', 'logs-app', 'other')),
    });
    const pairArb = callerArb.chain((caller) => fc.tuple(fc.constant(caller), askedFor(caller)));

    type Rec = Record<string, any>;
    /** The credential a create would store: defaults, then what the caller's restrictions give to members left out. */
    const effective = (caller: Rec, given: Rec): Rec => {
      // a member generated as undefined is not sent (JSON leaves it out)
      const asked = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
      const out: Rec = { indices: [], categories: [], ops: ['read'], sources: [], referers: [], allow_raw_dsl: false, role: 'user', ...asked };
      for (const m of ['sources', 'referers']) if (asked[m] === undefined) out[m] = caller[m];
      for (const m of ['expires_at', 'max_size', 'include_fields', 'exclude_fields']) if (asked[m] === undefined && caller[m] !== undefined) out[m] = caller[m];
      if (caller.rate_limit && Object.keys(caller.rate_limit).length) out.rate_limit = { ...caller.rate_limit, ...asked.rate_limit };
      return out;
    };
    /** Is `b` within `a`? Written member by member for the worlds above. */
    const within = (a: Rec, b: Rec): boolean => {
      if (b.role !== 'user' || b.allow_raw_dsl && !a.allow_raw_dsl) return false;
      if (!b.indices.every((p: string) => indexCovered(a.indices, p))) return false;
      if (b.app !== undefined && !indexCovered(a.indices, b.app)) return false;
      if (!b.categories.every((c: string) => a.categories.includes(c)) || !b.ops.every((o: string) => a.ops.includes(o))) return false;
      const privileges = a.cluster_privileges ?? [];
      if (!(b.cluster_privileges ?? []).every((p: string) => privileges.includes(p) || privileges.includes('manage'))) return false;
      if (a.include_fields?.length && !(b.include_fields?.length && b.include_fields.every((f: string) => fieldCovered(a.include_fields, f)))) return false;
      if (!(a.exclude_fields ?? []).every((e: string) => (b.exclude_fields ?? []).includes(e))) return false;
      if (a.max_size !== undefined && !(b.max_size !== undefined && b.max_size <= a.max_size)) return false;
      if (a.expires_at !== undefined && !(b.expires_at !== undefined && b.expires_at <= a.expires_at)) return false;
      for (const k of ['per_second', 'per_ip_per_hour']) {
        if (a.rate_limit?.[k] !== undefined && !(b.rate_limit?.[k] !== undefined && b.rate_limit[k] <= a.rate_limit[k])) return false;
      }
      if (a.sources.length && !(b.sources.length && b.sources.every((s: string) => a.sources.some((o: string) => INSIDE[o]?.includes(s))))) return false;
      if (a.referers.length && !(b.referers.length && b.referers.every((r: string) => refererCovered(a.referers, r)))) return false;
      return true;
    };

    // each pair costs three scrypt hashes (two credentials and a sign-in): 40 a backend in `make test`,
    // more with `npm run fuzz:tenancy` (FAST_CHECK_RUNS)
    const PAIRS = Number(process.env.FAST_CHECK_RUNS) || 40;
    it(`${PAIRS} generated (caller, asked) pairs (seeded)`, async () => {
      let created = 0;
      await fc.assert(
        fc.asyncProperty(pairArb, async ([callerBody, asked]) => {
          const caller = await callerWith(callerBody, (callerBody.referers as readonly string[]).includes('https://b.example/app') ? 'https://b.example/app' : 'https://a.example/home');
          const callerRecord = await stored(caller.username);
          const expected = effective(callerRecord!, asked);
          const res = await as(caller, 'POST', '/_credentials', asked);
          const ok = within(callerRecord!, expected);
          expect(res.status, `${ok ? 'within' : 'wider'}: ${res.text}`).to.equal(ok ? 201 : 403);
          if (!ok) {
            expect(res.json.error.type).to.equal('security_exception');
            return;
          }
          created++;
          const record = await stored(res.json.credential.username);
          expect(within(callerRecord!, record!), 'the stored credential is within the caller').to.equal(true);
          for (const [member, value] of Object.entries(expected)) expect(record?.[member], member).to.deep.equal(value);
        }),
        { seed: 32, numRuns: PAIRS },
      );
      // the generators reach both answers, often enough to mean something
      expect(created / PAIRS).to.be.within(0.2, 0.8);
    });
  });
});
