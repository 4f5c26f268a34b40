import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// OpenSearch 2 scores a geo_shape query 0 (its reference's answers: `_score: 0`, `max_score: 0`),
// where Elasticsearch 8 gives its constant score (the boost, 1). OpenSearch's geo module adds the
// Cartesian `xy_point` and `xy_shape` field types and the `xy_shape` query, which Elasticsearch 8
// does not have: an engine answering as OpenSearch 2 (API_DIALECT=opensearch) takes them.
describe('embedded engine: OpenSearch 2\'s geo_shape scores and its xy_point, xy_shape and xy_shape query', () => {
  const engines: Record<string, TestEngine> = {};

  before(async () => {
    engines.opensearch = await startEngine({ apiDialect: 'opensearch' });
    engines.auto = await startEngine({ apiDialect: 'auto' });
    for (const es of Object.values(engines)) {
      await es.call('PUT', '/points', { mappings: { properties: { at: { type: 'geo_point' } } } });
      await es.call('PUT', '/points/_doc/1?refresh=true', { at: [0.5, 3] });
      await es.call('PUT', '/shapes', { mappings: { properties: { area: { type: 'geo_shape' } } } });
      await es.call('PUT', '/shapes/_doc/1?refresh=true', { area: { type: 'point', coordinates: [0.5, 3] } });
    }
  });
  after(async () => {
    for (const es of Object.values(engines)) await es.close();
  });

  const envelope = { type: 'envelope', coordinates: [[0, 6], [1, 2]] };

  it('a geo_shape query scores 0 as OpenSearch 2, its boost as Elasticsearch 8; in a filter it scores nothing either way', async () => {
    for (const [index, field] of [['points', 'at'], ['shapes', 'area']]) {
      const query = { geo_shape: { [field]: { shape: envelope } } };
      const os = (await engines.opensearch.call('POST', `/${index}/_search`, { query })).json.hits;
      expect(os.total.value).to.equal(1);
      expect(os.max_score).to.equal(0);
      expect(os.hits[0]._score).to.equal(0);
      expect((await engines.auto.call('POST', `/${index}/_search`, { query })).json.hits.max_score).to.equal(1);
      const filtered = { bool: { must: { match_all: {} }, filter: query } };
      expect((await engines.opensearch.call('POST', `/${index}/_search`, { query: filtered })).json.hits.max_score).to.equal(1);
    }
    // geo_bounding_box keeps its constant score in both
    const box = { geo_bounding_box: { at: { top: 6, left: 0, bottom: 2, right: 1 } } };
    expect((await engines.opensearch.call('POST', '/points/_search', { query: box })).json.hits.max_score).to.equal(1);
  });

  it('xy_point and xy_shape map as OpenSearch 2 maps them; Elasticsearch 8 has no such type', async () => {
    const mappings = { properties: { p: { type: 'xy_point' }, s: { type: 'xy_shape' } } };
    const made = await engines.opensearch.call('PUT', '/plane', { mappings });
    expect(made.status, made.text).to.equal(200);
    expect((await engines.opensearch.call('GET', '/plane/_mapping')).json.plane.mappings).to.deep.equal(mappings);
    const refused = await engines.auto.call('PUT', '/plane', { mappings });
    expect(refused.status).to.equal(400);
    expect(refused.json.error.reason).to.equal('Failed to parse mapping: No handler for type [xy_point] declared on field [p]');
    const badParam = await engines.opensearch.call('PUT', '/plane2', { mappings: { properties: { p: { type: 'xy_point', analyzer: 'standard' } } } });
    expect(badParam.status).to.equal(400);
  });

  it('the xy_shape query finds xy points in every form, and xy shapes, unbounded by latitude and longitude, scoring 0', async () => {
    const es = engines.opensearch;
    await es.call('PUT', '/xy', { mappings: { properties: { p: { type: 'xy_point' }, s: { type: 'xy_shape' } } } });
    const docs: Array<[string, unknown]> = [
      ['array', { p: [0.5, 3] }], ['object', { p: { x: 0.6, y: 4 } }], ['string', { p: '0.7, 5' }], ['wkt', { p: 'POINT (0.8 2.5)' }],
      ['geojson', { p: { type: 'Point', coordinates: [0.9, 3.5] } }], ['outside', { p: [3, 3] }], ['far', { p: [500, -300] }],
      ['shape', { s: { type: 'point', coordinates: [0.5, 3] } }],
    ];
    for (const [id, doc] of docs) {
      const r = await es.call('PUT', `/xy/_doc/${id}`, doc);
      expect(r.status, r.text).to.equal(201);
    }
    await es.call('POST', '/xy/_refresh');
    const ids = async (query: unknown) => {
      const r = await es.call('POST', '/xy/_search', { query, size: 20 });
      expect(r.status, r.text).to.equal(200);
      return { ids: r.json.hits.hits.map((h: { _id: string }) => h._id).sort(), max: r.json.hits.max_score };
    };
    expect(await ids({ xy_shape: { p: { shape: envelope } } })).to.deep.equal({ ids: ['array', 'geojson', 'object', 'string', 'wkt'], max: 0 });
    expect((await ids({ xy_shape: { p: { shape: { type: 'envelope', coordinates: [[400, -200], [600, -400]] } } } })).ids).to.deep.equal(['far']);
    expect((await ids({ xy_shape: { s: { shape: envelope, relation: 'within' } } })).ids).to.deep.equal(['shape']);

    const malformed = await es.call('PUT', '/xy/_doc/bad', { p: 'somewhere' });
    expect(malformed.status).to.equal(400);
    expect(malformed.json.error.type).to.equal('document_parsing_exception');
    // each query type keeps to its own field types
    const geoOnXy = await es.call('POST', '/xy/_search', { query: { geo_shape: { p: { shape: envelope } } } });
    expect(geoOnXy.status).to.equal(400);
    expect(JSON.stringify(geoOnXy.json)).to.contain('does not support [geo_shape] queries');
    const xyOnGeo = await es.call('POST', '/points/_search', { query: { xy_shape: { at: { shape: envelope } } } });
    expect(xyOnGeo.status).to.equal(400);
    expect(JSON.stringify(xyOnGeo.json)).to.contain('does not support [xy_shape] queries');
  });
});
