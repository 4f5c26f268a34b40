import { expect } from 'chai';
import { ANALYTICS_INDEX } from '../../lib/analytics/index.js';
import { callJson } from '../../lib/engine/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { within } from '../support/within.js';

const BOOKS = [
  { id: '1', title: 'The Book of Dust', genre: 'fantasy' },
  { id: '2', title: 'Bookshop Memories', genre: 'essay' },
  { id: '3', title: 'Dune', genre: 'sf' },
];

/** A search box (`box`) reacting to a genre facet (`genre`), as ReactiveSearch sends it. */
const session = (value: string, settings: Record<string, unknown>, genre?: string) => ({
  query: [
    { id: 'box', type: 'search', dataField: ['title'], value, index: 'books', react: { and: ['genre'] } },
    { id: 'genre', type: 'term', dataField: 'genre.keyword', index: 'books', value: genre ? [genre] : undefined, execute: false },
  ],
  settings: { recordAnalytics: true, ...settings },
});

for (const backend of BACKENDS) {
  describe(`search analytics: recording (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    const get = (path: string, auth?: string) => call(gw.url, 'GET', path, { auth });
    /** What the analytics index holds, read as the gateway's own store reads it. */
    const stored = async (query: unknown = { match_all: {} }) =>
      (await callJson<{ hits?: { hits: Array<{ _id: string; _source: Record<string, unknown> }> } }>(gw.backend, 'POST', `/${ANALYTICS_INDEX}/_search`, { query, size: 1000, sort: [{ time: 'asc' }] })).body.hits?.hits ?? [];

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ ANALYTICS_STREAM_INTERVAL_MS: '100' }));
      for (const b of BOOKS) await call(gw.url, 'PUT', `/books/_doc/${b.id}?refresh=true`, { body: b });
      await call(gw.url, 'PUT', '/films/_doc/1?refresh=true', { body: { title: 'Alien' } });
    });
    after(() => stop());

    it('a declarative session — keystrokes, a facet, a click, a conversion — is one search with its click and conversion in every endpoint', async () => {
      const settings = { userId: 'ana', customEvents: { platform: 'android' } };
      const ids: string[] = [];
      for (const typed of ['b', 'bo', 'boo', 'book']) {
        const res = await call(gw.url, 'POST', '/_declarative', { body: session(typed, settings, 'fantasy') });
        expect(res.status, JSON.stringify(res.json)).to.equal(200);
        ids.push(String(res.headers['x-search-id']));
      }
      // search-as-you-type: the keystrokes of one user are one search, the last one
      expect(new Set(ids).size).to.equal(1);
      const searchId = ids[0];
      expect((await call(gw.url, 'PUT', '/books/_analytics/click', { body: { query_id: searchId, click_on: { '1': 1 }, click_type: 'result' } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/books/_analytics/conversion', { body: { query_id: searchId, conversion_on: ['1'] } })).status).to.equal(200);
      // another user finds nothing
      const none = await call(gw.url, 'POST', '/_declarative', { body: session('zzzz', { userId: 'bob' }) });
      expect(none.json.box.hits.total.value).to.equal(0);

      await within(10_000, async () => (await get('/_analytics/books/summary')).json.total_searches === 2 && (await get('/_analytics/books/summary')).json.total_conversions === 1);
      const summary = (await get('/_analytics/books/summary')).json;
      expect(summary).to.include({ total_searches: 2, total_no_results_searches: 1, total_clicks: 1, total_conversions: 1, total_users: 2 });
      const popular = (await get('/_analytics/popular-searches?click_analytics=true')).json.popular_searches;
      const book = popular.find((p: { key: string }) => p.key === 'book');
      expect(book).to.include({ count: 1, clicks: 1 });
      expect(popular.map((p: { key: string }) => p.key)).not.to.include('bo');
      expect((await get('/_analytics/no-result-searches')).json.no_results_searches).to.deep.equal([{ key: 'zzzz', count: 1 }]);
      const filters = (await get('/_analytics/books/popular-filters')).json.popular_filters;
      expect(filters).to.deep.include({ key: 'genre.keyword', value: 'fantasy', count: 1 });
      // custom events filter: ana's search was on android
      expect((await get('/_analytics/books/summary?platform=android')).json.total_searches).to.equal(1);
      expect((await get('/_analytics/books/summary?platform=ios')).json.total_searches).to.equal(0);
      const recent = (await get('/_analytics/recent-searches?user_id=ana')).json.recent_searches;
      expect(recent.map((r: { key: string }) => r.key)).to.deep.equal(['book']);
      // what was stored: the credential's name, never a secret
      const records = await stored();
      const text = JSON.stringify(records);
      expect(text).not.to.match(/authorization|Basic |password/i);
      const search = records.find((r) => r._id === searchId)!._source;
      expect(search).to.include({ type: 'search', query: 'book', user_id: 'ana', index: 'books', credential: 'admin' });
      expect(search.hit_ids).to.deep.equal(['1']);
      expect(search.custom).to.deep.equal(['platform=android']);
    });

    it('settings.emptyQuery records an empty search as <empty_query>; without recordAnalytics nothing is recorded', async () => {
      const before = (await stored()).length;
      await call(gw.url, 'POST', '/_declarative', { body: { ...session('', { userId: 'cy' }), settings: { userId: 'cy' } } });
      const res = await call(gw.url, 'POST', '/_declarative', { body: session('', { userId: 'cy', emptyQuery: true }) });
      expect(res.headers['x-search-id']).to.be.a('string');
      await within(10_000, async () => (await stored()).length === before + 1);
      const last = (await stored({ term: { user_id: 'cy' } }))[0]._source;
      expect(last.query).to.equal('<empty_query>');
    });

    it('a plain _search with appbase headers is recorded, and POST /{index}/_analytics records its click', async () => {
      const res = await call(gw.url, 'POST', '/books/_search', {
        body: { query: { match: { title: 'dune' } } },
        headers: { 'x-search-query': 'dune', 'x-search-filters': 'genre=sf,year=1965', 'x-user-id': 'dee', 'x-search-custom-event': 'platform=ios' },
      });
      expect(res.status).to.equal(200);
      const searchId = String(res.headers['x-search-id']);
      expect(searchId).to.match(/^[0-9a-f-]{36}$/);
      const click = await call(gw.url, 'POST', '/books/_analytics', { headers: { 'x-search-id': searchId, 'x-search-click': '3', 'x-search-click-position': '2' } });
      expect(click.status, JSON.stringify(click.json)).to.equal(200);
      await within(10_000, async () => (await stored({ term: { search_id: searchId } })).length === 2);
      const [search, clicked] = (await stored({ term: { search_id: searchId } })).map((r) => r._source);
      expect(search).to.include({ query: 'dune', user_id: 'dee', hits: 1 });
      expect(search.filters).to.deep.equal(['genre=sf', 'year=1965']);
      expect(clicked).to.include({ type: 'click', query: 'dune', doc_id: '3', position: 2, user_id: 'dee' });
    });

    it('the events API checks what it is sent', async () => {
      const bad = async (path: string, body: unknown) => {
        const res = await call(gw.url, 'PUT', path, { body });
        expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
        return res.json.error.reason as string;
      };
      expect(await bad('/books/_analytics/search', { hits: 3 })).to.include('query');
      expect(await bad('/books/_analytics/click', { query_id: 'x', click_on: { a: 0 } })).to.include('click_on');
      expect(await bad('/books/_analytics/conversion', { query_id: 'x' })).to.include('conversion_on');
      expect((await call(gw.url, 'PUT', '/books/_analytics/view', { body: {} })).status).to.equal(404);
      expect((await call(gw.url, 'POST', '/books/_analytics', {})).status).to.equal(400);
      const created = await call(gw.url, 'PUT', '/books/_analytics/search', { body: { query: 'manual', user_id: 'eve', hits: 0 } });
      expect(created.status).to.equal(201);
      expect(created.json.query_id).to.equal(created.headers['x-search-id']);
    });

    it('a scoped credential sees its own indices’ analytics only', async () => {
      await call(gw.url, 'POST', '/_declarative', { body: { query: [{ id: 'f', type: 'search', dataField: ['title'], value: 'alien', index: 'films' }], settings: { recordAnalytics: true, userId: 'fay' } } });
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['films'], categories: ['analytics', 'search'], ops: ['read'] } });
      const films = basic(made.json.credential.username, made.json.password);
      await within(10_000, async () => (await get('/_analytics/films/popular-searches')).json.popular_searches.length === 1);
      const mine = (await get('/_analytics/popular-searches', films)).json.popular_searches.map((p: { key: string }) => p.key);
      expect(mine).to.deep.equal(['alien']);
      expect((await get('/_analytics/books/popular-searches', films)).status).to.equal(403);
      expect((await get('/_analytics/rules/usage', films)).status).to.equal(403);
    });

    it('stream=true pushes the answer again when a new search changes it', async () => {
      const first = (await get('/_analytics/books/summary')).json.total_searches as number;
      const live = await openStream(gw.url, '/_analytics/books/summary?stream=true');
      try {
        await live.until((m: Reply['json'][]) => m.length >= 1);
        expect(live.messages[0].total_searches).to.equal(first);
        await call(gw.url, 'PUT', '/books/_analytics/search', { body: { query: 'live one', user_id: 'gus' } });
        await live.until((m: Reply['json'][]) => m.some((x) => x.total_searches === first + 1), 10_000);
      } finally {
        live.close();
      }
    });
  });
}

describe('search analytics across gateway nodes (Redis)', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-analytics-', {});
    await call(nodes.a.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => nodes?.stop());

  it('two nodes record into one place, and either answers for both', async () => {
    await call(nodes.a.url, 'POST', '/books/_search', { body: { query: { match: { title: 'dune' } } }, headers: { 'x-search-query': 'dune', 'x-user-id': 'a' } });
    await call(nodes.b.url, 'POST', '/books/_search', { body: { query: { match: { title: 'emma' } } }, headers: { 'x-search-query': 'emma', 'x-user-id': 'b' } });
    await within(10_000, async () => (await call(nodes.b.url, 'GET', '/_analytics/books/summary')).json.total_searches === 2);
    expect((await call(nodes.a.url, 'GET', '/_analytics/no-result-searches')).json.no_results_searches).to.deep.equal([{ key: 'emma', count: 1 }]);
  });
});
