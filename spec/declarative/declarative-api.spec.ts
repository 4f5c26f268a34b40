import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { AUTOSUGGEST_SETTINGS, PLACES, PLACES_MAPPINGS } from './fixtures.js';

const ids = (r: any) => (r.hits.hits as Array<{ _source: { name: string } }>).map((h) => h._source.name).sort();

describe('declarative API end to end (embedded engine, through the gateway)', () => {
  let gw: TestGateway;
  let G: string;
  let scoped: string;
  let rawAllowed: string;

  before(async () => {
    gw = await startTestGateway();
    G = gw.url;
    const created = await call(G, 'PUT', '/places', { body: { settings: { index: AUTOSUGGEST_SETTINGS }, mappings: PLACES_MAPPINGS } });
    expect(created.status, created.text).to.equal(200);
    await call(G, 'PUT', '/plain', { body: { mappings: { properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } } } } } });
    await call(G, 'PUT', '/secret', { body: { mappings: { properties: { title: { type: 'text' } } } } });
    const bulk = PLACES.flatMap((p, i) => [JSON.stringify({ index: { _index: 'places', _id: String(i + 1) } }), JSON.stringify(p)]);
    bulk.push(JSON.stringify({ index: { _index: 'plain', _id: '1' } }), JSON.stringify({ title: 'Ubik' }));
    bulk.push(JSON.stringify({ index: { _index: 'plain', _id: '2' } }), JSON.stringify({ title: 'Dune' }));
    bulk.push(JSON.stringify({ index: { _index: 'secret', _id: '1' } }), JSON.stringify({ title: 'pizza secrets' }));
    const loaded = await call(G, 'POST', '/_bulk?refresh=true', { body: bulk.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    expect(loaded.json.errors, loaded.text).to.equal(false);
    const make = async (spec: Record<string, unknown>) => {
      const r = await call(G, 'POST', '/_credentials', { body: { indices: ['places', 'plain'], categories: ['declarative'], ops: ['read'], ...spec } });
      expect(r.status, r.text).to.equal(201);
      return basic(r.json.credential.username, r.json.password);
    };
    scoped = await make({ max_size: 10, allow_raw_dsl: false });
    rawAllowed = await make({ allow_raw_dsl: true });
  });
  after(() => gw?.close());

  const declarative = (body: unknown, path = '/places/_declarative', auth?: string) => call(G, 'POST', path, { body, auth });

  it('a search UI request: search box, facets, range and a result list reacting to all, in one call', async () => {
    const r = await declarative({
      query: [
        { id: 'q', dataField: [{ field: 'name', weight: 3 }, 'description'], value: 'pizza', execute: false },
        { id: 'cuisine', type: 'term', dataField: 'cuisine', value: ['Italian'], react: 'q' },
        { id: 'city', type: 'term', dataField: 'city', value: 'Berlin', react: { and: ['q', 'price'] } },
        { id: 'price', type: 'range', dataField: 'price', value: { start: 10, end: 30 }, interval: 10, react: { and: ['q', 'cuisine'] } },
        { id: 'results', dataField: 'name', react: { and: ['q', 'cuisine', 'city', 'price'] }, sortField: 'price', sortBy: 'asc', highlight: true, highlightField: 'description' },
      ],
      settings: { backend: 'elasticsearch' },
    });
    expect(r.status, r.text).to.equal(200);
    expect(Object.keys(r.json).sort()).to.deep.equal(['city', 'cuisine', 'price', 'results', 'settings']);
    expect(r.json.settings.took).to.be.a('number');
    // result list: pizza, Italian, Berlin, 10..30 → Trattoria Roma (25, "wood-fired pizza") and Pizzeria Napoli (15)
    expect(r.json.results.hits.hits.map((h: any) => h._source.name)).to.deep.equal(['Pizzeria Napoli', 'Trattoria Roma']);
    expect(r.json.results.hits.hits[1].highlight.description[0]).to.include('<em>pizza</em>');
    expect(r.json.results.took).to.be.a('number');
    // the cuisine facet counts over what it reacts to (pizza), not over its own selection
    expect(r.json.cuisine.hits.hits).to.deep.equal([]);
    expect(r.json.cuisine.aggregations.cuisine.buckets).to.deep.equal([{ key: 'Italian', doc_count: 3 }]);
    // the city facet: pizza and 10..30 in any city → Berlin 2 (Pizza Express in Hamburg is 9)
    expect(r.json.city.aggregations.city.buckets).to.deep.equal([{ key: 'Berlin', doc_count: 2 }]);
    // the range: pizza and Italian → 9, 15, 25
    expect(r.json.price.aggregations.min.value).to.equal(9);
    expect(r.json.price.aggregations.max.value).to.equal(25);
    expect(r.json.price.aggregations.histogram.buckets.map((b: any) => [b.key, b.doc_count])).to.deep.equal([[0, 1], [10, 1], [20, 1]]);
    // facets may react to each other, as ReactiveSearch UIs have them: each counts over the other's selection
    const mutual = await declarative({
      query: [
        { id: 'cuisine', type: 'term', dataField: 'cuisine', value: ['Japanese'], react: 'city' },
        { id: 'city', type: 'term', dataField: 'city', value: 'Hamburg', react: 'cuisine' },
      ],
    });
    expect(mutual.status, mutual.text).to.equal(200);
    expect(mutual.json.cuisine.aggregations.cuisine.buckets.map((b: any) => b.key).sort()).to.deep.equal(['Italian', 'Japanese', 'Mexican']);
    expect(mutual.json.city.aggregations.city.buckets).to.deep.equal([{ key: 'Berlin', doc_count: 1 }, { key: 'Hamburg', doc_count: 1 }]);
  });

  it('search: queryFormat and requires every word, or any; fuzziness finds misspellings', async () => {
    const and = await declarative({ query: [{ id: 's', dataField: ['name', 'description'], value: 'pizza pasta', queryFormat: 'and' }] });
    expect(ids(and.json.s)).to.deep.equal(['Trattoria Roma']);
    const or = await declarative({ query: [{ id: 's', dataField: ['name', 'description'], value: 'pizza pasta' }] });
    expect(ids(or.json.s)).to.deep.equal(['Pasta Bar', 'Pizza Express', 'Pizzeria Napoli', 'Trattoria Roma']);
    const fuzzy = await declarative({ query: [{ id: 's', dataField: 'description', value: 'sushy', fuzziness: 1 }] });
    expect(ids(fuzzy.json.s)).to.deep.equal(['Sushi Ken']);
    const prefix = await declarative({ query: [{ id: 's', dataField: 'name', value: 'ramen ich' }] });
    expect(ids(prefix.json.s)).to.deep.equal(['Ramen Ichiban']);
  });

  it('term: filters a result list and counts facets; composite pagination with after', async () => {
    const r = await declarative({
      query: [
        { id: 'city', type: 'term', dataField: 'city', value: ['Hamburg', 'Munich'], sortBy: 'asc' },
        { id: 'list', dataField: 'name', react: 'city', size: 10 },
      ],
    });
    expect(r.json.city.aggregations.city.buckets.map((b: any) => b.key)).to.deep.equal(['Berlin', 'Hamburg', 'Munich']);
    expect(ids(r.json.list)).to.deep.equal(['Curry House', 'Pasta Bar', 'Pizza Express', 'Ramen Ichiban', 'Taco Loco']);
    const page = await declarative({ query: [{ id: 'c', type: 'term', dataField: 'cuisine', aggregationSize: 2, after: { cuisine: 'Indian' } }] });
    expect(page.status, page.text).to.equal(200);
    expect(page.json.c.aggregations.cuisine.buckets.map((b: any) => b.key.cuisine)).to.deep.equal(['Italian', 'Japanese']);
  });

  it('range: a filter with min/max; geo: distance and bounding box', async () => {
    const r = await declarative({
      query: [
        { id: 'rating', type: 'range', dataField: 'rating', value: { start: 4.2 } },
        { id: 'list', dataField: 'name', react: 'rating' },
        { id: 'near', type: 'geo', dataField: 'location', value: { location: { lat: 52.52, lon: 13.405 }, distance: 3, unit: 'km' } },
        { id: 'box', type: 'geo', dataField: 'location', value: { geoBoundingBox: { topLeft: { lat: 54, lon: 9.5 }, bottomRight: { lat: 53, lon: 10.5 } } } },
      ],
    });
    expect(r.status, r.text).to.equal(200);
    expect(ids(r.json.list)).to.deep.equal(['Ramen Ichiban', 'Sushi Ken', 'Trattoria Roma']);
    expect(r.json.rating.aggregations.min.value).to.be.closeTo(3.2, 0.001);
    expect(ids(r.json.near)).to.deep.equal(['Pizzeria Napoli', 'Sushi Ken', 'Trattoria Roma']);
    expect(ids(r.json.box)).to.deep.equal(['Pizza Express', 'Ramen Ichiban', 'Taco Loco']);
  });

  it('suggestion: autosuggest sub-fields, with the matched text; prefix fallback without them', async () => {
    const r = await declarative({ query: [{ id: 'sug', type: 'suggestion', dataField: 'name', value: 'piz' }] });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.sug.suggestions.map((s: any) => s.text).sort()).to.deep.equal(['Pizza Express', 'Pizzeria Napoli']);
    expect(r.json.sug.suggestions[0]).to.include.keys('field', '_id', '_score');
    const words = await declarative({ query: [{ id: 'sug', type: 'suggestion', dataField: 'name', value: 'ramen ichi' }] });
    expect(words.json.sug.suggestions.map((s: any) => s.text)).to.deep.equal(['Ramen Ichiban']);
    const plain = await declarative({ query: [{ id: 'sug', type: 'suggestion', dataField: 'title', value: 'ub', index: 'plain' }] });
    expect(plain.status, plain.text).to.equal(200);
    expect(plain.json.sug.suggestions.map((s: any) => s.text)).to.deep.equal(['Ubik']);
  });

  it('an engine error for one component is reported under its id; the others answer', async () => {
    const r = await declarative({
      query: [
        { id: 'ok', dataField: 'name', value: 'sushi' },
        { id: 'price', type: 'range', dataField: 'price', value: { start: 'not-a-number' }, execute: false },
        { id: 'bad', dataField: 'name', react: 'price' },
      ],
    });
    expect(r.status, r.text).to.equal(200);
    expect(ids(r.json.ok)).to.deep.equal(['Sushi Ken']);
    expect(r.json.bad.error).to.have.property('type');
    expect(r.json.bad.status).to.equal(400);
  });

  it('/_declarative/validate answers the _msearch it would send, without sending it', async () => {
    const r = await declarative({ query: [{ id: 's', dataField: 'name', value: 'pizza', index: 'places' }] }, '/_declarative/validate');
    expect(r.status, r.text).to.equal(200);
    expect(r.json.method).to.equal('POST');
    expect(r.json.path).to.equal('/_msearch');
    expect(r.json.body[0]).to.deep.equal({ index: 'places' });
    expect(r.json.body[1].query.bool.must[0].bool.should[0].multi_match.query).to.equal('pizza');
    expect(r.json.ndjson.trim().split('\n')).to.have.length(2);
  });

  it('validation errors are 400s with the JSON path', async () => {
    const self = await declarative({ query: [{ id: 'a', dataField: 'name' }, { id: 'b', dataField: 'name', react: { and: ['a', 'b'] } }] });
    expect(self.status).to.equal(400);
    expect(self.json.error.type).to.equal('illegal_argument_exception');
    expect(self.json.error.reason).to.equal('query[1].react.and[1]: component [b] reacts to itself');
    const field = await declarative({ query: [{ id: 'a', dataField: 'nope' }] });
    expect(field.json.error.reason).to.equal('query[0].dataField: unknown field [nope] in index [places]');
    const backend = await declarative({ query: [{ id: 'a', dataField: 'name' }], settings: { backend: 'solr' } });
    expect(backend.status).to.equal(400);
    expect(backend.json.error.reason).to.equal('settings.backend: must be one of [elasticsearch, opensearch]');
    const json = await call(G, 'POST', '/places/_declarative', { body: '{"query": [' });
    expect(json.status).to.equal(400);
    const missing = await declarative({ query: [{ id: 'a', dataField: 'name' }] }, '/nosuchindex/_declarative');
    expect(missing.status).to.equal(404);
    expect(missing.json.error.type).to.equal('index_not_found_exception');
    const method = await call(G, 'GET', '/places/_declarative');
    expect(method.status).to.equal(405);
  });

  it('injection payloads are searched for as text, and find nothing', async () => {
    for (const value of ['*:*', '{"match_all":{}}', '*', '_source:*', '" OR ""="']) {
      const r = await declarative({ query: [{ id: 's', dataField: 'name', value }, { id: 't', type: 'term', dataField: 'city', value, execute: false }, { id: 'l', dataField: 'name', react: 't' }] });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.s.hits.hits, value).to.deep.equal([]);
      expect(r.json.l.hits.hits, value).to.deep.equal([]);
    }
  });

  describe('a scoped credential', () => {
    it('may run declarative queries on its indices, within max_size', async () => {
      const r = await declarative({ query: [{ id: 's', dataField: 'name', value: 'pizza' }] }, '/places/_declarative', scoped);
      expect(r.status, r.text).to.equal(200);
      expect(ids(r.json.s)).to.deep.equal(['Pizza Express']);
      const big = await declarative({ query: [{ id: 's', dataField: 'name' }, { id: 't', dataField: 'name', size: 50 }] }, '/places/_declarative', scoped);
      expect(big.status).to.equal(400);
      expect(big.json.error.reason).to.equal("query[1].size: [50] is above this credential's max_size of [10]");
    });

    it('is refused raw DSL with 403 unless allowed it', async () => {
      for (const member of ['defaultQuery', 'customQuery']) {
        const r = await declarative({ query: [{ id: 's', dataField: 'name', [member]: { match_all: {} } }] }, '/places/_declarative', scoped);
        expect(r.status).to.equal(403);
        expect(r.json.error.type).to.equal('security_exception');
        expect(r.json.error.reason).to.equal(`query[0].${member}: raw query DSL is not allowed for user [${Buffer.from(scoped.slice(6), 'base64').toString().split(':')[0]}]`);
      }
      const ok = await declarative({ query: [{ id: 's', dataField: 'name', defaultQuery: { term: { city: 'Munich' } } }] }, '/places/_declarative', rawAllowed);
      expect(ok.status, ok.text).to.equal(200);
      expect(ids(ok.json.s)).to.deep.equal(['Curry House', 'Pasta Bar']);
    });

    it('cannot reach another index through a component index', async () => {
      const r = await declarative({ query: [{ id: 's', dataField: 'title', value: 'pizza', index: 'secret' }] }, '/places/_declarative', scoped);
      expect(r.status).to.equal(403);
      const validate = await declarative({ query: [{ id: 's', dataField: 'title', index: 'secret' }] }, '/_declarative/validate', scoped);
      expect(validate.status).to.equal(403);
    });
  });
});
