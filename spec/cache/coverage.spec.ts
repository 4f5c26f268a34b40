import { expect } from 'chai';
import { registerPipeline } from '../pipelines/support.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { within } from '../support/within.js';

const cached = (r: { headers: Record<string, unknown> }) => r.headers['x-request-cache'] === 'true';
const ids = (r: Reply) => (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();
const ndjson = (lines: unknown[]) => ({ body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
const stats = async (gw: { url: string }) => (await call(gw.url, 'GET', '/_cache/stats')).json;

for (const backend of BACKENDS) {
  describe(`search cache: what is kept, and when it goes (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    const put = (path: string, body: unknown) => call(gw.url, 'PUT', `${path}${path.includes('?') ? '&' : '?'}refresh=true`, { body });
    const search = (index: string, query: unknown = { match_all: {} }) => call(gw.url, 'POST', `/${index}/_search`, { body: { query, size: 20 } });

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' }));
      await put('/books/_doc/1', { title: 'Dune', genre: 'sf' });
      await put('/books/_doc/2', { title: 'Emma', genre: 'novel' });
      await put('/films/_doc/1', { title: 'Alien', genre: 'sf' });
    });
    after(() => stop());

    it('_msearch is looked up line by line: a line seen before comes from the cache, the others from the engine, in order', async () => {
      const dune = [{ index: 'books' }, { query: { match: { title: 'dune' } } }];
      const emma = [{ index: 'books' }, { query: { match: { title: 'emma' } } }];
      const alien = [{ index: 'films' }, { query: { match: { title: 'alien' } } }];
      const first = await call(gw.url, 'POST', '/_msearch', ndjson([...dune, ...emma]));
      expect(first.status).to.equal(200);
      expect(cached(first)).to.equal(false);
      const before = await stats(gw);
      const second = await call(gw.url, 'POST', '/_msearch', ndjson([...alien, ...emma]));
      const after = await stats(gw);
      expect(after.hits - before.hits).to.equal(1); // emma's line
      expect(after.misses - before.misses).to.equal(1); // alien's
      expect(cached(second)).to.equal(false);
      expect(second.json.responses.map((r: Reply['json']) => r.hits.hits[0]._source.title)).to.deep.equal(['Alien', 'Emma']);
      const third = await call(gw.url, 'POST', '/_msearch', ndjson([...emma, ...alien, ...dune]));
      expect(cached(third)).to.equal(true);
      expect(third.json.responses.map((r: Reply['json']) => r.hits.hits[0]._source.title)).to.deep.equal(['Emma', 'Alien', 'Dune']);
      // a write to films drops its line only
      await put('/films/_doc/2', { title: 'Alien vs Predator', genre: 'sf' });
      const fourth = await call(gw.url, 'POST', '/_msearch', ndjson([...emma, ...alien]));
      expect(cached(fourth)).to.equal(false);
      expect(fourth.json.responses[1].hits.total.value).to.equal(2);
      expect(fourth.json.responses[0].hits.total.value).to.equal(1);
    });

    it('a declarative facet whose inputs did not change is reused while the search box changes', async () => {
      const request = (value: string) => ({
        query: [
          { id: 'box', dataField: 'title', value, index: 'books' },
          { id: 'genres', type: 'term', dataField: 'genre.keyword', index: 'books', aggregationSize: 5 },
        ],
      });
      const first = await call(gw.url, 'POST', '/_declarative', { body: request('dune') });
      expect(first.status, JSON.stringify(first.json)).to.equal(200);
      const before = await stats(gw);
      const second = await call(gw.url, 'POST', '/_declarative', { body: request('emma') });
      const after = await stats(gw);
      expect(second.status).to.equal(200);
      expect(after.hits - before.hits).to.equal(1); // the facet
      expect(after.misses - before.misses).to.equal(1); // the new search box value
      expect(second.json.box.hits.hits[0]._source.title).to.equal('Emma');
      expect(second.json.genres.aggregations['genre.keyword'].buckets.map((b: { key: string }) => b.key).sort()).to.deep.equal(['novel', 'sf']);
    });

    it('_count, _field_caps, _mapping and _settings reads are kept, and go with the change that alters them', async () => {
      const reads = ['/books/_count', '/books/_field_caps?fields=*', '/books/_mapping', '/books/_settings'];
      for (const path of reads) {
        const first = await call(gw.url, 'GET', path);
        expect(first.status, path).to.equal(200);
        const again = await call(gw.url, 'GET', path);
        expect(cached(again), path).to.equal(true);
        expect(again.json, path).to.deep.equal(first.json);
      }
      // a document with a new field changes the count, the field caps and the mapping
      await put('/books/_doc/9', { title: 'Solaris', pages: 204 });
      const count = await call(gw.url, 'GET', '/books/_count');
      expect([cached(count), count.json.count]).to.deep.equal([false, 3]);
      const caps = await call(gw.url, 'GET', '/books/_field_caps?fields=*');
      expect(caps.json.fields).to.have.property('pages');
      const mapping = await call(gw.url, 'GET', '/books/_mapping');
      expect(mapping.json.books.mappings.properties).to.have.property('pages');
      // a settings update through the gateway
      await call(gw.url, 'GET', '/books/_settings');
      expect((await call(gw.url, 'PUT', '/books/_settings', { body: { index: { max_result_window: 5000 } } })).status).to.equal(200);
      const settings = await call(gw.url, 'GET', '/books/_settings');
      expect(cached(settings)).to.equal(false);
      expect(settings.json.books.settings.index.max_result_window).to.equal('5000');
      await call(gw.url, 'DELETE', '/books/_doc/9?refresh=true');
    });

    it('wildcards and aliases: kept under the indices they stand for, dropped when a new index or alias changes that', async () => {
      await search('film*');
      expect(cached(await search('film*'))).to.equal(true);
      // a document written to a new index the wildcard covers (created by the write)
      await put('/films2/_doc/1', { title: 'Brazil', genre: 'satire' });
      const widened = await search('film*');
      expect(cached(widened)).to.equal(false);
      expect(ids(widened)).to.include('1');
      expect(widened.json.hits.total.value).to.equal(3);
      // an alias: a write to its index drops it; so does pointing it at another index
      expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'books', alias: 'library' } }] } })).status).to.equal(200);
      await search('library');
      expect(cached(await search('library'))).to.equal(true);
      await put('/books/_doc/7', { title: 'Ubik', genre: 'sf' });
      const afterWrite = await search('library');
      expect(cached(afterWrite)).to.equal(false);
      expect(ids(afterWrite)).to.include('7');
      expect(cached(await search('library'))).to.equal(true);
      expect((await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'films', alias: 'library' } }] } })).status).to.equal(200);
      const moved = await search('library');
      expect(cached(moved)).to.equal(false);
      expect(moved.json.hits.total.value).to.equal(3 + 2);
      // deleting an index a wildcard covered
      await search('film*');
      expect((await call(gw.url, 'DELETE', '/films2')).status).to.equal(200);
      const narrowed = await search('film*');
      expect(cached(narrowed)).to.equal(false);
      expect(narrowed.json.hits.total.value).to.equal(2);
      await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ remove: { index: '*', alias: 'library' } }] } });
      await call(gw.url, 'DELETE', '/books/_doc/7?refresh=true');
    });

    it('writes in the app style and through a pipeline stage drop the answers of their index', async () => {
      await put('/shop/product/p1', { title: 'Red shoes' });
      await search('shop');
      expect(cached(await search('shop'))).to.equal(true);
      await put('/shop/product/p2', { title: 'Blue hat' });
      const appWrite = await search('shop');
      expect(cached(appWrite)).to.equal(false);
      expect(appWrite.json.hits.total.value).to.equal(2);
      const pipeline = `
id: shop-writer
routes:
  - path: /shop-add/{id}
    method: PUT
    classify:
      category: docs
stages:
  - id: rewrite
    script: |
      function handleRequest() {
        return { request: { ...context.request, path: '/shop/_doc/' + context.request.path.split('/').pop(), query: { refresh: 'true' } } };
      }
  - id: write
    use: engineQuery
`;
      const registered = await registerPipeline(gw.url, pipeline);
      expect(registered.status, JSON.stringify(registered.json)).to.be.lessThan(300);
      expect(cached(await search('shop'))).to.equal(true);
      const written = await call(gw.url, 'PUT', '/shop-add/p3', { body: { title: 'Green scarf' } });
      expect(written.status, JSON.stringify(written.json)).to.be.lessThan(300);
      const viaPipeline = await search('shop');
      expect(cached(viaPipeline)).to.equal(false);
      expect(viaPipeline.json.hits.total.value).to.equal(3);
      await call(gw.url, 'DELETE', '/_pipeline/shop-writer');
    });

    it('the pipeline stage useCache keeps answers even where the preferences do not', async () => {
      const pipeline = `
id: cached-search
routes:
  - path: /cached/{index}/_search
    method: POST
    classify:
      category: search
stages:
  - id: cache
    use: useCache
  - id: rewrite
    script: |
      function handleRequest() {
        return { request: { ...context.request, path: context.request.path.replace('/cached', '') } };
      }
  - id: search
    use: engineQuery
`;
      const registered = await registerPipeline(gw.url, pipeline);
      expect(registered.status, JSON.stringify(registered.json)).to.be.lessThan(300);
      try {
        await call(gw.url, 'POST', '/_cache/preferences', { body: { enable_cache: false } });
        const body = { body: { query: { match: { title: 'dune' } } } };
        await call(gw.url, 'POST', '/books/_search', body);
        expect(cached(await call(gw.url, 'POST', '/books/_search', body))).to.equal(false);
        const first = await call(gw.url, 'POST', '/cached/books/_search', body);
        expect(first.status, JSON.stringify(first.json)).to.equal(200);
        const again = await call(gw.url, 'POST', '/cached/books/_search', body);
        expect(cached(again)).to.equal(true);
        expect(again.json.hits.hits[0]._source.title).to.equal('Dune');
      } finally {
        await call(gw.url, 'POST', '/_cache/preferences', { body: { enable_cache: true } });
        await call(gw.url, 'DELETE', '/_pipeline/cached-search');
      }
    });

    it('preferences: shown with their defaults, checked, applied (enable_cache, indices, max_size), the admin’s to change', async () => {
      const shown = await call(gw.url, 'GET', '/_cache/preferences');
      expect(shown.json).to.include({ enable_cache: true });
      expect(shown.json.indices).to.deep.equal([]);
      expect(shown.json.max_duration).to.be.a('number');
      const bad = await call(gw.url, 'POST', '/_cache/preferences', { body: { max_size: 'big' } });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.include('max_size');
      expect((await call(gw.url, 'POST', '/_cache/preferences', { body: { colour: 'red' } })).status).to.equal(400);
      const created = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['cache', 'search'], ops: ['read', 'write'] } });
      const scoped = basic(created.json.credential.username, created.json.password);
      expect((await call(gw.url, 'POST', '/_cache/preferences', { body: { enable_cache: false }, auth: scoped })).status).to.equal(403);
      expect((await call(gw.url, 'POST', '/_cache/evict', { auth: scoped })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_cache/preferences', { auth: scoped })).status).to.equal(200);
      try {
        const onlyFilms = await call(gw.url, 'POST', '/_cache/preferences', { body: { indices: ['film*'] } });
        expect(onlyFilms.json).to.include({ enable_cache: true });
        expect(onlyFilms.json.indices).to.deep.equal(['film*']);
        await search('books');
        expect(cached(await search('books'))).to.equal(false);
        await search('films');
        expect(cached(await search('films'))).to.equal(true);
        const small = await call(gw.url, 'POST', '/_cache/preferences', { body: { indices: [], max_size: 0.001 } });
        expect(small.json.max_size).to.equal(0.001);
        expect((await stats(gw)).max_bytes).to.equal(Math.round(0.001 * 1024 ** 2));
      } finally {
        await call(gw.url, 'POST', '/_cache/preferences', { body: { indices: [], max_size: 64 } });
      }
      expect((await stats(gw)).max_bytes).to.equal(64 * 1024 ** 2);
    });
  });
}

describe('search cache preferences across gateway nodes (Redis)', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-cache-prefs-', { CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' });
    await call(nodes.a.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => nodes?.stop());

  it('preferences stored through node A are in force on node B; an index created through A widens B’s wildcard answers', async () => {
    const search = () => call(nodes.b.url, 'POST', '/bo*/_search', { body: { query: { match_all: {} } } });
    await search();
    expect(cached(await search())).to.equal(true);
    await call(nodes.a.url, 'PUT', '/books2/_doc/1?refresh=true', { body: { title: 'Emma' } });
    await within(3_000, async () => (await search()).json.hits.total.value === 2);
    await call(nodes.a.url, 'POST', '/_cache/preferences', { body: { enable_cache: false } });
    await within(3_000, async () => (await call(nodes.b.url, 'GET', '/_cache/preferences')).json.enable_cache === false);
    await search();
    expect(cached(await search())).to.equal(false);
    await call(nodes.a.url, 'POST', '/_cache/preferences', { body: { enable_cache: true } });
  });
});
