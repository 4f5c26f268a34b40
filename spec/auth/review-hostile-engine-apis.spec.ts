import { expect } from 'chai';
import fc from 'fast-check';
import { basic, call } from '../support/http.js';
import { RECORDED_BACKENDS, clientForwards, leaksIn, systemIndexForwards, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Hostile tenants against the engine APIs changed since 3fe50468 (h-hostile): OpenSearch's SQL
 * plugin stats and settings routes, `cancel_after_time_interval`, request cache and global
 * ordinals stats, nested sorts, `_mtermvectors`' document validation, put-alias bodies. Both
 * backends, the HTTP one recorded at the engine (the gateway is the only check in front of a real
 * cluster).
 *
 * Finding, fixed (fails on the old code): a term vectors request is read by Elasticsearch's
 * TermVectorsRequest.parseRequest, whose `_index` replaces the request's index — in a
 * `_termvectors` body (`POST /tenant-a/_termvectors/1 {"_index":"tenant-b"}`), and in
 * `_mtermvectors`' `parameters`, the template its `ids` and its documents without `_index` start
 * from. Neither was read: the body was forwarded as written, and a real cluster answered the other
 * tenant's document. Both are now read as the `_index` of one of `docs` is.
 *
 * Held, kept as guards: the settings route is a cluster settings update (`manage`), whatever its
 * spelling; a nested sort's filter (or top_hits') looking up another index is refused.
 */
const [OWN, FOREIGN, SYSTEM] = ['tenant-a', 'tenant-b', '.gateway-credentials'];
const lookup = (ix: string) => ({ terms: { f: { index: ix, id: '1', path: 'f' } } });

/** Where a term vectors request names its index besides its path. */
const carriers: Record<string, (ix: string) => { path: string; body?: unknown }> = {
  '_termvectors body': (ix) => ({ path: `/${OWN}/_termvectors/1`, body: { _index: ix, fields: ['f'] } }),
  '_termvectors ?source=': (ix) => ({ path: `/${OWN}/_termvectors/1?source_content_type=application/json&source=${encodeURIComponent(JSON.stringify({ _index: ix }))}` }),
  '_termvectors artificial doc': (ix) => ({ path: `/${OWN}/_termvectors`, body: { _index: ix, doc: { f: 'x' } } }),
  '_mtermvectors parameters, ids': (ix) => ({ path: `/${OWN}/_mtermvectors`, body: { ids: ['1'], parameters: { _index: ix } } }),
  '_mtermvectors parameters, docs': (ix) => ({ path: `/${OWN}/_mtermvectors`, body: { parameters: { _index: ix, fields: ['f'] }, docs: [{ _id: '1' }] } }),
};

for (const backend of RECORDED_BACKENDS) {
  describe(`hostile tenants against the engine APIs of session 37 (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway, upstream: RecordingUpstream | undefined, stop: () => Promise<void>;
    let tenant: string;

    /** What reached the engine naming what the tenant may not read. */
    const forwardedLeaks = (): string[] => {
      const forwarded = clientForwards(upstream?.requests ?? []);
      return [...leaksIn(forwarded, { names: [FOREIGN], reachable: [FOREIGN, SYSTEM] }), ...systemIndexForwards(forwarded)];
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      for (const ix of [OWN, FOREIGN]) {
        const made = await call(gw.url, 'PUT', `/${ix}`, { body: { mappings: { properties: { f: { type: 'keyword' }, n: { type: 'nested', properties: { v: { type: 'long' } } } } } } });
        expect(made.status, made.text).to.equal(200);
        const put = await call(gw.url, 'PUT', `/${ix}/_doc/1?refresh=true`, { body: { f: `value-of-${ix}`, n: [{ v: 1 }] } });
        expect(put.status, put.text).to.equal(201);
      }
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop());

    it('a term vectors request naming another index in its body is refused, and nothing naming it reaches the engine', async () => {
      const name = fc.constantFrom(FOREIGN, `${OWN},${FOREIGN}`, 'tenant-*', '*', '_all', SYSTEM, '.gateway-*');
      await fc.assert(fc.asyncProperty(fc.constantFrom(...Object.keys(carriers)), name, async (carrier, ix) => {
        upstream?.clear();
        const { path, body } = carriers[carrier](ix);
        const r = await call(gw.url, 'POST', path, { auth: tenant, body });
        // refused: 403, or the engine's 400 for a list or pattern where one index name goes (invalid_index_name_exception)
        expect(r.status, `${carrier} ${ix}: ${r.text}`).to.equal(ix === FOREIGN ? 403 : r.status === 400 ? 400 : 403);
        expect(r.text).to.not.include('value-of-tenant-b');
        expect(forwardedLeaks(), `${carrier} ${ix}`).to.deep.equal([]);
      }), { numRuns: 40, seed: 37 });
    });

    it('a term vectors request naming its own index in its body is answered', async () => {
      for (const [carrier, make] of Object.entries(carriers)) {
        const { path, body } = make(OWN);
        const r = await call(gw.url, 'POST', path, { auth: tenant, body });
        expect(r.status, `${carrier}: ${r.text}`).to.equal(200);
        expect(r.text, carrier).to.include(OWN).and.not.include(FOREIGN);
      }
    });

    it('held: the SQL plugin settings route is a cluster settings update, in every spelling the router takes', async () => {
      const settings = { transient: { 'plugins.sql.enabled': false, 'search.cancel_after_time_interval': '1ms' } };
      for (const path of ['/_plugins/_query/settings', '/_opendistro/_sql/settings', '//_plugins/_query/settings', '/_plugins/_query/settings/', '/%5Fplugins/_query/settings', '/_plugins/_query/settings?filter_path=transient&error_trace=true']) {
        upstream?.clear();
        const r = await call(gw.url, 'PUT', path, { auth: tenant, body: settings });
        expect(r.status, `${path}: ${r.text}`).to.be.oneOf([400, 403]);
        expect(clientForwards(upstream?.requests ?? []), path).to.deep.equal([]);
      }
      const now = await call(gw.url, 'GET', '/_cluster/settings');
      expect(now.json).to.deep.equal({ persistent: {}, transient: {} });
    });

    it('held: a nested sort\'s filter, in a search or a top_hits, looking up another index is refused', async () => {
      const sort = [{ 'n.v': { nested: { path: 'n', filter: lookup(FOREIGN) } } }];
      for (const body of [{ sort }, { size: 0, aggs: { t: { top_hits: { sort } } } }, { sort: [{ 'n.v': { nested_path: 'n', nested_filter: lookup(FOREIGN) } }] }]) {
        upstream?.clear();
        const r = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: tenant, body });
        expect(r.status, r.text).to.equal(403);
        expect(forwardedLeaks()).to.deep.equal([]);
      }
    });
  });
}
