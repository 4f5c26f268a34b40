import { expect } from 'chai';
import { translate, type DeclarativeRequest } from '../../lib/declarative/index.js';
import { catalogs } from './fixtures.js';

const t = (query: DeclarativeRequest['query'], options = {}) => translate({ query }, catalogs, { defaultIndex: 'places', ...options });

const searchBool = (query: string, fields: string[], operator = 'or') => ({
  bool: {
    should: [
      { multi_match: { query, fields, type: 'cross_fields', operator } },
      { multi_match: { query, fields, type: 'phrase', boost: 2 } },
      { multi_match: { query, fields, type: 'phrase_prefix' } },
    ],
    minimum_should_match: 1,
  },
});

describe('declarative translation (golden outputs)', () => {
  it('search: weighted phrase, phrase-prefix and cross-field matching; fuzziness adds best_fields', () => {
    const out = t([{ id: 's', dataField: [{ field: 'name', weight: 3 }, 'description'], value: 'wood pizza', fuzziness: 1, highlight: true }]);
    const clause = searchBool('wood pizza', ['name^3', 'description']);
    (clause.bool.should as unknown[]).push({ multi_match: { query: 'wood pizza', fields: ['name^3', 'description'], type: 'best_fields', operator: 'or', fuzziness: 1 } });
    expect(out.msearch).to.deep.equal([
      { index: 'places' },
      { query: { bool: { must: [clause] } }, size: 10, highlight: { fields: { name: {}, description: {} } } },
    ]);
    expect(out.plan).to.deep.equal({ executing: [{ id: 's', type: 'search', index: 'places' }] });
  });

  it('search: queryFormat and requires every word; searchOperators uses simple_query_string; sort, paging, _source', () => {
    const and = t([{ id: 's', dataField: 'name', value: 'pizza napoli', queryFormat: 'and', size: 3, from: 6, sortField: 'price', sortBy: 'asc', includeFields: ['name', 'price'], excludeFields: ['description'] }]);
    expect(and.msearch[1]).to.deep.equal({
      query: { bool: { must: [searchBool('pizza napoli', ['name'], 'and')] } },
      size: 3, from: 6, sort: [{ price: { order: 'asc' } }], _source: { includes: ['name', 'price'], excludes: ['description'] },
    });
    const ops = t([{ id: 's', dataField: 'name', value: 'pizza -express', searchOperators: true }]);
    expect(ops.msearch[1]).to.deep.equal({
      query: { bool: { must: [{ simple_query_string: { query: 'pizza -express', fields: ['name'], default_operator: 'or' } }] } }, size: 10,
    });
  });

  it('search without a value matches everything', () => {
    expect(t([{ id: 's', dataField: 'name' }]).msearch[1]).to.deep.equal({ query: { match_all: {} }, size: 10 });
    expect(t([{ id: 's', dataField: 'name', value: '   ' }]).msearch[1]).to.deep.equal({ query: { match_all: {} }, size: 10 });
  });

  it('term: filters on the keyword sub-field, aggregates for facets, not filtered by its own value', () => {
    const out = t([
      { id: 'cuisine', type: 'term', dataField: 'cuisine', value: ['Italian', 'Indian'], aggregationSize: 5, sortBy: 'count', showMissing: true },
      { id: 'list', dataField: 'name', react: { and: 'cuisine' } },
    ]);
    expect(out.msearch).to.deep.equal([
      { index: 'places' },
      { query: { match_all: {} }, size: 0, aggs: { cuisine: { terms: { field: 'cuisine.raw', size: 5, order: { _count: 'desc' }, missing: 'N/A' } } } },
      { index: 'places' },
      { query: { bool: { must: [{ bool: { must: [{ terms: { 'cuisine.raw': ['Italian', 'Indian'] } }] } }] } }, size: 10 },
    ]);
  });

  it('term: queryFormat and, keyword fields used as is, aggregationField, composite pagination with after', () => {
    const out = t([
      { id: 'city', type: 'term', dataField: 'city', value: 'Berlin', queryFormat: 'and', aggregationField: 'city', after: { city: 'Berlin' }, sortBy: 'asc' },
      { id: 'list', dataField: 'name', react: 'city' },
    ]);
    expect(out.msearch[1]).to.deep.equal({
      query: { match_all: {} }, size: 0,
      aggs: { city: { composite: { size: 10, sources: [{ city: { terms: { field: 'city' } } }], after: { city: 'Berlin' } } } },
    });
    expect(out.msearch[3]).to.deep.equal({ query: { bool: { must: [{ bool: { must: [{ term: { city: 'Berlin' } }] } }] } }, size: 10 });
  });

  it('range: gte/lte filter, min/max and histogram aggregations', () => {
    const out = t([
      { id: 'price', type: 'range', dataField: 'price', value: { start: 10, end: 30 }, interval: 10 },
      { id: 'open', type: 'range', dataField: 'rating', value: { start: 4 } },
      { id: 'list', dataField: 'name', react: ['price', 'open'] },
    ]);
    expect(out.msearch[1]).to.deep.equal({
      query: { match_all: {} }, size: 0,
      aggs: { min: { min: { field: 'price' } }, max: { max: { field: 'price' } }, histogram: { histogram: { field: 'price', interval: 10 } } },
    });
    expect(out.msearch[5]).to.deep.equal({
      query: { bool: { must: [{ bool: { must: [{ range: { price: { gte: 10, lte: 30 } } }, { range: { rating: { gte: 4 } } }] } }] } }, size: 10,
    });
  });

  it('geo: distance from a point, or a bounding box', () => {
    const near = t([{ id: 'map', type: 'geo', dataField: 'location', value: { location: { lat: 52.52, lon: 13.4 }, distance: 5, unit: 'km' } }]);
    expect(near.msearch[1]).to.deep.equal({
      query: { bool: { must: [{ geo_distance: { distance: '5km', location: { lat: 52.52, lon: 13.4 } } }] } }, size: 10,
    });
    const box = t([{ id: 'map', type: 'geo', dataField: 'location', value: { geoBoundingBox: { topLeft: { lat: 54, lon: 9 }, bottomRight: { lat: 53, lon: 11 } } } }]);
    expect(box.msearch[1]).to.deep.equal({
      query: { bool: { must: [{ geo_bounding_box: { location: { top_left: { lat: 54, lon: 9 }, bottom_right: { lat: 53, lon: 11 } } } }] } }, size: 10,
    });
  });

  it('suggestion: autosuggest sub-fields when the mapping has them, prefix matching otherwise', () => {
    const auto = t([{ id: 'sug', type: 'suggestion', dataField: 'name', value: 'piz' }]);
    expect(auto.msearch[1]).to.deep.equal({
      query: { bool: { must: [{ bool: { should: [
        { multi_match: { query: 'piz', fields: ['name.autosuggest'], type: 'best_fields', operator: 'and' } },
        { multi_match: { query: 'piz', fields: ['name'], type: 'phrase_prefix', boost: 2 } },
      ], minimum_should_match: 1 } }] } },
      size: 5,
    });
    expect(auto.plan.executing[0]).to.deep.equal({ id: 'sug', type: 'suggestion', index: 'places', suggestion: { text: 'piz', fields: ['name'], highlighted: false } });
    const plain = t([{ id: 'sug', type: 'suggestion', dataField: 'title', value: 'ubi', index: 'plain' }]);
    expect(plain.msearch).to.deep.equal([
      { index: 'plain' },
      { query: { bool: { must: [{ multi_match: { query: 'ubi', fields: ['title'], type: 'bool_prefix', operator: 'and' } }] } }, size: 5 },
    ]);
  });

  it('react: and/or/not nest into bool must/should/must_not; execute:false components are only referenced', () => {
    const out = t([
      { id: 'q', dataField: 'name', value: 'pizza', execute: false },
      { id: 'city', type: 'term', dataField: 'city', value: 'Berlin', execute: false },
      { id: 'cheap', type: 'range', dataField: 'price', value: { end: 20 }, execute: false },
      { id: 'empty', type: 'term', dataField: 'city', execute: false },
      { id: 'list', dataField: 'name', react: { and: ['q', { or: ['city', 'cheap'] }], not: 'empty' } },
    ]);
    expect(out.plan.executing.map((p) => p.id)).to.deep.equal(['list']);
    expect(out.msearch).to.deep.equal([
      { index: 'places' },
      {
        query: { bool: { must: [{ bool: { must: [
          searchBool('pizza', ['name']),
          { bool: { should: [{ terms: { city: ['Berlin'] } }, { range: { price: { lte: 20 } } }], minimum_should_match: 1 } },
        ] } }] } },
        size: 10,
      },
    ]);
  });

  it('customQuery replaces what others see, defaultQuery what the component itself asks', () => {
    const out = t([
      { id: 'f', type: 'term', dataField: 'city', customQuery: { query: { term: { city: 'Munich' } } }, execute: false },
      { id: 'list', dataField: 'name', value: 'x', defaultQuery: { match_all: {} }, react: 'f' },
    ]);
    expect(out.msearch[1]).to.deep.equal({ query: { bool: { must: [{ match_all: {} }, { term: { city: 'Munich' } }] } }, size: 10 });
  });

  it("the credential's field rules narrow _source and highlighting; its max_size caps default sizes", () => {
    const out = t(
      [{ id: 's', dataField: ['name', 'description'], value: 'x', includeFields: ['name', 'description', 'price'], highlight: true }],
      { sourceRules: { include: ['name', 'price'], exclude: ['price'] }, maxSize: 4 },
    );
    const body = out.msearch[1] as Record<string, unknown>;
    expect(body._source).to.deep.equal({ includes: ['name', 'price'], excludes: ['price'] });
    expect(body.highlight).to.deep.equal({ fields: { name: {} } });
    expect(body.size).to.equal(4);
  });

  it('every component goes into one _msearch, in request order', () => {
    const out = t([
      { id: 'a', dataField: 'name', value: 'pizza' },
      { id: 'b', type: 'term', dataField: 'city' },
      { id: 'c', type: 'range', dataField: 'price' },
    ]);
    expect(out.msearch.filter((_, i) => i % 2 === 0)).to.deep.equal([{ index: 'places' }, { index: 'places' }, { index: 'places' }]);
    expect(out.plan.executing.map((p) => p.id)).to.deep.equal(['a', 'b', 'c']);
  });
});
