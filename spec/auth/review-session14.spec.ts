import { expect } from 'chai';
import fc from 'fast-check';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { clientForwards, leaksIn, startRecordedGateway, systemIndexForwards, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

/**
 * Review of session 14 (h-rev14): hostile tenants against what changed — OpenSearch's asynchronous
 * search (submit, a kept answer by id, stats), Learning to Rank stores, rollup and transform jobs
 * (a transform's `_preview` runs an aggregation over its source index), the thin path writing a
 * whole 200 answer itself (a cache hit, an embedded document read) under field rules, and the HTTP
 * backend sending a re-serialized body as its pieces. Both backends, the HTTP one recorded at the
 * engine, with the cache on (a hit must answer only what the credential may see).
 *
 * Each case states the property; a case that held stays as a guard.
 *
 * Findings, fixed (each case fails on the old code):
 * - A transform's `_preview` (and a rollup or transform job written) named its source and target
 *   index only in its body, which no reader read: the gateway's system indices went unchecked, and
 *   the admin's preview of `.gateway-credentials` answered every credential's username as a bucket.
 *   The body is read (`management_job`): source, target and the query's lookups are the request's
 *   indices, the system-index check applies.
 * - A credential with field rules reading every index got the engine's 400 (the `_source_excludes`
 *   the gateway added, which the plugin's GET does not take) for a kept asynchronous search answer:
 *   now refused as uncheckable (403), since another search's hits and aggregations cannot be narrowed.
 * - A `max_size` credential's asynchronous submit naming no size answered the default 10 hits, and
 *   ran the index's default search pipeline (which bounded credentials never run): it is sent with
 *   `size` and `search_pipeline=_none` as a `_search` is (the plugin's submit takes the parameter,
 *   read by OpenSearch's search request parser).
 *
 * Held, kept as guards: scoped credentials reach no transform, rollup or Learning to Rank route
 * (`manage`), whatever index their body names; a submit reads only the tenant's indices however the
 * other's is written (a body's `index`, `indices`, `routing`, `q` and the like are not index
 * expressions: forwarded as written, they read nothing else); of a duplicated `index=` the last is
 * read, authorized and forwarded; a kept answer by id is refused to a scoped credential. The thin
 * path's whole answers keep every earlier step's headers and each credential's field rules on a
 * cache hit. A re-serialized body sent as pieces reaches the engine as what was authorized
 * (generated; a mutation encoding at fixed 64 K-character slices fails it).
 *
 * Open, by design or not fixed here: BM25 scores (now ×2.2 in every dialect) bound no access:
 * `min_score` only narrows which of a credential's own documents a search or stream answers, and the
 * stream matcher scores with the engine's own similarity.
 */

/** The tenant's index, another tenant's it may not read. */
const [OWN, FOREIGN] = ['tenant-a', 'tenant-b'];
/** An alias over the tenant's index and another's. */
const BOTH = 'tenant-both';
/** What no answer to a tenant may hold: the other tenant's index name and values, the gateway's system indices. */
const LEAK = /tenant-b(?!oth)|foreign14|\.gateway-/;
/** A value of the field `hid`, which the ruled credentials may not see. */
const HIDDEN = 'hiddenvalue14';

/** The cache on (a hit answered at once), and a browser origin allowed. */
const ENV14 = { CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0', CORS_ORIGINS: 'https://app.example' };
const ORIGIN = 'https://app.example';

const BACKENDS14: Array<{ name: string; start(): Promise<{ gateway: TestGateway; upstream?: RecordingUpstream; stop(): Promise<void> }> }> = [
  { name: 'embedded engine', async start() { const gateway = await startTestGateway(ENV14); return { gateway, stop: () => gateway.close() }; } },
  { name: 'HTTP backend (recorded)', start: () => startRecordedGateway(ENV14) },
];

for (const backend of BACKENDS14) {
  describe(`review of session 14: hostile tenants against this session's surfaces (${backend.name})`, function () {
    let gw: TestGateway, upstream: RecordingUpstream | undefined, stop: () => Promise<void>;
    // a tenant with every category but manage; one whose field rules hide `hid`; one reading every index with `hid` hidden; the app's read-only pair
    let tenant: string, ruled: string, wide: string, readOnly: string, bounded: string;
    this.timeout(300_000);

    const forwardedLeaks = (label: string, problems: string[], named = true) => {
      const forwarded = clientForwards(upstream?.requests ?? []);
      // `named` false: the client wrote the other tenant's name where no index is read (a body's unknown member, `routing`, `q`'s text)
      for (const leak of leaksIn(forwarded, { names: named ? [FOREIGN, BOTH] : [], reachable: [FOREIGN, '.gateway-credentials'] })) problems.push(`${label}: ${leak}`);
      for (const leak of systemIndexForwards(forwarded)) problems.push(`${label}: ${leak}`);
    };
    const cred = async (body: Record<string, unknown>) => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], allow_raw_dsl: true, ...body } });
      expect(made.status, made.text).to.equal(201);
      return basic(made.json.credential.username, made.json.password);
    };
    /** A tenant's request: refused, or (mayAnswer) answered without anything of another tenant's, in the answer or forwarded. */
    const probe = async (problems: string[], auth: string, method: string, path: string, body?: unknown, mayAnswer = false, leak = LEAK, named = true) => {
      upstream?.clear();
      const r = await call(gw.url, method, path, { auth, body });
      const written = decodeURIComponent(decodeURIComponent(path.replace(/%(?![0-9a-f]{2})/gi, '%25'))) + JSON.stringify(body ?? '');
      const leaked = [...r.text.matchAll(new RegExp(leak, 'g'))].some(([name]) => r.status < 400 || !written.includes(name));
      if ((!mayAnswer && r.status < 400) || leaked) problems.push(`${method} ${path} ${body === undefined ? '' : JSON.stringify(body).slice(0, 120)}: ${r.status} ${r.text.slice(0, 300)}`);
      forwardedLeaks(`${method} ${path}`, problems, named);
      return r;
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      for (const index of [OWN, FOREIGN]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { f: { type: 'keyword' }, hid: { type: 'keyword' }, n: { type: 'long' }, at: { type: 'date' } } } } });
        expect(made.status, made.text).to.equal(200);
      }
      const lines: unknown[] = [];
      for (let i = 1; i <= 6; i++) lines.push({ index: { _index: OWN, _id: `a${i}` } }, { f: `x${i}`, hid: HIDDEN, n: i, at: '2024-01-01' });
      lines.push({ index: { _index: FOREIGN, _id: '1' } }, { f: 'foreign14', n: 1, at: '2024-01-01' });
      const bulked = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulked.json.errors, bulked.text).to.equal(false);
      expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { indices: [OWN, FOREIGN], alias: BOTH } }] } })).status).to.equal(200);
      tenant = await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] });
      ruled = await cred({ categories: ['docs', 'search', 'cluster'], ops: ['read'], exclude_fields: ['hid'] });
      bounded = await cred({ categories: ['search'], ops: ['read'], max_size: 3 });
      wide = await cred({ indices: ['*'], categories: ['docs', 'search', 'cluster'], ops: ['read'], exclude_fields: ['hid'] });
      const pair = await call(gw.url, 'POST', `/${OWN}/_credentials`, { body: { read_only: true } });
      expect(pair.status, pair.text).to.equal(201);
      readOnly = basic(pair.json.credential.username, pair.json.password);
    });
    after(() => stop?.());

    it('asynchronous search: a tenant submits searches of its own indices only — no index, another\'s by name, wildcard, alias, encoding, date math, duplicated parameter or body member', async () => {
      const problems: string[] = [];
      const base = '/_plugins/_asynchronous_search';
      const q = { query: { match_all: {} } };
      for (const target of ['', `?index=${FOREIGN}`, `?index=${OWN},${FOREIGN}`, '?index=*', '?index=_all', `?index=${BOTH}`, '?index=%74enant-b', `?index=${OWN}%2C${FOREIGN}`,
        '?index=%3Ctenant-b%3E', `?index=*,-${OWN}`, `?index=${OWN}&index=${FOREIGN}`, '?index=', '?index=tenant-%62', `/${FOREIGN}`, `?index=${OWN}/../${FOREIGN}`]) {
        await probe(problems, tenant, 'POST', `${base}${target}`, q);
        await probe(problems, tenant, 'POST', `${base}${target}${target.includes('?') ? '&' : '?'}keep_on_completion=true`, q);
      }
      // narrowed wildcards answer with the tenant's own documents only
      // narrowed wildcards answer with the tenant's own documents only; of a duplicated parameter the last is read, authorized and forwarded
      for (const target of ['?index=tenant-*', '?index=tenant-*&expand_wildcards=all', '?index=t*', `?index=${OWN}*`, `?index=${FOREIGN}&index=${OWN}`]) await probe(problems, tenant, 'POST', `${base}${target}`, q, true);
      // a body naming an index, a PIT, search_type, pre_filter, `source` parameters: only the tenant's index is read
      const own = `${base}?index=${OWN}`;
      for (const body of [{ ...q, index: FOREIGN }, { index: FOREIGN }, { ...q, indices: [FOREIGN] }, { query: { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } } },
        { query: { more_like_this: { fields: ['f'], like: [{ _index: FOREIGN, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } },
        { query: { geo_shape: { f: { indexed_shape: { index: FOREIGN, id: '1', path: 'f' } } } } },
        { query: { percolate: { field: 'f', index: FOREIGN, id: '1' } } }]) {
        await probe(problems, tenant, 'POST', own, body, true, LEAK, !('index' in body || 'indices' in body));
      }
      for (const params of ['search_type=dfs_query_then_fetch', 'pre_filter_shard_size=1', 'search_type=query_then_fetch&ccs_minimize_roundtrips=false', `routing=${FOREIGN}`, `preference=_shards:0`,
        `source=${encodeURIComponent(JSON.stringify({ index: FOREIGN }))}&source_content_type=application/json`, `q=_index:${FOREIGN}`, `q=f:foreign14`, 'allow_partial_search_results=true&ignore_unavailable=true']) {
        await probe(problems, tenant, 'POST', `${own}&${params}`, q, true, LEAK, !/routing|q=/.test(params));
      }
      // the read-only pair's own index is its to search
      await probe(problems, readOnly, 'POST', own, q, true);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('asynchronous search: a kept answer is read back or deleted by no credential but one reading every index, and then through its field rules', async () => {
      const problems: string[] = [];
      const base = '/_plugins/_asynchronous_search';
      const kept = async (index: string) => {
        const r = await call(gw.url, 'POST', `${base}?index=${index}&keep_on_completion=true`, { body: { query: { match_all: {} }, size: 10 } });
        expect(r.status, r.text).to.equal(200);
        return r.json.id as string;
      };
      const foreign = await kept(FOREIGN);
      const ownByAdmin = await kept(OWN);
      for (const auth of [tenant, ruled, readOnly]) {
        for (const id of [foreign, ownByAdmin, encodeURIComponent(foreign)]) {
          await probe(problems, auth, 'GET', `${base}/${id}`);
          await probe(problems, auth, 'GET', `${base}/${id}?index=${OWN}`);
          await probe(problems, auth, 'DELETE', `${base}/${id}`);
        }
      }
      // a credential reading every index under field rules: a kept answer (another's search, its hits and
      // aggregations) cannot be narrowed to them, so it is refused as such (was the engine's 400 on the
      // `_source_excludes` the gateway added, which the plugin's GET does not take)
      const r = await probe(problems, wide, 'GET', `${base}/${ownByAdmin}`, undefined, false, new RegExp(HIDDEN));
      if (r.status !== 403 || !r.text.includes('field rules')) problems.push(`wide GET kept: ${r.status} ${r.text.slice(0, 300)}`);
      // the tenant's own kept search, submitted through the ruled credential, holds no hidden value either
      const mine = await call(gw.url, 'POST', `${base}?index=${OWN}&keep_on_completion=true`, { auth: ruled, body: { query: { match_all: {} } } });
      if (mine.text.includes(HIDDEN)) problems.push(`ruled submit: ${mine.text.slice(0, 300)}`);
      // still there, as the admin left them
      for (const id of [foreign, ownByAdmin]) expect((await call(gw.url, 'GET', `${base}/${id}`)).status).to.equal(200);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('asynchronous search under field rules: a search touching `hid` is refused or answered without its values', async () => {
      const problems: string[] = [];
      const own = `/_plugins/_asynchronous_search?index=${OWN}`;
      const leak = new RegExp(HIDDEN);
      for (const body of [{ query: { term: { hid: HIDDEN } } }, { aggs: { a: { terms: { field: 'hid' } } } }, { sort: [{ hid: 'asc' }] }, { _source: ['hid'] }, { docvalue_fields: ['hid'] },
        { fields: ['hid', '*'] }, { highlight: { fields: { hid: {} } }, query: { query_string: { query: HIDDEN } } }, { script_fields: { s: { script: "doc['hid'].value" } } },
        { runtime_mappings: { r: { type: 'keyword', script: "emit(doc['hid'].value)" } }, fields: ['r'] }, { query: { exists: { field: 'hid' } } }, { collapse: { field: 'hid' } },
        { stored_fields: ['hid'] }, { query: { wildcard: { hid: 'hidden*' } } }]) {
        const r = await probe(problems, ruled, 'POST', own, body, true, leak);
        if (r.status === 200 && (body as { query?: unknown }).query !== undefined && r.json?.response?.hits?.total?.value > 0 && JSON.stringify(body).includes('hid')) problems.push(`${JSON.stringify(body)} matched through hid: ${r.text.slice(0, 200)}`);
      }
      for (const params of ['_source=hid', '_source_includes=hid', 'stored_fields=hid', 'docvalue_fields=hid', 'q=hid:hiddenvalue14', 'sort=hid:asc', `source=${encodeURIComponent(JSON.stringify({ _source: ['hid'] }))}&source_content_type=application/json`]) {
        await probe(problems, ruled, 'POST', `${own}&${params}`, { query: { match_all: {} } }, true, leak);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('asynchronous search under max_size: a submit naming no size answers at most max_size hits, as a search does; a larger size anywhere is refused', async () => {
      const problems: string[] = [];
      const own = `/_plugins/_asynchronous_search?index=${OWN}`;
      // (a submit naming no size answered the engine's default of 10 hits, 6 here, before)
      for (const [path, body] of [[own, {}], [`${own}&keep_on_completion=true`, { query: { match_all: {} } }], [`${own}&from=2`, {}]] as const) {
        const r = await call(gw.url, 'POST', path, { auth: bounded, body });
        if (r.status !== 200 || r.json.response.hits.hits.length > 3) problems.push(`${path} ${JSON.stringify(body)}: ${r.status} ${r.status === 200 ? r.json.response.hits.hits.length + ' hits' : r.text.slice(0, 200)}`);
      }
      for (const [path, body] of [[`${own}&size=4`, {}], [`${own}&size=`, {}], [own, { size: 4 }], [own, { size: '4' }], [own, { aggs: { t: { top_hits: { size: 4 } } } }], [own, { collapse: { field: 'f', inner_hits: { name: 'i', size: 4 } } }], [own, { search_pipeline: 'p' }]] as const) {
        const r = await call(gw.url, 'POST', path, { auth: bounded, body });
        if (r.status < 400) problems.push(`${path} ${JSON.stringify(body)}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      // an index's default search pipeline (the admin's program over its searches) runs for no bounded submit, as for no bounded search
      // (it ran for the submit before: 1 hit of the pipeline's filter where the search answered 3)
      expect((await call(gw.url, 'PUT', '/_search/pipeline/only-x1', { body: { request_processors: [{ filter_query: { query: { term: { f: 'x1' } } } }] } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', `/${OWN}/_settings`, { body: { 'index.search.default_pipeline': 'only-x1' } })).status).to.equal(200);
      try {
        const searched = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: bounded, body: {} });
        const submitted = await call(gw.url, 'POST', own, { auth: bounded, body: {} });
        expect([searched.json?.hits?.hits?.length, submitted.json?.response?.hits?.hits?.length], submitted.text.slice(0, 200)).to.deep.equal([3, 3]);
        const admin = await call(gw.url, 'POST', own, { body: {} });
        expect(admin.json?.response?.hits?.total?.value, 'the admin\'s submit runs the default pipeline').to.equal(1);
      } finally {
        await call(gw.url, 'PUT', `/${OWN}/_settings`, { body: { 'index.search.default_pipeline': null } });
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('transforms, rollups and Learning to Rank: every route is the cluster manager\'s — a tenant\'s preview of its own or another\'s index is refused, however it names it', async () => {
      const problems: string[] = [];
      const transform = (source: string) => ({ transform: { enabled: false, description: 'p', schedule: { interval: { period: 1, unit: 'Minutes', start_time: 1 } }, source_index: source, target_index: `${OWN}-out`, data_selection_query: { match_all: {} }, page_size: 10, groups: [{ terms: { source_field: 'f', target_field: 'f' } }], aggregations: { c: { value_count: { field: 'hid' } } } } });
      for (const source of [OWN, FOREIGN, 'tenant-*', '*', BOTH, '%74enant-b', '<tenant-b>', `${OWN},${FOREIGN}`, '.gateway-credentials']) {
        for (const auth of [tenant, ruled, wide, readOnly]) {
          await probe(problems, auth, 'POST', '/_plugins/_transform/_preview', transform(source));
          await probe(problems, auth, 'POST', `/_plugins/_transform/_preview?index=${OWN}`, transform(source));
          await probe(problems, auth, 'PUT', '/_plugins/_transform/t14', transform(source));
          await probe(problems, auth, 'PUT', '/_plugins/_rollup/jobs/r14', { rollup: { enabled: false, description: 'r', schedule: { interval: { period: 1, unit: 'Minutes', start_time: 1 } }, source_index: source, target_index: `${OWN}-r`, page_size: 10, dimensions: [{ date_histogram: { source_field: 'at', fixed_interval: '1d' } }], metrics: [] } });
        }
      }
      for (const auth of [tenant, ruled, wide, readOnly]) {
        for (const [method, path] of [['GET', '/_plugins/_transform'], ['GET', '/_plugins/_transform/t14'], ['POST', '/_plugins/_transform/t14/_start'], ['GET', '/_plugins/_transform/t14/_explain'], ['DELETE', '/_plugins/_transform/t14'],
          ['GET', '/_plugins/_rollup/jobs/r14'], ['POST', '/_plugins/_rollup/jobs/r14/_start'], ['DELETE', '/_plugins/_rollup/jobs/r14'], ['PUT', '/_ltr'], ['PUT', '/_ltr/mine'], ['GET', '/_ltr'], ['DELETE', '/_ltr'],
          ['PUT', '/_ltr/_featureset/s'], ['POST', '/_ltr/_featureset/s/_addfeatures/f*'], ['POST', '/_ltr/_featureset/s/_createmodel'], ['GET', '/_ltr/_feature'], ['POST', '/_ltr/_clearcache'], ['PUT', '/_ltr/%2Egateway-x']]) {
          await probe(problems, auth, method, path, method === 'PUT' || method === 'POST' ? { featureset: { features: [{ name: 'f', params: [], template: { match: { hid: HIDDEN } } }] } } : undefined);
        }
      }
      // the admin's preview of the tenant's index works, and is the one that may
      const admin = await call(gw.url, 'POST', '/_plugins/_transform/_preview', { body: transform(OWN) });
      expect(admin.status, admin.text).to.equal(200);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('a large body written anew reaches the engine as what was authorized: long strings, multi-byte characters and surrogate pairs at piece boundaries, lone surrogates, escapes (generated)', async () => {
      // text around the 64 K-character chunks the HTTP backend encodes a piece at a time
      const tricky = fc.constantFrom('😀', 'é', '€', '\u{10FFFF}', '\ud800', '\udfff', '"', '\\', '\n', '\u0000', '\u2028', '</script>', 'tenant-b');
      const text = fc.tuple(fc.integer({ min: 65_501, max: 65_545 }), fc.array(tricky, { minLength: 1, maxLength: 12 }), fc.array(tricky, { maxLength: 4 }))
        // dense: wherever a chunk ends, it may end inside a pair or an escape
        .map(([pad, around, tail]) => 'a'.repeat(pad - 65_500) + around.join('').repeat(Math.ceil(4_000 / around.length)) + 'a'.repeat(pad) + tail.join(''));
      await fc.assert(fc.asyncProperty(fc.array(text, { minLength: 17, maxLength: 19 }), fc.boolean(), async (values, escapedAscii) => {
        // a search over 1 M characters (read ahead, re-serialized for the HTTP engine), naming only the tenant's index
        const body = { query: { bool: { should: values.map((v) => ({ term: { f: v } })), minimum_should_match: 0 } }, size: 0 };
        let sent = JSON.stringify(body);
        // the same JSON written otherwise: ASCII escaped as \u00XX, which the gateway's writing drops
        if (escapedAscii) sent = sent.replace(/a{100}/g, (run) => '\\u0061' + run.slice(1));
        expect(sent.length).to.be.greaterThan(1024 * 1024);
        upstream?.clear();
        const r = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: tenant, body: sent });
        expect(r.text).not.to.match(/foreign14/);
        if (!upstream) return;
        const searches = upstream.requests.filter((x) => x.path === `/${OWN}/_search`);
        expect(searches.length, `${r.status} ${r.text.slice(0, 200)}`).to.equal(1);
        // what reached the engine says exactly what the client's body said (no U+FFFD for a cut pair, a lone surrogate kept escaped)
        expect(JSON.parse(searches[0].body)).to.deep.equal(JSON.parse(sent));
        expect(searches[0].body.includes('\ufffd')).to.equal(false);
      }), { numRuns: 8 });
    });

    it('transforms and rollups: a job\'s source or target index is checked as any index is — the gateway\'s system indices are nobody\'s to preview, roll up or write, the admin\'s included', async () => {
      const problems: string[] = [];
      const schedule = { interval: { period: 1, unit: 'Minutes', start_time: 1 } };
      const transform = (source: string, target = 'out14') => ({ transform: { enabled: false, description: 'p', schedule, source_index: source, target_index: target, data_selection_query: { match_all: {} }, page_size: 10, groups: [{ terms: { source_field: 'username', target_field: 'u' } }] } });
      const rollup = (source: string, target = 'out14') => ({ rollup: { enabled: false, description: 'r', schedule, source_index: source, target_index: target, page_size: 10, dimensions: [{ terms: { source_field: 'username' } }], metrics: [] } });
      const refused = async (method: string, path: string, body: unknown) => {
        const r = await call(gw.url, method, path, { body });
        if (r.status !== 403) problems.push(`admin ${method} ${path} ${JSON.stringify(body).slice(0, 160)}: ${r.status} ${r.text.slice(0, 200)}`);
      };
      // (the admin's preview of .gateway-credentials answered its usernames, one bucket each, before)
      for (const system of ['.gateway-credentials', '.gateway-*', '.g*', '.gateway-credentials,', `${OWN},.gateway-credentials`, '<.gateway-{now/d}>', '<.gateway-credentials>']) {
        await refused('POST', '/_plugins/_transform/_preview', transform(system));
        await refused('POST', '/_plugins/_transform/_preview', { transform: { ...transform(OWN).transform, source_index: [system] } });
        await refused('PUT', '/_plugins/_transform/sys14', transform(system));
        await refused('PUT', '/_plugins/_transform/sys14', transform(OWN, system));
        await refused('PUT', '/_plugins/_rollup/jobs/sys14', rollup(system));
        await refused('PUT', '/_plugins/_rollup/jobs/sys14', rollup(OWN, system));
      }
      // a job's lookups are read as a search's are
      await refused('POST', '/_plugins/_transform/_preview', { transform: { ...transform(OWN).transform, data_selection_query: { terms: { f: { index: '.gateway-credentials', id: 'x', path: 'username' } } } } });
      // every index is the visible ones: nothing of the credentials index is previewed
      for (const every of ['*', '_all', '*,-nothing']) {
        const r = await call(gw.url, 'POST', '/_plugins/_transform/_preview', { body: transform(every) });
        if (r.status !== 200 || r.text.includes('"u"')) problems.push(`admin preview of ${every}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('whole answers written by the thin path: a cache hit or a document read answers each credential through its own field rules, with the gateway\'s headers', async () => {
      const problems: string[] = [];
      const search = { query: { match_all: {} }, size: 10 };
      const variants = ['', '?pretty', '?filter_path=hits.hits._source', '?_source=hid', '?_source_includes=hid', '?request_cache=true', '?pretty&filter_path=hits.hits._source.hid'];
      for (const order of [['admin', 'ruled', 'wide'], ['ruled', 'admin', 'wide'], ['wide', 'ruled', 'admin']]) {
        for (const v of variants) {
          for (const who of order) {
            const auth = who === 'admin' ? undefined : who === 'ruled' ? ruled : wide;
            for (let twice = 0; twice < 2; twice++) {
              const path = `/${OWN}/_search${v}`;
              const headers = { origin: ORIGIN, 'x-opaque-id': `op-${who}` };
              const r = await call(gw.url, 'POST', path, { auth, body: search, headers });
              const gets = await call(gw.url, 'GET', `/${OWN}/_doc/a1${v.replace('?request_cache=true', '?realtime=false').replace('?filter_path=hits.hits._source', '?filter_path=_source').replace('hits.hits._source.hid', '_source.hid')}`, { auth, headers });
              for (const [label, a] of [[`search${v}`, r], [`get${v}`, gets]] as const) {
                if (a.status !== 200 && who === 'admin') problems.push(`${who} ${label}: ${a.status} ${a.text.slice(0, 200)}`);
                if (who !== 'admin' && a.text.includes(HIDDEN)) problems.push(`${who} ${label} (${order.join('>')}, ${twice ? 'again' : 'first'}): ${a.text.slice(0, 240)}`);
                if (who === 'admin' && a.status === 200 && !v.includes('filter_path=hits.hits._source&') && !a.text.includes(HIDDEN) && !v.includes('pretty&filter')) problems.push(`admin ${label} lost hid: ${a.text.slice(0, 200)}`);
                if (a.headers['x-elastic-product'] !== 'Elasticsearch') problems.push(`${who} ${label}: no X-Elastic-Product`);
                // the steps before the thin path set theirs before it writes: CORS, the request's id, the opaque id echoed
                if (a.headers['access-control-allow-origin'] !== ORIGIN || !a.headers['x-request-id'] || a.headers['x-opaque-id'] !== `op-${who}`) problems.push(`${who} ${label}: headers ${JSON.stringify(a.headers)}`);
                if (a.status === 200 && !String(a.headers['content-type']).includes('json')) problems.push(`${who} ${label}: content-type ${a.headers['content-type']}`);
                if (v.includes('pretty') && a.status === 200 && !a.text.includes('\n')) problems.push(`${who} ${label}: not pretty`);
              }
            }
          }
        }
      }
      // compatible and versioned media types: the answer is typed or relabelled after the thin path, on a hit too
      for (const [accept, label] of [['application/vnd.elasticsearch+json;compatible-with=7', 'compatible-with=7'], ['application/vnd.elasticsearch+json;compatible-with=8', 'compatible-with=8']]) {
        for (const auth of [undefined, ruled, ruled]) {
          for (const [method, path, body] of [['POST', `/${OWN}/_search`, search], ['GET', `/${OWN}/_doc/a2`, undefined]] as const) {
            const a = await call(gw.url, method, path, { auth, body, headers: { accept: accept, 'content-type': body ? accept : 'application/json' } });
            if (a.status !== 200 || !String(a.headers['content-type']).includes(label)) problems.push(`${label} ${method} ${path}: ${a.status} ${a.headers['content-type']} ${a.text.slice(0, 160)}`);
            if (auth && a.text.includes(HIDDEN)) problems.push(`${label} ${method} ${path}: ${a.text.slice(0, 200)}`);
            if (label.endsWith('7') && a.status === 200 && !a.text.includes('"_type"')) problems.push(`${label} ${method} ${path}: untyped ${a.text.slice(0, 160)}`);
          }
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
}
