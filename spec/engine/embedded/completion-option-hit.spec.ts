import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

describe('embedded engine: completion options are hits', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/titles', { mappings: { properties: { suggest: { type: 'completion' }, title: { type: 'keyword' } } } })).status).to.equal(200);
    expect((await es.call('PUT', '/titles/_doc/1?refresh=true', { suggest: { input: 'baz', weight: 3 }, title: 'title_baz' })).status).to.equal(201);
  });
  after(() => es.close());

  it('carries the hit fields a search hit carries: _index, _type, _id, _score, _source', async () => {
    const r = await es.call('POST', '/titles/_search', { query: { match_all: {} }, suggest: { s: { text: 'b', completion: { field: 'suggest' } } } });
    expect(r.status, r.text).to.equal(200);
    const hit = r.json.hits.hits[0];
    const [option] = r.json.suggest.s[0].options;
    expect(option).to.deep.equal({
      text: 'baz', _index: 'titles', _type: hit._type, _id: '1', _score: 3, _source: { suggest: { input: 'baz', weight: 3 }, title: 'title_baz' },
    });
    expect(option._type).to.equal('_doc');
  });
});
