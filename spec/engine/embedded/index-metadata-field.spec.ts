import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../lib/engine/embedded/analysis/index.js';
import { documentMatches, parseQuery } from '../../../lib/engine/embedded/search/index.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: the _index metadata field', () => {
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

  const ids = async (query: unknown, sort?: unknown) => {
    const r = await es.call('POST', '/logs-*/_search', { size: 20, query, ...(sort ? { sort } : {}) });
    expect(r.status, r.text).to.equal(200);
    return r.json.hits.hits.map((h: { _id: string }) => h._id);
  };

  it('term, terms, match, prefix, wildcard, regexp and exists on _index select the documents of the indices named', async () => {
    expect((await ids({ term: { _index: 'logs-b' } })).sort()).to.deep.equal(['3']);
    expect((await ids({ term: { _index: { value: 'LOGS-B', case_insensitive: true } } })).sort()).to.deep.equal(['3']);
    expect((await ids({ terms: { _index: ['logs-a', 'logs-c'] } })).sort()).to.deep.equal(['0', '1', '2', '4', '5']);
    expect((await ids({ match: { _index: 'logs-c' } })).sort()).to.deep.equal(['4', '5']);
    expect((await ids({ prefix: { _index: 'logs-' } })).length).to.equal(6);
    expect((await ids({ wildcard: { _index: '*-c' } })).sort()).to.deep.equal(['4', '5']);
    expect((await ids({ regexp: { _index: 'logs-[ab]' } })).sort()).to.deep.equal(['0', '1', '2', '3']);
    expect((await ids({ bool: { must: [{ exists: { field: '_index' } }], must_not: [{ term: { _index: 'logs-a' } }] } })).sort()).to.deep.equal(['3', '4', '5']);
    expect(await ids({ term: { _index: 'logs' } })).to.deep.equal([]);
  });

  it('a term on _index scores its boost, as a constant', async () => {
    const r = await es.call('POST', '/logs-*/_search', { query: { term: { _index: { value: 'logs-b', boost: 3 } } } });
    expect(r.json.hits.hits.map((h: { _score: number }) => h._score)).to.deep.equal([3]);
  });

  it('sorts by _index, each hit carrying its index name as sort value', async () => {
    const r = await es.call('POST', '/logs-*/_search', { size: 20, sort: [{ _index: 'desc' }, { n: 'asc' }] });
    expect(r.json.hits.hits.map((h: { _index: string; sort: unknown[] }) => [h._index, h.sort[0]])).to.deep.equal([
      ['logs-c', 'logs-c'], ['logs-c', 'logs-c'], ['logs-b', 'logs-b'], ['logs-a', 'logs-a'], ['logs-a', 'logs-a'], ['logs-a', 'logs-a'],
    ]);
    const after = await es.call('POST', '/logs-*/_search', { size: 20, sort: [{ _index: 'asc' }, { n: 'asc' }], search_after: ['logs-a', 3] });
    expect(after.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['3', '4', '5']);
  });

  it('the single-document matcher (live streams) decides _index queries as the index does', () => {
    const ctx = { mappings: { properties: { n: { type: 'long' } } }, registry: createAnalysisRegistry(undefined), indexName: 'logs-a' };
    const doc = { id: '1', source: { n: 1 } };
    expect(documentMatches(parseQuery({ term: { _index: 'logs-a' } }), doc, ctx)).to.equal(true);
    expect(documentMatches(parseQuery({ wildcard: { _index: 'logs-*' } }), doc, ctx)).to.equal(true);
    expect(documentMatches(parseQuery({ term: { _index: 'logs-b' } }), doc, ctx)).to.equal(false);
    expect(documentMatches(parseQuery({ term: { _index: 'logs-a' } }), doc, { ...ctx, indexName: undefined })).to.equal(false);
  });
});
