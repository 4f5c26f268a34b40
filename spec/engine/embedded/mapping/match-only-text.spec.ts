import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

// match_only_text trades scoring for space: "All queries return constant scores that are equal to
// 1.0" (Elasticsearch 8's and OpenSearch 2's reference), span queries are refused (no positions),
// and Elasticsearch's field caps report it as of the text family.
describe('embedded engine: match_only_text scores, span queries and field caps', () => {
  let es: TestEngine;
  let os: TestEngine;
  const docs = ['Apache Lucene powers Elasticsearch', 'Elasticsearch is based on Apache Lucene', 'The Apache Software Foundation manages many projects including Lucene'];

  before(async () => {
    es = await startEngine();
    os = await startEngine({ apiDialect: 'opensearch' });
    for (const engine of [es, os]) {
      await engine.call('PUT', '/m', { mappings: { properties: { foo: { type: 'match_only_text' } } } });
      const lines = docs.flatMap((foo, i) => [{ index: { _index: 'm', _id: String(i + 2) } }, { foo }]);
      const r = await engine.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
      expect(r.json.errors).to.equal(false);
    }
  });
  after(async () => {
    await es.close();
    await os.close();
  });

  const scores = async (engine: TestEngine, query: unknown) => {
    const r = await engine.call('POST', '/m/_search', { query });
    expect(r.status, r.text).to.equal(200);
    return (r.json.hits.hits as Array<{ _score: number }>).map((h) => h._score);
  };

  it('every query scores its boost, whatever the term frequencies, lengths or edits', async () => {
    for (const engine of [es, os]) {
      expect(await scores(engine, { match: { foo: 'powers' } })).to.deep.equal([1]);
      expect(await scores(engine, { match: { foo: { query: 'powers', boost: 3 } } })).to.deep.equal([3]);
      expect(await scores(engine, { match_phrase: { foo: 'lucene powers' } })).to.deep.equal([1]);
      expect(await scores(engine, { match_phrase_prefix: { foo: 'lucene pow' } })).to.deep.equal([1]);
      expect(await scores(engine, { query_string: { query: '"lucene powers"', default_field: 'foo' } })).to.deep.equal([1]);
      expect(await scores(engine, { fuzzy: { foo: 'lucane' } })).to.deep.equal([1, 1, 1]);
      // two matching terms: two constant clauses
      expect(await scores(engine, { match: { foo: 'powers software' } })).to.deep.equal([1, 1]);
    }
  });

  it('refuses span queries, as the field has no positions', async () => {
    const r = await es.call('POST', '/m/_search', { query: { span_term: { foo: 'lucene' } } });
    expect(r.status, r.text).to.equal(400);
    expect(r.json.error.root_cause[0].type).to.equal('illegal_argument_exception');
    expect(r.json.error.root_cause[0].reason).to.equal('Span term query requires position data, but field foo was indexed without position data');
  });

  it('field caps: Elasticsearch reports the text family, OpenSearch its own type', async () => {
    let r = await es.call('GET', '/m/_field_caps?fields=foo');
    expect(r.json.fields.foo).to.deep.equal({ text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false } });
    r = await os.call('GET', '/m/_field_caps?fields=foo');
    expect(Object.keys(r.json.fields.foo)).to.deep.equal(['match_only_text']);
  });
});
