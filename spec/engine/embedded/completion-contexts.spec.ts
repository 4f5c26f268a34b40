import { expect } from 'chai';
import { encodeGeohash } from '../../../lib/engine/embedded/mapping/geo-point.js';
import { startEngine, type TestEngine } from './support.js';

describe('embedded engine: completion suggester contexts (category and geo)', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/places', {
      mappings: {
        properties: {
          kind: { type: 'keyword' },
          at: { type: 'geo_point' },
          suggest: {
            type: 'completion',
            contexts: [
              { name: 'place_type', type: 'category' },
              { name: 'kind', type: 'category', path: 'kind' },
              { name: 'location', type: 'geo', precision: '5km', path: 'at' },
            ],
          },
        },
      },
    });
    expect(created.status, created.text).to.equal(200);
    const docs: Array<[string, Record<string, unknown>]> = [
      ['1', { suggest: { input: ['Café Amsterdam'], weight: 10, contexts: { place_type: ['cafe', 'food'] } }, at: { lat: 52.3702, lon: 4.8952 } }],
      ['2', { suggest: { input: ['Cafeteria Berlin'], weight: 20, contexts: { place_type: 'restaurant' } }, at: { lat: 52.52, lon: 13.405 } }],
      ['3', { suggest: 'Cable car', kind: 'transport' }],
    ];
    for (const [id, body] of docs) expect((await es.call('PUT', `/places/_doc/${id}?refresh=true`, body)).status).to.equal(201);
  });
  after(() => es.close());

  const suggest = async (completion: Record<string, unknown>, prefix = 'ca') => {
    const r = await es.call('POST', '/places/_search', { suggest: { s: { prefix, completion: { field: 'suggest', ...completion } } } });
    expect(r.status, r.text).to.equal(200);
    return r.json.suggest.s[0].options as Array<{ text: string; _score: number; contexts?: Record<string, string[]> }>;
  };

  it('keeps the suggestions a category accepts, their score the weight times its boost, the context shown', async () => {
    expect((await suggest({ contexts: { place_type: 'cafe' } })).map((o) => [o.text, o._score, o.contexts])).to.deep.equal([['Café Amsterdam', 10, { place_type: ['cafe'] }]]);
    const boosted = await suggest({ contexts: { place_type: [{ context: 'cafe', boost: 5 }, 'restaurant'] } });
    expect(boosted.map((o) => [o.text, o._score])).to.deep.equal([['Café Amsterdam', 50], ['Cafeteria Berlin', 20]]);
    // a prefix of a category; and a category read from the document's own field (path)
    expect((await suggest({ contexts: { place_type: { context: 'rest', prefix: true } } })).map((o) => o.text)).to.deep.equal(['Cafeteria Berlin']);
    expect((await suggest({ contexts: { kind: 'transport' } })).map((o) => o.text)).to.deep.equal(['Cable car']);
  });

  it('a geo context matches the cell of the point and its neighbours, at the mapping precision (5km: geohash length 6)', async () => {
    const near = await suggest({ contexts: { location: { lat: 52.371, lon: 4.897 } } });
    expect(near.map((o) => [o.text, o.contexts])).to.deep.equal([['Café Amsterdam', { location: [encodeGeohash(52.3702, 4.8952, 6)] }]]);
    expect(near[0].contexts!.location[0]).to.have.length(6);
    // a coarser precision in the query matches as a prefix: both cities share the first geohash character
    const wide = await suggest({ contexts: { location: { context: { lat: 52.37, lon: 4.89 }, precision: 1 } } });
    expect(wide.map((o) => o.text).sort()).to.deep.equal(['Cafeteria Berlin', 'Café Amsterdam']);
    expect(await suggest({ contexts: { location: { lat: 40.7, lon: -74 } } })).to.deep.equal([]);
  });

  it('refuses an entry without any context, and a query without contexts, with Elasticsearch messages', async () => {
    const missing = await es.call('PUT', '/places/_doc/4', { suggest: 'Canal tour' });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.type).to.equal('document_parsing_exception');
    expect(missing.text).to.contain('Contexts are mandatory in context enabled completion field [suggest]');
    for (const contexts of [undefined, {}, { place_type: [] }]) {
      const r = await es.call('POST', '/places/_search', { suggest: { s: { prefix: 'ca', completion: { field: 'suggest', contexts } } } });
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('Missing mandatory contexts in context query');
    }
    const unknown = await es.call('POST', '/places/_search', { suggest: { s: { prefix: 'ca', completion: { field: 'suggest', contexts: { colour: 'red' } } } } });
    expect(unknown.status).to.equal(400);
  });
});
