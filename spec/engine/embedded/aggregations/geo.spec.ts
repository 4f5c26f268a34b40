import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** geo_distance, geo_bounds and geo_centroid over the reference pages' museums. */
describe('embedded engine: geo aggregations', () => {
  let es: TestEngine;
  const aggs = (body: Record<string, unknown>, params = '') => aggregationsOf(es, 'museums', body, params);
  const error = (body: Record<string, unknown>) => refusalOf(es, 'museums', body);
  const rings = [{ to: 100000 }, { from: 100000, to: 300000 }, { from: 300000 }];

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/museums', { mappings: { properties: { location: { type: 'geo_point' }, name: { type: 'text' }, city: { type: 'keyword' } } } });
    const museums = [
      ['52.374081,4.912350', 'NEMO Science Museum', 'Amsterdam'], ['52.369219,4.901618', 'Museum Het Rembrandthuis', 'Amsterdam'],
      ['52.371667,4.914722', 'Nederlands Scheepvaartmuseum', 'Amsterdam'], ['51.222900,4.405200', 'Letterenhuis', 'Antwerp'],
      ['48.861111,2.336389', 'Musée du Louvre', 'Paris'], ['48.860000,2.327000', "Musée d'Orsay", 'Paris'],
    ];
    const lines: unknown[] = [];
    museums.forEach(([location, name, city], i) => lines.push({ index: { _index: 'museums', _id: String(i + 1) } }, { location, name, city }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  describe('geo_distance', () => {
    it('rings around Amsterdam: keys, from (0 for an open start) and to, as the reference shows them', async () => {
      const r = await aggs({ aggs: { rings_around_amsterdam: { geo_distance: { field: 'location', origin: '52.3760, 4.894', ranges: rings } } } }, '?typed_keys');
      expect(r).to.deep.equal({
        'geo_distance#rings_around_amsterdam': {
          buckets: [
            { key: '*-100000.0', from: 0, to: 100000, doc_count: 3 },
            { key: '100000.0-300000.0', from: 100000, to: 300000, doc_count: 1 },
            { key: '300000.0-*', from: 300000, doc_count: 2 },
          ],
        },
      });
    });

    it('unit, distance_type plane, keyed and custom keys', async () => {
      const ranges = [{ to: 100, key: 'first_ring' }, { from: 100, to: 300, key: 'second_ring' }, { from: 300, key: 'third_ring' }];
      const r = await aggs({ aggs: { rings: { geo_distance: { field: 'location', origin: { lat: 52.376, lon: 4.894 }, unit: 'km', distance_type: 'plane', keyed: true, ranges } } } });
      expect(r.rings.buckets).to.deep.equal({
        first_ring: { from: 0, to: 100, doc_count: 3 },
        second_ring: { from: 100, to: 300, doc_count: 1 },
        third_ring: { from: 300, doc_count: 2 },
      });
      const byArray = await aggs({ aggs: { rings: { geo_distance: { field: 'location', origin: [4.894, 52.376], unit: 'km', keyed: true, ranges: [{ to: 100 }] } } } });
      expect(byArray.rings.buckets).to.deep.equal({ '*-100.0': { from: 0, to: 100, doc_count: 3 } });
    });

    it('sub-aggregations per ring', async () => {
      const r = await aggs({ aggs: { rings: { geo_distance: { field: 'location', origin: '52.3760, 4.894', ranges: rings }, aggs: { cities: { terms: { field: 'city' } } } } } });
      expect(r.rings.buckets[2].cities.buckets).to.deep.equal([{ key: 'Paris', doc_count: 2 }]);
    });

    it('refuses a missing origin or ranges and an unknown unit', async () => {
      let e = await error({ aggs: { r: { geo_distance: { field: 'location', ranges: rings } } } });
      expect(e.reason).to.equal('[origin] must not be null: [r]');
      e = await error({ aggs: { r: { geo_distance: { field: 'location', origin: '52.3760, 4.894' } } } });
      expect(e.reason).to.equal('No [ranges] specified for the [r] aggregation');
      e = await error({ aggs: { r: { geo_distance: { field: 'location', origin: '52.3760, 4.894', unit: 'parsec', ranges: rings } } } });
      expect(e.reason).to.equal('No distance unit match [parsec]');
      e = await error({ aggs: { r: { geo_distance: { field: 'city', origin: '52.3760, 4.894', ranges: rings } } } });
      expect(e.reason).to.equal('Field [city] of type [keyword] is not supported for aggregation [geo_distance]');
    });
  });

  describe('geo_bounds', () => {
    it('the viewport of the matching museums, at doc-value precision', async () => {
      const r = await aggs({ query: { match: { name: 'musée' } }, aggs: { viewport: { geo_bounds: { field: 'location', wrap_longitude: true } } } }, '?typed_keys');
      expect(r).to.deep.equal({
        'geo_bounds#viewport': { bounds: { top_left: { lat: 48.86111099738628, lon: 2.3269999679178 }, bottom_right: { lat: 48.85999997612089, lon: 2.3363889567553997 } } },
      });
    });

    it('no points: no bounds', async () => {
      const r = await aggs({ query: { match: { name: 'nothing' } }, aggs: { viewport: { geo_bounds: { field: 'location' } } } });
      expect(r.viewport).to.deep.equal({});
    });

    it('wrap_longitude: a box across the dateline when narrower', async () => {
      await es.call('PUT', '/pacific', { mappings: { properties: { location: { type: 'geo_point' } } } });
      await es.call('POST', '/_bulk?refresh=true', ndjson([{ index: { _index: 'pacific' } }, { location: { lat: 10, lon: 170 } }, { index: { _index: 'pacific' } }, { location: { lat: -10, lon: -170 } }]),
        { 'content-type': 'application/x-ndjson' });
      const wrapped = (await es.call('POST', '/pacific/_search', { size: 0, aggs: { b: { geo_bounds: { field: 'location' } } } })).json.aggregations.b.bounds;
      expect([wrapped.top_left.lon, wrapped.bottom_right.lon].map((x: number) => Math.round(x))).to.deep.equal([170, -170]);
      const flat = (await es.call('POST', '/pacific/_search', { size: 0, aggs: { b: { geo_bounds: { field: 'location', wrap_longitude: false } } } })).json.aggregations.b.bounds;
      expect([flat.top_left.lon, flat.bottom_right.lon].map((x: number) => Math.round(x))).to.deep.equal([-170, 170]);
    });
  });

  describe('geo_centroid', () => {
    it('the centroid of all museums, as the reference prints it', async () => {
      const r = await aggs({ aggs: { centroid: { geo_centroid: { field: 'location' } } } }, '?typed_keys');
      expect(r).to.deep.equal({ 'geo_centroid#centroid': { location: { lat: 51.00982965203002, lon: 3.9662131341174245 }, count: 6 } });
    });

    it('per city, as a sub-aggregation; no points: count 0 and no location', async () => {
      const r = await aggs({ aggs: { cities: { terms: { field: 'city' }, aggs: { centroid: { geo_centroid: { field: 'location' } } } } } });
      expect(r.cities.buckets.map((b: { key: string; centroid: unknown }) => [b.key, b.centroid])).to.deep.equal([
        ['Amsterdam', { location: { lat: 52.371655656024814, lon: 4.909563297405839 }, count: 3 }],
        ['Paris', { location: { lat: 48.86055548675358, lon: 2.3316944623366 }, count: 2 }],
        ['Antwerp', { location: { lat: 51.22289997059852, lon: 4.40519998781383 }, count: 1 }],
      ]);
      const none = await aggs({ query: { match: { name: 'nothing' } }, aggs: { centroid: { geo_centroid: { field: 'location' } } } });
      expect(none.centroid).to.deep.equal({ count: 0 });
    });
  });
  describe('geotile_grid and geohash_grid', () => {
    it('the reference pages\' cells: tiles of zoom 8 and geohashes of length 3, by doc_count', async () => {
      const r = await aggs({ aggs: {
        tiles: { geotile_grid: { field: 'location', precision: 8 }, aggs: { cities: { terms: { field: 'city' } } } },
        hashes: { geohash_grid: { field: 'location', precision: 3 } },
      } }, '?typed_keys');
      const tiles = r['geotile_grid#tiles'].buckets;
      expect(tiles.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([['8/131/84', 3], ['8/129/88', 2], ['8/131/85', 1]]);
      expect(tiles[1]['sterms#cities'].buckets).to.deep.equal([{ key: 'Paris', doc_count: 2 }]);
      expect(r['geohash_grid#hashes'].buckets).to.deep.equal([{ key: 'u17', doc_count: 3 }, { key: 'u09', doc_count: 2 }, { key: 'u15', doc_count: 1 }]);
    });

    it('size keeps the fullest cells; precision 0 is one tile; a precision out of range is refused with Elasticsearch\'s message', async () => {
      const r = await aggs({ aggs: { g: { geotile_grid: { field: 'location', precision: 8, size: 1 } }, world: { geotile_grid: { field: 'location', precision: 0 } } } });
      expect(r.g.buckets).to.deep.equal([{ key: '8/131/84', doc_count: 3 }]);
      expect(r.world.buckets).to.deep.equal([{ key: '0/0/0', doc_count: 6 }]);
      expect((await error({ aggs: { g: { geotile_grid: { field: 'location', precision: 30 } } } })).reason).to.equal('Invalid geotile_grid precision of 30. Must be between 0 and 29.');
      expect((await error({ aggs: { g: { geohash_grid: { field: 'location', precision: 13 } } } })).reason).to.equal('Invalid geohash aggregation precision of 13. Must be between 1 and 12.');
      expect((await error({ aggs: { g: { geohash_grid: { field: 'city' } } } })).reason).to.equal('Field [city] of type [keyword] is not supported for aggregation [geohash_grid]');
    });
  });
});
