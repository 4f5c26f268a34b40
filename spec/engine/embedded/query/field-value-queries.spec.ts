import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** Queries decided or scored by a document's field values, with the reference pages' examples. */
describe('embedded engine: terms_set, rank_feature, distance_feature, geo_shape, geo_polygon, pinned', () => {
  let es: TestEngine;
  /** A float score as Elasticsearch prints it: the shortest decimal that reads back as the same float. */
  const f = (x: number): number => {
    const v = Math.fround(x);
    for (let p = 1; p <= 9; p++) if (Math.fround(Number(v.toPrecision(p))) === v) return Number(v.toPrecision(p));
    return v;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const search = async (index: string, body: Record<string, unknown>): Promise<any> => {
    const r = await es.call('POST', `/${index}/_search`, body);
    expect(r.status, r.text).to.equal(200);
    return r.json.hits;
  };
  const hitsOf = async (index: string, query: unknown) => (await search(index, { query })).hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);
  const ids = async (index: string, query: unknown) => (await search(index, { query })).hits.map((h: { _id: string }) => h._id);
  const error = async (index: string, query: unknown, status = 400) => {
    const r = await es.call('POST', `/${index}/_search`, { query });
    expect(r.status, r.text).to.equal(status);
    return r.json.error as { type: string; reason: string; caused_by?: { type: string; reason: string } };
  };
  const bulk = async (index: string, docs: Array<Record<string, unknown>>) => {
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: index, _id: String(d._id ?? i + 1) } }, Object.fromEntries(Object.entries(d).filter(([k]) => k !== '_id'))));
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  };

  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  describe('terms_set', () => {
    before(async () => {
      await es.call('PUT', '/job-candidates', { mappings: { properties: { name: { type: 'keyword' }, programming_languages: { type: 'keyword' }, required_matches: { type: 'long' } } } });
      await bulk('job-candidates', [
        { _id: 1, name: 'Jane Smith', programming_languages: ['c++', 'java'], required_matches: 2 },
        { _id: 2, name: 'Jason Response', programming_languages: ['java', 'php'], required_matches: 2 },
        { _id: 3, name: 'Jim Python', programming_languages: ['python', 'java'], required_matches: 2 },
        { _id: 4, name: 'Nobody', programming_languages: ['php'] },
      ]);
    });

    it('minimum_should_match_field: each document its own required count', async () => {
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['c++', 'java', 'php'], minimum_should_match_field: 'required_matches' } } })).to.have.members(['1', '2']);
    });

    it('minimum_should_match_script: Math.min(params.num_terms, doc[…].value)', async () => {
      const script = { source: "Math.min(params.num_terms, doc['required_matches'].value)" };
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['c++', 'java', 'php'], minimum_should_match_script: script } } })).to.have.members(['1', '2']);
      // one term: num_terms caps the requirement at 1
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['java'], minimum_should_match_script: script } } })).to.have.members(['1', '2', '3']);
      const withParams = { source: 'params.needed', params: { needed: 1 } };
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['php'], minimum_should_match_script: withParams } } })).to.have.members(['2', '4']);
    });

    it('minimum_should_match: a fixed count or percentage of the terms', async () => {
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['c++', 'java', 'php'], minimum_should_match: 2 } } })).to.have.members(['1', '2']);
      expect(await ids('job-candidates', { terms_set: { programming_languages: { terms: ['c++', 'java', 'php'], minimum_should_match: '10%' } } })).to.have.members(['1', '2', '3', '4']);
    });

    it('scores the sum of the matching terms\' scores', async () => {
      const both = await hitsOf('job-candidates', { terms_set: { programming_languages: { terms: ['c++', 'java'], minimum_should_match: 1 } } });
      const cpp = await hitsOf('job-candidates', { term: { programming_languages: 'c++' } });
      const java = await hitsOf('job-candidates', { term: { programming_languages: 'java' } });
      const janeJava = java.find((h: [string, number]) => h[0] === '1')[1];
      expect(both[0]).to.deep.equal(['1', f(Math.fround(cpp[0][1]) + Math.fround(janeJava))]);
    });

    it('without a minimum it fails as Elasticsearch does; unsupported scripts are a 400', async () => {
      let e = await error('job-candidates', { terms_set: { programming_languages: { terms: ['java'] } } }, 500);
      expect([e.type, e.reason]).to.deep.equal(['illegal_state_exception', 'No minimum should match has been specified']);
      e = await error('job-candidates', { terms_set: { programming_languages: { terms: ['java'], minimum_should_match_script: { source: "doc['required_matches'].value > 1 ? 2 : 1" } } } });
      expect(e.type).to.equal('illegal_argument_exception');
      expect(e.reason).to.match(/minimum_should_match_script .* is not supported by the embedded engine/);
      e = await error('job-candidates', { terms_set: { programming_languages: { terms: ['java'], minimum_should_match_field: 'required_matches', minimum_should_match_script: { source: 'params.num_terms' } } } });
      expect(e.reason).to.equal('A field has already been specified. Cannot specify both a field and script');
      e = await error('job-candidates', { terms_set: { programming_languages: { terms: ['java'], foo: 1 } } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', '[terms_set] query does not support [foo]']);
    });
  });

  describe('rank_feature', () => {
    before(async () => {
      await es.call('PUT', '/test', {
        mappings: { properties: { pagerank: { type: 'rank_feature' }, url_length: { type: 'rank_feature', positive_score_impact: false }, topics: { type: 'rank_features' }, content: { type: 'text' } } },
      });
      await bulk('test', [
        { url: 'https://en.wikipedia.org/wiki/2016_Summer_Olympics', content: 'Rio 2016', pagerank: 50.3, url_length: 42, topics: { sports: 50, brazil: 30 } },
        { url: 'https://en.wikipedia.org/wiki/2016_Brazilian_Grand_Prix', content: 'Formula One motor race held on 13 November 2016', pagerank: 50.3, url_length: 47, topics: { sports: 35, 'formula one': 65, brazil: 20 } },
        { url: 'https://en.wikipedia.org/wiki/Deadpool_(film)', content: 'Deadpool is a 2016 American superhero film', pagerank: 50.3, url_length: 37, topics: { movies: 60, 'super hero': 65 } },
      ]);
    });

    it('the reference example: 2016 boosted by pagerank, url_length and the sports topic', async () => {
      const query = {
        bool: {
          must: [{ match: { content: '2016' } }],
          should: [{ rank_feature: { field: 'pagerank' } }, { rank_feature: { field: 'url_length', boost: 0.1 } }, { rank_feature: { field: 'topics.sports', boost: 0.4 } }],
        },
      };
      expect((await hitsOf('test', query)).map((h: [string]) => h[0])).to.deep.equal(['1', '2', '3']);
    });

    it('linear gives the value as indexed: 9 significant bits', async () => {
      expect(await hitsOf('test', { rank_feature: { field: 'pagerank', linear: {} } })).to.deep.equal([['1', 50.25], ['2', 50.25], ['3', 50.25]]);
      expect(await hitsOf('test', { rank_feature: { field: 'topics.formula one', linear: {} } })).to.deep.equal([['2', 65]]);
    });

    it('saturation S / (S + pivot), log(scaling_factor + S), sigmoid S^e / (S^e + pivot^e)', async () => {
      const s = 50.25;
      expect((await hitsOf('test', { rank_feature: { field: 'pagerank', saturation: { pivot: 8 } } }))[0][1]).to.equal(f(1 - Math.fround(8 / Math.fround(s + 8))));
      // the default pivot is about the geometric mean of the values: 50.25 here, so 0.5
      expect((await hitsOf('test', { rank_feature: { field: 'pagerank', saturation: {} } }))[0][1]).to.equal(0.5);
      expect((await hitsOf('test', { rank_feature: { field: 'pagerank', log: { scaling_factor: 4 } } }))[0][1]).to.equal(f(Math.log(Math.fround(4 + s))));
      expect((await hitsOf('test', { rank_feature: { field: 'pagerank', sigmoid: { pivot: 7, exponent: 0.6 } } }))[0][1])
        .to.equal(f(1 - 7 ** Math.fround(0.6) / (s ** Math.fround(0.6) + 7 ** Math.fround(0.6))));
    });

    it('a negative score impact scores the inverse: the shortest url first', async () => {
      expect((await hitsOf('test', { rank_feature: { field: 'url_length', saturation: { pivot: 0.025 } } })).map((h: [string]) => h[0])).to.deep.equal(['3', '1', '2']);
    });

    it('refuses other fields, several functions, log on a negative impact, a missing field', async () => {
      let e = await error('test', { rank_feature: { field: 'content' } });
      expect(e.reason).to.equal('[rank_feature] query only works on [rank_feature] fields and features of [rank_features] fields, not [text]');
      e = await error('test', { rank_feature: { field: 'url_length', log: { scaling_factor: 4 } } });
      expect(e.reason).to.equal('Cannot use the [log] function with a field that has a negative score impact as it would trigger negative scores');
      e = await error('test', { rank_feature: { field: 'pagerank', linear: {}, log: { scaling_factor: 4 } } });
      expect(e.caused_by?.reason).to.equal('Can only specify one of [log], [saturation], [sigmoid] and [linear]');
      e = await error('test', { rank_feature: { saturation: {} } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', 'Required [field]']);
      e = await error('test', { rank_feature: { field: 'pagerank', sigmoid: { pivot: 7 } } });
      expect(e.caused_by?.reason).to.equal('Required [exponent]');
      expect(await ids('test', { rank_feature: { field: 'topics.unknown' } })).to.deep.equal([]);
    });

    it('indexing refuses a non-positive feature value', async () => {
      const r = await es.call('PUT', '/test/_doc/9', { pagerank: 0 });
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('document_parsing_exception');
    });
  });

  describe('distance_feature', () => {
    before(async () => {
      await es.call('PUT', '/items', { mappings: { properties: { name: { type: 'keyword' }, production_date: { type: 'date' }, location: { type: 'geo_point' } } } });
      await bulk('items', [
        { name: 'chocolate', production_date: '2018-02-01', location: [-71.34, 41.12] },
        { name: 'chocolate', production_date: '2018-01-01', location: [-71.3, 41.15] },
        { name: 'chocolate', production_date: '2017-12-01', location: [-71.3, 41.12] },
      ]);
    });

    it('dates: recent chocolates first; score = boost · pivot / (pivot + distance)', async () => {
      const query = { bool: { must: { match: { name: 'chocolate' } }, should: { distance_feature: { field: 'production_date', pivot: '7d', origin: 'now' } } } };
      expect((await hitsOf('items', query)).map((h: [string]) => h[0])).to.deep.equal(['1', '2', '3']);
      const exact = await hitsOf('items', { distance_feature: { field: 'production_date', pivot: '7d', origin: '2018-01-01T00:00:00Z', boost: 2 } });
      expect(exact[0]).to.deep.equal(['2', 2]);
      expect(exact[1]).to.deep.equal(['1', f(2 * (7 / (7 + 31)))]);
      // a date without a time is read rounding up, as Elasticsearch reads the origin: the end of that day
      const day = 86_400_000;
      const rounded = await hitsOf('items', { distance_feature: { field: 'production_date', pivot: '7d', origin: '2018-01-01' } });
      expect(rounded[0]).to.deep.equal(['2', f((7 * day) / (7 * day + day - 1))]);
    });

    it('geo points: the closest to the origin first', async () => {
      const query = { bool: { must: { match: { name: 'chocolate' } }, should: { distance_feature: { field: 'location', pivot: '1000m', origin: [-71.3, 41.15] } } } };
      expect((await hitsOf('items', query)).map((h: [string]) => h[0])).to.deep.equal(['2', '3', '1']);
    });

    it('refuses other field types and missing parameters', async () => {
      let e = await error('items', { distance_feature: { field: 'name', pivot: '7d', origin: 'now' } });
      expect(e.reason).to.equal('Illegal data type of [keyword]![distance_feature] query can only be run on a date, date_nanos or geo_point field type!');
      e = await error('items', { distance_feature: { field: 'production_date', origin: 'now' } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', 'Required [pivot]']);
      expect(await ids('items', { distance_feature: { field: 'nope', pivot: '7d', origin: 'now' } })).to.deep.equal([]);
    });
  });

  describe('geo_shape and geo_polygon on geo_point fields', () => {
    before(async () => {
      await es.call('PUT', '/example_points', { mappings: { properties: { location: { type: 'geo_point' }, name: { type: 'keyword' } } } });
      await bulk('example_points', [
        { _id: 1, name: 'Wind & Wetter, Berlin, Germany', location: [13.400544, 52.530286] },
        { _id: 2, name: 'Potsdam', location: { lat: 52.39, lon: 13.06 } },
        { _id: 3, name: 'Hamburg', location: '53.55,9.99' },
        { _id: 4, name: 'Berlin and Hamburg', location: [[13.4, 52.52], [9.99, 53.55]] },
      ]);
    });

    it('the reference example: points intersecting an envelope', async () => {
      const query = {
        bool: {
          must: { match_all: {} },
          filter: { geo_shape: { location: { shape: { type: 'envelope', coordinates: [[13.0, 53.0], [14.0, 52.0]] }, relation: 'intersects' } } },
        },
      };
      expect(await hitsOf('example_points', query)).to.deep.equal([['1', 1], ['2', 1], ['4', 1]]);
    });

    it('relations within, disjoint and contains; polygons, WKT, circles', async () => {
      const envelope = { type: 'envelope', coordinates: [[13.0, 53.0], [14.0, 52.0]] };
      expect(await ids('example_points', { geo_shape: { location: { shape: envelope, relation: 'within' } } })).to.deep.equal(['1', '2']);
      expect(await ids('example_points', { geo_shape: { location: { shape: envelope, relation: 'disjoint' } } })).to.deep.equal(['3']);
      expect(await ids('example_points', { geo_shape: { location: { shape: { type: 'point', coordinates: [9.99, 53.55] }, relation: 'contains' } } })).to.deep.equal(['3', '4']);
      const polygon = { type: 'Polygon', coordinates: [[[9, 53], [11, 53], [11, 54], [9, 54], [9, 53]]] };
      expect(await ids('example_points', { geo_shape: { location: { shape: polygon } } })).to.deep.equal(['3', '4']);
      expect(await ids('example_points', { geo_shape: { location: { shape: 'POLYGON ((9 53, 11 53, 11 54, 9 54, 9 53))' } } })).to.deep.equal(['3', '4']);
      expect(await ids('example_points', { geo_shape: { location: { shape: 'BBOX (13.0, 14.0, 53.0, 52.0)', relation: 'within' } } })).to.deep.equal(['1', '2']);
      expect(await ids('example_points', { geo_shape: { location: { shape: { type: 'circle', coordinates: [13.4, 52.52], radius: '5km' } } } })).to.deep.equal(['1', '4']);
    });

    it('unmapped fields (ignore_unmapped) and non-geo_point fields', async () => {
      const shape = { type: 'point', coordinates: [13.4, 52.52] };
      let e = await error('example_points', { geo_shape: { nope: { shape } } });
      expect([e.type, e.reason]).to.deep.equal(['query_shard_exception', 'failed to find type for field [nope]']);
      expect(await ids('example_points', { geo_shape: { nope: { shape }, ignore_unmapped: true } })).to.deep.equal([]);
      e = await error('example_points', { geo_shape: { name: { shape } } });
      expect(e.reason).to.equal('Field [name] of type [keyword] does not support [geo_shape] queries');
      e = await error('example_points', { geo_shape: { location: { shape, relation: 'near' } } });
      expect(e.type).to.equal('illegal_argument_exception');
    });

    it('indexed_shape: the reference example, a shape read from a document of another index', async () => {
      await es.call('PUT', '/shapes', { mappings: { properties: { location: { type: 'geo_shape' } } } });
      const put = await es.call('PUT', '/shapes/_doc/deu?refresh=true', { location: { type: 'envelope', coordinates: [[13.0, 53.0], [14.0, 52.0]] } });
      expect(put.status, put.text).to.equal(201);
      const query = { bool: { filter: { geo_shape: { location: { indexed_shape: { index: 'shapes', id: 'deu', path: 'location' } } } } } };
      expect(await ids('example_points', query)).to.deep.equal(['1', '2', '4']);
      const within = { geo_shape: { location: { indexed_shape: { index: 'shapes', id: 'deu', path: 'location' }, relation: 'within' } } };
      expect(await ids('example_points', within)).to.deep.equal(['1', '2']);
      const missing = await error('example_points', { geo_shape: { location: { indexed_shape: { index: 'shapes', id: 'nope', path: 'location' } } } });
      expect([missing.type, missing.reason]).to.deep.equal(['illegal_argument_exception', 'Shape with ID [nope] not found']);
      const noPath = await error('example_points', { geo_shape: { location: { indexed_shape: { index: 'shapes', id: 'deu', path: 'elsewhere' } } } });
      expect(noPath.reason).to.equal('Shape with name [deu] found but missing elsewhere field');
    });

    it('geo_shape fields: shapes validated, points among them queried', async () => {
      await es.call('PUT', '/example_shapes', { mappings: { properties: { location: { type: 'geo_shape' }, name: { type: 'keyword' } } } });
      await bulk('example_shapes', [
        { _id: 1, name: 'Wind & Wetter, Berlin, Germany', location: { type: 'point', coordinates: [13.400544, 52.530286] } },
        { _id: 2, name: 'Paris', location: 'POINT (2.35 48.85)' },
        { _id: 3, name: 'a road', location: { type: 'linestring', coordinates: [[-77.03653, 38.897676], [-77.009051, 38.889939]] } },
      ]);
      const envelope = { type: 'envelope', coordinates: [[13.0, 53.0], [14.0, 52.0]] };
      expect(await ids('example_shapes', { geo_shape: { location: { shape: envelope } } })).to.deep.equal(['1']);
      expect(await ids('example_shapes', { geo_shape: { location: { shape: 'BBOX (0, 3, 50, 40)', relation: 'within' } } })).to.deep.equal(['2']);
      const bad = await es.call('PUT', '/example_shapes/_doc/9', { location: { type: 'polygon', coordinates: [[[1, 1]]] } });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.type).to.equal('document_parsing_exception');
      expect(bad.json.error.caused_by.reason).to.equal('Invalid number of points in LinearRing (found [1] - must be >= 4)');
    });

    it('geo_polygon: points in a polygon given as objects, arrays, strings or geohashes', async () => {
      const points = [{ lat: 52, lon: 13 }, [14, 52], '53,14', 'u33'];
      const query = { bool: { must: { match_all: {} }, filter: { geo_polygon: { location: { points } } } } };
      expect(await ids('example_points', query)).to.include.members(['1', '4']);
      expect(await ids('example_points', query)).to.not.include('3');
      const e = await error('example_points', { geo_polygon: { location: { points: [{ lat: 40, lon: -70 }, { lat: 30, lon: -80 }] } } });
      expect([e.type, e.reason]).to.deep.equal(['illegal_argument_exception', 'too few points defined for geo_polygon query']);
      const other = await error('example_points', { geo_polygon: { name: { points: [{ lat: 40, lon: -70 }, { lat: 30, lon: -80 }, { lat: 20, lon: -90 }] } } });
      expect(other.reason).to.equal('field [name] is not a geo_point field');
    });
  });

  describe('pinned', () => {
    before(async () => {
      await es.call('PUT', '/phones', { mappings: { properties: { description: { type: 'text' } } } });
      await bulk('phones', [
        { _id: 1, description: 'iphone 14' }, { _id: 2, description: 'iphone case' }, { _id: 3, description: 'android phone' },
        { _id: 4, description: 'phone charger' }, { _id: 5, description: 'iphone charger iphone' },
      ]);
    });

    it('ids come first in the order given, then the organic hits', async () => {
      expect(await ids('phones', { pinned: { ids: ['1', '4', '100'], organic: { match: { description: 'iphone' } } } })).to.deep.equal(['1', '4', '5', '2']);
    });

    it('docs name their index; requires organic, and ids or docs (not both)', async () => {
      expect(await ids('phones', { pinned: { docs: [{ _index: 'phones', _id: '3' }, { _index: 'other', _id: '2' }], organic: { match: { description: 'iphone' } } } })).to.deep.equal(['3', '5', '1', '2']);
      let e = await error('phones', { pinned: { ids: ['1'] } });
      expect(e.reason).to.equal('Required [organic]');
      e = await error('phones', { pinned: { organic: { match_all: {} } } });
      expect(e.caused_by?.reason).to.equal('[pinned] ids and docs cannot both be null');
      e = await error('phones', { pinned: { ids: ['1'], docs: [{ _index: 'phones', _id: '1' }], organic: { match_all: {} } } });
      expect(e.caused_by?.reason).to.equal('[pinned] ids and docs cannot both be used');
    });
  });
});
