import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** The `_doc_count` metadata field (pre-aggregated documents): bucket counts add it up, hit counts do not. */
describe('embedded engine: _doc_count field', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const aggs = async (body: Record<string, unknown>): Promise<any> => {
    const r = await es.call('POST', '/pre/_search', { size: 0, aggs: body });
    expect(r.status, r.text).to.equal(200);
    return r.json;
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/pre', { mappings: { properties: { str: { type: 'keyword' }, number: { type: 'integer' } } } });
    const docs = [
      { _doc_count: 10, str: 'abc', number: 500 }, { _doc_count: 5, str: 'xyz', number: 100 },
      { _doc_count: 7, str: 'foo', number: 100 }, { _doc_count: 1, str: 'foo', number: 200 }, { str: 'abc', number: 500 },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((d, i) => [{ index: { _index: 'pre', _id: String(i + 1) } }, d])), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('terms over keywords and numbers count each document as its _doc_count (1 without one); hits.total counts documents', async () => {
    const out = await aggs({ s: { terms: { field: 'str' } }, n: { terms: { field: 'number' } } });
    expect(out.hits.total.value).to.equal(5);
    expect(out.aggregations.s.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([['abc', 11], ['foo', 8], ['xyz', 5]]);
    expect(out.aggregations.n.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([[100, 12], [500, 11], [200, 1]]);
  });

  it('composite, histogram, range and filter buckets add it up too', async () => {
    const out = await aggs({
      c: { composite: { sources: [{ n: { terms: { field: 'number' } } }] } },
      h: { histogram: { field: 'number', interval: 1000 } },
      r: { range: { field: 'number', ranges: [{ to: 150 }, { from: 150 }] } },
      f: { filter: { term: { str: 'foo' } } },
    });
    expect(out.aggregations.c.buckets.map((b: { key: { n: number }; doc_count: number }) => [b.key.n, b.doc_count])).to.deep.equal([[100, 12], [200, 1], [500, 11]]);
    expect(out.aggregations.h.buckets).to.deep.equal([{ key: 0, doc_count: 24 }]);
    expect(out.aggregations.r.buckets.map((b: { doc_count: number }) => b.doc_count)).to.deep.equal([12, 12]);
    expect(out.aggregations.f.doc_count).to.equal(8);
  });

  it('stays in _source, and is not a mapped field', async () => {
    const got = await es.call('GET', '/pre/_doc/1');
    expect(got.json._source).to.deep.equal({ _doc_count: 10, str: 'abc', number: 500 });
    const mapping = await es.call('GET', '/pre/_mapping');
    expect(Object.keys(mapping.json.pre.mappings.properties).sort()).to.deep.equal(['number', 'str']);
  });

  it('refuses what is not a positive integer, as DocCountFieldMapper does', async () => {
    for (const bad of [0, -3]) {
      const r = await es.call('PUT', '/pre/_doc/bad', { _doc_count: bad });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal(`Field [_doc_count] must be a positive integer. Value [${bad}] is not allowed.`);
    }
    const r = await es.call('PUT', '/pre/_doc/bad', { _doc_count: 'ten' });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_STRING]');
  });
});
