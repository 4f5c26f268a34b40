import { expect } from 'chai';
import fc from 'fast-check';
import WebSocket from 'ws';
import { answerTo } from '../support/websocket-frames.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';
import { startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';
import { eventually } from '../support/stream-client.js';

/**
 * Review of issue 32 (h-rev1): a hostile tenant against the gateway's features — WebSocket
 * frames and upgrades, gateway pipelines, the declarative API, typed documents, streams, the cache,
 * query rules and relevancy, logs and analytics, the credentials API — on both backends.
 *
 * Findings (each fixed, each spec below failing on the code before the fix):
 * 1. A tenant's gateway pipeline claimed every request whose first path segment was its own index:
 *    the admin's `POST /{own}/_bulk` with lines for another tenant's index (and `_msearch`, `_mget`,
 *    a search with a lookup) ran the tenant's stages, which copied the body — another tenant's
 *    documents and queries — into the tenant's index.
 * 2. The analytics events API took any search id: a click, a conversion or a search event sent to
 *    the tenant's own index naming another tenant's search was recorded into that tenant's
 *    analytics, and a search event replaced the other tenant's search record (it vanished from
 *    their analytics and showed in the tenant's).
 * 3. A pipeline's stages ran with the owner's indices, categories and operations, but with the
 *    caller's field rules, size limit and raw-DSL permission: a credential whose `exclude_fields`
 *    hid a field registered a pipeline on its own index's searches; the admin's search through it
 *    was answered whole, and a later stage copied the answer (the hidden value) into a document the
 *    credential reads.
 * 4. Query rules and search relevancy settings were stored without the author's field rules: a
 *    credential hiding `secret` wrote a rule `add_filter: {secret: guess}` (or `search_settings`
 *    with `dataField: secret`) that applied to its own declarative searches — a value oracle (a hit
 *    when the guess is right, none otherwise).
 * The rest of the matrix held; the last `describe` keeps it so.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const MARK = 'foreign-mark-5b2';

const ALL_CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs'];

async function seed(url: string): Promise<{ tenant: string; other: string }> {
  for (const [index, tag] of [[OWN, 'x'], [FOREIGN, MARK]]) {
    const put = await call(url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { tag, title: 'hello' } });
    expect(put.status, put.text).to.be.oneOf([200, 201]);
  }
  const made = await call(url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ALL_CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true } });
  expect(made.status, made.text).to.equal(201);
  const other = await call(url, 'POST', '/_credentials', { body: { indices: [FOREIGN], categories: ['docs', 'search', 'declarative', 'analytics'], ops: ['read', 'write'] } });
  expect(other.status, other.text).to.equal(201);
  return { tenant: basic(made.json.credential.username, made.json.password), other: basic(other.json.credential.username, other.json.password) };
}

/** A stage that writes the request's body into the tenant's own index (`/{own}/_doc/leak`), then the call. */
const exfiltrating = (route: string) => ({
  routes: [{ path: route, method: 'POST' }],
  stages: [
    { id: 'copy', script: `function handleRequest() { return { request: { method: 'PUT', path: '/${OWN}/_doc/leak', body: JSON.stringify({ copied: context.request.body }) } }; }` },
    { id: 'send', use: 'engineQuery' },
  ],
});

type AdminCall = 'bulk' | 'msearch' | 'mget' | 'lookup';
/** The admin's request to `/{own}/…` that also reaches `target` (through its body). */
function adminCall(url: string, kind: AdminCall, target: string): Promise<Reply> {
  switch (kind) {
    case 'bulk':
      return call(url, 'POST', `/${OWN}/_bulk`, { body: ndjson([{ index: { _index: target, _id: 'by-admin' } }, { tag: MARK }]), headers: NDJSON });
    case 'msearch':
      return call(url, 'POST', `/${OWN}/_msearch`, { body: ndjson([{ index: target }, { query: { term: { tag: MARK } } }]), headers: NDJSON });
    case 'mget':
      return call(url, 'POST', `/${OWN}/_mget`, { body: { docs: [{ _index: target, _id: '1' }] } });
    case 'lookup':
      return call(url, 'POST', `/${OWN}/_search`, { body: { query: { terms: { tag: { index: target, id: '1', path: 'tag' } } } } });
  }
}
const routeFor = (kind: AdminCall) => ({ bulk: '_bulk', msearch: '_msearch', mget: '_mget', lookup: '_search' })[kind];

const pipelineCase = fc.record({
  kind: fc.constantFrom<AdminCall>('bulk', 'msearch', 'mget', 'lookup'),
  /** The route as the tenant registers it: its own index, or the `{index}` parameter. */
  literal: fc.boolean(),
  /** What else the admin's request reaches. */
  target: fc.constantFrom(FOREIGN, 'tenant-*', `${OWN},${FOREIGN}`, '_all', 'alias-b'),
});

for (const backend of BACKENDS) {
  describe(`review: a hostile tenant against the gateway's features (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;
    let other: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      ({ tenant, other } = await seed(gw.url));
      const alias = await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: FOREIGN, alias: 'alias-b' } }] } });
      expect(alias.status, alias.text).to.equal(200);
    });
    after(() => stop?.());

    describe("1. a tenant's pipeline claims no request that also reaches another index", () => {
      it('property: the admin\'s _bulk, _msearch, _mget or lookup to /{own}/… reaching another index never runs the tenant\'s stages', async () => {
        await fc.assert(
          fc.asyncProperty(pipelineCase, async ({ kind, literal, target }) => {
            const what = `${kind} via ${literal ? OWN : '{index}'} → ${target}`;
            const reg = await call(gw.url, 'PUT', '/_pipeline/exfil', { auth: tenant, body: exfiltrating(`/${literal ? OWN : '{index}'}/${routeFor(kind)}`) });
            expect(reg.status, reg.text).to.be.oneOf([200, 201]);
            await call(gw.url, 'DELETE', `/${OWN}/_doc/leak?refresh=true`);
            const answer = await adminCall(gw.url, kind, target);
            // the admin's request went to its built-in route: the engine's answer, not the stage's write
            expect(answer.json?._id, `${what}: ${answer.text.slice(0, 300)}`).not.to.equal('leak');
            const leak = await call(gw.url, 'GET', `/${OWN}/_doc/leak`, { auth: tenant });
            expect(leak.status, `${what}: ${leak.text.slice(0, 300)}`).to.equal(404);
            expect(leak.text).not.to.include(MARK);
          }),
          { seed: 3201, numRuns: 24 },
        );
        await call(gw.url, 'DELETE', `/${FOREIGN}/_doc/by-admin`);
      });

      it('the same pipeline still claims a request that reaches the tenant\'s own index only', async () => {
        const reg = await call(gw.url, 'PUT', '/_pipeline/exfil', { auth: tenant, body: exfiltrating(`/${OWN}/_bulk`) });
        expect(reg.status, reg.text).to.be.oneOf([200, 201]);
        const answer = await call(gw.url, 'POST', `/${OWN}/_bulk`, { body: ndjson([{ index: { _id: 'mine' } }, { tag: 'own' }]), headers: NDJSON });
        expect(answer.status, answer.text).to.be.oneOf([200, 201]);
        expect(answer.json._id, answer.text).to.equal('leak');
        expect((await call(gw.url, 'GET', `/${OWN}/_doc/leak`, { auth: tenant })).status).to.equal(200);
        expect((await call(gw.url, 'DELETE', '/_pipeline/exfil', { auth: tenant })).status).to.equal(200);
        await call(gw.url, 'DELETE', `/${OWN}/_doc/leak`);
      });
    });

    describe('2. analytics events name only the searches of the index they are sent to', () => {
      it("another tenant's search id is refused in a click, a conversion, a search event and the header events; its record stays its own", async () => {
        const searched = await call(gw.url, 'POST', `/${FOREIGN}/_reactivesearch.v3`, { auth: other, body: { query: [{ id: 'r', dataField: 'title', value: 'hello' }], settings: { recordAnalytics: true } } });
        expect(searched.status, searched.text).to.equal(200);
        const theirs = String(searched.headers['x-search-id']);
        expect(theirs).to.match(/^[0-9a-f-]{36}$/);
        const attempts: Array<[string, string, Record<string, unknown> | undefined, Record<string, string>]> = [
          ['click', `/${OWN}/_analytics/click`, { query_id: theirs, click_on: { '1': 1 } }, {}],
          ['conversion', `/${OWN}/_analytics/conversion`, { query_id: theirs, conversion_on: ['1'] }, {}],
          ['search event', `/${OWN}/_analytics/search`, { query_id: theirs, query: 'overwritten' }, {}],
          ['header click', `/${OWN}/_analytics`, undefined, { 'x-search-id': theirs, 'x-search-click': '1' }],
          ['header conversion', `/${OWN}/_analytics`, undefined, { 'x-search-id': theirs, 'x-search-conversion': '1' }],
        ];
        for (const [name, path, body, headers] of attempts) {
          const res = await call(gw.url, 'POST', path, { auth: tenant, body, headers });
          expect(res.status, `${name}: ${res.text}`).to.equal(404);
          expect(res.json.error.type, name).to.equal('resource_not_found_exception');
        }
        // the tenant's own search and events are recorded as before
        const own = await call(gw.url, 'POST', `/${OWN}/_analytics/search`, { auth: tenant, body: { query: 'own-marker' } });
        expect(own.status, own.text).to.equal(201);
        const click = await call(gw.url, 'POST', `/${OWN}/_analytics/click`, { auth: tenant, body: { query_id: own.json.query_id, click_on: { '1': 1 } } });
        expect(click.status, click.text).to.equal(200);
        // once the tenant's own marker is stored (what was queued before it is too), each side sees its own search only
        await eventually(async () => {
          const mine = await call(gw.url, 'GET', `/_analytics/${OWN}/popular-searches`, { auth: tenant });
          expect(mine.json.popular_searches.map((p: { key: string }) => p.key)).to.include('own-marker');
        }, 15_000);
        const mine = await call(gw.url, 'GET', `/_analytics/${OWN}/popular-searches`, { auth: tenant });
        expect(mine.json.popular_searches.map((p: { key: string }) => p.key)).to.deep.equal(['own-marker']);
        const foreign = await call(gw.url, 'GET', `/_analytics/${FOREIGN}/popular-searches`);
        expect(foreign.json.popular_searches.map((p: { key: string }) => p.key)).to.deep.equal(['hello']);
      });
    });

    describe("3. a pipeline's stages are held to its owner's field rules, whoever calls it", () => {
      const HIDDEN = 'hidden-value-3f8';
      it("the admin's search through a pipeline of a credential with exclude_fields answers no hidden value, and no stage copies one", async () => {
        const put = await call(gw.url, 'PUT', `/${OWN}/_doc/fr?refresh=true`, { body: { tag: 'fr', secret: HIDDEN } });
        expect(put.status, put.text).to.be.oneOf([200, 201]);
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['docs', 'search', 'pipelines'], ops: ['read', 'write'], exclude_fields: ['secret'] } });
        expect(made.status, made.text).to.equal(201);
        const ruled = basic(made.json.credential.username, made.json.password);
        const direct = await call(gw.url, 'GET', `/${OWN}/_doc/fr`, { auth: ruled });
        expect(direct.text, 'the rule holds for its own requests').not.to.include(HIDDEN);
        const reg = await call(gw.url, 'PUT', '/_pipeline/field-rules', {
          auth: ruled,
          body: {
            routes: [{ path: `/${OWN}/_search`, method: 'POST' }],
            stages: [
              { id: 'search', use: 'engineQuery' },
              { id: 'copy', script: `function handleRequest() { return { request: { method: 'PUT', path: '/${OWN}/_doc/copied', body: JSON.stringify({ copied: JSON.stringify(context.response.body) }) } }; }` },
              { id: 'write', use: 'engineQuery' },
            ],
          },
        });
        expect(reg.status, reg.text).to.equal(201);
        const answer = await call(gw.url, 'POST', `/${OWN}/_search`, { body: { query: { term: { tag: 'fr' } } } });
        expect(answer.text).not.to.include(HIDDEN);
        const copied = await call(gw.url, 'GET', `/${OWN}/_doc/copied`, { auth: ruled });
        expect(copied.text).not.to.include(HIDDEN);
        expect((await call(gw.url, 'DELETE', '/_pipeline/field-rules')).status).to.equal(200);
        await call(gw.url, 'DELETE', `/${OWN}/_doc/copied`);
        await call(gw.url, 'DELETE', `/${OWN}/_doc/fr?refresh=true`);
      });
    });

    describe('4. rules and relevancy settings of a credential with field rules read no hidden field', () => {
      const fieldSpelling = fc.constantFrom('secret', 'secret.raw', 'secret.keyword', 'secr*', '*');
      const hiddenAction = fc.oneof(
        fieldSpelling.map((f) => ({ add_filter: { [f]: 'guess' } })),
        fieldSpelling.map((f) => ({ search_settings: { dataField: f } })),
        fieldSpelling.map((f) => ({ search_settings: { dataField: [{ field: f, weight: 2 }, 'title'] } })),
        fieldSpelling.map((f) => ({ search_settings: { includeFields: [f] } })),
        fieldSpelling.map((f) => ({ replace_search_term: 'guess', search_settings: { highlight: true, highlightField: [f] } })),
      );
      let ruled: string;
      before(async () => {
        const put = await call(gw.url, 'PUT', `/${OWN}/_doc/oracle?refresh=true`, { body: { tag: 'oracle', title: 'hello', secret: 'guess' } });
        expect(put.status, put.text).to.be.oneOf([200, 201]);
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['search', 'declarative', 'rules', 'searchrelevancy'], ops: ['read', 'write', 'delete'], exclude_fields: ['secret'] } });
        expect(made.status, made.text).to.equal(201);
        ruled = basic(made.json.credential.username, made.json.password);
      });
      after(async () => {
        await call(gw.url, 'DELETE', '/_rule/oracle');
        await call(gw.url, 'DELETE', `/_searchrelevancy/${OWN}`);
        await call(gw.url, 'DELETE', `/${OWN}/_doc/oracle?refresh=true`);
      });

      it('property: a rule or relevancy setting naming a hidden field (or a pattern reaching one) is refused, and no search is filtered by it', async () => {
        await fc.assert(
          fc.asyncProperty(hiddenAction, async (actions) => {
            const what = JSON.stringify(actions);
            const rule = await call(gw.url, 'PUT', '/_rule/oracle', { auth: ruled, body: { trigger: { type: 'always' }, actions } });
            expect(rule.status, `${what}: ${rule.text.slice(0, 300)}`).to.equal(403);
            expect(rule.json.error.type).to.equal('security_exception');
            const settings = (actions as { search_settings?: unknown }).search_settings;
            if (settings) {
              const relevancy = await call(gw.url, 'PUT', `/_searchrelevancy/${OWN}`, { auth: ruled, body: { search: settings } });
              expect(relevancy.status, `${what}: ${relevancy.text.slice(0, 300)}`).to.equal(403);
            }
            // the tenant's searches are as without any rule: the right guess tells nothing
            const found = await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, { auth: ruled, body: { query: [{ id: 'r', dataField: 'tag', value: 'oracle' }] } });
            expect(found.status, found.text).to.equal(200);
            expect(found.json.r.hits.total.value, what).to.equal(1);
          }),
          { seed: 3204, numRuns: 20 },
        );
      });

      it('rules and settings on visible fields are stored and applied as before', async () => {
        const rule = await call(gw.url, 'PUT', '/_rule/oracle', { auth: ruled, body: { trigger: { type: 'always' }, actions: { add_filter: { tag: 'nothing-has-this' }, search_settings: { dataField: 'title', includeFields: ['tag'] } } } });
        expect(rule.status, rule.text).to.be.oneOf([200, 201]);
        const filtered = await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, { auth: ruled, body: { query: [{ id: 'r', dataField: 'tag', value: 'oracle' }] } });
        expect(filtered.json.r.hits.total.value, filtered.text).to.equal(0);
        expect((await call(gw.url, 'DELETE', '/_rule/oracle', { auth: ruled })).status).to.equal(200);
        const relevancy = await call(gw.url, 'PUT', `/_searchrelevancy/${OWN}`, { auth: ruled, body: { search: { dataField: 'title', highlightField: 'title' } } });
        expect(relevancy.status, relevancy.text).to.be.oneOf([200, 201]);
      });
    });

    describe('the attacks that held stay held', () => {
      const noMark = (r: { status: number; text: string }, what: string) => expect(r.text, what).not.to.include(MARK);

      it('WebSocket: upgrades to another app, a wildcard or a system index, and frames naming them, read nothing outside the tenant', async () => {
        for (const path of [`/${FOREIGN}`, '/%74enant-b', `//${FOREIGN}`, `/${OWN}%2F..%2F${FOREIGN}`, `/${OWN},${FOREIGN}`, '/*', '/.gateway-credentials', '/alias-b']) {
          const frame = await new Promise<string>((resolve) => {
            const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + path, { headers: { authorization: tenant } });
            ws.once('open', () => {
              ws.once('message', (d) => {
                resolve(String(d));
                ws.close();
              });
              ws.send(JSON.stringify({ id: 'x', path: `${decodeURIComponent(path.replace(/^\/+/, ''))}/_search` }));
            });
            ws.once('unexpected-response', (_req, res) => resolve(`upgrade ${res.statusCode}`));
            ws.once('error', (e) => resolve(`error ${e.message}`));
          });
          noMark({ status: 0, text: frame }, `upgrade ${path}`);
          if (frame.startsWith('{')) {
            const parsed = JSON.parse(frame) as { status?: number; channel?: string };
            // a subscription opened only where the tenant's own indices answer it (`*` narrowed to them)
            if (parsed.channel === undefined) expect(parsed.status, `${path}: ${frame}`).to.be.oneOf([400, 403, 404]);
            else expect(path).to.equal('/*');
          } else {
            expect(frame, path).to.match(/^upgrade 4\d\d$/);
          }
        }
      });

      it('WebSocket frames: encodings, a `source` beside a body, lookups and another credential', async () => {
        const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/' + OWN, { headers: { authorization: tenant } });
        await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
        const lookup = { query: { terms: { tag: { index: FOREIGN, id: '1', path: 'tag' } } } };
        const frames: Array<Record<string, unknown>> = [
          { path: `${FOREIGN}/_search` },
          { path: `${OWN}/../${FOREIGN}/_search` },
          { path: `${OWN}%2F..%2F${FOREIGN}/_search` },
          { path: `//${FOREIGN}/_search` },
          { path: `${OWN},${FOREIGN}/_search` },
          { path: `${OWN}/_search`, body: lookup },
          { path: `${OWN}/_search?%73ource=${encodeURIComponent(JSON.stringify(lookup))}` },
          { path: `${OWN}/_search?source=${encodeURIComponent(JSON.stringify(lookup))}`, body: { query: { match_all: {} } } },
          { path: `${OWN}/_search?index=${FOREIGN}` },
          { path: `${OWN}/_doc/1?pipeline=p` },
          { path: `${OWN}/_search?streamonly=true&since=${encodeURIComponent(`${FOREIGN}:0`)}` },
          { path: `${FOREIGN}/_search`, authorization: other },
          { path: `${OWN}/_search`, body: { query: { match_all: {} }, aggs: { i: { terms: { field: '_index' } } } } },
        ];
        let n = 0;
        for (const f of frames) {
          const id = `f${n++}`;
          const answer = answerTo(ws, id);
          ws.send(JSON.stringify({ id, ...f }));
          const text = await answer;
          noMark({ status: 0, text }, JSON.stringify(f));
          const parsed = JSON.parse(text) as { status?: number; body?: { hits?: { hits?: Array<{ _index: string }> } } };
          if (parsed.status !== undefined) expect(parsed.status, `${JSON.stringify(f)}: ${text.slice(0, 300)}`).to.be.within(400, 499);
          for (const hit of parsed.body?.hits?.hits ?? []) expect(hit._index).to.equal(OWN);
          ws.send(JSON.stringify({ id, unsubscribe: true }));
        }
        ws.close();
      });

      it('declarative: component indices, raw DSL lookups and suggestion sources outside the tenant are refused (4xx), never answered', async () => {
        const termsLookup = (index: string) => ({ query: { terms: { tag: { index, id: '1', path: 'tag' } } } });
        const bodies: Array<[string, unknown]> = [
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: FOREIGN }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: 'tenant-*' }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: `${OWN},${FOREIGN}` }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: 'alias-b' }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: '.gateway-credentials' }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', index: `${OWN}/../${FOREIGN}` }] }],
          ['/_reactivesearch.v3', { query: [{ id: 'r', dataField: 'title', index: '*' }] }],
          ['/_reactivesearch.v3', { query: [{ id: 'r', dataField: 'title', index: '_all' }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', defaultQuery: termsLookup('tenant-*') }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', defaultQuery: termsLookup('alias-b') }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', defaultQuery: { query: { geo_shape: { loc: { indexed_shape: { index: FOREIGN, id: '1', path: 'tag' } } } } } }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', defaultQuery: { query: { match_all: {} }, post_filter: termsLookup(FOREIGN).query } }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', react: { and: ['q'] } }, { id: 'q', dataField: 'tag', type: 'term', index: FOREIGN, execute: false, value: MARK }] }],
          [`/${OWN}/_reactivesearch.v3`, { query: [{ id: 'r', dataField: 'title', react: { and: ['q'] } }, { id: 'q', dataField: 'tag', type: 'term', execute: false, customQuery: termsLookup(FOREIGN) }] }],
          [`/${OWN}/_reactivesearch`, { query: [{ id: 'r', dataField: 'title', index: FOREIGN }] }],
          ['/_declarative', { query: [{ id: 'r', dataField: 'title', index: FOREIGN }] }],
        ];
        for (const [path, body] of bodies) {
          const res = await call(gw.url, 'POST', path, { auth: tenant, body });
          const what = `${path} ${JSON.stringify(body)}: ${res.text.slice(0, 300)}`;
          expect(res.status, what).to.be.within(400, 499);
          noMark(res, what);
        }
        const suggestions = await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, {
          auth: tenant,
          body: { query: [{ id: 's', dataField: 'title', type: 'suggestion', value: 'hel', enablePopularSuggestions: true, popularSuggestionsConfig: { index: FOREIGN }, enableRecentSuggestions: true, recentSuggestionsConfig: { index: FOREIGN } }] },
        });
        expect(suggestions.status, suggestions.text).to.equal(200);
        noMark(suggestions, 'suggestions from another index\'s analytics');
      });

      it('cache, relevancy and rules of another index: refused, listed for the owner only', async () => {
        for (const path of [`/_cache/${FOREIGN}`, '/_cache/%74enant-b', '/_cache/tenant-*', '/_cache/_all', '/_cache/*', `/_cache/${OWN},${FOREIGN}`]) {
          expect((await call(gw.url, 'DELETE', path, { auth: tenant })).status, `DELETE ${path}`).to.equal(403);
        }
        for (const path of [`/_searchrelevancy/${FOREIGN}`, '/_searchrelevancy/%74enant-b', '/_searchrelevancy/tenant-*', '/_searchrelevancy/_all', '/_searchrelevancy/*']) {
          expect((await call(gw.url, 'PUT', path, { auth: tenant, body: { search: { size: 1 } } })).status, `PUT ${path}`).to.equal(403);
          expect((await call(gw.url, 'GET', path, { auth: tenant })).status, `GET ${path}`).to.equal(403);
        }
        const rule = await call(gw.url, 'PUT', '/_rule/admin-rule', { body: { trigger: { type: 'always', indices: [FOREIGN] }, actions: { custom_data: { m: MARK } } } });
        expect(rule.status, rule.text).to.equal(201);
        noMark(await call(gw.url, 'GET', '/_rules', { auth: tenant }), 'rules list');
        expect((await call(gw.url, 'GET', '/_rule/admin-rule', { auth: tenant })).status).to.equal(403);
        expect((await call(gw.url, 'PUT', '/_rule/admin-rule', { auth: tenant, body: { trigger: { type: 'always' }, actions: { custom_data: 1 } } })).status).to.equal(403);
        expect((await call(gw.url, 'PUT', '/_rule/t-rule', { auth: tenant, body: { trigger: { type: 'always', indices: ['tenant-*'] }, actions: { custom_data: 1 } } })).status).to.equal(403);
        // a promoted document of another index is not fetched into the tenant's answers
        const promote = await call(gw.url, 'PUT', '/_rule/t-promote', { auth: tenant, body: { trigger: { type: 'always' }, actions: { promote: [{ doc: { _index: FOREIGN, _id: '1' }, position: 1 }] } } });
        expect(promote.status, promote.text).to.equal(201);
        noMark(await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, { auth: tenant, body: { query: [{ id: 'r', dataField: 'title', value: 'hello' }] } }), 'promoted');
        await call(gw.url, 'DELETE', '/_rule/t-promote', { auth: tenant });
        await call(gw.url, 'DELETE', '/_rule/admin-rule');
      });

      it('typed documents and streams of another index, an alias of it or a wildcard: refused or narrowed to the tenant', async () => {
        for (const path of [`/${FOREIGN}/t/1`, '/%74enant-b/t/1', '/alias-b/t/1', `/${OWN},${FOREIGN}/t/1`, `/${FOREIGN}/_doc/1?stream=true`, '/alias-b/_doc/1?stream=true', '/%74enant-b/_doc/1?streamonly=true']) {
          const res = await call(gw.url, 'GET', path, { auth: tenant });
          // a typed document's index is one name: `tenant-a,tenant-b` is refused as the invalid name it is
          const refused = path.includes(',') ? { status: 400, type: 'invalid_index_name_exception' } : { status: 403, type: 'security_exception' };
          expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(refused.status);
          expect(res.json.error.type, path).to.equal(refused.type);
          noMark(res, path);
        }
        const slashed = await call(gw.url, 'GET', `/${OWN}/t/..%2F..%2F${FOREIGN}%2F_doc%2F1`, { auth: tenant });
        expect(slashed.status, slashed.text).to.equal(404);
        expect(slashed.json._index).to.equal(OWN);
      });
    });
  });
}

describe('review: a tenant pipeline on /{own}/_bulk writes nothing of the admin\'s other-index lines (HTTP backend, recorded)', function () {
  this.timeout(120_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let stop: (() => Promise<void>) | undefined;
  let tenant: string;

  before(async () => {
    ({ upstream, gateway: gw, stop } = await startRecordedGateway());
    ({ tenant } = await seed(gw.url));
  });
  after(() => stop?.());

  it('what reaches the engine is the admin\'s request, not a stage\'s copy of it into the tenant\'s index', async () => {
    for (const kind of ['bulk', 'msearch', 'mget', 'lookup'] as const) {
      const reg = await call(gw.url, 'PUT', '/_pipeline/exfil', { auth: tenant, body: exfiltrating(`/{index}/${routeFor(kind)}`) });
      expect(reg.status, reg.text).to.be.oneOf([200, 201]);
      upstream.clear();
      await adminCall(gw.url, kind, FOREIGN);
      const copies = upstream.requests.filter((r) => r.path.startsWith(`/${OWN}/_doc/`) && r.method === 'PUT');
      expect(copies.map((r) => `${r.method} ${r.path} ${r.body.slice(0, 200)}`), kind).to.deep.equal([]);
    }
  });
});
