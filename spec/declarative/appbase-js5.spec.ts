import { expect } from 'chai';
import { createRequire } from 'node:module';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { ADMIN, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

const require = createRequire(import.meta.url);

type Json = any;
/** appbase-js 5: the ReactiveSearch client, written by others, as an app uses it (installed as `appbase-js5`). */
interface AppbaseClient {
  reactiveSearchv3(query: object[], settings?: object): Promise<Json>;
  reactiveSearch(query: object[], settings?: object): Promise<Json>;
  getQuerySuggestions(query: object[], settings?: object): Promise<Json>;
  search(args: { type?: string; body: object }): Promise<Json>;
  msearch(args: { type?: string; body: object[] }): Promise<Json>;
  get(args: { type?: string; id: string }): Promise<Json>;
  index(args: { type?: string; id?: string; body: object; refresh?: string }): Promise<Json>;
  update(args: { type?: string; id: string; body: object; refresh?: string }): Promise<Json>;
  delete(args: { type?: string; id: string; refresh?: string }): Promise<Json>;
  bulk(args: { type?: string; body: object[]; refresh?: string }): Promise<Json>;
  getMappings(): Promise<Json>;
}
const Appbase = require('appbase-js5') as (config: { url: string; app: string; credentials?: string; enableTelemetry?: boolean }) => AppbaseClient;

const BOOKS = [
  { title: 'Dune', author: 'Frank Herbert', genre: 'sf', year: 1965, pages: 412 },
  { title: 'Dune Messiah', author: 'Frank Herbert', genre: 'sf', year: 1969, pages: 256 },
  { title: 'Neuromancer', author: 'William Gibson', genre: 'sf', year: 1984, pages: 271 },
  { title: 'Emma', author: 'Jane Austen', genre: 'novel', year: 1815, pages: 474 },
  { title: 'Persuasion', author: 'Jane Austen', genre: 'novel', year: 1817, pages: 249 },
  { title: 'The Hobbit', author: 'J. R. R. Tolkien', genre: 'fantasy', year: 1937, pages: 310 },
];

/** appbase-js throws the fetch Response of an answer that is not 2xx: an Error that says its status and body instead. */
async function answered<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (thrown) {
    const res = thrown as { status?: unknown; text?: () => Promise<string> };
    if (typeof res?.status === 'number' && typeof res.text === 'function') throw new Error(`appbase-js was answered ${res.status}: ${await res.text()}`);
    throw thrown;
  }
}

const titles = (r: Json) => (r.hits.hits as Array<{ _source: { title: string } }>).map((h) => h._source.title);

/**
 * A search UI's components as ReactiveSearch sends them: a search box, a suggestion box, a term
 * facet and a range reacting to each other, and a result list.
 */
const searchUi = (text: string, genres: string[], years: { start: number; end: number }) => [
  { id: 'search', type: 'search', dataField: ['title', 'author'], value: text, execute: false },
  { id: 'suggest', type: 'suggestion', dataField: ['title'], value: text, size: 5, react: { and: ['genre'] } },
  { id: 'genre', type: 'term', dataField: ['genre'], value: genres, react: { and: ['search', 'year'] }, aggregationSize: 10 },
  { id: 'year', type: 'range', dataField: ['year'], value: years, react: { and: ['search', 'genre'] } },
  { id: 'results', type: 'search', dataField: ['title'], react: { and: ['search', 'genre', 'year'] }, size: 10, sortBy: 'asc' },
];

for (const backend of BACKENDS) {
  describe(`appbase-js 5 against the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let books: AppbaseClient;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await call(gw.url, 'PUT', '/books', {
        body: { mappings: { properties: { title: { type: 'text', fields: { keyword: { type: 'keyword' } } }, author: { type: 'text' }, genre: { type: 'keyword' }, year: { type: 'integer' }, pages: { type: 'integer' } } } },
      });
      expect(created.status, created.text).to.equal(200);
      books = Appbase({ url: gw.url, app: 'books', credentials: `${ADMIN.user}:${ADMIN.password}` });
      const bulk = await books.bulk({ body: BOOKS.flatMap((b, i) => [{ index: { _id: `b${i + 1}` } }, b]), refresh: 'true' });
      expect(bulk.errors).to.equal(false);
      expect(bulk.items).to.have.length(BOOKS.length);
    });
    after(() => stop());

    it('reactiveSearchv3: search, suggestion, term, range and result components reacting to each other', async () => {
      const r = await books.reactiveSearchv3(searchUi('dune', ['sf'], { start: 1960, end: 1970 }));
      expect(Object.keys(r).filter((k) => !k.startsWith('_')).sort()).to.deep.equal(['genre', 'results', 'settings', 'suggest', 'year']);
      expect(r.settings.took).to.be.a('number');
      expect(titles(r.results)).to.deep.equal(['Dune', 'Dune Messiah']); // sorted by title
      expect(r.genre.aggregations.genre.buckets).to.deep.equal([{ key: 'sf', doc_count: 2 }]);
      expect(r.year.aggregations.min.value).to.equal(1965);
      expect(r.year.aggregations.max.value).to.equal(1969);
      expect(r.suggest.hits.hits.map((h: Json) => h.value)).to.deep.equal(['Dune', 'Dune Messiah']);
      expect(r.suggest.hits.hits[0]).to.include({ _suggestion_type: 'index', label: 'Dune' });

      const austen = await books.reactiveSearchv3(searchUi('austen', ['novel'], { start: 1800, end: 1816 }));
      expect(titles(austen.results)).to.deep.equal(['Emma']);
      // the facet counts within the range it reacts to: Emma (1815), not Persuasion (1817)
      expect(austen.genre.aggregations.genre.buckets).to.deep.equal([{ key: 'novel', doc_count: 1 }]);
    });

    it('reactiveSearch (the first API version) answers the same', async () => {
      const r = await books.reactiveSearch(searchUi('herbert', ['sf'], { start: 1900, end: 2000 }));
      expect(titles(r.results)).to.deep.equal(['Dune', 'Dune Messiah']);
      expect(r.genre.aggregations.genre.buckets).to.deep.equal([{ key: 'sf', doc_count: 2 }]);
    });

    it('recordAnalytics: the answer carries X-Search-Id, and the analytics endpoints see the search', async () => {
      const r = await books.reactiveSearchv3(
        [{ id: 'search', dataField: ['title'], value: 'neuromancer' }],
        { recordAnalytics: true, userId: 'reader-1', customEvents: { platform: 'node' } },
      );
      expect(titles(r.search)).to.deep.equal(['Neuromancer']);
      const searchId = r._headers.get('x-search-id');
      expect(searchId).to.be.a('string').and.not.equal('');
      // recording is in the background: wait for the endpoint to see it
      await within(20_000, async () => {
        const popular = await call(gw.url, 'GET', '/_analytics/books/popular-searches?platform=node');
        return popular.status === 200 && popular.json.popular_searches.some((p: Json) => p.key === 'neuromancer' && p.count === 1);
      });
      const recent = await call(gw.url, 'GET', '/_analytics/books/recent-searches?user_id=reader-1');
      expect(recent.json.recent_searches.map((s: Json) => s.key)).to.include('neuromancer');
    });

    it('getQuerySuggestions: popular searches, from search analytics', async () => {
      for (const user of ['reader-2', 'reader-3']) await books.reactiveSearchv3([{ id: 'search', dataField: ['title'], value: 'persuasion' }], { recordAnalytics: true, userId: user });
      await within(20_000, async () => {
        const popular = await call(gw.url, 'GET', '/_analytics/books/popular-searches');
        return popular.json.popular_searches?.some((p: Json) => p.key === 'persuasion' && p.count === 2);
      });
      const r = await books.getQuerySuggestions([{ id: 'qs', type: 'suggestion', dataField: ['key', 'key.autosuggest'], value: 'pers', size: 5 }]);
      expect(r.qs.hits.hits.map((h: Json) => [h._source.key, h._source.count])).to.deep.equal([['persuasion', 2]]);
      expect(r.qs.hits.hits[0]).to.include({ value: 'persuasion', _suggestion_type: 'popular' });
    });

    it('getQuerySuggestions with a scoped credential: the popular searches of its own indices', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['declarative'], ops: ['read'] } });
      expect(made.status, JSON.stringify(made.json)).to.equal(201);
      const scoped = Appbase({ url: gw.url, app: 'books', credentials: `${made.json.credential.username}:${made.json.password}` });
      const r = await answered(scoped.getQuerySuggestions([{ id: 'qs', type: 'suggestion', dataField: ['key', 'key.autosuggest'], value: 'pers', size: 5 }]));
      expect(r.qs.hits.hits.map((h: Json) => h._source.key)).to.deep.equal(['persuasion']);
    });

    it('search and msearch, with and without the _doc type', async () => {
      const plain = await books.search({ body: { query: { match: { author: 'austen' } }, sort: [{ year: 'asc' }] } });
      expect(titles(plain)).to.deep.equal(['Emma', 'Persuasion']);
      const typed = await books.search({ type: '_doc', body: { query: { match: { title: 'hobbit' } } } });
      expect(titles(typed)).to.deep.equal(['The Hobbit']);
      const multi = await books.msearch({ body: [{}, { query: { match: { title: 'emma' } } }, {}, { query: { term: { genre: 'fantasy' } } }] });
      expect(multi.responses.map((x: Json) => titles(x))).to.deep.equal([['Emma'], ['The Hobbit']]);
      const typedMulti = await books.msearch({ type: '_doc', body: [{}, { query: { match: { title: 'neuromancer' } } }] });
      expect(typedMulti.responses.map((x: Json) => titles(x))).to.deep.equal([['Neuromancer']]);
    });

    it('index, get, update, delete and bulk documents', async () => {
      const indexed = await books.index({ id: 'new-1', body: { title: 'Foundation', author: 'Isaac Asimov', genre: 'sf', year: 1951, pages: 255 }, refresh: 'true' });
      expect(indexed.result).to.equal('created');
      const got = await books.get({ id: 'new-1' });
      expect(got.found).to.equal(true);
      expect(got._source.title).to.equal('Foundation');
      const updated = await books.update({ id: 'new-1', body: { doc: { pages: 256 } }, refresh: 'true' });
      expect(updated.result).to.equal('updated');
      expect((await books.get({ id: 'new-1' }))._source.pages).to.equal(256);
      const auto = await books.index({ body: { title: 'I, Robot', genre: 'sf' }, refresh: 'true' });
      expect(auto.result).to.equal('created');
      expect(auto._id).to.be.a('string');
      const bulk = await books.bulk({ body: [{ delete: { _id: auto._id } }, { update: { _id: 'new-1' } }, { doc: { year: 1952 } }], refresh: 'true' });
      expect(bulk.errors).to.equal(false);
      expect((await books.get({ id: 'new-1' }))._source.year).to.equal(1952);
      const deleted = await books.delete({ id: 'new-1', refresh: 'true' });
      expect(deleted.result).to.equal('deleted');
      const gone = await books.get({ id: 'new-1' }).then(() => undefined, (res: { status: number }) => res);
      expect(gone?.status).to.equal(404);
      const count = await books.search({ body: { query: { match_all: {} }, size: 0, track_total_hits: true } });
      expect(count.hits.total.value).to.equal(BOOKS.length);
    });

    it('getMappings', async () => {
      const mappings = await books.getMappings();
      expect(mappings.books.mappings.properties.title.type).to.equal('text');
      expect(mappings.books.mappings.properties.year.type).to.equal('integer');
    });

    it('an error of every component rejects; an error of some is answered under their ids', async () => {
      const partial = await books.reactiveSearchv3([
        { id: 'ok', dataField: ['title'], value: 'emma' },
        { id: 'bad', type: 'range', dataField: ['year'], value: { start: 'long ago' } },
        { id: 'list', dataField: ['title'], react: { and: ['bad'] } },
      ]);
      expect(titles(partial.ok)).to.deep.equal(['Emma']);
      expect(partial.list.error).to.be.an('object');
      const refused = await books.reactiveSearchv3([{ id: 'a', dataField: ['title'], dataFeild: 'x' }]).then(() => undefined, (res: { status: number }) => res);
      expect(refused?.status).to.equal(400);
    });
  });
}
