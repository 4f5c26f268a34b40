import { expect } from 'chai';
import { EsError } from '../../lib/errors/index.js';
import { translate, validateDeclarative, type DeclarativeRequest, type MappingsOf } from '../../lib/declarative/index.js';
import { principal } from './fixtures.js';
import { QUERY_SUGGESTIONS_CATALOG } from '../../lib/declarative/query-suggestions.js';
import { productsCatalog } from './reactivesearch-fixtures.js';

const catalogs = new Map([['products', productsCatalog]]);
const t = (query: DeclarativeRequest['query'], settings: DeclarativeRequest['settings'] = {}, options = {}) =>
  translate({ query, settings }, catalogs, { defaultIndex: 'products', ...options });
const body = (query: DeclarativeRequest['query'], settings: DeclarativeRequest['settings'] = {}) => t(query, settings).msearch[1] as Record<string, any>;
const mappingsOf: MappingsOf = async (index) => {
  if (index !== 'products') throw new Error(`no such index ${index}`);
  return productsCatalog;
};
async function refusal(request: unknown, who = principal({ indices: ['products'] })): Promise<EsError> {
  try {
    await validateDeclarative(request, who, mappingsOf, { defaultIndex: 'products' });
  } catch (err) {
    expect(err).to.be.instanceOf(EsError);
    return err as EsError;
  }
  throw new Error('expected a refusal');
}

describe('ReactiveSearch query properties: what each one asks the engine (golden outputs)', () => {
  it('dataField as a {field, weight} object, fieldWeights by position', () => {
    const one = body([{ id: 's', dataField: { field: 'name', weight: 3 }, value: 'phone' }]);
    expect(one.query.bool.must[0].bool.should[0].multi_match.fields).to.deep.equal(['name^3']);
    const weights = body([{ id: 's', dataField: ['name', 'description'], fieldWeights: [4, 1], value: 'phone' }]);
    expect(weights.query.bool.must[0].bool.should[0].multi_match.fields).to.deep.equal(['name^4', 'description']);
  });

  it('a number as a search value is searched as text', () => {
    const out = body([{ id: 's', dataField: 'name', value: 15 }]);
    expect(out.query.bool.must[0].bool.should[0].multi_match.query).to.equal('15');
  });

  it('enableSynonyms: false leaves out .synonyms fields and synonym phrase expansion', () => {
    const out = body([{ id: 's', dataField: ['name', 'name.synonyms'], value: 'cell phone', enableSynonyms: false }]);
    for (const clause of out.query.bool.must[0].bool.should) {
      expect(clause.multi_match.fields).to.deep.equal(['name']);
      expect(clause.multi_match.auto_generate_synonyms_phrase_query).to.equal(false);
    }
    const on = body([{ id: 's', dataField: ['name', 'name.synonyms'], value: 'cell phone' }]);
    expect(on.query.bool.must[0].bool.should[0].multi_match).to.not.have.property('auto_generate_synonyms_phrase_query');
    expect(on.query.bool.must[0].bool.should[0].multi_match.fields).to.deep.equal(['name', 'name.synonyms']);
  });

  it('queryString uses query_string (over searchOperators), searchOperators simple_query_string', () => {
    const qs = body([{ id: 's', dataField: 'name', value: 'iphone AND 15', queryString: true, searchOperators: true, queryFormat: 'and' }]);
    expect(qs.query.bool.must[0]).to.deep.equal({ query_string: { query: 'iphone AND 15', fields: ['name'], default_operator: 'and' } });
    const ops = body([{ id: 's', dataField: 'name', value: 'iphone -14', searchOperators: true }]);
    expect(ops.query.bool.must[0]).to.deep.equal({ simple_query_string: { query: 'iphone -14', fields: ['name'], default_operator: 'or' } });
  });

  it('categoryField: a terms aggregation of categories (aggregationSize); categoryValue filters on it', () => {
    const out = t([
      { id: 's', type: 'suggestion', dataField: 'name', value: 'app', categoryField: 'category', aggregationSize: 3, categoryValue: 'Phones' },
      { id: 'list', dataField: 'name', react: 's' },
    ]);
    const sug = out.msearch[1] as Record<string, any>;
    expect(sug.aggs).to.deep.equal({ category: { terms: { field: 'category', size: 3 } } });
    expect(sug.query.bool.must[0].bool.must[1]).to.deep.equal({ term: { category: 'Phones' } });
    // what the suggestion contributes to the list carries the category too
    expect((out.msearch[3] as any).query.bool.must[0].bool.must[1]).to.deep.equal({ term: { category: 'Phones' } });
    expect(out.plan.executing[0].suggestion).to.include({ categoryField: 'category' });
    // '*' is every category
    expect(body([{ id: 's', dataField: 'name', value: 'app', categoryField: 'category', categoryValue: '*' }]).query.bool.must[0]).to.have.nested.property('bool.should');
  });

  it('nestedField: nested queries, and nested aggregations under reactivesearch_nested (term) or the path (range)', () => {
    const out = t([
      { id: 'color', type: 'term', dataField: 'variants.color', nestedField: 'variants', value: ['blue'] },
      { id: 'size', type: 'range', dataField: 'variants.size', nestedField: 'variants', value: { start: 100 } },
      { id: 'list', dataField: 'name', react: { and: ['color', 'size'] } },
    ]);
    expect((out.msearch[1] as any).aggs).to.deep.equal({
      reactivesearch_nested: { nested: { path: 'variants' }, aggs: { 'variants.color': { terms: { field: 'variants.color', size: 10 } } } },
    });
    expect((out.msearch[3] as any).aggs).to.deep.equal({
      variants: { nested: { path: 'variants' }, aggs: { min: { min: { field: 'variants.size' } }, max: { max: { field: 'variants.size' } } } },
    });
    expect((out.msearch[5] as any).query.bool.must[0].bool.must).to.deep.equal([
      { nested: { path: 'variants', query: { terms: { 'variants.color': ['blue'] } } } },
      { nested: { path: 'variants', query: { range: { 'variants.size': { gte: 100 } } } } },
    ]);
  });

  it('term: selectAllLabel means "has the field", showMissing with missingLabel, includeValues/excludeValues, pagination', () => {
    const out = t([
      { id: 'all', type: 'term', dataField: 'brand', value: ['All brands'], selectAllLabel: 'All brands', execute: false },
      { id: 'missing', type: 'term', dataField: 'brand', value: ['Apple', 'No brand'], showMissing: true, missingLabel: 'No brand', includeValues: ['Apple', 'Google'], excludeValues: ['Samsung'] },
      { id: 'pages', type: 'term', dataField: 'brand', pagination: true, aggregationSize: 2 },
      { id: 'list', dataField: 'name', react: ['all', 'missing'] },
    ]);
    expect((out.msearch[1] as any).aggs.brand.terms).to.deep.equal({ field: 'brand', size: 10, missing: 'No brand', include: ['Apple', 'Google'], exclude: ['Samsung'] });
    expect((out.msearch[3] as any).aggs).to.deep.equal({ brand: { composite: { size: 2, sources: [{ brand: { terms: { field: 'brand' } } }] } } });
    expect((out.msearch[5] as any).query.bool.must[0].bool.must).to.deep.equal([
      { exists: { field: 'brand' } },
      { bool: { should: [{ terms: { brand: ['Apple'] } }, { bool: { must_not: [{ exists: { field: 'brand' } }] } }], minimum_should_match: 1 } },
    ]);
  });

  it('range: several ranges, a date queryFormat, boost, includeNullValues; aggregations, interval from range, calendarInterval', () => {
    const out = t([
      { id: 'prices', type: 'range', dataField: 'price', value: [{ start: 0, end: 100 }, { start: 500, end: 800, boost: 2 }], includeNullValues: true, aggregations: ['histogram'], range: { start: 0, end: 1000 } },
      { id: 'dates', type: 'range', dataField: 'released', value: { start: '2023-01-01', end: '2023-12-31' }, queryFormat: 'date', aggregations: ['min', 'histogram'], calendarInterval: 'year' },
      { id: 'list', dataField: 'name', react: ['prices', 'dates'] },
    ]);
    expect((out.msearch[1] as any).aggs).to.deep.equal({ histogram: { histogram: { field: 'price', interval: 10 } } });
    expect((out.msearch[3] as any).aggs).to.deep.equal({ min: { min: { field: 'released' } }, histogram: { date_histogram: { field: 'released', calendar_interval: 'year' } } });
    expect((out.msearch[5] as any).query.bool.must[0].bool.must).to.deep.equal([
      {
        bool: {
          should: [
            { bool: { should: [{ range: { price: { gte: 0, lte: 100 } } }, { range: { price: { gte: 500, lte: 800, boost: 2 } } }], minimum_should_match: 1 } },
            { bool: { must_not: [{ exists: { field: 'price' } }] } },
          ],
          minimum_should_match: 1,
        },
      },
      { range: { released: { gte: '2023-01-01', lte: '2023-12-31', format: 'date' } } },
    ]);
  });

  it('geo: "lat, lon" strings as ReactiveSearch sends them', () => {
    const near = body([{ id: 'g', type: 'geo', dataField: 'location', value: { location: '52.52, 13.4', distance: 10, unit: 'mi' } }]);
    expect(near.query.bool.must[0]).to.deep.equal({ geo_distance: { distance: '10mi', location: { lat: 52.52, lon: 13.4 } } });
    const box = body([{ id: 'g', type: 'geo', dataField: 'location', value: { geoBoundingBox: { topLeft: '54, 9', bottomRight: '53, 11' } } }]);
    expect(box.query.bool.must[0]).to.deep.equal({ geo_bounding_box: { location: { top_left: { lat: 54, lon: 9 }, bottom_right: { lat: 53, lon: 11 } } } });
  });

  it('sortField: a field, or fields and {field: order}, text fields by their keyword; sortBy alone sorts on the first data field', () => {
    expect(body([{ id: 's', dataField: 'name', sortField: ['name', { price: 'desc' }, '_score'] }]).sort).to.deep.equal([
      { 'name.keyword': { order: 'asc' } }, { price: { order: 'desc' } }, { _score: { order: 'desc' } },
    ]);
    expect(body([{ id: 's', dataField: 'name', sortField: 'price', sortBy: 'desc' }]).sort).to.deep.equal([{ price: { order: 'desc' } }]);
    expect(body([{ id: 's', dataField: ['name', 'description'], sortBy: 'asc' }]).sort).to.deep.equal([{ 'name.keyword': { order: 'asc' } }]);
    expect(body([{ id: 's', dataField: 'description', sortBy: 'asc' }]).sort).to.deep.equal([{ _score: { order: 'asc' } }]);
  });

  it('distinctField collapses; distinctFieldConfig inner hits keep the component and credential _source rules', () => {
    const out = t(
      [{ id: 's', dataField: 'name', distinctField: 'brand', distinctFieldConfig: { inner_hits: { name: 'top', size: 2, sort: [{ price: 'asc' }] }, max_concurrent_group_searches: 4 }, includeFields: ['name', 'price'] }],
      {},
      { sourceRules: { exclude: ['price'] } },
    );
    expect((out.msearch[1] as any).collapse).to.deep.equal({
      field: 'brand',
      inner_hits: { name: 'top', size: 2, sort: [{ price: 'asc' }], _source: { includes: ['name', 'price'], excludes: ['price'] } },
      max_concurrent_group_searches: 4,
    });
  });

  it('highlightConfig: its options, its fields (checked against the mapping); highlight: false turns highlighting off', () => {
    const out = body([{ id: 's', dataField: 'name', value: 'x', highlight: true, highlightConfig: { pre_tags: '<mark>', post_tags: '</mark>', fields: { description: { number_of_fragments: 1 } } } }]);
    expect(out.highlight).to.deep.equal({ pre_tags: '<mark>', post_tags: '</mark>', fields: { description: { number_of_fragments: 1 } } });
    expect(body([{ id: 's', dataField: 'name', value: 'x', highlight: false, highlightConfig: { pre_tags: '<mark>' } }])).to.not.have.property('highlight');
    expect(body([{ id: 's', dataField: 'name', value: 'x', highlightConfig: { fragment_size: 20 } }]).highlight).to.deep.equal({ fragment_size: 20, fields: { name: {} } });
  });

  it('compoundClause: filter puts the component in the filter context, for itself and for those reacting to it', () => {
    const out = t([
      { id: 'brand', type: 'term', dataField: 'brand', value: 'Apple', compoundClause: 'filter', execute: false },
      { id: 'list', dataField: 'name', value: 'iphone', react: { and: 'brand' }, compoundClause: 'filter' },
    ]);
    const q = (out.msearch[1] as any).query.bool;
    expect(q.filter[0]).to.have.nested.property('bool.should');
    expect(q.must[0]).to.deep.equal({ bool: { filter: [{ terms: { brand: ['Apple'] } }] } });
  });

  it('aggregationField on a search: distinct values by a composite aggregation, paged with after', () => {
    expect(body([{ id: 's', dataField: 'name', aggregationField: 'brand', aggregationSize: 2, after: { brand: 'Apple' } }]).aggs).to.deep.equal({
      brand: { composite: { size: 2, sources: [{ brand: { terms: { field: 'brand' } } }], after: { brand: 'Apple' } } },
    });
  });

  it('deepPagination: the cursor becomes search_after', () => {
    const out = body([{ id: 's', dataField: 'name', sortField: 'price', from: 20, deepPagination: true, deepPaginationConfig: { cursor: 799 } }]);
    expect(out.search_after).to.deep.equal([799]);
    expect(out).to.not.have.property('from');
  });

  it('rankFeature adds rank_feature clauses to the score of the own hits', () => {
    const out = body([{ id: 's', dataField: 'name', value: 'phone', rankFeature: { pagerank: { saturation: { pivot: 2 } }, 'topics.sports': { sigmoid: { pivot: 2, exponent: 1 }, boost: 2 } } }]);
    expect(out.query.bool.should).to.deep.equal([
      { rank_feature: { field: 'pagerank', saturation: { pivot: 2 } } },
      { rank_feature: { field: 'topics.sports', sigmoid: { pivot: 2, exponent: 1 }, boost: 2 } },
    ]);
  });

  it('kNN: vectorDataField + queryVector rescore the top candidates (Elasticsearch painless, OpenSearch knn_score); candidates alone changes nothing', () => {
    const es = body([{ id: 's', dataField: 'name', value: 'phone', vectorDataField: 'name_vector', queryVector: [0.1, 0.2], candidates: 20 }]);
    expect(es.rescore).to.deep.equal({
      window_size: 20,
      query: {
        rescore_query: { script_score: { query: { match_all: {} }, script: { source: 'cosineSimilarity(params.queryVector, params.dataField) + 1.0', params: { queryVector: [0.1, 0.2], dataField: 'name_vector' } } } },
        query_weight: 0, rescore_query_weight: 1,
      },
    });
    const os = body([{ id: 's', dataField: 'name', vectorDataField: 'name_vector', queryVector: [0.1, 0.2], script: 'l2' }], { backend: 'opensearch' });
    expect(os.rescore.query.rescore_query.script_score.script).to.deep.equal({ source: 'knn_score', lang: 'knn', params: { field: 'name_vector', query_value: [0.1, 0.2], space_type: 'l2' } });
    expect(body([{ id: 's', dataField: 'name', candidates: 30 }])).to.not.have.property('rescore');
  });

  it('defaultQuery as a search body: its query for the component, its aggs and size over the built ones', () => {
    const out = body([{ id: 'r', type: 'term', dataField: 'reactive_component_field', defaultQuery: { query: { term: { brand: 'Apple' } }, aggs: { brands: { terms: { field: 'brand' } } }, size: 3 } }]);
    expect(out).to.deep.equal({ query: { bool: { must: [{ term: { brand: 'Apple' } }] } }, size: 3, aggs: { brands: { terms: { field: 'brand' } } } });
  });

  it('suggestions answered without the engine: enableIndexSuggestions: false, and the .suggestions index', () => {
    const out = t([{ id: 'pop', type: 'suggestion', dataField: 'name', value: 'iph', enableIndexSuggestions: false, enablePopularSuggestions: true, popularSuggestionsConfig: { size: 3, minCount: 2 } }]);
    expect(out.msearch).to.deep.equal([]);
    expect(out.plan.local).to.deep.equal([{ id: 'pop', type: 'suggestion', index: 'products', analytics: { text: 'iph', popular: { size: 3, minCount: 2 } } }]);
    const qs = translate({ query: [{ id: 'q', type: 'suggestion', dataField: 'key', value: 'iph', size: 4 }] }, new Map([['.suggestions', QUERY_SUGGESTIONS_CATALOG]]), { defaultIndex: '.suggestions' });
    expect(qs.plan.local).to.deep.equal([{ id: 'q', type: 'suggestion', index: '.suggestions', querySuggestions: { text: 'iph', size: 4 } }]);
  });
});

describe('ReactiveSearch query properties: known, and refused with a reason when they ask for what the gateway does not do', () => {
  it('unknown properties are still 400s naming the path', async () => {
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', enableFrobnication: true }] })).reason).to.equal('query[0].enableFrobnication: unknown key [enableFrobnication]');
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', popularSuggestionsConfig: { sice: 3 } }] })).reason).to.equal('query[0].popularSuggestionsConfig.sice: unknown key [sice]');
    expect((await refusal({ query: [{ id: 'a' }], metadata: 'x' })).reason).to.equal('metadata: must be object');
  });

  it('endpoint (the gateway would call any address), featured, FAQ, document and endpoint suggestions, AI answers, image search', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ endpoint: { url: 'http://169.254.169.254/latest/meta-data', method: 'GET' } }, /^query\[0\]\.endpoint: a component cannot be sent to another URL/],
      [{ type: 'suggestion', enableEndpointSuggestions: true }, /^query\[0\]\.enableEndpointSuggestions: /],
      [{ type: 'suggestion', enableFeaturedSuggestions: true, searchboxId: 'box' }, /^query\[0\]\.enableFeaturedSuggestions: featured suggestions are not kept/],
      [{ type: 'suggestion', enableFAQSuggestions: true }, /^query\[0\]\.enableFAQSuggestions: /],
      [{ type: 'suggestion', enableDocumentSuggestions: true }, /^query\[0\]\.enableDocumentSuggestions: /],
      [{ enableAI: true }, /^query\[0\]\.enableAI: AI answers are not provided/],
      [{ imageValue: 'data:image/png;base64,AAAA' }, /^query\[0\]\.imageValue: /],
    ];
    for (const [props, reason] of cases) {
      const err = await refusal({ query: [{ id: 'a', dataField: 'name', ...props }] });
      expect(err.status, JSON.stringify(props)).to.equal(400);
      expect(err.reason).to.match(reason);
    }
    // turned off, they are fine
    const ok = await validateDeclarative(
      { query: [{ id: 'a', type: 'suggestion', dataField: 'name', enableFeaturedSuggestions: false, enableAI: false, enableFAQSuggestions: false, searchboxId: 'box', featuredSuggestionsConfig: { maxSuggestionsPerSection: 2 } }], metadata: { app: 'shop' } },
      principal({ indices: ['products'] }), mappingsOf, { defaultIndex: 'products' },
    );
    expect(ok.translation.plan.executing).to.have.length(1);
  });

  it('a kNN script of its own is raw DSL (403 unless allowed); with OpenSearch it names a space; vector fields go together', async () => {
    const script = { id: 'a', dataField: 'name', vectorDataField: 'name_vector', queryVector: [1, 0], script: "doc['price'].value" };
    const err = await refusal({ query: [script] });
    expect(err.status).to.equal(403);
    expect(err.reason).to.equal('query[0].script: a script is raw query DSL, not allowed for user [tester]');
    await validateDeclarative({ query: [script] }, principal({ indices: ['products'], allow_raw_dsl: true }), mappingsOf, { defaultIndex: 'products' });
    expect((await refusal({ query: [script], settings: { backend: 'opensearch' } })).reason).to.equal('query[0].script: must be one of [l2, l1, cosinesimil, hammingbit] with the opensearch backend');
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', vectorDataField: 'name_vector' }] })).reason).to.match(/^query\[0\]\.queryVector: is required for kNN reordering/);
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', vectorDataField: 'name', queryVector: [1] }] })).reason).to.equal('query[0].vectorDataField: field [name] is not a dense_vector or knn_vector field');
  });

  it('fields named by the new properties are checked against the mapping', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ categoryField: 'nope' }, 'query[0].categoryField: unknown field [nope] in index [products]'],
      [{ nestedField: 'brand' }, 'query[0].nestedField: field [brand] is not of type nested'],
      [{ distinctField: 'nope' }, 'query[0].distinctField: unknown field [nope] in index [products]'],
      [{ highlightConfig: { fields: { nope: {} } } }, 'query[0].highlightConfig.fields.nope: unknown field [nope] in index [products]'],
      [{ sortField: ['price', { nope: 'asc' }] }, 'query[0].sortField[1].nope: unknown field [nope] in index [products]'],
      [{ rankFeature: { price: { boost: 2 } } }, 'query[0].rankFeature.price: field [price] is not a rank_feature field'],
      [{ type: 'suggestion', urlField: 'nope' }, 'query[0].urlField: unknown field [nope] in index [products]'],
    ];
    for (const [props, reason] of cases) expect((await refusal({ query: [{ id: 'a', dataField: 'name', ...props }] })).reason).to.equal(reason);
  });

  it('a defaultQuery body takes search members only, within max_size', async () => {
    const who = principal({ indices: ['products'], allow_raw_dsl: true, max_size: 10 });
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', defaultQuery: { query: { match_all: {} }, script_fields: {} } }] }, who)).reason).to.match(/^query\[0\]\.defaultQuery\.script_fields: not allowed in a defaultQuery/);
    expect((await refusal({ query: [{ id: 'a', dataField: 'name', defaultQuery: { query: { match_all: {} }, size: 50 } }] }, who)).reason).to.equal("query[0].defaultQuery.size: [50] is above this credential's max_size of [10]");
  });
});
