import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('embedded engine: aggregations on the _index metadata field', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    const lines: unknown[] = [];
    const docs: Array<[string, number]> = [['logs-a', 1], ['logs-a', 2], ['logs-a', 3], ['logs-b', 4], ['logs-c', 5], ['logs-c', 6]];
    docs.forEach(([index, n], i) => lines.push({ index: { _index: index, _id: String(i) } }, { n }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  it('terms on _index counts the matching documents of each index, with sub-aggregations', async () => {
    const r = await es.call('POST', '/logs-*/_search', {
      size: 0, query: { range: { n: { gte: 2 } } },
      aggs: { idx: { terms: { field: '_index' }, aggs: { top: { max: { field: 'n' } } } } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.aggregations.idx.buckets).to.deep.equal([
      { key: 'logs-a', doc_count: 2, top: { value: 3 } },
      { key: 'logs-c', doc_count: 2, top: { value: 6 } },
      { key: 'logs-b', doc_count: 1, top: { value: 4 } },
    ]);
  });

  it('an index with no matching document gives no bucket, and one with min_doc_count 0', async () => {
    const body = (minDocCount?: number) => ({
      size: 0, query: { range: { n: { lte: 3 } } }, aggs: { idx: { terms: { field: '_index', ...(minDocCount === undefined ? {} : { min_doc_count: minDocCount }) } } },
    });
    const r = await es.call('POST', '/logs-a,logs-b/_search', body());
    expect(r.json.aggregations.idx.buckets).to.deep.equal([{ key: 'logs-a', doc_count: 3 }]);
    const all = await es.call('POST', '/logs-a,logs-b/_search', body(0));
    expect(all.json.aggregations.idx.buckets).to.deep.equal([{ key: 'logs-a', doc_count: 3 }, { key: 'logs-b', doc_count: 0 }]);
  });

  it('cardinality and value_count see one value per document', async () => {
    const r = await es.call('POST', '/logs-*/_search', { size: 0, aggs: { c: { cardinality: { field: '_index' } }, v: { value_count: { field: '_index' } } } });
    expect(r.json.aggregations).to.deep.equal({ c: { value: 3 }, v: { value: 6 } });
  });
});
