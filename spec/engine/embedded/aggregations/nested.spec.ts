import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('embedded engine: nested and reverse_nested aggregations', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const aggs = async (body: Record<string, unknown>, path = '/products/_search'): Promise<any> => {
    const r = await es.call('POST', path, { size: 0, ...body });
    expect(r.status, r.text).to.equal(200);
    return r.json.aggregations;
  };
  const keysAndCounts = (buckets: Array<{ key: unknown; doc_count: number }>): Array<[unknown, number]> => buckets.map((b) => [b.key, b.doc_count]);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/products', {
      mappings: {
        properties: {
          name: { type: 'keyword' },
          category: { type: 'keyword' },
          seller: { properties: { name: { type: 'keyword' } } },
          reviews: {
            type: 'nested',
            properties: {
              reviewer: { type: 'keyword' },
              stars: { type: 'integer' },
              votes: { type: 'nested', properties: { voter: { type: 'keyword' } } },
            },
          },
        },
      },
    });
    const docs = [
      { name: 'kettle', category: 'kitchen', reviews: [{ reviewer: 'ann', stars: 5, votes: [{ voter: 'x' }, { voter: 'y' }] }, { reviewer: 'bob', stars: 3 }, { reviewer: 'ann', stars: 4 }] },
      { name: 'toaster', category: 'kitchen', reviews: [{ reviewer: 'bob', stars: 1, votes: [{ voter: 'x' }] }, { reviewer: 'cid', stars: 2 }] },
      { name: 'lamp', category: 'living', reviews: { reviewer: 'ann', stars: 2 } },
      { name: 'sofa', category: 'living' },
    ];
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 'products', _id: String(i + 1) } }, d));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    // Overwriting a product replaces its reviews: the old ones must not be counted.
    await es.call('PUT', '/products/_doc/3?refresh=true', { name: 'lamp', category: 'living', reviews: [{ reviewer: 'dan', stars: 4 }] });
  });
  after(() => es.close());

  it('counts the nested objects of the matching documents, and sub-aggregations read their fields', async () => {
    const r = await aggs({ aggs: { reviews: { nested: { path: 'reviews' }, aggs: { by: { terms: { field: 'reviews.reviewer' } }, avg: { avg: { field: 'reviews.stars' } } } } } });
    expect(r.reviews.doc_count).to.equal(6);
    expect(keysAndCounts(r.reviews.by.buckets)).to.deep.equal([['ann', 2], ['bob', 2], ['cid', 1], ['dan', 1]]);
    expect(r.reviews.avg.value).to.equal((5 + 3 + 4 + 1 + 2 + 4) / 6);
  });

  it('follows the query: only the objects of matching documents', async () => {
    const r = await aggs({ query: { term: { category: 'kitchen' } }, aggs: { reviews: { nested: { path: 'reviews' }, aggs: { by: { terms: { field: 'reviews.reviewer' } } } } } });
    expect(r.reviews.doc_count).to.equal(5);
    expect(keysAndCounts(r.reviews.by.buckets)).to.deep.equal([['ann', 2], ['bob', 2], ['cid', 1]]);
  });

  it('runs under a bucket of documents, per bucket', async () => {
    const r = await aggs({ aggs: { cat: { terms: { field: 'category' }, aggs: { reviews: { nested: { path: 'reviews' } } } } } });
    expect(r.cat.buckets.map((b: { key: string; reviews: { doc_count: number } }) => [b.key, b.reviews.doc_count])).to.deep.equal([['kitchen', 5], ['living', 1]]);
  });

  it('reverse_nested counts each product once per reviewer, and reads the product fields', async () => {
    const r = await aggs({
      aggs: {
        reviews: {
          nested: { path: 'reviews' },
          aggs: { by: { terms: { field: 'reviews.reviewer' }, aggs: { products: { reverse_nested: {}, aggs: { names: { terms: { field: 'name' } } } } } } },
        },
      },
    });
    const perReviewer = Object.fromEntries(r.reviews.by.buckets.map((b: { key: string; products: { doc_count: number; names: { buckets: Array<{ key: string; doc_count: number }> } } }) =>
      [b.key, [b.products.doc_count, keysAndCounts(b.products.names.buckets)]]));
    expect(perReviewer).to.deep.equal({
      ann: [1, [['kettle', 1]]],
      bob: [2, [['kettle', 1], ['toaster', 1]]],
      cid: [1, [['toaster', 1]]],
      dan: [1, [['lamp', 1]]],
    });
  });

  it('a filter inside nested matches objects, not documents', async () => {
    const r = await aggs({
      aggs: {
        reviews: {
          nested: { path: 'reviews' },
          aggs: { good: { filter: { range: { 'reviews.stars': { gte: 4 } } }, aggs: { by: { terms: { field: 'reviews.reviewer' } }, products: { reverse_nested: {} } } } },
        },
      },
    });
    expect(r.reviews.good.doc_count).to.equal(3);
    expect(keysAndCounts(r.reviews.good.by.buckets)).to.deep.equal([['ann', 2], ['dan', 1]]);
    expect(r.reviews.good.products.doc_count).to.equal(2);
  });

  it('goes down several nested levels, and reverse_nested with a path stops at an outer level', async () => {
    const r = await aggs({
      aggs: {
        votes: {
          nested: { path: 'reviews.votes' },
          aggs: {
            voters: { terms: { field: 'reviews.votes.voter' }, aggs: { reviews: { reverse_nested: { path: 'reviews' }, aggs: { stars: { sum: { field: 'reviews.stars' } } } }, products: { reverse_nested: {} } } },
          },
        },
        reviews: { nested: { path: 'reviews' }, aggs: { votes: { nested: { path: 'reviews.votes' } } } },
      },
    });
    expect(r.votes.doc_count).to.equal(3);
    const x = r.votes.voters.buckets.find((b: { key: string }) => b.key === 'x');
    expect([x.doc_count, x.reviews.doc_count, x.reviews.stars.value, x.products.doc_count]).to.deep.equal([2, 2, 6, 2]);
    expect(r.reviews.votes.doc_count).to.equal(3);
  });

  it('top_hits inside nested shows the nested objects with their place in the source', async () => {
    const r = await aggs({
      query: { term: { name: 'kettle' } },
      aggs: { reviews: { nested: { path: 'reviews' }, aggs: { best: { top_hits: { size: 1, sort: [{ 'reviews.stars': 'asc' }] } } } } },
    });
    const hit = r.reviews.best.hits.hits[0];
    expect(r.reviews.best.hits.total.value).to.equal(3);
    expect([hit._id, hit._nested, hit._source]).to.deep.equal(['1', { field: 'reviews', offset: 1 }, { reviewer: 'bob', stars: 3 }]);
  });

  it('an unmapped path gives an empty bucket; an object path and reverse_nested outside nested fail', async () => {
    const r = await aggs({ aggs: { none: { nested: { path: 'nothing' }, aggs: { by: { terms: { field: 'nothing.x' } } } } } });
    expect(r.none).to.deep.equal({ doc_count: 0, by: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] } });
    let res = await es.call('POST', '/products/_search', { size: 0, aggs: { s: { nested: { path: 'seller' } } } });
    expect(res.status).to.equal(400);
    expect(res.json.error.root_cause[0].reason).to.equal('[nested] nested path [seller] is not nested');
    res = await es.call('POST', '/products/_search', { size: 0, aggs: { s: { reverse_nested: {} } } });
    expect(res.status).to.equal(400);
    expect(res.json.error.root_cause[0].reason).to.equal('Reverse nested aggregation [s] can only be used inside a [nested] aggregation');
    res = await es.call('POST', '/products/_search', { size: 0, aggs: { s: { nested: {} } } });
    expect(res.status).to.equal(400);
    expect(res.json.error.root_cause[0].reason).to.equal('Missing [path] field for nested aggregation [s]');
  });
});
