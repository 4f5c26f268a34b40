import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// Term vectors of an artificial document (`doc` in the body, no id), as Elasticsearch 8 and
// OpenSearch 2 give them: the document is analyzed with the index's mappings and never stored; the
// answer has no `_id` and `_version` 0. GET with a body is the same request as POST.
describe('embedded engine REST: _termvectors of an artificial document', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/books', { mappings: { properties: { title: { type: 'text' }, code: { type: 'keyword' } } } });
    await es.call('PUT', '/books/_doc/1?refresh=true', { title: 'To Kill a Mockingbird', code: 'A1' });
  });
  after(() => es.close());

  for (const method of ['GET', 'POST']) {
    it(`analyzes the given document (${method})`, async () => {
      const r = await es.call(method, '/books/_termvectors', { doc: { title: 'To kill to', code: 'B2' } });
      expect(r.status).to.equal(200);
      expect(r.json).to.include({ _index: 'books', _version: 0, found: true });
      expect(r.json).to.not.have.property('_id');
      expect(r.json.term_vectors.title.terms.to.term_freq).to.equal(2);
      expect(r.json.term_vectors.title.terms.kill.tokens).to.deep.equal([{ position: 1, start_offset: 3, end_offset: 7 }]);
      expect(r.json.term_vectors.code.terms).to.have.keys('B2');
      // the index's statistics, the artificial document not among them
      expect(r.json.term_vectors.title.field_statistics).to.deep.equal({ sum_doc_freq: 4, doc_count: 1, sum_ttf: 4 });
    });
  }

  it('still asks for an id or a doc', async () => {
    const r = await es.call('POST', '/books/_termvectors', {});
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Validation Failed: 1: id or doc is required;');
  });
});
