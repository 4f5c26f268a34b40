import { expect } from 'chai';
import fc from 'fast-check';
import { Pool } from 'undici';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { clientForwards, leaksIn, RECORDED_BACKENDS, sendRaw, systemIndexForwards, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (h-hostile3) of what session 16 added: the percolator field and
 * query, the expression script language, the user_agent and registered_domain processors, the
 * Observability plugin's saved objects and geospatial's GeoJSON upload, bulk items'
 * `dynamic_templates` and the simulate-index API taking a template body. Both backends, the HTTP
 * one recorded at the engine.
 *
 * Each case states the property; a case that held stays as a guard.
 */

/** The tenant's index, another tenant's it may not read. */
const [OWN, FOREIGN] = ['tenant-a', 'tenant-b'];
/** What no answer to a tenant may hold: the other tenant's index name and values, the gateway's system indices. */
const LEAK = /tenant-b|foreignh3|\.gateway-/;
/** A hidden field's value (of the ruled credential). */
const HIDDEN = /hiddenh3|\b4217\b/;

for (const backend of RECORDED_BACKENDS) {
  describe(`review by a hostile tenant (hostile3): session 16's surfaces (${backend.name})`, function () {
    let gw: TestGateway, upstream: RecordingUpstream | undefined, stop: () => Promise<void>;
    // a tenant with every index category; one whose credential hides the fields `hid` and `hnum`
    let tenant: string, ruled: string;
    let pool: Pool;
    this.timeout(300_000);

    const cred = async (body: Record<string, unknown>) => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], allow_raw_dsl: true, ...body } });
      expect(made.status, made.text).to.equal(201);
      return basic(made.json.credential.username, made.json.password);
    };
    const forwarded = () => clientForwards(upstream?.requests ?? []);
    const problems: string[] = [];
    /** What the tenant itself wrote in this case (stored queries it indexed): its answers may hold it. */
    const authored: string[] = [];
    /** The matches of `leak` in `text` that the tenant did not write itself. */
    const unwritten = (leak: RegExp, text: string, written: string) =>
      [...text.matchAll(new RegExp(leak.source, 'g'))].map((m) => m[0]).filter((m) => !written.includes(m) && !authored.some((a) => a.includes(m)));
    /** Sends as `auth`; notes an answer it should not have given, a leak in it, and a forward naming or reaching the other tenant's index. */
    const probe = async (auth: string, method: string, path: string, body?: unknown, opts: { mayAnswer?: boolean; leak?: RegExp; headers?: Record<string, string> } = {}) => {
      const { mayAnswer = false, leak = LEAK, headers } = opts;
      upstream?.clear();
      const r = await call(gw.url, method, path, { auth, body, headers });
      const parsed = typeof body === 'string' ? (() => { try { return JSON.stringify(JSON.parse(body)); } catch { return body; } })() : '';
      const written = decodeURIComponent(path) + (typeof body === 'string' ? body + parsed : JSON.stringify(body ?? ''));
      const leaked = unwritten(leak, r.text, written).length > 0;
      if ((!mayAnswer && r.status < 400) || leaked || r.status >= 500) problems.push(`${method} ${path} ${written.slice(path.length, path.length + 160)}: ${r.status} ${r.text.slice(0, 300)}`);
      for (const l of leaksIn(forwarded(), { names: written.includes('tenant-b') ? [] : ['tenant-b'], reachable: [FOREIGN] })) problems.push(`${method} ${path}: ${l}`);
      for (const l of systemIndexForwards(forwarded())) problems.push(`${method} ${path}: ${l}`);
      return r;
    };
    /** What `work` answers, and how long each request to the gateway waited, one after another, while it ran (Infinity: timed out). */
    /**
     * Runs `work` while another client pings the gateway: its answer, and how long each ping took.
     * `answeredMeanwhile` then holds the pings to the work's length: work that holds an event loop
     * in one turn keeps a ping waiting about as long as the work itself, however loaded the machine
     * (a make test runs four spec workers on two cores), while work that yields keeps each ping to a
     * small part of it. A fixed bound in ms failed on a loaded run with the work yielding (1.7 s).
     */
    const whilePinging = async <T>(work: () => Promise<T>): Promise<[T, number[], number]> => {
      const pings: number[] = [];
      const began = Date.now();
      let working = true;
      const pinging = (async () => {
        while (working) {
          const started = Date.now();
          const r = await sendRaw(pool, { method: 'GET', path: '/_cluster/health' }, tenant, 30_000);
          pings.push(r === 'timeout' ? Infinity : Date.now() - started);
        }
      })();
      try {
        const answer = await work();
        return [answer, pings, Date.now() - began];
      } finally {
        working = false;
        await pinging;
      }
    };
    /** No ping waited `floorMs` or a third of the work's `elapsed` ms, whichever is longer (see whilePinging). */
    const answeredMeanwhile = (pings: number[], elapsed: number, floorMs: number) => {
      expect(Math.max(...pings), `pings ${pings.join(',')} during ${elapsed} ms`).to.be.below(Math.max(floorMs, elapsed / 3));
    };
    const report = () => {
      const found = problems.splice(0);
      authored.length = 0;
      expect(found, found.slice(0, 40).join('\n')).to.deep.equal([]);
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      pool = new Pool(gw.url);
      const mappings = { properties: { q: { type: 'percolator' }, hq: { type: 'percolator' }, f: { type: 'keyword' }, t: { type: 'text' }, hid: { type: 'keyword' }, hnum: { type: 'long' }, n: { type: 'long' }, ua: { type: 'keyword' } } };
      for (const index of [OWN, FOREIGN]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { body: { mappings } });
        expect(made.status, made.text).to.equal(200);
      }
      const bulked = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson([
        { index: { _index: FOREIGN, _id: '1' } }, { f: 'foreignh3', t: 'foreignh3 words', n: 7 },
        { index: { _index: FOREIGN, _id: 'fq' } }, { q: { match: { t: 'foreignh3' } } },
        { index: { _index: OWN, _id: 'd1' } }, { f: 'own', t: 'own words', hid: 'hiddenh3', hnum: 4217, n: 1 },
        { index: { _index: OWN, _id: 'q-all' } }, { q: { match_all: {} } },
        { index: { _index: OWN, _id: 'q-hid' } }, { q: { bool: { should: [{ prefix: { hid: { value: 'hidden', _name: 'hp' } } }, { range: { hnum: { gte: 4000, _name: 'hr' } } }] } } },
        { index: { _index: OWN, _id: 'q-f' } }, { q: { term: { f: { value: 'own', _name: 'fq' } } }, hq: { term: { f: 'secretq' } } },
        { index: { _index: OWN, _id: 'q-hq' } }, { hq: { bool: { filter: [{ term: { f: 'own' } }], _name: 'hiddenh3' } } },
      ]), headers: NDJSON });
      expect(bulked.json.errors, bulked.text).to.equal(false);
      await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: FOREIGN, alias: 'shared-h3' } }] } });
      tenant = await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] });
      ruled = await cred({ categories: ['docs', 'search'], ops: ['read'], exclude_fields: ['hid', 'hnum', 'hq'] });
    });
    after(async () => {
      await pool?.close();
      await stop?.();
    });

    it("percolate: another tenant's document is percolated by no spelling of its index, in no place of a request", async () => {
      const names = [FOREIGN, `${FOREIGN}*`, 'tenant-*', '*', '_all', `${OWN},${FOREIGN}`, [FOREIGN], 'shared-h3', `<${FOREIGN}>`, `<tenant-b-{now/d}>`, `${FOREIGN}.`, 'TENANT-B', 'tenant-b,-tenant-a',
        '*,-tenant-a', 'tenant-?', 'tenant-[b]', ' tenant-b', 'tenant-b ', `${OWN}/../${FOREIGN}`, `tenant%2Db`, 'tenant\u002db', 'tenant-b\u0000', 'tenant-b,', ',tenant-b', 'te*-b'];
      const perc = (index: unknown) => ({ percolate: { field: 'q', index, id: '1' } });
      for (const index of names) {
        const q = perc(index);
        await probe(tenant, 'POST', `/${OWN}/_search`, { query: q });
        await probe(tenant, 'POST', `/${OWN}/_search`, { query: { bool: { should: [{ match_all: {} }, { constant_score: { filter: { dis_max: { queries: [q] } } } }] } } });
        await probe(tenant, 'POST', `/${OWN}/_search`, { post_filter: q });
        await probe(tenant, 'POST', `/${OWN}/_search`, { size: 0, aggs: { a: { filter: q } } });
        await probe(tenant, 'POST', `/${OWN}/_search`, { size: 0, aggs: { a: { filters: { filters: { x: q } } } } });
        await probe(tenant, 'POST', `/${OWN}/_search`, { query: { function_score: { query: { match_all: {} }, functions: [{ filter: q, weight: 2 }] } } });
        await probe(tenant, 'POST', `/${OWN}/_search`, { rescore: { query: { rescore_query: q } } });
        await probe(tenant, 'POST', `/${OWN}/_count`, { query: q });
        await probe(tenant, 'POST', `/${OWN}/_explain/q-all`, { query: q });
        await probe(tenant, 'POST', `/${OWN}/_validate/query?explain=true`, { query: q });
        await probe(tenant, 'POST', `/${OWN}/_delete_by_query`, { query: q });
        await probe(tenant, 'POST', `/${OWN}/_update_by_query`, { query: q });
        await probe(tenant, 'POST', '/_msearch', ndjson([{ index: OWN }, { query: q }]), { headers: NDJSON });
        await probe(tenant, 'POST', `/${OWN}/_search/template`, { source: JSON.stringify({ query: q }) });
        await probe(tenant, 'POST', `/${OWN}/_search/template`, { source: '{"query":{"percolate":{"field":"q","index":"{{i}}","id":"1"}}}', params: { i: index } });
        await probe(tenant, 'POST', `/${OWN}/_search/template`, { source: '{"query":{"percolate":{"field":"q","index":"{{i}}","id":"1"}}}', params: { i: index } });
      }
      // duplicate keys: the last wins where the gateway reads JSON, and the engine reads what the gateway serialized
      await probe(tenant, 'POST', `/${OWN}/_search`, `{"query":{"percolate":{"field":"q","index":"${FOREIGN}","id":"1"},"percolate":{"field":"q","index":"${OWN}","id":"d1"}}}`, { mayAnswer: true });
      for (const raw of [
        `{"query":{"percolate":{"field":"q","index":"${OWN}","index":"${FOREIGN}","id":"1"}}}`,
        `{"query":{"percolate":{"field":"q","index":"${OWN}","id":"d1"},"percolate":{"field":"q","index":"${FOREIGN}","id":"1"}}}`,
        `{"query":{"percolate":{"field":"q","index":"${OWN}","id":"1"}},"query":{"percolate":{"field":"q","index":"${FOREIGN}","id":"1"}}}`,
        `{"query":{"percolate":{"field":"q","ind\\u0065x":"${FOREIGN}","id":"1"}}}`,
        `{"query":{"perc\\u006flate":{"field":"q","index":"${FOREIGN}","id":"1"}}}`,
        `{"query":{"percolate":{"field":"q","index":"tenant\\u002db","id":"1"}}}`,
      ]) await probe(tenant, 'POST', `/${OWN}/_search`, raw);
      // a stored search template or script and a search pipeline holding it (the admin's)
      await call(gw.url, 'PUT', '/_scripts/perc-b', { body: { script: { lang: 'mustache', source: { query: perc(FOREIGN) } } } });
      await probe(tenant, 'POST', `/${OWN}/_search/template`, { id: 'perc-b' });
      await probe(tenant, 'POST', `/${OWN}/_search/template`, { id: 'perc-b', explain: true, profile: true });
      await probe(tenant, 'POST', `/_render/template`, { id: 'perc-b' }, { mayAnswer: true });
      for (const [name, query] of [['perc-b3', perc(FOREIGN)], ['perc-b3-all', perc('*')]] as const) {
        const put = await call(gw.url, 'PUT', `/_search/pipeline/${name}`, { body: { request_processors: [{ filter_query: { query } }] } });
        expect(put.status, put.text).to.equal(200);
        // the admin's pipeline names the index: the refusal may name it too (Elasticsearch's security_exception does)
        const named = /foreignh3|\.gateway-/;
        await probe(tenant, 'POST', `/${OWN}/_search?search_pipeline=${name}`, { query: { match_all: {} } }, { leak: named });
        await probe(tenant, 'POST', `/${OWN}/_count?search_pipeline=${name}`, { query: { match_all: {} } }, { mayAnswer: true, leak: named });
        await probe(tenant, 'POST', '/_msearch', ndjson([{ index: OWN, search_pipeline: name }, { query: { match_all: {} } }]), { headers: NDJSON, leak: named });
        await probe(tenant, 'POST', `/${OWN}/_search`, { query: { match_all: {} }, search_pipeline: { request_processors: [{ filter_query: { query } }] } });
      }
      report();
    });

    it('percolate: a generated index expression naming the other tenant\'s index is refused wherever the query sits', async () => {
      const spelling = fc.oneof(
        fc.constantFrom(FOREIGN, 'shared-h3', '_all', '*', 'tenant-*', 'tenant-?', 't*', '*-b'),
        fc.array(fc.boolean(), { minLength: FOREIGN.length, maxLength: FOREIGN.length }).map((enc) => [...FOREIGN].map((c, i) => (enc[i] ? c.toUpperCase() : c)).join('')),
        fc.tuple(fc.constantFrom('', `${OWN},`, '-tenant-a,', `${OWN}*,`), fc.constantFrom(FOREIGN, 'shared-h3', '*'), fc.constantFrom('', ',', `,${OWN}`, ',-tenant-a')).map(([a, b, c]) => a + b + c),
      );
      const place = fc.constantFrom(
        (q: unknown) => ({ query: q }), (q: unknown) => ({ post_filter: q }), (q: unknown) => ({ size: 0, aggs: { a: { filter: q } } }),
        (q: unknown) => ({ query: { nested: { path: 'x', query: q, ignore_unmapped: true } } }), (q: unknown) => ({ query: { boosting: { positive: { match_all: {} }, negative: q, negative_boost: 0.1 } } }),
        (q: unknown) => ({ size: 0, aggs: { a: { terms: { field: 'f' }, aggs: { b: { filter: q } } } } }), (q: unknown) => ({ query: { bool: { must_not: [q] } } }),
      );
      await fc.assert(fc.asyncProperty(spelling, place, fc.constantFrom('_search', '_count', '_search?size=0'), async (index, at, api) => {
        const body = at({ percolate: { field: 'q', index, id: '1' } });
        if (api === '_count' && !('query' in body)) return;
        upstream?.clear();
        const r = await call(gw.url, 'POST', `/${OWN}/${api}`, { auth: tenant, body });
        const found: string[] = [];
        if (r.status < 400 || r.status >= 500 || /foreignh3/.test(r.text)) found.push(`${JSON.stringify(body)}: ${r.status} ${r.text.slice(0, 200)}`);
        for (const l of leaksIn(forwarded(), { names: JSON.stringify(body).includes('tenant-b') ? [] : ['tenant-b'], reachable: [FOREIGN] })) found.push(l);
        expect(found, found.join('\n')).to.deep.equal([]);
      }), { numRuns: 80 });
    });

    it("percolate: the stored queries of the tenant's own index look up nothing of another index", async () => {
      for (const stored of [
        { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } },
        { terms: { f: { index: 'shared-h3', id: '1', path: 'f' } } },
        { more_like_this: { fields: ['t'], like: [{ _index: FOREIGN, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } },
        { geo_shape: { g: { indexed_shape: { index: FOREIGN, id: '1', path: 'f' } } } },
        { percolate: { field: 'q', index: FOREIGN, id: 'fq' } },
        { bool: { filter: [{ percolate: { field: 'q', document: { t: 'x' } } }] } },
        { has_child: { type: 'x', query: { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } } } },
        { script: { script: { lang: 'expression', source: "doc['n'].value > 0" } } },
        { pinned: { docs: [{ _index: FOREIGN, _id: '1' }], organic: { match_all: {} } } },
      ]) {
        authored.push(JSON.stringify(stored));
        const w = await probe(tenant, 'PUT', `/${OWN}/_doc/s-${problems.length}-${Math.random().toString(36).slice(2, 7)}?refresh=true`, { q: stored }, { mayAnswer: true });
        if (w.status < 300) {
          await probe(tenant, 'POST', `/${OWN}/_search`, { query: { percolate: { field: 'q', document: { f: 'foreignh3', t: 'foreignh3 words', n: 7 } } } }, { mayAnswer: true });
          await probe(tenant, 'POST', `/${OWN}/_search`, { query: { percolate: { field: 'q', index: OWN, id: 'd1' } }, highlight: { fields: { '*': {} } } }, { mayAnswer: true });
        }
      }
      report();
    });

    it("percolate: a credential's hidden fields of a fetched or stored document show in no hit, highlight or matched query, and a hidden percolator field finds nothing", async () => {
      const hidden = { leak: HIDDEN, mayAnswer: true };
      // the fetched document's hidden values match no stored query, and are highlighted nowhere
      for (const extra of [{}, { highlight: { fields: { '*': {} } } }, { highlight: { fields: { hid: {}, hnum: {} }, require_field_match: false } }, { fields: ['*'] }, { docvalue_fields: ['*'] }, { explain: true }]) {
        const r = await probe(ruled, 'POST', `/${OWN}/_search`, { query: { percolate: { field: 'q', index: OWN, id: 'd1' } }, ...extra }, hidden);
        const ids = (r.json?.hits?.hits ?? []).map((h: { _id: string }) => h._id);
        if (ids.includes('q-hid')) problems.push(`percolating d1 (hidden hid/hnum) matched q-hid: ${JSON.stringify(extra)} ${r.text.slice(0, 300)}`);
        if (/"hp"|"hr"/.test(r.text)) problems.push(`percolating d1 named the hidden queries: ${r.text.slice(0, 300)}`);
      }
      for (const api of ['_count', '_explain/q-hid', '_validate/query?explain=true']) {
        const r = await probe(ruled, 'POST', `/${OWN}/${api}`, { query: { percolate: { field: 'q', index: OWN, id: 'd1' } } }, hidden);
        if (api === '_explain/q-hid' && r.json?.matched === true) problems.push(`explain: q-hid matched the hidden fields of d1: ${r.text.slice(0, 300)}`);
      }
      const count = await call(gw.url, 'POST', `/${OWN}/_count`, { auth: ruled, body: { query: { bool: { filter: [{ percolate: { field: 'q', index: OWN, id: 'd1' } }, { ids: { values: ['q-hid'] } }] } } } });
      if (count.status < 400 && count.json?.count !== 0) problems.push(`count of q-hid percolating d1: ${count.text}`);
      // the hidden percolator field `hq`: its stored queries answer no percolation
      for (const body of [{ query: { percolate: { field: 'hq', document: { f: 'own' } } } }, { query: { percolate: { field: 'hq', document: { f: 'secretq' } } } },
        { query: { percolate: { field: 'hq', index: OWN, id: 'd1' } } }, { query: { percolate: { field: 'hq', document: { f: 'own' } } }, highlight: { fields: { '*': {} } } }]) {
        const r = await probe(ruled, 'POST', `/${OWN}/_search`, body, hidden);
        if ((r.json?.hits?.total?.value ?? 0) > 0) problems.push(`percolating the hidden field hq found ${r.text.slice(0, 300)}`);
      }
      report();
    });

    it("percolate: a stored query's named queries, over many percolated documents, hold the engine for one pass each, not one a slot", async () => {
      // one stored query of 150 named clauses, 1,500 documents percolated: the named queries each
      // document matched were found by running every named query once per slot (225,000 searches
      // of the 1,500 documents, in one turn of the event loop: the gateway, or the standalone
      // engine, answered no one for many seconds); now once each
      const index = `${OWN}-many`;
      expect((await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { q: { type: 'percolator' }, f: { type: 'keyword' } } } } })).status).to.equal(200);
      const should = Array.from({ length: 150 }, (_, i) => ({ term: { f: { value: `v${i % 5}`, _name: `n${i}` } } }));
      expect((await call(gw.url, 'PUT', `/${index}/_doc/big?refresh=true`, { auth: tenant, body: { q: { bool: { should } } } })).status).to.equal(201);
      const body = JSON.stringify({ size: 1, _source: false, query: { percolate: { field: 'q', documents: Array.from({ length: 1_500 }, (_, i) => ({ f: `v${i % 5}` })) } } });
      const [r, pings, elapsed] = await whilePinging(() => sendRaw(pool, { method: 'POST', path: `/${index}/_search`, body, contentType: 'application/json' }, tenant, 60_000));
      expect(r === 'timeout' ? r : r.status, r === 'timeout' ? r : r.text.slice(0, 300)).to.equal(200);
      const hit = JSON.parse((r as { text: string }).text).hits.hits[0];
      expect(hit.fields._percolator_document_slot).to.have.length(1_500);
      expect(hit.fields._percolator_document_slot_7_matched_queries).to.deep.equal(should.filter((_, i) => i % 5 === 2).map((c) => c.term.f._name));
      // the other requests were answered meanwhile: none waited the seconds the old way held the engine
      answeredMeanwhile(pings, elapsed, 3_000);
    });

    it('expression scripts: read no hidden field, no other index, and refuse unbounded work at once', async () => {
      const hidden = { leak: HIDDEN, mayAnswer: true };
      const ex = (source: string) => ({ lang: 'expression', source });
      for (const source of ["doc['hnum'].value", "doc['hnum'].value + 0", "doc['hnum'].empty ? 1 : 2", "doc['hnum'].length", "doc['hnum'].min()", "doc['hid'].value", "_value + doc['hnum'].value"]) {
        await probe(ruled, 'POST', `/${OWN}/_search`, { query: { ids: { values: ['d1'] } }, script_fields: { x: { script: ex(source) } } }, hidden);
        await probe(ruled, 'POST', `/${OWN}/_search`, { size: 0, aggs: { s: { sum: { script: ex(source) } } } }, hidden);
        await probe(ruled, 'POST', `/${OWN}/_search`, { size: 0, aggs: { s: { terms: { script: ex(source) } } } }, hidden);
        await probe(ruled, 'POST', `/${OWN}/_search`, { query: { ids: { values: ['d1'] } }, sort: [{ _script: { type: 'number', script: ex(source) } }] }, hidden);
        await probe(ruled, 'POST', `/${OWN}/_search`, { query: { function_score: { query: { ids: { values: ['d1'] } }, script_score: { script: ex(source) }, boost_mode: 'replace' } } }, hidden);
        const filtered = await call(gw.url, 'POST', `/${OWN}/_count`, { auth: ruled, body: { query: { bool: { filter: [{ ids: { values: ['d1'] } }, { script: { script: ex(`${source} == 4217`) } }] } } } });
        if (filtered.json?.count === 1) problems.push(`script query ${source} == 4217 counted d1`);
        await probe(ruled, 'POST', `/${OWN}/_search`, { size: 0, aggs: { h: { histogram: { field: 'n', interval: 1 }, aggs: { s: { sum: { field: 'n' } }, b: { bucket_script: { buckets_path: { v: 's' }, script: ex(`v + ${source}`) } } } } } }, hidden);
      }
      // unbounded work: deep nesting, a huge source, pathological numbers — answered at once, and the gateway still answers
      const deep = '('.repeat(200_000) + '1' + ')'.repeat(200_000);
      const sources = [deep, '-'.repeat(300_000) + '1', '1' + '+1'.repeat(300_000), 'sin('.repeat(50_000) + '1' + ')'.repeat(50_000), '1e999999999', '0x' + 'f'.repeat(100_000),
        'pow(10, 400) * 0', "doc['" + 'x'.repeat(200_000) + "'].value", 'a'.repeat(1_000_000), '1 ? '.repeat(100_000) + '1' + ' : 1'.repeat(100_000)];
      for (const source of sources) {
        const started = Date.now();
        upstream?.clear();
        const r = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: tenant, body: { size: 1, script_fields: { x: { script: ex(source) } } } });
        const took = Date.now() - started;
        if (r.status >= 500 || took > 5_000) problems.push(`source of ${source.length} chars (${source.slice(0, 20)}…): ${r.status} in ${took} ms ${r.text.slice(0, 200)}`);
        const alive = await call(gw.url, 'GET', '/_cluster/health');
        if (alive.status !== 200) problems.push(`after ${source.slice(0, 20)}…: health ${alive.status}`);
      }
      // a stored script in expression (the admin's) read by the tenant reads no hidden field either
      expect((await call(gw.url, 'PUT', '/_scripts/ex-hnum', { body: { script: { lang: 'expression', source: "doc['hnum'].value" } } })).status).to.equal(200);
      await probe(ruled, 'POST', `/${OWN}/_search`, { query: { ids: { values: ['d1'] } }, script_fields: { x: { script: { id: 'ex-hnum' } } } }, hidden);
      await probe(ruled, 'POST', `/${OWN}/_search`, { size: 0, aggs: { s: { max: { script: { id: 'ex-hnum' } } } } }, hidden);
      report();
    });

    it('user_agent and registered_domain: huge inputs and many documents keep the gateway answering, and no pipeline writes another index for the tenant', async () => {
      const pipeline = { processors: [{ user_agent: { field: 'ua', ignore_missing: true } }, { registered_domain: { field: 'f', target_field: 'rd', ignore_missing: true } }] };
      const inputs = ['Mozilla/5.0 ' + '(X11; Linux x86_64) '.repeat(50_000), 'a'.repeat(2_000_000), 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' + 'Chrome/1.1.1.1 '.repeat(20_000),
        'x.'.repeat(100_000) + 'com', '.'.repeat(100_000), '\u0000'.repeat(10_000), 'http://' + 'a.'.repeat(50_000) + 'co.uk/', '[' + ':'.repeat(50_000) + ']', 'é'.repeat(100_000) + '.рф'];
      for (const value of inputs) {
        const started = Date.now();
        const r = await call(gw.url, 'POST', '/_ingest/pipeline/_simulate', { auth: tenant, body: { pipeline, docs: [{ _source: { ua: value, f: value } }] } });
        const took = Date.now() - started;
        if (r.status >= 500 || took > 5_000) problems.push(`simulate ${value.length} chars ${value.slice(0, 16)}…: ${r.status} in ${took} ms ${r.text.slice(0, 200)}`);
      }
      const many = Array.from({ length: 2_000 }, (_, i) => ({ _source: { ua: `Mozilla/5.0 (Linux; Android ${i}) Chrome/${i}.0 Mobile Safari/537.36 ${'z'.repeat(500)}`, f: `www.s${i}.example.co.uk` } }));
      const started = Date.now();
      const r = await call(gw.url, 'POST', '/_ingest/pipeline/_simulate', { auth: tenant, body: { pipeline, docs: many } });
      if (r.status >= 500 || Date.now() - started > 20_000) problems.push(`simulate 2000 docs: ${r.status} in ${Date.now() - started} ms`);
      // pipelines whose processors write `_index` (through a user_agent's target field) send nothing to another tenant's index
      const before = await call(gw.url, 'POST', `/${FOREIGN}/_count`);
      for (const p of [
        { processors: [{ user_agent: { field: 'ua', target_field: '_index' } }] },
        { processors: [{ registered_domain: { field: 'f', target_field: '_index' } }] },
        { processors: [{ registered_domain: { field: 'f', target_field: '_index.x' } }, { set: { field: '_index', value: FOREIGN } }] },
      ]) {
        await probe(tenant, 'PUT', '/_ingest/pipeline/h3-ua', p);
        await probe(tenant, 'POST', '/_ingest/pipeline/_simulate', { pipeline: p, docs: [{ _index: OWN, _source: { ua: 'Mozilla/5.0', f: 'tenant-b.com' } }] }, { mayAnswer: true, leak: /foreignh3|\.gateway-/ });
      }
      const after = await call(gw.url, 'POST', `/${FOREIGN}/_count`);
      if (after.json?.count !== before.json?.count) problems.push(`${FOREIGN} count ${before.json?.count} -> ${after.json?.count}`);
      report();
    });

    it("user_agent: a tenant's bulk of long headers through an index's default pipeline (the admin's) keeps other requests answered", async () => {
      // a document's pipelines run in one turn of the event loop: at 30 KB of header a document
      // (a second of parsing) each turn another request took waited that long; now a document
      // parses about 4 KB at most, and a longer header fails its item
      expect((await call(gw.url, 'PUT', '/_ingest/pipeline/h3-ua', { body: { processors: [{ user_agent: { field: 'ua' } }] } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', `/${OWN}-ua`, { body: { settings: { 'index.default_pipeline': 'h3-ua' } } })).status).to.equal(200);
      const ua = (length: number) => 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' + 'Chrome/1.1.1.1 '.repeat(length / 15);
      const lines = Array.from({ length: 8 }, () => [{ index: { _index: `${OWN}-ua` } }, { ua: ua(30_000) }]).flat();
      const [r, pings, elapsed] = await whilePinging(() => call(gw.url, 'POST', '/_bulk', { auth: tenant, body: ndjson(lines), headers: NDJSON }));
      expect(r.status, r.text.slice(0, 300)).to.equal(200);
      for (const item of r.json.items) {
        expect(item.index.status, JSON.stringify(item)).to.equal(400);
        expect(item.index.error.reason).to.match(/^\[user_agent\] processor would take the document's ingest output to/);
      }
      answeredMeanwhile(pings, elapsed, 1_500);
      // an ordinary header, and a few KB of one, are parsed
      const ok = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth: tenant, body: ndjson([{ index: { _index: `${OWN}-ua`, _id: 'ok' } }, { ua: ua(3_000) }]), headers: NDJSON });
      expect(ok.json.errors, ok.text.slice(0, 300)).to.equal(false);
      expect((await call(gw.url, 'GET', `/${OWN}-ua/_doc/ok`)).json._source.user_agent.name).to.equal('Chrome');
    });

    it('user_agent: a simulation of many documents (the admin\'s) keeps other requests answered', async () => {
      // the simulate API ran every document in one turn of the event loop: 60 headers of 3 KB held it for seconds
      const docs = Array.from({ length: 60 }, (_, i) => ({ _source: { ua: `Mozilla/5.0 (Linux; Android ${i}) Chrome/${i}.0 Mobile Safari/537.36 ${'z'.repeat(3_000)}` } }));
      const [r, pings, elapsed] = await whilePinging(() => call(gw.url, 'POST', '/_ingest/pipeline/_simulate', { body: { pipeline: { processors: [{ user_agent: { field: 'ua' } }] }, docs } }));
      expect(r.status, r.text.slice(0, 300)).to.equal(200);
      expect(r.json.docs.map((d: { doc?: { _source: { user_agent?: { os?: { version?: string } } } } }) => d.doc?._source.user_agent?.os?.version)).to.deep.equal(docs.map((_, i) => String(i)));
      answeredMeanwhile(pings, elapsed, 1_500);
    });

    it('the Observability objects and the GeoJSON upload: a scoped credential reaches neither, however the path is spelled, and writes no index through them', async () => {
      const spellings = (path: string): string[] => [path, `${path}/`, `/${path}`, path.replace('/_plugins/', '/_opendistro/'), path.replace('/_plugins/', '/_PLUGINS/'), path.replace('/_plugins/', '//_plugins//'),
        path.replace(/\/_?([a-z]+)$/, '%2F$1'), path.replace('/_plugins/', '/%5Fplugins/'), `${path}.`, `${path}?source=%7B%7D&source_content_type=application/json`, `${path}?filter_path=*&error_trace=true`,
        path.replace('/_plugins/', '/_plugins/./'), path.replace('/_plugins/', '/x/../_plugins/')];
      const objects = ['/_plugins/_observability/object', '/_plugins/_observability/object/abc', '/_plugins/_observability/_local/stats'];
      const geo = ['/_plugins/geospatial/geojson/_upload', '/_plugins/geospatial/_upload/stats'];
      const upload = (index: string) => ({ type: 'geo_point', index, field: 'location', data: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { f: 'planted' } }] });
      const objectBody = { savedVisualization: { name: 'v', query: 'source = tenant-b | stats count()', type: 'bar' } };
      for (const base of [...objects, ...geo]) {
        for (const path of spellings(base)) {
          for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
            const body = method === 'GET' || method === 'DELETE' ? undefined : base.includes('geojson') ? JSON.stringify(upload(FOREIGN)) : JSON.stringify(objectBody);
            upstream?.clear();
            const r = await sendRaw(pool, { method, path, body, contentType: 'application/json' }, tenant, 10_000);
            // the stats paths are cluster reads, which this tenant holds
            const mayRead = method === 'GET' && /stats/.test(base);
            if (r === 'timeout' || r.status >= 500 || (!mayRead && r.status < 400) || LEAK.test(r.text)) problems.push(`${method} ${path}: ${r === 'timeout' ? r : `${r.status} ${r.text.slice(0, 200)}`}`);
            for (const f of forwarded()) if (!(mayRead && f.method === 'GET')) problems.push(`${method} ${path}: forwarded ${f.method} ${f.path}`);
          }
        }
      }
      // the upload's index naming another tenant's, a system index, or an alias — and the objects' index read or written directly
      expect((await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { savedQuery: { name: 'admins', query: 'source=tenant-b' } } })).status).to.equal(200);
      for (const index of [FOREIGN, '.gateway-credentials', '.opensearch-observability', 'shared-h3', `${OWN}-geo`, `${OWN}-geo,${FOREIGN}`]) {
        for (const method of ['POST', 'PUT']) await probe(tenant, method, '/_plugins/geospatial/geojson/_upload', upload(index));
      }
      for (const [method, path, body] of [['GET', '/.opensearch-observability/_search'], ['POST', '/.opensearch-observability/_doc', { savedQuery: { name: 'x' } }], ['GET', '/.opensearch*/_search'],
        ['POST', `/${OWN}/_search`, { query: { terms: { f: { index: '.opensearch-observability', id: 'x', path: 'f' } } } }], ['POST', '/_reindex', { source: { index: '.opensearch-observability' }, dest: { index: `${OWN}-obs` } }],
        ['GET', '/_cat/indices/.opensearch*'], ['GET', '/.opensearch-observability/_mapping']] as const) {
        await probe(tenant, method, path, body, { leak: /admins|tenant-b|\.gateway-/ });
      }
      report();
    });

    it("the GeoJSON upload: a credential managing the cluster for some indices writes no other index through it, however the body names it", async () => {
      // the upload writes the index its body names: with `manage` (the plugin's cluster action) but
      // only the tenant's indices, it wrote any existing index (PUT) on both backends
      const manager = await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], cluster_privileges: ['manage'] });
      const upload = (index: unknown) => ({ type: 'geo_point', index, field: 'location', data: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { f: 'planted' } }] });
      const outside = async () => {
        const cat = await call(gw.url, 'GET', '/_cat/indices?h=index&expand_wildcards=all');
        const counts = await call(gw.url, 'POST', `/${FOREIGN}/_count`, { body: { query: { term: { f: 'planted' } } } });
        return `${cat.text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith(OWN)).sort().join(',')} planted in ${FOREIGN}: ${counts.json?.count}`;
      };
      const before = await outside();
      const spelling = fc.oneof(
        fc.constantFrom<unknown>(FOREIGN, 'shared-h3', `<${FOREIGN}>`, `${FOREIGN}-new`, '.gateway-credentials', '.opensearch-observability', '.gateway-new', `${OWN}/../${FOREIGN}`, [FOREIGN], [OWN, FOREIGN], `${OWN}-g,${FOREIGN}`, 'tenant-*', '*', '_all', 42, null, { name: FOREIGN }),
        fc.array(fc.boolean(), { minLength: FOREIGN.length, maxLength: FOREIGN.length }).map((up) => [...FOREIGN].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('')),
      );
      await fc.assert(fc.asyncProperty(spelling, fc.constantFrom('POST', 'PUT'), fc.boolean(), async (index, method, duplicated) => {
        upstream?.clear();
        // a duplicate key: the gateway and the engine both read the last
        const body = duplicated ? JSON.stringify(upload(index)).replace('"index":', `"index":"${OWN}-geo-dup","index":`) : JSON.stringify(upload(index));
        const r = await call(gw.url, method, '/_plugins/geospatial/geojson/_upload', { auth: manager, body });
        const found: string[] = [];
        if (r.status < 300 || r.status >= 500) found.push(`${method} ${body.slice(0, 120)}: ${r.status} ${r.text.slice(0, 200)}`);
        for (const f of forwarded()) if (f.path.includes('_upload')) found.push(`forwarded ${f.method} ${f.path} ${f.body.slice(0, 120)}`);
        const now = await outside();
        if (now !== before) found.push(`${method} ${body.slice(0, 120)}: ${now} (was ${before})`);
        expect(found, found.join('\n')).to.deep.equal([]);
      }), { numRuns: 40 });
      // its own index: made, then added to
      for (const method of ['POST', 'PUT']) {
        const own = await call(gw.url, method, '/_plugins/geospatial/geojson/_upload', { auth: manager, body: upload(`${OWN}-geo`) });
        expect(own.status, own.text).to.equal(200);
        expect(own.json.success).to.equal(1);
      }
    });

    it("templates: simulating an index or a template body tells a tenant nothing of another tenant's templates, and bulk dynamic_templates map no field the index refuses", async () => {
      const admin = async (method: string, path: string, body?: unknown) => {
        const r = await call(gw.url, method, path, { body });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(200);
      };
      await admin('PUT', '/_index_template/tmpl-b3', { index_patterns: [`${FOREIGN}-*`, 'tenant-*-x'], priority: 50, template: { settings: { number_of_replicas: 0 }, mappings: { properties: { secretb: { type: 'keyword' } } }, aliases: { 'alias-b3': {} } } });
      await admin('PUT', '/_template/legacy-b3', { index_patterns: [`${FOREIGN}-l*`, '*'], order: 0, settings: { number_of_replicas: 0 }, mappings: { properties: { secretl: { type: 'keyword' } } } });
      const leak = /tenant-b|tmpl-b3|legacy-b3|secretb|secretl|alias-b3|\.gateway-/;
      const mine = (patterns: string[]) => ({ index_patterns: patterns, priority: 60, template: { settings: { number_of_replicas: 0 } } });
      for (const [path, body] of [
        [`/_index_template/_simulate_index/${OWN}-x`, undefined], [`/_index_template/_simulate_index/${OWN}-x`, mine([`${OWN}-*`])], [`/_index_template/_simulate_index/${OWN}-x`, mine(['tenant-*'])],
        [`/_index_template/_simulate_index/${OWN}-x`, mine(['*'])], [`/_index_template/_simulate_index/${FOREIGN}-x`, undefined], [`/_index_template/_simulate_index/${FOREIGN}-x`, mine([`${FOREIGN}-*`])],
        [`/_index_template/_simulate_index/tenant-*-x`, mine(['tenant-*'])], ['/_index_template/_simulate', mine([`${OWN}-*`])], ['/_index_template/_simulate', mine(['tenant-*'])],
        ['/_index_template/_simulate', mine(['*'])], ['/_index_template/_simulate/tmpl-b3', undefined], [`/_index_template/_simulate_index/${OWN}-x?include_defaults=true`, mine(['*'])],
        [`/_index_template/_simulate_index/%3C${FOREIGN}-x%3E`, undefined], [`/_index_template/_simulate_index/${OWN}-x,${FOREIGN}-x`, undefined],
      ] as const) await probe(tenant, 'POST', path, body, { mayAnswer: true, leak });
      // an index whose mappings refuse new fields: a bulk item's dynamic_templates adds none for a tenant that may not change mappings
      for (const [name, dynamic] of [[`${OWN}-strict`, 'strict'], [`${OWN}-false`, false], [`${OWN}-rt`, 'runtime']] as const) {
        const made = await call(gw.url, 'PUT', `/${name}`, { body: { mappings: { dynamic, dynamic_templates: [{ kw: { mapping: { type: 'keyword' } } }, { perc: { mapping: { type: 'percolator' } } }], properties: { f: { type: 'keyword' } } } } });
        expect(made.status, made.text).to.equal(200);
        const writer = await cred({ categories: ['docs'], ops: ['write', 'read'] });
        for (const template of ['kw', 'perc']) {
          const r = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth: writer, body: ndjson([{ index: { _index: name, _id: `x-${template}`, dynamic_templates: { [`new_${template}`]: template } } }, { f: 'x', [`new_${template}`]: template === 'perc' ? { match_all: {} } : 'v' }]), headers: NDJSON });
          const mapping = await call(gw.url, 'GET', `/${name}/_mapping`);
          if (dynamic !== 'runtime' && JSON.stringify(mapping.json?.[name]?.mappings?.properties ?? {}).includes(`new_${template}`)) problems.push(`${name} (${dynamic}) ${template}: mapped by ${r.text.slice(0, 200)}: ${mapping.text.slice(0, 300)}`);
          if (dynamic === 'strict' && r.json?.items?.[0]?.index?.status < 300) problems.push(`${name}: strict index took a new field through dynamic_templates: ${r.text.slice(0, 200)}`);
        }
      }
      report();
    });

    it('live streams with percolate queries: another tenant\'s document is not percolated, and a hidden field decides nothing', async () => {
      for (const [auth, body] of [
        [tenant, { query: { percolate: { field: 'q', index: FOREIGN, id: '1' } } }],
        [tenant, { query: { percolate: { field: 'q', index: 'shared-h3', id: '1' } } }],
        [tenant, { query: { bool: { filter: [{ percolate: { field: 'q', index: '*', id: '1' } }] } } }],
      ] as const) {
        upstream?.clear();
        const r = await sendRaw(pool, { method: 'POST', path: `/${OWN}/_search?stream=true`, body: JSON.stringify(body), contentType: 'application/json' }, auth, 3_000);
        if (r === 'timeout' || r.status < 400 || /foreignh3/.test(r.text)) problems.push(`stream ${JSON.stringify(body)}: ${r === 'timeout' ? 'answered (held open)' : `${r.status} ${r.text.slice(0, 200)}`}`);
        for (const l of leaksIn(forwarded(), { names: [], reachable: [FOREIGN] })) problems.push(`stream: ${l}`);
      }
      report();
    });
  });
}
