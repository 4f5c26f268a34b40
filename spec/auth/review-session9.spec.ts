import { expect } from 'chai';
import WebSocket from 'ws';
import { basic, call, NDJSON } from '../support/http.js';
import { isResolutionLookup, RECORDED_BACKENDS, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review of session 9 (h-rev9): hostile tenants, and the admin, against what changed — above all
 * the narrowing of hidden-index expansions to leave the gateway's `.gateway-*` system indices out
 * (`*,-.gateway-*`), on both backends, the HTTP one recorded at the engine.
 *
 * Findings (both backends):
 * 1. An exclusion of the system indices anywhere in a request made every dot-prefixed wildcard of
 *    it safe, wherever it stood: `/*,-.gateway-*,.gateway-*\/_search`, `/-.gateway-*,.gateway-*\/_search`
 *    (an exclusion takes only from what comes before it), and `/*,-.gateway-*\/_msearch` whose
 *    header names `.gateway-*` (another list) answered the credentials index's documents, mappings,
 *    field list and counts; the narrowing made `/*\/_msearch?expand_wildcards=all` with such a
 *    header one of them. Fixed: an exclusion counts only for the wildcards before it in the path's
 *    one list, and never for a request naming indices elsewhere (a body, a parameter).
 * 2. Date math holding a wildcard (`<.gateway-c*>`, `<.g*>`, `<.*>`) was read as a name that is no
 *    system index's, and the engine resolved it to the credentials index: its documents answered.
 *    Fixed: date math is read as a pattern whose literal start ends at its first placeholder,
 *    wildcard or escape (a date format's quoted text can spell anything).
 * 3. An index template matching `*` or `*-rules` (aliases, a default ingest pipeline moving `_index`)
 *    was applied to the system indices the gateway creates later: their records were written into
 *    a user index and read through the alias. Fixed in the engine: no template applies to a system
 *    index, and a hidden index ignores global templates (as Elasticsearch).
 * 4. (engine) A DecimalFormat `format` of 101+ fraction digits was a 500, and a 200 KB pattern of
 *    `0`s made a histogram answer 400 MB: digits are held to DecimalFormat's 309/340 (decimal-format spec).
 * 5. Search pipelines (h-sp37): a credential bounded by max_size or field rules ran an index's default
 *    search pipeline (script size 25, oversample: 25-29 hits for max_size 5; a filter_query on a
 *    hidden field). Fixed: its searches and `_msearch` items carry `search_pipeline=_none`.
 * 6. OPEN (HTTP backend): a stored pipeline's filter_query lookup into another index runs
 *    unauthorized (see the skipped case).
 */

const e = encodeURIComponent;

interface Probe { m: string; p: string; body?: unknown; nd?: string }

/** Requests that (before the fixes) reached `.gateway-credentials` for the admin. */
const SYSTEM_REACHING: Probe[] = [
  // finding 1
  { m: 'POST', p: '/*,-.gateway-*,.gateway-*/_search' },
  { m: 'POST', p: '/-.gateway-*,.gateway-*/_search' },
  { m: 'POST', p: '/*,%2D.gateway-*,.gateway-*/_search' },
  { m: 'POST', p: '/%2A%2C-.gateway-%2A%2C.gateway-%2A/_search' },
  { m: 'POST', p: '/_all,-.gateway-*,.gateway-c*/_search?expand_wildcards=all' },
  { m: 'POST', p: '/*,-.gateway-*,*/_search?expand_wildcards=all' },
  { m: 'POST', p: '/*,-.gateway-*,.gateway-*/_search?expand_wildcards=all' },
  { m: 'GET', p: '/*,-.gateway-*,.gateway-*/_mapping' },
  { m: 'GET', p: '/*,-.gateway-*,.gateway-*/_field_caps?fields=*' },
  { m: 'GET', p: '/*,-.gateway-*,.gateway-*/_settings' },
  { m: 'GET', p: '/_cat/indices/*,-.gateway-*,.gateway-*?format=json' },
  { m: 'POST', p: '/*/_msearch?expand_wildcards=all', nd: '{"index":".gateway-*"}\n{}\n' },
  { m: 'POST', p: '/*,-.gateway-*/_msearch', nd: '{"index":".gateway-*"}\n{}\n' },
  { m: 'POST', p: '/*,-.gateway-*/_msearch', nd: '{"index":"*","expand_wildcards":"all"}\n{}\n' },
  { m: 'POST', p: '/*,-.gateway-*/_msearch', nd: '{}\n{}\n{"index":".g*"}\n{}\n' },
  { m: 'POST', p: '/*,-.gateway-*/_search?index=.gateway-*' },
  // held: `_all` in a list, exclusions the engine reads after it, the narrowing of every spelling of every index
  { m: 'POST', p: '/_all,-.gateway-*/_search?expand_wildcards=all' },
  { m: 'POST', p: '/_all,-.gateway-*/_search' },
  { m: 'POST', p: '/_all,-.gateway-c*/_search?expand_wildcards=all' },
  { m: 'POST', p: '/*,-.gateway-c*/_search?expand_wildcards=all' },
  { m: 'POST', p: '/*,-.gateway-*/_search?expand_wildcards=all&allow_no_indices=false&ignore_unavailable=true' },
  { m: 'POST', p: '/%5Fall/_search?expand_wildcards=all' },
  { m: 'POST', p: '/_all/_search?expand_wildcards=%61ll' },
  { m: 'POST', p: '/_search?expand_wildcards=hidden,open&expand_wildcards=all' },
  { m: 'POST', p: '/*/_search?expand_wildcards=open&expand_wildcards=all' },
  { m: 'GET', p: '/*/_count?expand_wildcards=all' },
  { m: 'GET', p: '/*/_field_caps?fields=*&expand_wildcards=all&index=.gateway-credentials' },
  { m: 'POST', p: '/*/_cache/clear?expand_wildcards=all&index=.gateway-*' },
  { m: 'POST', p: '/*/doc/_search?expand_wildcards=all' },
  { m: 'POST', p: '/*/_search/template?expand_wildcards=all', body: { source: { query: { match_all: {} } } } },
  { m: 'POST', p: '/*/_msearch/template?expand_wildcards=all', nd: '{"index":".gateway-credentials"}\n{"source":{"query":{"match_all":{}}}}\n' },
  { m: 'POST', p: '/*/_search?expand_wildcards=all', body: { query: { terms: { name: { index: '.gateway-credentials', id: 'x', path: 'username' } } } } },
  { m: 'POST', p: '/*/_search?expand_wildcards=all', body: { query: { more_like_this: { fields: ['username'], like: [{ _index: '.gateway-credentials', _id: 'x' }] } } } },
  { m: 'POST', p: '/_mget', body: { docs: [{ _index: '.gateway-credentials', _id: 'x' }] } },
  { m: 'POST', p: '/*/_mget?expand_wildcards=all', body: { ids: ['x'] } },
  { m: 'POST', p: '/_reindex', body: { source: { index: '*,-.gateway-*,.gateway-*' }, dest: { index: 'stolen' } } },
  { m: 'POST', p: '/*/_delete_by_query?expand_wildcards=all&q=username:nobody' },
  // finding 2
  { m: 'POST', p: `/${e('<.gateway-c*>')}/_search` },
  { m: 'POST', p: `/${e('<.g*>')}/_search` },
  { m: 'POST', p: `/${e('<.*>')}/_search` },
  { m: 'POST', p: `/${e("<{now{'.gateway-'}}*>")}/_search` },
  { m: 'POST', p: `/${e("<.gateway{now{'-'}}credentials>")}/_search` },
  { m: 'POST', p: `/*,-.gateway-*,${e('<.gateway-*{now/d}>')}/_search` },
  { m: 'POST', p: `/*,-.gateway-*,${e('<.gateway-c*>')}/_search` },
  { m: 'GET', p: `/${e('<.gateway-c*>')}/_mapping` },
  { m: 'POST', p: '/_msearch', nd: `{"index":"<.gateway-c*>"}\n{}\n` },
  { m: 'POST', p: '/_reindex', body: { source: { index: '<.gateway-c*>' }, dest: { index: 'stolen' } } },
];

/** Requests that must keep answering the caller's own indices (the narrowing, and ES's exclusion order). */
const STILL_ANSWERED: Array<Probe & { indices: string[] }> = [
  { m: 'POST', p: '/*,-.gateway-*/_search?expand_wildcards=all', indices: ['shop', 'hid'] },
  { m: 'POST', p: '/*/_search?expand_wildcards=all', indices: ['shop', 'hid'] },
  { m: 'POST', p: '/_search?expand_wildcards=all', indices: ['shop', 'hid'] },
  { m: 'POST', p: '/*,.*,-.gateway-*/_search?expand_wildcards=all', indices: ['shop', 'hid'] },
  { m: 'POST', p: '/*/_msearch?expand_wildcards=all', nd: '{}\n{}\n', indices: ['shop', 'hid'] },
  { m: 'POST', p: `/${e('<sh*>')}/_search`, indices: ['shop'] },
  { m: 'POST', p: `/${e('<*>')}/_search?expand_wildcards=all`, indices: ['shop', 'hid'] },
];

/** A request as it reached the engine names a system index otherwise than as the last exclusion of its list. */
function namesSystemIndex(path: string): boolean {
  const list = decodeURIComponent(path).split('/').filter(Boolean)[0]?.split(',') ?? [];
  const last = list.lastIndexOf('-.gateway-*');
  return list.some((x, i) => i > last && !x.startsWith('-') && /gateway|^<|^\.\*|^\.g/.test(x));
}

/** The gateway's own read of the calling credential (authentication), which answers nobody. */
const isCredentialRead = (r: { method: string; path: string; body: string }) => r.method === 'GET' && r.body === '' && /^\/\.gateway-credentials\/_doc\/[^/]+$/.test(r.path);

async function send(url: string, pr: Probe, auth?: string) {
  const options = pr.nd ? { body: pr.nd, headers: NDJSON } : pr.body ? { body: pr.body } : pr.m === 'POST' ? { body: { query: { match_all: {} } } } : {};
  return call(url, pr.m, pr.p, auth ? { ...options, auth } : options);
}

for (const backend of RECORDED_BACKENDS) {
  describe(`review of session 9: system indices and hostile tenants (${backend.name})`, function () {
    this.timeout(180_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let everything: string;

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'hat' } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/hid', { body: { settings: { 'index.hidden': true } } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/hid/_doc/1?refresh=true', { body: { name: 'hidden hat' } })).status).to.equal(201);
      // a credential of every index: the credentials index holds it
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['*'], categories: ['docs', 'search', 'indices'], ops: ['read', 'write'], allow_raw_dsl: true } });
      expect(made.status, made.text).to.equal(201);
      everything = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    for (const who of ['admin', 'credential of *'] as const) {
      it(`${who}: no exclusion, list order or date math reaches the system indices`, async () => {
        for (const pr of SYSTEM_REACHING) {
          upstream?.clear();
          const res = await send(gw.url, pr, who === 'admin' ? undefined : everything);
          const where = `${pr.m} ${pr.p} ${pr.nd ?? ''}: ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, where).to.not.equal(500);
          if (res.status >= 400) expect(res.json?.error?.type, where).to.be.a('string');
          expect(res.text, where).to.not.match(/"\.gateway-|"_index":"\.gateway|username/);
          for (const rec of (upstream?.requests ?? []).filter((q) => !isResolutionLookup(q) && !isCredentialRead(q))) {
            expect(namesSystemIndex(rec.path), `${where}\nreached the engine as ${rec.method} ${rec.path}?${rec.query}`).to.equal(false);
            expect(rec.body, `${where}\nreached the engine as ${rec.method} ${rec.path} ${rec.body}`).to.not.match(/\.gateway|\.g\*/);
          }
        }
      });
    }

    it('the user\'s own indices, hidden ones included, are still answered', async () => {
      for (const pr of STILL_ANSWERED) {
        const res = await send(gw.url, pr);
        const where = `${pr.m} ${pr.p}: ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, where).to.equal(200);
        const hits: Array<{ _index: string }> = pr.nd ? res.json.responses.flatMap((r: { hits: { hits: unknown[] } }) => r.hits.hits) : res.json.hits.hits;
        expect(new Set(hits.map((h) => h._index)), where).to.deep.equal(new Set(pr.indices));
      }
    });

    it('WebSocket frames (held: a connection serves its one app, a frame names no other index)', async () => {
      for (const auth of [undefined, everything]) {
        const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/shop', { headers: { authorization: auth ?? basic('admin', 'test-admin-password') } });
        await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
        const paths = ['*,-.gateway-*,.gateway-*/_search', '-.gateway-*,.gateway-*/_search', `${e('<.gateway-c*>')}/_search`, '<.gateway-c*>/_search',
          '*/_search?expand_wildcards=all', '_search?expand_wildcards=all', '*,-.gateway-*/_msearch'];
        for (const [i, path] of paths.entries()) {
          const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
          ws.send(JSON.stringify({ id: `q${i}`, path, method: 'POST', body: path.includes('_msearch') ? '{"index":".gateway-*"}\n{}\n' : { query: { match_all: {} } } }));
          const frame = await answer;
          expect(frame, `${path}: ${frame.slice(0, 300)}`).to.not.match(/"_index":"\.gateway|username/);
        }
        ws.close();
      }
    });

    it('held: a tenant\'s lookups (indexed_shape of geo_shape, xy_shape, shape) and template simulations reach no other index', async () => {
      expect((await call(gw.url, 'PUT', '/tenant-b/_doc/1?refresh=true', { body: { name: 'foreign9', g: { type: 'point', coordinates: [1, 1] } } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/_index_template/b-template', { body: { index_patterns: ['tenant-b*'], template: { mappings: { properties: { bsecret9: { type: 'keyword' } } } } } })).status).to.equal(200);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop*'], categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write'], allow_raw_dsl: true } });
      const tenant = basic(made.json.credential.username, made.json.password);
      const shape = (q: string, index: string, extra: Record<string, unknown> = {}) => ({ query: { bool: { should: [{ [q]: { g: { indexed_shape: { index, id: '1', path: 'g', ...extra } } } }] } } });
      const probes: Probe[] = [];
      for (const q of ['geo_shape', 'xy_shape', 'shape']) {
        for (const index of ['tenant-b', 'tenant-*', '*', '.gateway-credentials', 'TENANT-B', 'tenant-b,shop', '<tenant-b>']) probes.push({ m: 'POST', p: '/shop/_search', body: shape(q, index) });
        probes.push({ m: 'POST', p: '/shop/_search', body: shape(q, 'tenant-b', { routing: 'x' }) });
      }
      probes.push({ m: 'POST', p: '/shop/_search', body: '{"query":{"xy_shape":{"g":{"indexed_shape":{"index":"shop","index":"tenant-b","id":"1","path":"g"}}}}}' });
      probes.push({ m: 'POST', p: '/_index_template/_simulate_index/tenant-b' }, { m: 'POST', p: '/_index_template/_simulate/b-template' },
        { m: 'POST', p: '/_index_template/_simulate', body: { index_patterns: ['tenant-b*'] } }, { m: 'POST', p: '/_index_template/_simulate_index/shop2' });
      for (const pr of probes) {
        upstream?.clear();
        const res = await send(gw.url, pr, tenant);
        const where = `${pr.m} ${pr.p} ${JSON.stringify(pr.body ?? '').slice(0, 160)}: ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, where).to.be.oneOf([400, 403]);
        expect(res.json?.error?.type, where).to.be.a('string');
        expect(res.text, where).to.not.match(/foreign9|bsecret9/);
        for (const rec of upstream?.requests ?? []) expect(`${rec.path} ${rec.body}`, where).to.not.match(/_search.*tenant-b|foreign9|_simulate/);
      }
    });

    it('a credential bounded by max_size or field rules runs no index default search pipeline (oversample, script size, filter_query)', async () => {
      const lines: unknown[] = [];
      for (let i = 0; i < 30; i++) lines.push({ index: { _index: 'bounded9', _id: String(i) } }, { n: i, secret9: i < 3 ? 'hiddenvalue9' : 'other' });
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', headers: NDJSON })).json.errors).to.equal(false);
      const pipelines: Record<string, unknown> = {
        sized9: { request_processors: [{ script: { source: 'ctx._source.size = 25' } }] },
        over9: { request_processors: [{ oversample: { sample_factor: 10 } }] },
        oracle9: { request_processors: [{ filter_query: { query: { term: { secret9: 'hiddenvalue9' } } } }] },
      };
      for (const [id, body] of Object.entries(pipelines)) expect((await call(gw.url, 'PUT', `/_search/pipeline/${id}`, { body })).status).to.equal(200);
      const cred = async (extra: Record<string, unknown>) => {
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['bounded9'], categories: ['search'], ops: ['read'], allow_raw_dsl: true, ...extra } });
        return basic(made.json.credential.username, made.json.password);
      };
      const bounded = await cred({ max_size: 5 });
      const ruled = await cred({ exclude_fields: ['secret9'] });
      for (const id of Object.keys(pipelines)) {
        expect((await call(gw.url, 'PUT', '/bounded9/_settings', { body: { index: { search: { default_pipeline: id } } } })).status).to.equal(200);
        // what each would get with no pipeline: its size (none: the default 10, capped at max_size), and every document
        for (const [auth, body, hits] of [[bounded, { size: 5 }, 5], [bounded, {}, 5], [ruled, { size: 30 }, 30], [ruled, {}, 10]] as const) {
          const res = await call(gw.url, 'POST', '/bounded9/_search', { auth, body });
          expect(res.status, `${id}: ${res.text.slice(0, 300)}`).to.equal(200);
          expect(res.json.hits.hits.length, `${id} ${JSON.stringify(body)}`).to.equal(hits);
          const multi = await call(gw.url, 'POST', '/bounded9/_msearch', { auth, body: `{}\n${JSON.stringify(body)}\n`, headers: NDJSON });
          expect(multi.status, multi.text.slice(0, 300)).to.equal(200);
          expect(multi.json.responses[0].hits?.hits.length, `${id} msearch: ${multi.text.slice(0, 300)}`).to.equal(hits);
        }
      }
      // the admin's searches still run it
      expect((await call(gw.url, 'POST', '/bounded9/_search', { body: {} })).json.hits.hits.length).to.equal(3);
    });

    // finding 6: a stored search pipeline (named, or an index's default) is a program the gateway
    // does not read; on the HTTP backend its filter_query's terms lookup into another tenant's index
    // ran unauthorized. The embedded engine checks the lookup where it acts (403); through an HTTP
    // engine a scoped credential names no pipeline (403) and runs no default one (search_pipeline=_none)
    it('a stored pipeline\'s lookups into another tenant\'s index never run for a scoped credential (named and default)', async () => {
      expect((await call(gw.url, 'PUT', '/theirs9/_doc/1?refresh=true', { body: { genres: ['a'] } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/mine9/_doc/1?refresh=true', { body: { genre: 'a' } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/_search/pipeline/lookup9', { body: { request_processors: [{ filter_query: { query: { terms: { genre: { index: 'theirs9', id: '1', path: 'genres' } } } } }] } })).status).to.equal(200);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine9'], categories: ['search'], ops: ['read'], allow_raw_dsl: true } });
      const tenant = basic(made.json.credential.username, made.json.password);
      expect((await call(gw.url, 'POST', '/mine9/_search?search_pipeline=lookup9', { auth: tenant, body: {} })).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/mine9/_settings', { body: { index: { search: { default_pipeline: 'lookup9' } } } })).status).to.equal(200);
      upstream?.clear();
      const byDefault = await call(gw.url, 'POST', '/mine9/_search', { auth: tenant, body: {} });
      if (upstream) {
        expect(byDefault.status, byDefault.text).to.equal(200);
        expect(upstream.requests.filter((r) => r.path.endsWith('/_search')).map((r) => r.query)).to.satisfy((qs: string[]) => qs.length > 0 && qs.every((q) => q.includes('search_pipeline=_none')));
      } else expect(byDefault.status, byDefault.text).to.equal(403);
    });

    it('no index template reaches a system index the gateway creates (aliases, default pipeline, mappings)', async () => {
      expect((await call(gw.url, 'PUT', '/_ingest/pipeline/steal', { body: { processors: [{ set: { field: '_index', value: 'loot' } }] } })).status).to.equal(200);
      const templates: Array<[string, unknown]> = [
        ['everything', { index_patterns: ['*'], priority: 10, template: { settings: { 'index.default_pipeline': 'steal' }, aliases: { peek: {} } } }],
        ['suffix', { index_patterns: ['*-rules', '*-apps'], priority: 20, template: { settings: { 'index.default_pipeline': 'steal' }, aliases: { peek: {} } } }],
      ];
      for (const [name, body] of templates) {
        const put = await call(gw.url, 'PUT', `/_index_template/${name}`, { body });
        expect(put.status, put.text).to.be.oneOf([200, 403]);
      }
      const legacy = await call(gw.url, 'PUT', '/_template/old', { body: { index_patterns: ['*ules'], order: 5, aliases: { peek: {} }, settings: { 'index.default_pipeline': 'steal' } } });
      expect(legacy.status, legacy.text).to.be.oneOf([200, 403]);
      // the gateway creates its rules and apps indices now
      const rule = await call(gw.url, 'PUT', '/_rule/r9', { body: { trigger: { type: 'query', operator: 'is', value: 'secretrule9' }, actions: { hide: ['x'] } } });
      expect(rule.status, rule.text).to.equal(201);
      expect((await call(gw.url, 'PUT', '/_apps/app9')).status).to.equal(200);
      for (const p of ['/peek/_search', '/loot/_search', '/_all/_search?q=secretrule9', '/_alias/peek?expand_wildcards=all']) {
        const res = await call(gw.url, 'GET', p);
        expect(res.text, p).to.not.match(/secretrule9|"\.gateway-|"record"/);
      }
      const simulated = await call(gw.url, 'POST', '/_index_template/_simulate_index/.gateway-rules');
      expect(simulated.text).to.not.include('steal');
      // the rule works: the gateway reads it back from its own index
      const read = await call(gw.url, 'GET', '/_rule/r9');
      expect(read.status, read.text).to.equal(200);
    });
  });
}
