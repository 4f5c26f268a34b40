import { expect } from 'chai';
import fc from 'fast-check';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

/**
 * "Unknown means refused": a scoped credential's engine request is one the engine's own route
 * table describes — route, method and every parameter, read as the engine reads it (decoded
 * names, compatible-with=7 paths). A parameter the route does not know is refused with
 * Elasticsearch's own error before anything reaches the engine, on both backends; what the table
 * knows keeps working.
 */

/** Requests a read-write tenant makes, each with parameters its route knows. */
const ROUTES: Array<{ method: string; path: string; known: string; body?: unknown; ndjson?: unknown[] }> = [
  { method: 'GET', path: '/mine/_search', known: 'size=1&q=word&track_total_hits=true&pretty' },
  { method: 'POST', path: '/mine/_count', known: 'q=word&ignore_unavailable=true', body: {} },
  { method: 'GET', path: '/mine/_doc/1', known: '_source_includes=word&realtime=true' },
  { method: 'PUT', path: '/mine/_doc/2', known: 'refresh=true&op_type=index', body: { word: 'two' } },
  { method: 'POST', path: '/mine/_mget', known: 'realtime=false', body: { ids: ['1'] } },
  { method: 'POST', path: '/mine/_msearch', known: 'typed_keys=true', ndjson: [{}, { query: { match_all: {} } }] },
  { method: 'POST', path: '/mine/_bulk', known: 'refresh=wait_for', ndjson: [{ index: { _id: '3' } }, { word: 'three' }] },
  { method: 'GET', path: '/mine/_mapping', known: 'local=false&expand_wildcards=open' },
  { method: 'GET', path: '/mine/_field_caps', known: 'fields=*' },
];

/** Names no route of Elasticsearch's takes: generated, and spelled encoded or given twice. */
const unknownName = fc.stringMatching(/^[a-z][a-z0-9_]{2,14}$/).map((n) => `zz_${n}`);
const spelling = fc.constantFrom(
  (n: string) => `${n}=1`,
  (n: string) => `${encodeURIComponent(n).replace(/z/g, '%7A')}=1`,
  (n: string) => `${n}=1&${n}=2`,
  (n: string) => `${n}`,
);

const BACKENDS: Array<{ name: string; start(): Promise<{ gateway: TestGateway; upstream?: RecordingUpstream; stop(): Promise<void> }> }> = [
  { name: 'embedded engine', async start() { const gateway = await startTestGateway(); return { gateway, stop: () => gateway.close() }; } },
  { name: 'HTTP backend (recorded)', start: () => startRecordedGateway() },
];

for (const backend of BACKENDS) {
  describe(`one route table: unknown parameters refused for scoped credentials (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let tenant: string;

    const send = (auth: string | undefined, route: (typeof ROUTES)[number], query: string) => call(gw.url, route.method, `${route.path}?${query}`, {
      auth,
      body: route.ndjson ? ndjson(route.ndjson) : route.body,
      headers: route.ndjson ? NDJSON : undefined,
    });

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/mine/_doc/1?refresh=true', { body: { word: 'one' } })).status).to.equal(201);
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['docs', 'search', 'indices'], ops: ['read', 'write'] } });
      expect(res.status, res.text).to.equal(201);
      tenant = basic(res.json.credential.username, res.json.password);
    });
    after(() => stop());

    it('what the table knows works for the tenant', async () => {
      for (const route of ROUTES) {
        const res = await send(tenant, route, route.known);
        expect(res.status, `${route.method} ${route.path}?${route.known}: ${res.text}`).to.be.within(200, 201);
      }
    });

    it('a parameter the route does not know is refused with Elasticsearch\'s error, and reaches no engine', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ROUTES), unknownName, spelling, async (route, name, spell) => {
          upstream?.clear();
          const res = await send(tenant, route, `${route.known}&${spell(name)}`);
          expect(res.status, res.text).to.equal(400);
          expect(res.json.error.type).to.equal('illegal_argument_exception');
          expect(res.json.error.reason).to.equal(`request [${route.path}] contains unrecognized parameter: [${name}]`);
          if (upstream) expect(upstream.requests.filter((r) => r.query.includes(name.slice(3))), 'nothing carrying it reached the engine').to.deep.equal([]);
        }),
        { numRuns: 60, seed: 32 },
      );
    });

    it('a route the table does not know is refused for the tenant once its rights allow it', async () => {
      const res = await call(gw.url, 'GET', '/mine/_no_such_api', { auth: tenant });
      expect(res.status, res.text).to.be.oneOf([400, 403]);
      expect(res.json.error).to.be.an('object');
    });

    it('headers the engine\'s own security acts on never reach it (run-as, secondary authorization, cookies)', async function () {
      if (!upstream) this.skip(); // the embedded engine reads no headers of the kind
      upstream.clear();
      const smuggled = { 'es-security-runas-user': 'elastic', 'es-secondary-authorization': 'Basic ZWxhc3RpYzpzZWNyZXQ=', 'es-client-authentication': 'SharedSecret x', cookie: 'sid=1' };
      for (const auth of [tenant, undefined]) expect((await call(gw.url, 'GET', '/mine/_search', { auth, headers: smuggled })).status).to.equal(200);
      expect(upstream.requests.length).to.be.above(0);
      for (const r of upstream.requests) for (const name of Object.keys(smuggled)) expect(r.headers, `${r.path}: ${name}`).not.to.have.property(name);
    });

    it('an app-style endpoint the classifier reads as a read never runs as a document write (POST /{app}/{type}/_mget)', async () => {
      expect((await call(gw.url, 'PUT', '/_apps/shopx')).status).to.be.below(300);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shopx'], categories: ['docs', 'search'], ops: ['read'] } });
      const reader = basic(made.json.credential.username, made.json.password);
      for (const auth of [reader, undefined]) {
        const res = await call(gw.url, 'POST', '/shopx/product/_mget', { auth, body: { ids: ['1'] } });
        expect(res.status, res.text).not.to.be.within(200, 299);
      }
      await call(gw.url, 'POST', '/shopx/_refresh');
      expect((await call(gw.url, 'POST', '/shopx/_count', { body: { query: { ids: { values: ['_mget'] } } } })).json.count).to.equal(0);
    });

    it('a scroll id the owner check cannot read is refused, not let through unchecked', async () => {
      upstream?.clear();
      for (const scroll_id of [{ a: '_all' }, ['_all', { a: 1 }], 7]) {
        const res = await call(gw.url, 'DELETE', '/_search/scroll', { auth: tenant, body: { scroll_id } });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.reason).to.equal('scroll_id must be a string or an array of strings');
      }
      if (upstream) expect(upstream.requests.filter((r) => r.path.startsWith('/_search/scroll'))).to.deep.equal([]);
    });

    it('the admin is answered by the engine itself (it refuses the parameter too)', async () => {
      const res = await call(gw.url, 'GET', '/mine/_search?zz_nope=1');
      expect(res.status).to.equal(400);
      expect(JSON.stringify(res.json)).to.contain('contains unrecognized parameter: [zz_nope]');
    });
  });
}
