import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// _termvectors statistics, as Elasticsearch's term vectors API gives them: field_statistics (on by
// default: sum_doc_freq, doc_count, sum_ttf over the index's live documents) and term_statistics
// (off by default: each term's doc_freq and ttf in the index).
describe('embedded engine REST: _termvectors field and term statistics', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/tv', { mappings: { properties: { text: { type: 'text' }, tag: { type: 'keyword' } } } });
    await es.call('PUT', '/tv/_doc/1', { text: 'The quick brown fox is brown.', tag: 'Red' });
    await es.call('PUT', '/tv/_doc/2', { text: 'brown dog', tag: 'Red' });
    await es.call('PUT', '/tv/_doc/3', { text: 'brown brown cat', tag: 'Blue' });
    await es.call('DELETE', '/tv/_doc/3?refresh=true'); // a deleted document counts in no statistic
  });
  after(() => es.close());

  it('gives field statistics by default and no term statistics', async () => {
    const r = await es.call('GET', '/tv/_termvectors/1');
    expect(r.json).to.include({ _index: 'tv', _type: '_doc', _id: '1', found: true });
    expect(r.json.term_vectors.text.field_statistics).to.deep.equal({ sum_doc_freq: 7, doc_count: 2, sum_ttf: 8 });
    expect(r.json.term_vectors.tag.field_statistics).to.deep.equal({ sum_doc_freq: 2, doc_count: 2, sum_ttf: 2 });
    expect(r.json.term_vectors.text.terms.brown).to.not.have.any.keys('doc_freq', 'ttf');
    expect(r.json.term_vectors.text.terms.brown.term_freq).to.equal(2);
  });

  it('gives each term its doc_freq and ttf with term_statistics, none of the field with field_statistics=false', async () => {
    const r = await es.call('GET', '/tv/_termvectors/1?term_statistics=true&field_statistics=false&positions=false&offsets=false');
    expect(r.json.term_vectors.text).to.not.have.property('field_statistics');
    expect(r.json.term_vectors.text.terms.brown).to.deep.equal({ doc_freq: 2, ttf: 3, term_freq: 2 });
    expect(r.json.term_vectors.text.terms.the).to.deep.equal({ doc_freq: 1, ttf: 1, term_freq: 1 });
    expect(r.json.term_vectors.tag.terms.Red).to.deep.equal({ doc_freq: 2, ttf: 2, term_freq: 1 });
    const body = await es.call('POST', '/tv/_termvectors/2', { fields: ['text'], term_statistics: true, positions: false, offsets: false });
    expect(body.json.term_vectors.text.terms.dog).to.deep.equal({ doc_freq: 1, ttf: 1, term_freq: 1 });
  });

  it('gives a found document an empty term_vectors when no asked field has terms (nested, missing)', async () => {
    await es.call('PUT', '/tvn', { mappings: { properties: { n: { type: 'nested', properties: { t: { type: 'text' } } } } } });
    await es.call('PUT', '/tvn/_doc/1?refresh=true', { text: 'The quick brown fox' });
    for (const fields of ['n', 'n.t', 'absent']) {
      const r = await es.call('GET', `/tvn/_termvectors/1?fields=${fields}`);
      expect(r.json).to.include({ found: true });
      expect(r.json.term_vectors, fields).to.deep.equal({});
    }
    const missing = await es.call('GET', '/tvn/_termvectors/2');
    expect(missing.json).to.include({ found: false });
    expect(missing.json).to.not.have.property('term_vectors');
  });

  it('gives _mtermvectors items the same statistics', async () => {
    const r = await es.call('POST', '/tv/_mtermvectors?term_statistics=true', { ids: ['1'] });
    expect(r.json.docs[0].term_vectors.text.terms.brown).to.include({ doc_freq: 2, ttf: 3, term_freq: 2 });
    expect(r.json.docs[0].term_vectors.text.field_statistics).to.deep.equal({ sum_doc_freq: 7, doc_count: 2, sum_ttf: 8 });
  });
});
