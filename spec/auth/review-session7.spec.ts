import { expect } from 'chai';
import fc from 'fast-check';
import net from 'node:net';
import { loadConfig } from '../../lib/config/index.js';
import { createLogger, lineLogger, type DestinationStream } from '../../lib/logging/index.js';
import { BACKENDS } from '../support/backends.js';
import { adminAuth, basic, call, NDJSON } from '../support/http.js';
import { spawnEngine, startTestGateway, tempDir, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

/**
 * Review of session 7's engine APIs (h-rev7): a hostile tenant (a credential scoped to
 * `tenant-a`: every category, `cluster` monitoring included, read/write/delete, raw DSL) asks the
 * new and changed APIs — index stats per field (`fields`, `fielddata_fields`, `completion_fields`),
 * search groups (`groups=`, a search's `stats`), the translog section, `forbid_closed_indices`,
 * `include_unloaded_segments`, `_cat/fielddata`, `_cat/indices?health=`, nodes and cluster stats,
 * `_termvectors` of an artificial document, `_validate/query` explanations — for what another
 * tenant (`tenant-b`) holds: its field names (all named `bsecret…`), their sizes, its search
 * group names (`bsecretgroup`), its documents (`foreignmark7`). Through encodings, smuggled
 * index-naming parameters, `_all`, wildcards, `expand_wildcards`, system indices. Both backends.
 *
 * Each case states the property; a case that held stays as a guard.
 *
 * Findings (both backends):
 * 1. `_cat/fielddata` — a `cluster` monitoring read for any scoped credential — lists every loaded
 *    field of every index by name with its size (c7f4373 made it list the loaded fields; before,
 *    every text field mapped with `fielddata: true`, at 0b): another tenant's field names, and
 *    from their sizes how many distinct values they hold. Elasticsearch's `_cat/fielddata` has no
 *    index column, nothing narrows it. Nodes stats with `fields`/`fielddata_fields`/
 *    `completion_fields`/`groups` name every index's fields and search groups on Elasticsearch
 *    (the embedded engine reports node totals only; forwarded as is to a real cluster). Fixed:
 *    both need `manage`, as `level=indices` already did.
 * 2. A credential with field rules reads a hidden field's name and field-data size from index stats
 *    (`fields=*`, `fielddata_fields=hid`, 6931e3e) and `_cat/fielddata`: its mapping reads leave the
 *    field out. Fixed: the fields those routes list are checked as `_field_caps`' are.
 * 3. A search's `stats` group names (db016b8) were kept per index without bound: any tenant that
 *    may search its own index grew the engine's heap at will (5 searches naming 200,000 new
 *    groups each: +172 MB kept) and made `_stats?groups=*` fail (RangeError: Invalid string
 *    length, a 500 for the admin's too). Fixed: an index keeps the first 1,000 groups.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const SECRET = 'bsecret';
const MARK = 'foreignmark7';
const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster'];
const e = encodeURIComponent;

interface Probe { m: string; p: string; body?: unknown; nd?: boolean }

/** Requests that name the tenant's own index, `_all`, wildcards or nothing: their answers must not name another tenant's fields, groups or data. */
const OWN_OR_ALL: Probe[] = [
  { m: 'GET', p: '/_cat/fielddata?format=json' },
  { m: 'GET', p: '/_cat/fielddata?v' },
  { m: 'GET', p: `/_cat/fielddata/${SECRET}*?format=json` },
  { m: 'GET', p: '/_cat/fielddata?fields=*&format=json' },
  { m: 'GET', p: '/_nodes/stats?fields=*' },
  { m: 'GET', p: '/_nodes/stats/indices/fielddata?fielddata_fields=*' },
  { m: 'GET', p: '/_nodes/stats/indices/completion?completion_fields=*' },
  { m: 'GET', p: '/_nodes/stats/indices/search?groups=*' },
  { m: 'GET', p: '/_nodes/_local/stats/indices?fields=*&groups=*' },
  { m: 'GET', p: '/_cluster/stats' },
  { m: 'GET', p: '/_stats?fields=*&groups=*' },
  { m: 'GET', p: '/_stats/fielddata,completion,search,translog,segments?fields=*&groups=*&forbid_closed_indices=false&include_unloaded_segments=true' },
  { m: 'GET', p: '/_stats?level=shards&fielddata_fields=*&completion_fields=*' },
  { m: 'GET', p: '/_all/_stats?fields=*&groups=*' },
  { m: 'GET', p: '/*/_stats?fields=*&groups=*&expand_wildcards=all' },
  { m: 'GET', p: '/tenant-*/_stats?fields=*&groups=*&expand_wildcards=all,hidden' },
  { m: 'GET', p: `/${OWN}/_stats?fields=*&groups=*` },
  { m: 'GET', p: `/${OWN}/_stats?fields=*&groups=*&index=${FOREIGN}` },
  { m: 'GET', p: `/${OWN}/_stats/search?groups=${SECRET}*` },
  { m: 'GET', p: '/_cat/indices?health=green&format=json' },
  { m: 'GET', p: '/_cat/indices?health=GREEN&format=json&expand_wildcards=all' },
  { m: 'GET', p: '/_cat/indices?health=yellow&format=json&h=index,docs.count' },
  { m: 'GET', p: '/_cat/indices?health=zzz' },
  { m: 'GET', p: '/_cat/nodes?format=json&h=*' },
  { m: 'GET', p: '/_cat/segments?format=json' },
  { m: 'GET', p: '/_cat/shards?format=json' },
  { m: 'GET', p: '/_cluster/state?filter_path=metadata.indices.tenant-b' },
  { m: 'POST', p: `/${OWN}/_termvectors`, body: { doc: { [`${SECRET}txt`]: MARK, f: MARK }, term_statistics: true, field_statistics: true } },
  { m: 'POST', p: `/${OWN}/_termvectors?routing=x&preference=_local`, body: { doc: { [`${SECRET}txt`]: `${MARK} the` }, term_statistics: true, field_statistics: true, per_field_analyzer: { [`${SECRET}txt`]: 'standard' } } },
  { m: 'POST', p: `/${OWN}/_termvectors?fields=*`, body: { doc: { f: 'own words' }, term_statistics: true, field_statistics: true } },
  { m: 'POST', p: `/${OWN}/_mtermvectors`, body: { docs: [{ doc: { [`${SECRET}txt`]: MARK }, term_statistics: true }] } },
  { m: 'POST', p: '/_mtermvectors', body: { docs: [{ _index: OWN, doc: { f: MARK }, term_statistics: true }] } },
  { m: 'POST', p: '/_mtermvectors', body: { docs: [{ doc: { [`${SECRET}txt`]: 'words' }, term_statistics: true, field_statistics: true }] } },
  { m: 'POST', p: '/_mtermvectors?term_statistics=true', body: { ids: ['1'] } },
  { m: 'POST', p: `/${OWN}/_validate/query?explain=true`, body: { query: { [`${SECRET}query`]: {} } } },
  { m: 'POST', p: '/_validate/query?explain=true&all_shards=true', body: { query: { match: { [`${SECRET}txt`]: MARK } } } },
  { m: 'POST', p: `/${OWN}/_validate/query?rewrite=true`, body: { query: { match: { [`${SECRET}txt`]: MARK } } } },
  { m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { r: { terms: { field: `${SECRET}range` } } } } },
  { m: 'POST', p: `/${OWN}/_search`, body: { query: { match_allx: {} } } },
];

/** Requests naming another tenant's index (spelled many ways, or smuggled): refused, nothing foreign shown. */
const FOREIGN_NAMED: Array<(n: string) => Probe> = [
  (n) => ({ m: 'GET', p: `/${e(n)}/_stats?fields=*&groups=*` }),
  (n) => ({ m: 'GET', p: `/${OWN},${e(n)}/_stats/fielddata?fielddata_fields=*&forbid_closed_indices=false` }),
  (n) => ({ m: 'GET', p: `/${OWN}%2C${e(n)}/_stats?completion_fields=*` }),
  (n) => ({ m: 'GET', p: `/_cat/indices/${e(n)}?health=green&format=json` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_termvectors`, body: { doc: { [`${SECRET}txt`]: MARK }, term_statistics: true, field_statistics: true } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_termvectors?index=${e(n)}`, body: { doc: { [`${SECRET}txt`]: MARK }, term_statistics: true } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_termvectors`, body: { _index: n, doc: { [`${SECRET}txt`]: MARK }, term_statistics: true } }),
  (n) => ({ m: 'POST', p: '/_mtermvectors', body: { docs: [{ _index: n, doc: { [`${SECRET}txt`]: MARK }, term_statistics: true, field_statistics: true }] } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_mtermvectors`, body: { docs: [{ _index: n, doc: { [`${SECRET}txt`]: MARK }, term_statistics: true }] } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_mtermvectors?index=${e(n)}`, body: { docs: [{ doc: { [`${SECRET}txt`]: MARK } }] } }),
  (n) => ({ m: 'POST', p: `/_mtermvectors?index=${e(n)}&term_statistics=true`, body: { docs: [{ doc: { [`${SECRET}txt`]: 'words' } }] } }),
  (n) => ({ m: 'POST', p: `/_mtermvectors?index=${e(n)}&ids=1&term_statistics=true` }),
  (n) => ({ m: 'GET', p: `/${e(n)}/_termvectors/1?term_statistics=true&fields=*` }),
  (n) => ({ m: 'POST', p: `/${OWN}/_termvectors/1?routing=${e(n)}&preference=${e(n)}`, body: { doc: { f: 'words' } } }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_validate/query?explain=true`, body: { query: { match: { [`${SECRET}txt`]: MARK } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_validate/query?explain=true&index=${e(n)}`, body: { query: { match_all: {} } } }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_search`, body: { size: 0, stats: ['probe'], aggs: { r: { terms: { field: `${SECRET}range` } } } } }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_cache/clear?fielddata=true` }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { query: { terms: { f: { index: n, id: '1', path: `${SECRET}txt` } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_validate/query?rewrite=true&all_shards=true`, body: { query: { bool: { must: [{ terms: { f: { index: n, id: '1', path: `${SECRET}kw` } } }] } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_validate/query?explain=true`, body: { query: { more_like_this: { fields: ['f'], like: [{ _index: n, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_count`, body: { query: { terms: { f: { index: n, id: '1', path: `${SECRET}kw` } } } } }),
];

/** Spellings of `tenant-b` and of everything. */
const FOREIGN_SPELLINGS = [FOREIGN, 'TENANT-B', 'tenant-\u0431', 'tenant-b\u200b', ' tenant-b', 'tenant-b*', '*', '_all', '.gateway-*', '.gateway-credentials', '<tenant-b>', 'tenant-%62', '-tenant-a', 'remote:tenant-b', `${OWN}/../${FOREIGN}`];

for (const backend of BACKENDS) {
  describe(`review session 7: new stats, fielddata, termvectors and validate APIs against a hostile tenant (${backend.name})`, function () {
    this.timeout(300_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;
    let hidden: string;

    const send = (p: Probe, auth?: string) =>
      call(gw.url, p.m, p.p, { ...(auth ? { auth } : {}), ...(p.body === undefined ? {} : { body: p.body }), ...(p.nd ? { headers: NDJSON } : {}) });

    /** What of another tenant an answer shows that the request did not say itself. */
    const shows = (text: string, p: Probe): string[] => {
      const said = `${decodeURIComponent(p.p)} ${JSON.stringify(p.body ?? '')}`;
      return [`${SECRET}kw`, `${SECRET}txt`, `${SECRET}sug`, `${SECRET}range`, `${SECRET}group`, `${SECRET}query`, MARK].filter((s) => text.includes(s) && !said.includes(s));
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const mapping = {
        mappings: {
          properties: {
            [`${SECRET}kw`]: { type: 'keyword' },
            [`${SECRET}txt`]: { type: 'text', fielddata: true },
            [`${SECRET}sug`]: { type: 'completion' },
            [`${SECRET}range`]: { type: 'integer_range' },
          },
        },
      };
      expect((await call(gw.url, 'PUT', `/${FOREIGN}`, { body: mapping })).status).to.equal(200);
      const own = { mappings: { properties: { f: { type: 'text', fielddata: true }, k: { type: 'keyword' }, s: { type: 'completion' }, hid: { type: 'keyword' } } } };
      expect((await call(gw.url, 'PUT', `/${OWN}`, { body: own })).status).to.equal(200);
      const bulk = [
        { index: { _index: OWN, _id: 'a1' } }, { f: 'own words', k: 'x', s: 'own', hid: 'hiddenvalue' },
        { index: { _index: FOREIGN, _id: '1' } }, { [`${SECRET}kw`]: MARK, [`${SECRET}txt`]: `${MARK} words`, [`${SECRET}sug`]: MARK, [`${SECRET}range`]: { gte: 1, lte: 3 } },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n';
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: NDJSON })).status).to.equal(200);
      // the admin loads tenant-b's field data and names a search group there
      const loaded = await call(gw.url, 'POST', `/${FOREIGN}/_search`, {
        body: { stats: [`${SECRET}group`], size: 0, aggs: { a: { terms: { field: `${SECRET}kw` } }, b: { terms: { field: `${SECRET}txt` } } }, sort: [{ [`${SECRET}kw`]: 'asc' }] },
      });
      expect(loaded.status, loaded.text).to.equal(200);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
      const ruled = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: CATEGORIES, ops: ['read'], allow_raw_dsl: true, exclude_fields: ['hid'] } });
      expect(ruled.status, ruled.text).to.equal(201);
      hidden = basic(ruled.json.credential.username, ruled.json.password);
      // the own index's field data loaded too, the hidden field's included
      expect((await call(gw.url, 'POST', `/${OWN}/_search`, { body: { stats: ['owngroup'], size: 0, aggs: { a: { terms: { field: 'f' } }, b: { terms: { field: 'hid' } } } } })).status).to.equal(200);
    });
    after(() => stop?.());

    it('held: the admin sees tenant-b\'s field data, completion sizes and search group (so the probes below can tell a leak)', async () => {
      const stats = await call(gw.url, 'GET', `/${FOREIGN}/_stats?fields=*&groups=*`);
      expect(stats.text).to.include(`${SECRET}kw`).and.include(`${SECRET}sug`).and.include(`${SECRET}group`);
      const cat = await call(gw.url, 'GET', '/_cat/fielddata?format=json');
      expect(cat.text).to.include(`${SECRET}kw`);
    });

    it('was 1: asking over the own index, `_all`, wildcards or nothing shows nothing of another tenant (field names, sizes, groups, values) and never 5xx', async () => {
      const problems: string[] = [];
      for (const p of OWN_OR_ALL) {
        const r = await send(p, tenant);
        const where = `${p.m} ${p.p}`;
        if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
        const leaked = shows(r.text, p);
        if (leaked.length) problems.push(`${where}: ${r.status} shows ${leaked.join(', ')}: ${r.text.slice(0, 300)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('held: naming another tenant\'s index in any spelling or place shows nothing of it, and never 5xx (generated)', async () => {
      const problems: string[] = [];
      await fc.assert(fc.asyncProperty(fc.constantFrom(...FOREIGN_SPELLINGS), fc.nat(FOREIGN_NAMED.length - 1), async (n, slot) => {
        const p = FOREIGN_NAMED[slot](n);
        const r = await send(p, tenant);
        const where = `${p.m} ${p.p} ${JSON.stringify(p.body ?? '').slice(0, 120)}`;
        if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
        const leaked = shows(r.text, p);
        if (leaked.length) problems.push(`${where}: ${r.status} shows ${leaked.join(', ')}: ${r.text.slice(0, 300)}`);
      }), { numRuns: Number(process.env.FAST_CHECK_RUNS ?? 150), seed: 7707 });
      expect(problems.slice(0, 20), problems.slice(0, 20).join('\n')).to.deep.equal([]);
    });

    it('held: an artificial document analysed in the own index counts terms of the own index only (another index holding the term counts nothing)', async () => {
      for (const field of [`${SECRET}txt`, 'f']) {
        const r = await send({ m: 'POST', p: `/${OWN}/_termvectors`, body: { doc: { [field]: `${MARK} words` }, term_statistics: true, field_statistics: true } }, tenant);
        expect(r.status, r.text).to.equal(200);
        const terms = r.json.term_vectors?.[field]?.terms ?? {};
        // tenant-b holds `foreignmark7` once; tenant-a never
        expect(terms[MARK]?.doc_freq ?? 0, r.text).to.equal(0);
        if (field === 'f') expect(terms.words.doc_freq, r.text).to.equal(1);
      }
    });

    it('was 1: `_cat/fielddata`, and nodes stats broken down by field or search group, list every index\'s fields: a scoped credential needs `manage` for them', async () => {
      const problems: string[] = [];
      for (const p of ['/_cat/fielddata', '/_cat/fielddata/f', '/_cat/fielddata?fields=f', '/_nodes/stats?fields=*', '/_nodes/stats/indices/fielddata?fielddata_fields=f', '/_nodes/stats/indices?completion_fields=*', '/_nodes/stats/indices/search?groups=*', '/_nodes/_local/stats?level=indices']) {
        const r = await send({ m: 'GET', p }, tenant);
        if (r.status !== 403) problems.push(`${p}: ${r.status} ${r.text.slice(0, 200)}`);
        else expect(r.json.error.reason, p).to.include('manage');
      }
      // without a breakdown, the node's totals stay a monitoring read
      for (const p of ['/_nodes/stats', '/_nodes/stats/indices/fielddata', '/_cat/nodes?format=json']) {
        const r = await send({ m: 'GET', p }, tenant);
        if (r.status !== 200) problems.push(`${p}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      const managing = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['cluster'], ops: ['read'], cluster_privileges: ['manage'] } });
      expect(managing.status, managing.text).to.equal(201);
      const manager = basic(managing.json.credential.username, managing.json.password);
      for (const p of ['/_cat/fielddata?format=json', '/_nodes/stats/indices/fielddata?fields=*']) {
        const r = await send({ m: 'GET', p }, manager);
        if (r.status !== 200) problems.push(`manage: ${p}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('was 3: search groups a tenant names are kept up to a bound per index, the first ones still counting (named without bound, they grew the engine\'s heap and broke `groups=*`)', async () => {
      const names = (round: number) => Array.from({ length: 1_500 }, (_, i) => `g${round}-${i}`);
      for (const round of [0, 1]) {
        const r = await send({ m: 'POST', p: `/${OWN}/_search`, body: { size: 1, stats: names(round) } }, tenant);
        expect(r.status, r.text.slice(0, 200)).to.equal(200);
      }
      const r = await send({ m: 'GET', p: `/${OWN}/_stats/search?groups=g*` }, tenant);
      expect(r.status, r.text.slice(0, 200)).to.equal(200);
      const groups = r.json.indices[OWN].primaries.search.groups as Record<string, { query_total: number; fetch_total: number }>;
      expect(Object.keys(groups)).to.have.length.at.most(1_000);
      expect(groups['g0-0']).to.include({ query_total: 1, fetch_total: 1 });
      expect(groups).not.to.have.property('g1-0');
      // a group kept goes on counting, whatever else the search names
      expect((await send({ m: 'POST', p: `/${OWN}/_search`, body: { size: 1, stats: ['g0-0', 'g9-0'] } }, tenant)).status).to.equal(200);
      const again = await send({ m: 'GET', p: `/${OWN}/_stats/search?groups=g0-0,g9-0` }, tenant);
      const kept = again.json.indices[OWN].primaries.search.groups;
      expect(Object.keys(kept)).to.deep.equal(['g0-0']);
      expect(kept['g0-0']).to.include({ query_total: 2, fetch_total: 2 });
    });

    it('held: a cached search answer or a cached credential is not served once the credential is narrowed or revoked (ttlResolution 0 change)', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN, FOREIGN], categories: ['search'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      const username = made.json.credential.username as string;
      const both = basic(username, made.json.password);
      const search = { m: 'POST', p: `/${FOREIGN}/_search`, body: { query: { match_all: {} } } };
      for (let i = 0; i < 3; i++) expect((await send(search, both)).text).to.include(MARK); // a miss, then hits
      const patched = await call(gw.url, 'PATCH', `/_credentials/${username}`, { body: { indices: [OWN] } });
      expect(patched.status, patched.text).to.equal(200);
      const narrowed = await send(search, both);
      expect(narrowed.status, narrowed.text).to.equal(403);
      expect(narrowed.text).not.to.include(MARK);
      expect((await send({ m: 'POST', p: `/${OWN}/_search`, body: {} }, both)).status).to.equal(200);
      expect((await call(gw.url, 'DELETE', `/_credentials/${username}`)).status).to.equal(200);
      for (const p of [search, { m: 'POST', p: `/${OWN}/_search`, body: {} }]) {
        const r = await send(p, both);
        expect(r.status, r.text).to.equal(401);
      }
    });

    it('was 2: a credential whose field rules hide `hid` learns neither its name nor its sizes from stats or _cat/fielddata, and term vectors are refused', async () => {
      const problems: string[] = [];
      const probes: Probe[] = [
        { m: 'GET', p: `/${OWN}/_stats?fields=*` },
        { m: 'GET', p: `/${OWN}/_stats/fielddata?fielddata_fields=h*` },
        { m: 'GET', p: `/${OWN}/_stats?fielddata_fields=hid` },
        { m: 'GET', p: '/_stats?fields=*' },
        { m: 'GET', p: '/_cat/fielddata?format=json' },
        { m: 'GET', p: '/_cat/fielddata/hid?format=json' },
        { m: 'GET', p: '/_nodes/stats/indices/fielddata?fields=*' },
      ];
      for (const p of probes) {
        const r = await send(p, hidden);
        if (r.status >= 500) problems.push(`${p.m} ${p.p}: ${r.status}`);
        if (r.status < 300 && /"hid"|\bhid\b/.test(r.text)) problems.push(`${p.m} ${p.p}: ${r.status} names the hidden field: ${r.text.slice(0, 300)}`);
      }
      // with `manage` too (so `_cat/fielddata` and per-field nodes stats are open to it), the hidden field stays unnamed
      const managing = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['indices', 'cluster'], ops: ['read'], cluster_privileges: ['manage'], exclude_fields: ['hid'] } });
      expect(managing.status, managing.text).to.equal(201);
      const manager = basic(managing.json.credential.username, managing.json.password);
      for (const [p, status] of [['/_cat/fielddata', 403], ['/_cat/fielddata/hid', 403], ['/_cat/fielddata/h*', 403], ['/_nodes/stats?fields=*', 403], ['/_cat/fielddata/f?format=json', 200], ['/_cat/fielddata?fields=f&format=json', 200], ['/_nodes/stats?fielddata_fields=f', 200]] as const) {
        const r = await send({ m: 'GET', p }, manager);
        if (r.status !== status) problems.push(`manage: ${p}: ${r.status}, not ${status}: ${r.text.slice(0, 200)}`);
        if (r.status < 300 && /\bhid\b/.test(r.text)) problems.push(`manage: ${p}: names the hidden field`);
      }
      // a visible field's figures stay readable
      for (const p of [`/${OWN}/_stats/fielddata?fielddata_fields=f`, `/${OWN}/_stats?fields=f,k`]) {
        const r = await send({ m: 'GET', p }, hidden);
        if (r.status !== 200 || !r.text.includes('"f"')) problems.push(`${p}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      for (const body of [{ doc: { hid: 'hiddenvalue' }, term_statistics: true }, { doc: { f: 'x' }, fields: ['*'], term_statistics: true }]) {
        const r = await send({ m: 'POST', p: `/${OWN}/_termvectors`, body }, hidden);
        if (r.status !== 403) problems.push(`_termvectors ${JSON.stringify(body)}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
}

/** A log destination that keeps every line, parsed. */
class CapturedLog implements DestinationStream {
  readonly lines: Array<Record<string, unknown>> = [];
  write(line: string): void {
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  accessOf(requestId: string): Array<Record<string, unknown>> {
    return this.lines.filter((l) => l.log === 'access' && l.request_id === requestId);
  }
}

/** The next response the gateway closes (its access line and request record are made on that close). */
function nextResponseClosed(gw: TestGateway): Promise<void> {
  return new Promise((resolve) => gw.server.once('request', (_req, res) => res.once('close', () => resolve())));
}

/** The embedded engine, and the HTTP backend in front of a standalone engine of its own: each with its log captured. */
const LOGGED_BACKENDS: Array<{ name: string; start(log: CapturedLog): Promise<{ gw: TestGateway; stop(): Promise<void> }> }> = [
  {
    name: 'embedded engine',
    async start(log) {
      const logger = createLogger({ level: loadConfig({}).logLevel, destination: log });
      const gw = await startTestGateway({}, { logger, log: lineLogger(logger) });
      return { gw, stop: () => gw.close() };
    },
  },
  {
    name: 'HTTP backend (standalone engine)',
    async start(log) {
      const data = await tempDir('gw-engine-');
      const engine = await spawnEngine(data.dir, { ENGINE_AUTH: 'elastic:upstream-secret' });
      const url = new URL(engine.url);
      url.username = 'elastic';
      url.password = 'upstream-secret';
      const logger = createLogger({ level: loadConfig({}).logLevel, destination: log });
      const gw = await startTestGateway({ ENGINE_URL: url.href }, { logger, log: lineLogger(logger) });
      return {
        gw,
        async stop() {
          await gw.close();
          engine.proc.kill('SIGKILL');
          await data.remove();
        },
      };
    },
  },
];

for (const backend of LOGGED_BACKENDS) {
  describe(`review session 7: every request has its access line and request record after the on-finished change (${backend.name})`, function () {
    this.timeout(120_000);
    const log = new CapturedLog();
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;
    before(async () => {
      ({ gw, stop } = await backend.start(log));
      expect((await call(gw.url, 'PUT', `/${FOREIGN}/_doc/1?refresh=true`, { body: { f: MARK } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', `/${OWN}/_doc/1?refresh=true`, { body: { f: 'own' } })).status).to.equal(201);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: CATEGORIES, ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    it('held: a 403, 401, 404 and 400 each write one access line, and (but the 401, never classified) one request record', async () => {
      const cases: Array<{ p: string; auth?: string | null; status: number }> = [
        { p: `/${FOREIGN}/_search`, auth: undefined, status: 403 },
        { p: `/${OWN}/_search`, auth: null, status: 401 },
        { p: `/${OWN}/_doc/missing7`, status: 404 },
        { p: '/_cat/indices?health=zzz', status: 400 },
      ];
      for (const c of cases) {
        const id = `rev7-${c.status}`;
        const closed = nextResponseClosed(gw);
        const r = await call(gw.url, 'GET', c.p, { headers: { 'x-request-id': id }, ...(c.auth === undefined && c.status === 403 ? { auth: tenant } : c.auth === null ? { auth: null } : {}) });
        await closed;
        expect(r.status, `${c.p}: ${r.text}`).to.equal(c.status);
        const lines = log.accessOf(id);
        expect(lines, `${c.p}`).to.have.length(1);
        expect(lines[0]).to.include({ status: c.status, method: 'GET' });
        expect(lines[0]).not.to.have.property('aborted');
      }
      await within(15_000, async () => {
        const logs = (await call(gw.url, 'GET', '/_logs?size=1000')).json.logs as Array<{ path: string; status: number }>;
        // a 401 is refused before it is classified: no record (docs/analytics-and-logs.md), its access line only
        return cases.every((c) => c.status === 401 || logs.some((l) => l.path === c.p.split('?')[0] && l.status === c.status));
      });
    });

    it('held: a client that goes away while its live search streams has its request logged as aborted, access line and record', async () => {
      const id = 'rev7-stream-aborted';
      const closed = nextResponseClosed(gw);
      const socket = net.connect(gw.port, '127.0.0.1');
      socket.on('error', () => {});
      const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.write(`GET /${OWN}/_search?stream=true HTTP/1.1\r\nHost: x\r\nAuthorization: ${tenant}\r\nX-Request-Id: ${id}\r\n\r\n`);
      await firstBytes;
      socket.destroy();
      await closed;
      const lines = log.accessOf(id);
      expect(lines, JSON.stringify(log.lines.slice(-3))).to.have.length(1);
      expect(lines[0]).to.include({ aborted: true, method: 'GET', path: `/${OWN}/_search`, status: 200 });
      await within(15_000, async () => {
        const logs = (await call(gw.url, 'GET', '/_logs?size=1000')).json.logs as Array<{ path: string; querystring: string }>;
        return logs.some((l) => l.path === `/${OWN}/_search` && l.querystring === 'stream=true');
      });
    });

    it('held: a client that goes away before its body is read has its access line, marked aborted (no record: never classified)', async () => {
      const id = 'rev7-aborted';
      const closed = nextResponseClosed(gw);
      const socket = net.connect(gw.port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const started = new Promise<void>((resolve) => gw.server.once('request', () => resolve()));
      socket.write(`POST /${OWN}/_search HTTP/1.1\r\nHost: x\r\nAuthorization: ${adminAuth()}\r\nContent-Type: application/json\r\nX-Request-Id: ${id}\r\nContent-Length: 1000\r\n\r\n{"query":`);
      await started;
      socket.destroy();
      await closed;
      const lines = log.accessOf(id);
      expect(lines, JSON.stringify(log.lines.slice(-3))).to.have.length(1);
      expect(lines[0]).to.include({ aborted: true, method: 'POST', path: `/${OWN}/_search` });
    });
  });
}
