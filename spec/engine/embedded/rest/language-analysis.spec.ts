import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine REST: language analysis', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('_analyze with a language analyzer and with language filters', async () => {
    const r = await es.call('POST', '/_analyze', { analyzer: 'french', text: "L'avion des chevaux" });
    expect(r.status).to.equal(200);
    expect(r.json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['avion', 'cheval']);
    const f = await es.call('POST', '/_analyze', { tokenizer: 'standard', filter: ['lowercase', { type: 'stemmer', language: 'light_spanish' }], text: 'Las Ciudades' });
    expect(f.json.tokens.map((t: { token: string }) => t.token)).to.deep.equal(['las', 'ciudad']);
  });

  it('a text field analysed in French is found by the words\' other forms', async () => {
    await es.call('PUT', '/livres', {
      settings: { analysis: { analyzer: { fr: { type: 'french', stem_exclusion: ['chevaux'] } } } },
      mappings: { properties: { titre: { type: 'text', analyzer: 'french' }, exclu: { type: 'text', analyzer: 'fr' } } },
    });
    await es.call('PUT', '/livres/_doc/1?refresh=true', { titre: "L'histoire des chevaux de l'Europe", exclu: 'les chevaux' });
    const hits = async (query: unknown) => (await es.call('POST', '/livres/_search', { query })).json.hits.hits.map((h: { _id: string }) => h._id);
    expect(await hits({ match: { titre: 'cheval' } })).to.deep.equal(['1']);
    expect(await hits({ match: { titre: 'Histoires européennes' } })).to.deep.equal(['1']);
    expect(await hits({ match_phrase: { titre: 'histoire du cheval' } })).to.deep.equal(['1']);
    expect(await hits({ match_phrase: { titre: 'cheval histoire' } })).to.deep.equal([]);
    expect(await hits({ match: { exclu: 'cheval' } })).to.deep.equal([]);
    expect(await hits({ match: { exclu: 'chevaux' } })).to.deep.equal(['1']);
  });

  it('an index with an unknown stemmer language is refused with ES\'s error', async () => {
    const r = await es.call('PUT', '/bad', { settings: { analysis: { filter: { s: { type: 'stemmer', language: 'klingon' } } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.equal('Invalid stemmer class specified: Klingon');
  });
});
