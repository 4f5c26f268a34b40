import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { basic, call, NDJSON } from '../support/http.js';
import { leaksIn, startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { ES_API, type EsApi } from '../../lib/request/es-api.js';
import { answersTable } from '../../lib/request/index.js';

/**
 * Review of session 8's routes (h-rev8): hostile tenants — a credential scoped to `tenant-a*`
 * (every category, `cluster` monitoring included, read/write/delete, raw DSL, no `manage`), the
 * same with field rules hiding `hid`, one with `manage`, and an app's credential — ask the new and
 * changed routes for what another tenant (`tenant-b`, its alias `tenant-b-alias`, the gateway's
 * `.gateway-*` indices) holds: OpenSearch's `_list` APIs, nodes usage, hot threads, allocation
 * explain, dangling indices, the put-alias forms whose body names the index or alias, `_cache/clear`'s
 * `file`, `_open`'s task, terms lookups in `post_filter` and aggregations, nested `inner_hits`,
 * `_doc_count`, rollover's name checks and `/_gateway/metrics`. Through names, wildcards, `_all`,
 * comma lists, encoded separators, date math, smuggled and duplicated parameters, body keys. Both backends.
 *
 * Each case states the property; a case that held stays as a guard.
 *
 * Findings (both backends unless said):
 * 1. A credential with field rules got 500 ("the mappings answer could not be read") from `GET
 *    /_list`, `/_list?help` and `/_cat/cluster_manager`: authorized as `cluster:monitor/state`, their
 *    text answer was parsed as a mappings answer to narrow (only `cat.*` route ids were let by).
 *    Fixed: no `_cat` or `_list` table (read from the table's paths) is a mappings answer.
 * 2. A credential with `search` only (an index's reader) read OpenSearch's `_list/shards` — node
 *    names and addresses, which `_cat/shards` keeps for `indices`. Fixed: of the tables, a reader
 *    holds `_cat/indices`, `_cat/count` and `_list/indices`.
 * 3. `POST /_cache/clear` was the gateway's cache API (category `cache`, no index) passed on whole:
 *    on the HTTP backend a tenant cleared every index's caches, another tenant's included (and
 *    `?index=` was ignored by the engine, which cleared every index). Fixed: it is Elasticsearch's
 *    `indices.clear_cache`, every index (refused to a scoped credential, as `_forcemerge`), and the
 *    engine reads `index=`.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const FOREIGN_ALIAS = 'tenant-b-alias';
const SECRET = 'bsecret';
const MARK = 'foreignmark8';
const HIDDEN_VALUE = 'hiddenvalue8';
const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster'];
const e = encodeURIComponent;

interface Probe {
  m: string;
  p: string;
  body?: unknown;
  nd?: boolean;
  /** It may answer 200 even when `n` is another tenant's name: what it names is not what it reads (a page token; a JSON body whose last duplicate key, the one read, is the tenant's own; a parameter given twice, whose last value is). */
  answers?: true;
}

/** Spellings of another tenant's index, of everything, and of the gateway's own indices. */
const FOREIGN_SPELLINGS = [
  FOREIGN, FOREIGN_ALIAS, 'TENANT-B', 'tenant-b*', 'tenant-*', '*', '_all', '.gateway-*', '.gateway-credentials', '<tenant-b>', '<tenant-b-{now/d}>',
  `${OWN},${FOREIGN}`, `${OWN}%2C${FOREIGN}`, `${OWN}%252C${FOREIGN}`, 'tenant-%62', ' tenant-b', 'tenant-b\u200b', '-tenant-a', 'remote:tenant-b', `${OWN}/../${FOREIGN}`,
];

/** Spellings that name another tenant's index (or the gateway's) and nothing else: refused wherever they stand. */
const NAMING_FOREIGN = new Set([FOREIGN, FOREIGN_ALIAS, '.gateway-credentials', '<tenant-b>', `${OWN},${FOREIGN}`]);

/** A page token of `_list` naming an index (base64 of creation time and name, as the engine writes it). */
const token = (name: string, extra = '') => Buffer.from(`0${extra}|${name}`).toString('base64');

/** Requests that name the tenant's own index, `_all`, wildcards or nothing: their answers show nothing of another tenant. */
const OWN_OR_ALL: Probe[] = [
  { m: 'GET', p: '/_list' },
  { m: 'GET', p: '/_list?help' },
  { m: 'GET', p: '/_list/indices' },
  { m: 'GET', p: '/_list/indices?format=json' },
  { m: 'GET', p: '/_list/indices?format=json&h=*&expand_wildcards=all' },
  { m: 'GET', p: '/_list/indices?format=json&size=1&sort=desc' },
  { m: 'GET', p: '/_list/indices/*?format=json&expand_wildcards=all,hidden' },
  { m: 'GET', p: '/_list/indices/_all?format=json' },
  { m: 'GET', p: '/_list/indices/tenant-*?v&h=index,docs.count,store.size' },
  { m: 'GET', p: `/_list/indices/${OWN}?format=json&next_token=${token(FOREIGN)}` },
  { m: 'GET', p: `/_list/indices?format=json&size=1&next_token=${token('.gateway-credentials')}` },
  { m: 'GET', p: '/_list/indices?format=json&health=green' },
  { m: 'GET', p: '/_list/indices?format=json&health=yellow&pri' },
  { m: 'GET', p: '/_list/shards' },
  { m: 'GET', p: '/_list/shards?format=json&h=*' },
  { m: 'GET', p: '/_list/shards/*?format=json&expand_wildcards=all' },
  { m: 'GET', p: '/_list/shards/_all?format=json&size=1' },
  { m: 'GET', p: `/_list/shards?format=json&size=1&next_token=${token(FOREIGN, '|0')}` },
  { m: 'GET', p: '/_nodes/usage' },
  { m: 'GET', p: '/_nodes/usage/_all' },
  { m: 'GET', p: '/_nodes/_local/usage/rest_actions,aggregations' },
  { m: 'GET', p: '/_nodes/_all/usage?timeout=1s' },
  { m: 'GET', p: '/_nodes/hot_threads' },
  { m: 'GET', p: '/_nodes/hot_threads?threads=9999&ignore_idle_threads=false&type=wait&snapshots=1' },
  { m: 'GET', p: '/_nodes/_local/hot_threads?interval=1ms' },
  { m: 'GET', p: '/_cluster/health?level=awareness_attributes&awareness_attribute=zone' },
  { m: 'GET', p: '/_cluster/health?level=indices&awareness_attribute=zone' },
  { m: 'POST', p: '/_cache/clear?file=true' },
  { m: 'POST', p: '/_cache/clear?file=true&fielddata=true&fields=*' },
  { m: 'POST', p: `/${OWN}/_cache/clear?file=true` },
  { m: 'POST', p: `/${OWN}/_forcemerge?primary_only=true` },
  { m: 'POST', p: '/_forcemerge?primary_only=true' },
  { m: 'POST', p: '/*/_forcemerge?primary_only=true&expand_wildcards=all' },
  { m: 'GET', p: '/_gateway/metrics' },
];

/** Requests naming another tenant's index `n` (in the path, in a parameter, in the body): refused, nothing foreign shown. */
const FOREIGN_NAMED: Array<(n: string) => Probe> = [
  (n) => ({ m: 'GET', p: `/_list/indices/${e(n)}?format=json` }),
  (n) => ({ m: 'GET', p: `/_list/indices/${n}?format=json&expand_wildcards=all` }),
  (n) => ({ m: 'GET', p: `/_list/indices?format=json&index=${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_list/shards/${e(n)}?format=json` }),
  (n) => ({ m: 'GET', p: `/_list/shards/${OWN}?format=json&index=${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_list/indices/${OWN}?format=json&next_token=${token(n)}&next_token=${token(n)}`, answers: true }),
  (n) => ({ m: 'GET', p: `/_list/shards/${OWN}?format=json&size=1&next_token=${token(n, '|0')}`, answers: true }),
  (n) => ({ m: 'GET', p: `/_cluster/health/${e(n)}?level=awareness_attributes&awareness_attribute=zone` }),
  (n) => ({ m: 'GET', p: `/_cluster/health/${e(n)}?level=shards` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_cache/clear?file=true` }),
  (n) => ({ m: 'POST', p: `/_cache/clear?file=true&index=${e(n)}` }),
  (n) => ({ m: 'POST', p: `/_cache/clear?index=${OWN}&index=${e(n)}&fielddata=true` }),
  (n) => ({ m: 'POST', p: `/_cache/clear?index=${e(n)}&index=${OWN}&fielddata=true`, answers: true }),
  (n) => ({ m: 'POST', p: `/${OWN}/_cache/clear?file=true&index=${e(n)}` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_forcemerge?primary_only=true` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_open?wait_for_completion=false` }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_open?wait_for_completion=false&task_execution_timeout=1m` }),
  (n) => ({ m: 'POST', p: `/${OWN}/_open?wait_for_completion=false&index=${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_nodes/hot_threads?index=${e(n)}` }),
  (n) => ({ m: 'GET', p: `/_nodes/usage?index=${e(n)}` }),
  (n) => ({ m: 'POST', p: '/_cluster/allocation/explain', body: { index: n, shard: 0, primary: false } }),
  (n) => ({ m: 'GET', p: `/_cluster/allocation/explain?index=${e(n)}` }),
  // terms lookups in post_filter and aggregations (read as the caller)
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { post_filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { filters: { filters: { x: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { filters: { filters: [{ terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } }] } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { adjacency_matrix: { filters: { x: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } }, y: { match_all: {} } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { significant_terms: { field: 'k', background_filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { t: { terms: { field: 'k' }, aggs: { n: { nested: { path: 'items' }, aggs: { f: { filter: { terms: { 'items.name': { index: n, id: '1', path: `${SECRET}kw` } } } } } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { size: 0, aggs: { f: { filter: { more_like_this: { fields: ['k'], like: [{ _index: n, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search`, body: { post_filter: { geo_shape: { loc: { indexed_shape: { index: n, id: '1', path: `${SECRET}kw` } } } } } }),
  (n) => ({ m: 'POST', p: '/_msearch', nd: true, body: `${JSON.stringify({ index: OWN })}\n${JSON.stringify({ size: 0, aggs: { f: { filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } })}\n` }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search?scroll=1m`, body: { post_filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_async_search?wait_for_completion_timeout=10s`, body: { size: 0, aggs: { f: { filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search/template`, body: { source: { size: 0, aggs: { f: { filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } } } } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_search?stream=true`, body: { post_filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } }),
  // nested inner hits on another index
  (n) => ({ m: 'POST', p: `/${e(n)}/_search`, body: { query: { nested: { path: 'bnested', query: { match_all: {} }, inner_hits: {} } } } }),
  // put-alias forms whose body names the index or the alias
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias/${OWN}-x`, body: { index: n } }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias`, body: { index: n, alias: `${OWN}-x` } }),
  (n) => ({ m: 'POST', p: `/${OWN}/_aliases`, body: { indices: [OWN, n], alias: `${OWN}-x` } }),
  (n) => ({ m: 'PUT', p: '/_alias', body: { index: n, alias: `${OWN}-x` } }),
  (n) => ({ m: 'PUT', p: '/_alias', body: { indices: n, aliases: [`${OWN}-x`] } }),
  (n) => ({ m: 'PUT', p: `/_alias/${OWN}-x`, body: { index: n } }),
  (n) => ({ m: 'POST', p: `/_alias/${OWN}-x`, body: { indices: [[n]] } }),
  (n) => ({ m: 'PUT', p: `/_aliases/${OWN}-x`, body: { index: n, is_write_index: true } }),
  (n) => ({ m: 'PUT', p: '/_alias', body: `{"index":"${OWN}","alias":"${OWN}-x","index":${JSON.stringify(n)}}` }),
  (n) => ({ m: 'PUT', p: '/_alias', body: `{"indices":${JSON.stringify(n)},"alias":"${OWN}-x","indices":"${OWN}"}`, answers: true }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias/${OWN}-x`, body: { alias: n } }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias`, body: { aliases: [`${OWN}-x`, n] } }),
  (n) => ({ m: 'PUT', p: '/_alias', body: { index: OWN, alias: n, is_write_index: true } }),
  (n) => ({ m: 'PUT', p: `/_alias/${e(n)}`, body: { index: OWN, is_write_index: true } }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias/${OWN}-x?index=${e(n)}`, body: {} }),
  (n) => ({ m: 'PUT', p: `/${OWN}/_alias/${OWN}-x?alias=${e(n)}&name=${e(n)}`, body: {} }),
  (n) => ({ m: 'PUT', p: '/_alias', body: { index: OWN, alias: `${OWN}-f`, filter: { terms: { k: { index: n, id: '1', path: `${SECRET}kw` } } } } }),
  // rollover toward another tenant's name, or of another tenant's alias
  (n) => ({ m: 'POST', p: `/${OWN}-roll/_rollover/${e(n)}?dry_run=true` }),
  (n) => ({ m: 'POST', p: `/${OWN}-roll/_rollover/${e(n)}`, body: { conditions: { max_docs: 1_000_000 } } }),
  (n) => ({ m: 'POST', p: `/${e(n)}/_rollover?dry_run=true` }),
];

for (const backend of BACKENDS) {
  describe(`review session 8: OpenSearch list, node and cluster monitoring, put-alias bodies and search lookups against a hostile tenant (${backend.name})`, function () {
    this.timeout(600_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;
    let hidden: string;
    let manager: string;
    let app: string;

    const send = (p: Probe, auth?: string) =>
      call(gw.url, p.m, p.p, { ...(auth ? { auth } : {}), ...(p.body === undefined ? {} : { body: p.body as object }), ...(p.nd ? { headers: NDJSON } : {}) });

    /** What of another tenant an answer shows that the request did not say itself. */
    const shows = (text: string, p: Probe): string[] => {
      let said = `${p.p} ${typeof p.body === 'string' ? p.body : JSON.stringify(p.body ?? '')}`;
      try {
        said += ` ${decodeURIComponent(decodeURIComponent(p.p))}`;
      } catch {
        /* not decodable twice */
      }
      return [FOREIGN, `${SECRET}kw`, `${SECRET}txt`, 'bnested', MARK, '.gateway-', 'tenant-c'].filter((s) => text.includes(s) && !said.includes(s));
    };

    /** Aliases of every index, as the admin sees them: `{index: [alias…]}`. */
    const aliasesOf = async (): Promise<Record<string, string[]>> => {
      const r = await call(gw.url, 'GET', '/_alias?expand_wildcards=all');
      expect(r.status, r.text).to.equal(200);
      return Object.fromEntries(Object.entries(r.json as Record<string, { aliases: Record<string, unknown> }>).map(([ix, v]) => [ix, Object.keys(v.aliases).sort()]));
    };

    /** The admin aggregates tenant-b's text field: its field data is loaded. */
    const loadForeignFielddata = async () => {
      const r = await call(gw.url, 'POST', `/${FOREIGN}/_search`, { body: { size: 0, aggs: { t: { terms: { field: `${SECRET}txt` } } } } });
      expect(r.status, r.text).to.equal(200);
      expect(await foreignFielddataLoaded()).to.equal(true);
    };
    const foreignFielddataLoaded = async () => {
      const r = await call(gw.url, 'GET', `/${FOREIGN}/_stats/fielddata`);
      expect(r.status, r.text).to.equal(200);
      return (r.json.indices[FOREIGN].total.fielddata.memory_size_in_bytes as number) > 0;
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const foreign = {
        mappings: { properties: { [`${SECRET}kw`]: { type: 'keyword' }, [`${SECRET}txt`]: { type: 'text', fielddata: true }, bnested: { type: 'nested', properties: { [`${SECRET}kw`]: { type: 'keyword' } } } } },
        aliases: { [FOREIGN_ALIAS]: {} },
      };
      expect((await call(gw.url, 'PUT', `/${FOREIGN}`, { body: foreign })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/tenant-c', { body: { settings: { number_of_replicas: 0 } } })).status).to.equal(200);
      const own = {
        mappings: {
          properties: {
            k: { type: 'keyword' }, f: { type: 'text', fielddata: true }, hid: { type: 'keyword' }, big: { type: 'long' }, hidbig: { type: 'long' }, loc: { type: 'geo_shape' },
            items: { type: 'nested', properties: { name: { type: 'keyword' }, hid: { type: 'keyword' } } },
          },
        },
      };
      expect((await call(gw.url, 'PUT', `/${OWN}`, { body: own })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', `/${OWN}-000001`, { body: { aliases: { [`${OWN}-roll`]: { is_write_index: true } } } })).status).to.equal(200);
      const bulk = [
        { index: { _index: OWN, _id: 'a1' } }, { k: 'x', f: 'own words', hid: HIDDEN_VALUE, big: '9007199254740993', hidbig: '9007199254740995', items: [{ name: 'n1', hid: HIDDEN_VALUE }, { name: 'n2', hid: HIDDEN_VALUE }] },
        { index: { _index: FOREIGN, _id: '1' } }, { [`${SECRET}kw`]: MARK, [`${SECRET}txt`]: `${MARK} words`, bnested: [{ [`${SECRET}kw`]: MARK }] },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n';
      const bulked = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: NDJSON });
      expect(bulked.status, bulked.text).to.equal(200);
      expect(bulked.json.errors, bulked.text).to.equal(false);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
      const ruled = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: CATEGORIES, ops: ['read', 'write'], allow_raw_dsl: true, exclude_fields: ['hid', 'items.hid', 'hidbig'] } });
      expect(ruled.status, ruled.text).to.equal(201);
      hidden = basic(ruled.json.credential.username, ruled.json.password);
      const managing = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: ['indices', 'cluster', 'search'], ops: ['read', 'write'], cluster_privileges: ['manage'], allow_raw_dsl: true } });
      expect(managing.status, managing.text).to.equal(201);
      manager = basic(managing.json.credential.username, managing.json.password);
      const shop = await call(gw.url, 'PUT', '/_apps/tenant-app');
      expect(shop.status, shop.text).to.be.oneOf([200, 201]);
      app = basic(shop.json.credentials.read_write.username, shop.json.credentials.read_write.password);
    });
    after(() => stop?.());

    it('held: the admin sees tenant-b in the list APIs, and its alias (so the probes below can tell a leak)', async () => {
      const listed = await call(gw.url, 'GET', '/_list/indices?format=json');
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.text).to.include(FOREIGN);
      expect((await aliasesOf())[FOREIGN]).to.deep.equal([FOREIGN_ALIAS]);
    });

    it('asking over the own index, `_all`, wildcards or nothing shows nothing of another tenant, and never 5xx (each credential)', async () => {
      const problems: string[] = [];
      for (const [who, auth] of [['tenant', tenant], ['field rules', hidden], ['manage', manager], ['app', app]] as const) {
        for (const p of OWN_OR_ALL) {
          const r = await send(p, auth);
          const where = `${who}: ${p.m} ${p.p}`;
          if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
          const leaked = shows(r.text, p);
          if (leaked.length) problems.push(`${where}: ${r.status} shows ${leaked.join(', ')}: ${r.text.slice(0, 300)}`);
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('naming another tenant\'s index in any spelling or place is refused (a wildcard narrowed), shows and changes nothing of it, never 5xx (generated)', async () => {
      const before = await aliasesOf();
      await loadForeignFielddata();
      const problems: string[] = [];
      await fc.assert(fc.asyncProperty(fc.constantFrom(...FOREIGN_SPELLINGS), fc.nat(FOREIGN_NAMED.length - 1), fc.constantFrom('tenant', 'manage', 'app'), async (n, slot, who) => {
        const p = FOREIGN_NAMED[slot](n);
        const r = await send(p, who === 'tenant' ? tenant : who === 'manage' ? manager : app);
        const where = `${who}: ${p.m} ${p.p} ${(typeof p.body === 'string' ? p.body : JSON.stringify(p.body ?? '')).slice(0, 160)}`;
        if (r.status >= 500) problems.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
        if (r.status < 300 && NAMING_FOREIGN.has(n) && !p.answers) problems.push(`${where}: ${r.status}, not refused: ${r.text.slice(0, 200)}`);
        const leaked = shows(r.text, p);
        if (leaked.length) problems.push(`${where}: ${r.status} shows ${leaked.join(', ')}: ${r.text.slice(0, 300)}`);
      }), { numRuns: Number(process.env.FAST_CHECK_RUNS ?? 400), seed: 8808 });
      const after = await aliasesOf();
      for (const ix of Object.keys({ ...before, ...after })) {
        if (ix.startsWith(OWN)) continue;
        if (JSON.stringify(before[ix]) !== JSON.stringify(after[ix])) problems.push(`aliases of ${ix} changed: ${JSON.stringify(before[ix])} → ${JSON.stringify(after[ix])}`);
      }
      if (!await foreignFielddataLoaded()) problems.push('tenant-b\'s field data was cleared');
      for (const [ix, aliases] of Object.entries(after)) {
        if (ix.startsWith(OWN) && aliases.some((a) => !a.startsWith(OWN))) problems.push(`${ix} got an alias outside tenant-a*: ${aliases.join(',')}`);
      }
      expect(problems.slice(0, 30), problems.slice(0, 30).join('\n')).to.deep.equal([]);
    });

    it('held: a credential with field rules reads no hidden field through nested inner hits, lookups in post_filter or aggregations, or exact longs', async () => {
      const problems: string[] = [];
      const nested = (innerHits: Record<string, unknown>, query: unknown = { match_all: {} }) => ({ _source: ['k'], query: { nested: { path: 'items', query, inner_hits: innerHits } } });
      const lookup = { terms: { k: { index: OWN, id: 'a1', path: 'hid' } } };
      const bodies: unknown[] = [
        nested({}), nested({ _source: true }), nested({ _source: ['items.*'] }), nested({ _source: { excludes: ['items.name'] } }), nested({ docvalue_fields: ['items.hid'] }),
        nested({ docvalue_fields: ['items.*'] }), nested({ fields: ['*'] }), nested({ sort: [{ 'items.hid': 'asc' }] }), nested({ highlight: { fields: { '*': {} } } }),
        nested({ _source: false, script_fields: { s: { script: 'params._source' } } }), nested({ _source: false }, { term: { 'items.hid': HIDDEN_VALUE } }),
        nested({ _source: false, name: 'x', inner_hits: {} } as Record<string, unknown>),
        { _source: ['k'], post_filter: lookup }, { _source: ['k'], size: 0, aggs: { f: { filter: lookup } } },
        { _source: ['k'], size: 0, aggs: { f: { filters: { filters: [lookup] } } } }, { _source: ['k'], size: 0, aggs: { f: { adjacency_matrix: { filters: { a: lookup, b: { match_all: {} } } } } } },
        { _source: ['k'], size: 0, aggs: { n: { nested: { path: 'items' }, aggs: { h: { top_hits: {} } } } } },
        { _source: ['k'], docvalue_fields: ['hidbig'] }, { _source: ['k'], fields: ['hid*'] }, { _source: ['k'], docvalue_fields: [{ field: 'hidbig', format: 'use_field_mapping' }] },
      ];
      for (const body of bodies) {
        for (const path of [`/${OWN}/_search`, `/${OWN}/_search?stream=true`]) {
          const r = await call(gw.url, 'POST', path, { auth: hidden, body });
          if (r.status >= 500 || (r.status < 300 && (r.text.includes(HIDDEN_VALUE) || r.text.includes('9007199254740995')))) problems.push(`${path} ${JSON.stringify(body)}: ${r.status} ${r.text.slice(0, 300)}`);
        }
      }
      // what it may read stays readable: the visible nested object, and the exact long it sees
      const visible = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: hidden, body: { _source: ['k'], docvalue_fields: ['big'], query: { nested: { path: 'items', query: { term: { 'items.name': 'n1' } }, inner_hits: { _source: ['items.name'] } } } } });
      expect(visible.status, visible.text).to.equal(200);
      expect(visible.text).to.include('"n1"').and.include('9007199254740993').and.not.include(HIDDEN_VALUE);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('held: allocation explain and dangling indices need `manage`; with it, a body naming another index is refused; nodes usage and hot threads name no index', async () => {
      for (const [m, p, body] of [['GET', '/_cluster/allocation/explain'], ['POST', '/_cluster/allocation/explain', { index: OWN, shard: 0, primary: false }], ['GET', '/_dangling'], ['POST', '/_dangling/x?accept_data_loss=true'], ['DELETE', '/_dangling/x?accept_data_loss=true']] as const) {
        for (const auth of [tenant, hidden, app]) {
          const r = await call(gw.url, m, p, { auth, ...(body ? { body } : {}) });
          expect(r.status, `${m} ${p}: ${r.text}`).to.equal(403);
          // the app's pair has no `cluster` category, the ruled one no `delete`: refused before any privilege is asked
          if (auth === tenant || (auth === hidden && m !== 'DELETE')) expect(r.json.error.reason, p).to.include('[manage]');
        }
      }
      for (const body of [{ index: FOREIGN, shard: 0, primary: false }, { index: FOREIGN_ALIAS, shard: 0, primary: true }, { index: `${OWN},${FOREIGN}`, shard: 0, primary: true }, { index: '*', shard: 0, primary: true }, { index: '.gateway-credentials', shard: 0, primary: true }]) {
        const r = await call(gw.url, 'POST', '/_cluster/allocation/explain', { auth: manager, body });
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).to.equal(403);
      }
      const own = await call(gw.url, 'POST', '/_cluster/allocation/explain', { auth: manager, body: { index: OWN, shard: 0, primary: false } });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.index).to.equal(OWN);
      for (const p of ['/_nodes/usage', '/_nodes/_local/usage/rest_actions', '/_nodes/hot_threads', '/_nodes/_all/hot_threads?threads=1000']) {
        const r = await call(gw.url, 'GET', p, { auth: tenant });
        expect(r.status, `${p}: ${r.text}`).to.equal(200);
        expect(r.text, p).not.to.include(FOREIGN).and.not.include('.gateway-');
      }
    });

    it('held: an index opened by a task is the tenant\'s own; the task of another index\'s opening is no scoped credential\'s to read', async () => {
      expect((await call(gw.url, 'POST', `/${FOREIGN}/_close`)).status).to.equal(200);
      const theirs = await call(gw.url, 'POST', `/${FOREIGN}/_open?wait_for_completion=false`);
      expect(theirs.status, theirs.text).to.equal(200);
      const id = theirs.json.task as string;
      for (const auth of [tenant, manager]) {
        for (const p of [`/_tasks/${id}`, '/_tasks?detailed=true&actions=indices:admin/open', '/_cat/tasks?detailed=true']) {
          const r = await call(gw.url, 'GET', p, { auth });
          expect(r.status, `${p}: ${r.text}`).to.equal(403);
        }
        const cancel = await call(gw.url, 'POST', `/_tasks/${id}/_cancel`, { auth });
        expect(cancel.status, cancel.text).to.equal(403);
      }
      expect((await call(gw.url, 'POST', `/${OWN}-000001/_close`, { auth: tenant })).status).to.equal(200);
      const mine = await call(gw.url, 'POST', `/${OWN}-0*/_open?wait_for_completion=false&expand_wildcards=closed`, { auth: tenant });
      expect(mine.status, mine.text).to.equal(200);
      expect(mine.json.task).to.be.a('string');
    });

    it('was 1: every `_cat` and `_list` table answers a credential with field rules, never 500 (their text was read as a mappings answer)', async () => {
      const problems: string[] = [];
      const paths = TABLE_PATHS();
      expect(paths).to.include.members(['/_list', '/_cat/cluster_manager', '/_cat/master', '/_list/indices']);
      for (const path of paths) {
        for (const p of [path, `${path}?format=json`]) {
          const r = await call(gw.url, 'GET', p, { auth: hidden });
          if (r.status >= 500) problems.push(`GET ${p}: ${r.status} ${r.text.slice(0, 200)}`);
          if (/\bhid\b|hiddenvalue8/.test(r.text)) problems.push(`GET ${p}: names the hidden field: ${r.text.slice(0, 200)}`);
        }
      }
      for (const p of ['/_list', '/_cat/cluster_manager', '/_cat']) {
        const r = await call(gw.url, 'GET', p, { auth: hidden });
        if (r.status !== 200) problems.push(`GET ${p}: ${r.status}, not 200: ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('was 2: `_list/shards` (node names and addresses) stays the index administrator\'s as `_cat/shards` does; an index\'s readers list it in `_list/indices`', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: ['search'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      const reader = basic(made.json.credential.username, made.json.password);
      for (const p of ['/_list/shards', `/_list/shards/${OWN}?format=json`, '/_list/shards/*?size=1', '/_cat/shards', `/_cat/shards/${OWN}`]) {
        const r = await call(gw.url, 'GET', p, { auth: reader });
        expect(r.status, `${p}: ${r.text}`).to.equal(403);
        expect(r.text, p).not.to.include('127.0.0.1');
      }
      for (const p of ['/_list/indices?format=json', `/_list/indices/${OWN}?format=json`, '/_cat/indices?format=json']) {
        const r = await call(gw.url, 'GET', p, { auth: reader });
        expect(r.status, `${p}: ${r.text}`).to.equal(200);
        const rows = (p.startsWith('/_list') ? r.json.indices : r.json) as Array<{ index: string }>;
        expect(rows.map((row) => row.index), p).to.include(OWN).and.not.include(FOREIGN);
      }
    });

    it('was 3: `POST /_cache/clear` clears no other tenant\'s caches (the gateway took it for its own cache API and passed it on whole); a tenant clears its own indices\'', async () => {
      await loadForeignFielddata();
      const problems: string[] = [];
      for (const auth of [tenant, manager]) {
        // the `index` parameter names what is cleared when the path names nothing (checked, never
        // narrowed): an empty one reads as every index, another tenant's is refused
        for (const p of ['/_cache/clear', '/_cache/clear?fielddata=true', '/_cache/clear?file=true', `/_cache/clear?index=${FOREIGN}&fielddata=true`,
          `/_cache/clear?index=${OWN},${FOREIGN}`, '/_cache/clear?index=', '/_cache/clear?index=,', '/_cache/clear?index=*', `/_cache/clear?index=_all`,
          '/_cache/clear?expand_wildcards=all', `/_all/_cache/clear?fielddata=true`, '/*/_cache/clear']) {
          const r = await call(gw.url, 'POST', p, { auth });
          if (r.status !== 403) problems.push(`POST ${p}: ${r.status}, not 403: ${r.text.slice(0, 200)}`);
        }
        for (const p of [`/${OWN}/_cache/clear?fielddata=true`, `/${OWN}*/_cache/clear?file=true`, `/${OWN},${OWN}-000001/_cache/clear`,
          `/_cache/clear?index=${OWN}&fielddata=true`, `/_cache/clear?index=${OWN}*`]) {
          const r = await call(gw.url, 'POST', p, { auth });
          if (r.status !== 200) problems.push(`POST ${p}: ${r.status}, not 200: ${r.text.slice(0, 200)}`);
        }
      }
      if (!await foreignFielddataLoaded()) problems.push('tenant-b\'s field data was cleared');
      // the cache API of the gateway is still its own
      const stats = await call(gw.url, 'GET', '/_cache/stats', { auth: tenant });
      if (stats.status !== 200) problems.push(`GET /_cache/stats: ${stats.status} ${stats.text.slice(0, 200)}`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
      // the admin's `index` parameter names what is cleared, as in Elasticsearch (the engine cleared every index)
      expect((await call(gw.url, 'POST', `/${OWN}/_search`, { body: { size: 0, aggs: { t: { terms: { field: 'f' } } } } })).status).to.equal(200);
      const cleared = await call(gw.url, 'POST', `/_cache/clear?index=${OWN}&fielddata=true`);
      expect(cleared.status, cleared.text).to.equal(200);
      // with expand_wildcards=all too (an OpenSearch API-spec story): the parameter's index, no system index reached
      const expanded = await call(gw.url, 'POST', `/_cache/clear?index=${OWN}&expand_wildcards=all&fielddata=true&ignore_unavailable=true`);
      expect(expanded.status, expanded.text).to.equal(200);
      expect(cleared.json._shards.total, cleared.text).to.equal(2);
      expect(await foreignFielddataLoaded()).to.equal(true);
      const own = await call(gw.url, 'GET', `/${OWN}/_stats/fielddata`);
      expect(own.json.indices[OWN].total.fielddata.memory_size_in_bytes, own.text).to.equal(0);
    });
  });
}

describe('review session 8: what a hostile tenant\'s requests to the new routes make reach the engine (HTTP backend, recorded)', function () {
  this.timeout(600_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let tenant: string;
  let manager: string;
  before(async () => {
    upstream = await startRecordingUpstream();
    gw = await startTestGateway({ ENGINE_URL: upstream.url });
    for (const ix of [OWN, FOREIGN, `${OWN}-000001`]) expect((await call(gw.url, 'PUT', `/${ix}`, { body: { mappings: { properties: { k: { type: 'keyword' }, items: { type: 'nested' } } } } })).status).to.equal(200);
    expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: FOREIGN, alias: FOREIGN_ALIAS } }, { add: { index: `${OWN}-000001`, alias: `${OWN}-roll`, is_write_index: true } }] } })).status).to.equal(200);
    const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
    tenant = basic(made.json.credential.username, made.json.password);
    const managing = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], categories: ['indices', 'cluster', 'search'], ops: ['read', 'write'], cluster_privileges: ['manage'], allow_raw_dsl: true } });
    manager = basic(managing.json.credential.username, managing.json.password);
  });
  after(async () => {
    await gw?.close();
    await upstream?.stop();
  });

  it('held but `_cache/clear` (was 3): nothing forwarded names another tenant\'s index or reaches it by a wildcard, and no index-acting path goes on without the tenant\'s indices', async () => {
    upstream.clear();
    const probes: Probe[] = [...OWN_OR_ALL];
    for (const n of [FOREIGN, FOREIGN_ALIAS, `${OWN},${FOREIGN}`, '*', '_all', 'tenant-*', '.gateway-*', '<tenant-b>']) probes.push(...FOREIGN_NAMED.map((f) => f(n)));
    for (const auth of [tenant, manager]) {
      for (const p of probes) {
        const r = await call(gw.url, p.m, p.p, { auth, ...(p.body === undefined ? {} : { body: p.body as object }), ...(p.nd ? { headers: NDJSON } : {}) });
        expect(r.status, `${p.m} ${p.p}: ${r.text.slice(0, 200)}`).to.be.below(500);
      }
    }
    const forwarded = upstream.requests.filter((r) => !r.path.startsWith('/.gateway') && !r.path.startsWith('/%2Egateway'));
    const problems = leaksIn(forwarded, { names: [FOREIGN, '.gateway-'], reachable: [FOREIGN, FOREIGN_ALIAS, '.gateway-credentials'] });
    // a path that acts on indices without naming any acts on every index (`_cache/clear` names them by its `index` parameter too)
    for (const r of forwarded) if (EVERY_INDEX_PATHS.has(r.path) && !namesOwnByParameter(r)) problems.push(`${r.method} ${r.path}?${r.query}: reaches every index`);
    expect(forwarded.some((r) => r.path.includes('_list/indices/'))).to.equal(true);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});

/** `POST /_cache/clear?index=…` naming the tenant's own indices only, by name (no wildcard, no `_all`), as the engine reads its `index` parameter. */
function namesOwnByParameter(r: { path: string; query: string }): boolean {
  const names = new URLSearchParams(r.query).getAll('index');
  return r.path === '/_cache/clear' && names.length === 1 && names[0].split(',').every((x) => x.startsWith(OWN) && !x.includes('*'));
}

/** Paths that act on (or list) every index when they name none. */
const EVERY_INDEX_PATHS = new Set(['/_cache/clear', '/_forcemerge', '/_list/indices', '/_list/shards', '/_cat/indices', '/_cat/shards', '/_stats', '/_refresh']);

/** A GET path of each `_cat` and `_list` table: its path parameters filled with the tenant's own names. */
function TABLE_PATHS(): string[] {
  const fill: Record<string, string> = { index: OWN, name: `${OWN}-roll`, alias: `${OWN}-roll`, node_id: '_local', fields: 'k', thread_pool_patterns: 'search', repository: 'repo' };
  const out = new Set<string>();
  for (const api of ES_API as readonly EsApi[]) {
    if (!answersTable(api.id)) continue;
    for (const path of api.paths) {
      if (!path.methods.includes('GET')) continue;
      const filled = path.pattern.replace(/\{(\w+)\}/g, (_, name: string) => fill[name] ?? '\u0000');
      if (!filled.includes('\u0000')) out.add(filled);
    }
  }
  return [...out].sort();
}
