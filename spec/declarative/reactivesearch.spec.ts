import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';
import { PRODUCTS, PRODUCTS_MAPPINGS, PRODUCTS_SETTINGS } from './reactivesearch-fixtures.js';

type Json = any;
const names = (r: Json) => (r.hits.hits as Array<{ _source: { name: string } }>).map((h) => h._source.name);

for (const backend of BACKENDS) {
  describe(`the ReactiveSearch API's contract (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    const rs = (body: unknown, path = '/products/_reactivesearch.v3', auth?: string): Promise<Reply> => call(gw.url, 'POST', path, { body, auth });

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await call(gw.url, 'PUT', '/products', { body: { settings: { index: PRODUCTS_SETTINGS }, mappings: PRODUCTS_MAPPINGS } });
      expect(created.status, created.text).to.equal(200);
      const lines = PRODUCTS.flatMap((p, i) => [JSON.stringify({ index: { _index: 'products', _id: `p${i + 1}` } }), JSON.stringify(p)]);
      const bulk = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.json.errors, bulk.text).to.equal(false);
    });
    after(() => stop());

    it('a search UI: search box, facets (one nested), a range and a result list reacting to them; settings.took and searchTook', async () => {
      const r = await rs({
        query: [
          { id: 'search', type: 'search', dataField: ['name', { field: 'description', weight: 0.5 }], value: 'phone iphone', execute: false },
          { id: 'brand', type: 'term', dataField: 'brand', value: ['Apple', 'Google'], react: { and: ['search'] }, sortBy: 'count', showMissing: true, missingLabel: 'No brand' },
          { id: 'color', type: 'term', dataField: 'variants.color', nestedField: 'variants', value: ['black'], react: { and: ['search'] } },
          { id: 'price', type: 'range', dataField: 'price', value: { start: 500, end: 1000 }, react: { and: ['search', 'brand'] }, aggregations: ['min', 'max', 'histogram'], interval: 250 },
          {
            id: 'results', dataField: 'name', react: { and: ['search', 'brand', 'color', 'price'] }, size: 5, sortField: 'price', sortBy: 'desc',
            includeFields: ['name', 'price'], highlight: true, highlightField: ['description'], highlightConfig: { pre_tags: '<mark>', post_tags: '</mark>' },
          },
        ],
        settings: { recordAnalytics: false, enableQueryRules: true, enableSearchRelevancy: true, useCache: false, backend: 'elasticsearch' },
      });
      expect(r.status, r.text).to.equal(200);
      expect(Object.keys(r.json).sort()).to.deep.equal(['brand', 'color', 'price', 'results', 'settings']);
      expect(r.json.settings.took).to.be.a('number');
      expect(r.json.settings.searchTook).to.be.a('number');
      expect(r.json.settings.took).to.be.at.least(r.json.settings.searchTook);
      // phones (search) by Apple or Google, in black, 500..1000, by price: iPhone 15 (999), Pixel 8 (699); iPhone 14 is red
      expect(names(r.json.results)).to.deep.equal(['Apple iPhone 15', 'Google Pixel 8']);
      expect(r.json.results.hits.hits[0]._source).to.deep.equal({ name: 'Apple iPhone 15', price: 999 });
      expect(r.json.results.took).to.be.a('number');
      expect(r.json.results.status).to.equal(200);
      // facets count over what they react to: every phone-ish product
      const brands = r.json.brand.aggregations.brand.buckets.map((b: Json) => [b.key, b.doc_count]);
      expect(brands).to.deep.include.members([['Apple', 2], ['Samsung', 1], ['Google', 1]]);
      const colors = r.json.color.aggregations.reactivesearch_nested['variants.color'].buckets.map((b: Json) => b.key);
      expect(colors).to.include.members(['black', 'red', 'blue', 'green']);
      expect(r.json.price.aggregations.min.value).to.equal(699);
      expect(r.json.price.aggregations.max.value).to.equal(999);
      expect(r.json.price.aggregations.histogram.buckets.map((b: Json) => b.key)).to.include(500);
    });

    it('term: selectAllLabel selects every document with the field, showMissing selects those without; range: several ranges and includeNullValues', async () => {
      const list = (facet: Record<string, unknown>) => rs({ query: [{ id: 'f', execute: false, ...facet }, { id: 'list', dataField: 'name', react: 'f', size: 20 }] });
      const all = await list({ type: 'term', dataField: 'brand', value: ['Every brand'], selectAllLabel: 'Every brand' });
      expect(names(all.json.list)).to.have.length(6);
      const missing = await list({ type: 'term', dataField: 'brand', value: ['No brand'], showMissing: true, missingLabel: 'No brand' });
      expect(names(missing.json.list)).to.deep.equal(['Generic USB Cable']);
      const ranges = await list({ type: 'range', dataField: 'price', value: [{ start: 0, end: 10 }, { start: 850, end: 950 }] });
      expect(names(ranges.json.list).sort()).to.deep.equal(['Generic USB Cable', 'Samsung Galaxy S24']);
      const dates = await list({ type: 'range', dataField: 'released', value: { start: '2024-01-01', end: '2024-12-31' }, queryFormat: 'date' });
      expect(names(dates.json.list).sort()).to.deep.equal(['Apple iPad Air', 'Samsung Galaxy S24']);
    });

    it('distinctField: one result per brand; aggregationField: the distinct brands, paged with after', async () => {
      const r = await rs({
        query: [
          { id: 'distinct', dataField: 'name', distinctField: 'brand', sortField: 'price', sortBy: 'desc', size: 10, distinctFieldConfig: { inner_hits: { name: 'cheapest', size: 1, sort: [{ price: 'asc' }] } } },
          { id: 'brands', dataField: 'name', aggregationField: 'brand', aggregationSize: 2, size: 0 },
          { id: 'next', dataField: 'name', aggregationField: 'brand', aggregationSize: 2, after: { brand: 'Google' }, size: 0 },
        ],
      }, '/products/_reactivesearch.v3?preference=session-1'); // _msearch's parameters, and ReactiveSearch's preference, are taken
      expect(r.status, r.text).to.equal(200);
      expect(names(r.json.distinct)).to.deep.equal(['Apple iPhone 15', 'Samsung Galaxy S24', 'Google Pixel 8', 'Generic USB Cable']);
      expect(r.json.distinct.hits.hits[0].inner_hits.cheapest.hits.hits[0]._source.name).to.equal('Apple iPad Air');
      expect(r.json.brands.aggregations.brand.buckets.map((b: Json) => b.key.brand)).to.deep.equal(['Apple', 'Google']);
      expect(r.json.next.aggregations.brand.buckets.map((b: Json) => b.key.brand)).to.deep.equal(['Samsung']);
    });

    it('suggestions as ReactiveSearch reads them: hits of label, value, _suggestion_type, _category, url; categories; predictive', async () => {
      const r = await rs({
        query: [{
          id: 'box', type: 'suggestion', dataField: ['name'], value: 'apple ip', categoryField: 'category', urlField: 'url',
          showDistinctSuggestions: true, highlight: true, indexSuggestionsConfig: { sectionLabel: 'Products' }, size: 5,
        }],
      });
      expect(r.status, r.text).to.equal(200);
      const hits = r.json.box.hits.hits;
      expect(hits.map((h: Json) => h.value)).to.include.members(['Apple iPhone 15', 'Apple iPhone 14', 'Apple iPad Air']);
      const iphone = hits.find((h: Json) => h.value === 'Apple iPhone 15');
      expect(iphone).to.include({ _suggestion_type: 'index', _category: 'Phones', url: 'https://shop.example/iphone-15', _index: 'products', sectionId: 'index', sectionLabel: 'Products' });
      expect(iphone._id).to.equal('p1');
      expect(iphone._source.name).to.equal('Apple iPhone 15');
      expect(iphone.label).to.match(/<em>/); // highlighted
      expect(r.json.box.aggregations.category.buckets.map((b: Json) => b.key).sort()).to.deep.equal(['Phones', 'Tablets']);
      // the gateway's own list stays
      expect(r.json.box.suggestions.map((s: Json) => s.text)).to.include('Apple iPhone 15');

      const predictive = await rs({ query: [{ id: 'box', type: 'suggestion', dataField: 'name', value: 'galaxy', enablePredictiveSuggestions: true, maxPredictedWords: 1 }] });
      expect(predictive.json.box.hits.hits.map((h: Json) => h.value).sort()).to.deep.equal(['galaxy S24', 'galaxy Tab']);
      expect(predictive.json.box.hits.hits.map((h: Json) => h.label)).to.include('galaxy <b class="highlight">Tab</b>');
    });

    it('popular and recent suggestions come from search analytics; .suggestions answers popular searches', async () => {
      const search = (value: string, userId: string) => rs({ query: [{ id: 'q', dataField: 'name', value }], settings: { recordAnalytics: true, userId } });
      for (const [value, user] of [['ipad', 'u1'], ['ipad', 'u2'], ['ipad', 'u3'], ['iphone charger', 'u2'], ['pixel', 'u1']]) {
        const r = await search(value, user);
        expect(r.status, r.text).to.equal(200);
        expect(r.headers['x-search-id']).to.be.a('string');
      }
      await within(20_000, async () => {
        const popular = await call(gw.url, 'GET', '/_analytics/products/popular-searches');
        return popular.status === 200 && popular.json.popular_searches.length >= 3;
      });
      const box = await rs({
        query: [{
          id: 'box', type: 'suggestion', dataField: 'name', value: 'ip',
          enablePopularSuggestions: true, popularSuggestionsConfig: { size: 5, minCount: 1, sectionLabel: 'Popular' },
          enableRecentSuggestions: true, recentSuggestionsConfig: { size: 5 },
        }],
        settings: { userId: 'u1' },
      });
      expect(box.status, box.text).to.equal(200);
      const byType = (type: string) => box.json.box.hits.hits.filter((h: Json) => h._suggestion_type === type);
      expect(byType('recent').map((h: Json) => h.value)).to.deep.equal(['ipad']); // u1's own, matching "ip"
      expect(byType('popular').map((h: Json) => [h.value, h._count])).to.deep.equal([['ipad', 3], ['iphone charger', 1]]);
      expect(byType('popular')[0]).to.include({ sectionId: 'popular', sectionLabel: 'Popular' });
      expect(byType('index').length).to.be.greaterThan(0);
      // recent, then popular, then index suggestions
      expect(box.json.box.hits.hits[0]._suggestion_type).to.equal('recent');

      const onlyPopular = await rs({ query: [{ id: 'box', type: 'suggestion', dataField: 'name', value: '', enableIndexSuggestions: false, enablePopularSuggestions: true, popularSuggestionsConfig: { minCount: 2 } }] });
      expect(onlyPopular.json.box.hits.hits.map((h: Json) => h.value)).to.deep.equal(['ipad']);

      const querySuggestions = await rs({ query: [{ id: 'qs', type: 'suggestion', dataField: ['key', 'key.autosuggest'], value: 'ip', size: 5 }] }, '/.suggestions/_reactivesearch.v3');
      expect(querySuggestions.status, querySuggestions.text).to.equal(200);
      expect(querySuggestions.json.qs.hits.hits.map((h: Json) => [h._source.key, h._source.count])).to.deep.equal([['ipad', 3], ['iphone charger', 1]]);
      expect(querySuggestions.json.qs.hits.hits[0]).to.include({ _index: '.suggestions', value: 'ipad', _suggestion_type: 'popular' });
      // as ReactiveSearch 3's search box asks it: a search component with its own defaultQuery, which never runs (no raw DSL reaches the engine)
      const v3 = await rs({
        query: [{ id: 'search__suggestions', dataField: ['key', 'key.autosuggest'], size: 5, value: 'ipa', defaultQuery: { query: { bool: { should: [{ multi_match: { fields: ['key^9'], query: 'ipa' } }] } } } }],
      }, '/.suggestions/_reactivesearch.v3');
      expect(v3.status, v3.text).to.equal(200);
      expect(v3.json.search__suggestions.hits.hits.map((h: Json) => h._source)).to.deep.equal([{ key: 'ipad', count: 3 }]);
    });

    it('query rules answer promoted, customData and hits.hidden as ReactiveSearch clients read them', async () => {
      const rule = await call(gw.url, 'PUT', '/_rule/pixel-first', {
        body: { trigger: { type: 'query', operator: 'is', value: 'apple iphone' }, actions: { promote: [{ doc: { _id: 'p6' }, position: 1 }], hide: ['p2'], custom_data: { banner: 'switch' } } },
      });
      expect(rule.status, rule.text).to.be.oneOf([200, 201]);
      try {
        const r = await rs({ query: [{ id: 'results', dataField: 'name', value: 'apple iphone', queryFormat: 'and' }] }, '/products/_reactivesearch');
        expect(r.status, r.text).to.equal(200);
        expect(r.json.results.promoted.map((p: Json) => [p.doc._id, p.position])).to.deep.equal([['p6', 1]]);
        expect(r.json.results.customData).to.deep.equal({ banner: 'switch' });
        expect(r.json.results.hits.hidden).to.equal(1);
        expect(r.json.results.hits.hits.map((h: Json) => h._id)).to.deep.equal(['p6', 'p1']);
      } finally {
        await call(gw.url, 'DELETE', '/_rule/pixel-first');
      }
    });

    it('an error in one component is answered under its id, as {error, status}; the others answer', async () => {
      const r = await rs({ query: [{ id: 'ok', dataField: 'name', value: 'pixel' }, { id: 'bad', type: 'range', dataField: 'price', value: { start: 'cheap' } }, { id: 'list', dataField: 'name', react: 'bad' }] });
      expect(r.status, r.text).to.equal(200);
      expect(names(r.json.ok)).to.deep.equal(['Google Pixel 8']);
      expect(r.json.list.error.type).to.be.a('string');
      expect(r.json.list.status).to.equal(400);
    });

    it('over HTTP, unknown properties and refused ones are 400s naming the path; a scoped credential cannot run a kNN script', async () => {
      const unknown = await rs({ query: [{ id: 'a', dataField: 'name', dataFeild: 'x' }] });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.reason).to.equal('query[0].dataFeild: unknown key [dataFeild]');
      const endpoint = await rs({ query: [{ id: 'a', dataField: 'name', endpoint: { url: 'http://127.0.0.1:1/', method: 'POST' } }] });
      expect(endpoint.status).to.equal(400);
      expect(endpoint.json.error.reason).to.match(/^query\[0\]\.endpoint: a component cannot be sent to another URL/);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['products'], categories: ['declarative'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      const scoped = basic(made.json.credential.username, made.json.password);
      const script = await rs({ query: [{ id: 'a', dataField: 'name', vectorDataField: 'name', queryVector: [1], script: 'Math.random()' }] }, '/products/_reactivesearch.v3', scoped);
      expect(script.status).to.equal(403);
    });
  });
}
