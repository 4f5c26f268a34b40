import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** Aggregations over several filters or fields at once: adjacency_matrix, multi_terms, matrix_stats. */
describe('embedded engine: adjacency_matrix, multi_terms, matrix_stats', () => {
  let es: TestEngine;
  const aggs = (index: string, body: Record<string, unknown>, params = '') => aggregationsOf(es, index, body, params);
  const error = (index: string, body: Record<string, unknown>) => refusalOf(es, index, body);
  const load = async (index: string, docs: Array<Record<string, unknown>>) => {
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: index, _id: String(i + 1) } }, d));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/emails', { mappings: { properties: { accounts: { type: 'keyword' }, day: { type: 'date' } } } });
    await load('emails', [
      { accounts: ['hillary', 'sidney'], day: '2016-01-01' }, { accounts: ['hillary', 'donald'], day: '2016-01-02' }, { accounts: ['vladimir', 'donald'], day: '2016-01-02' },
    ]);
    await es.call('PUT', '/products', { mappings: { properties: { genre: { type: 'keyword' }, product: { type: 'keyword' }, price: { type: 'double' }, in_stock: { type: 'boolean' }, released: { type: 'date' } } } });
    await load('products', [
      { genre: 'rock', product: 'Product A', price: 10, in_stock: true, released: '2021-01-01' },
      { genre: 'rock', product: 'Product A', price: 10, in_stock: true, released: '2021-01-01' },
      { genre: 'rock', product: 'Product B', price: 12.5, in_stock: false, released: '2021-02-01' },
      { genre: 'jazz', product: 'Product Z', price: 20, in_stock: true, released: '2021-02-01' },
      { genre: 'jazz', product: 'Product B', price: 12.5, in_stock: true, released: '2021-03-01' },
      { genre: 'electronic', product: 'Product B', price: 12.5, in_stock: false },
      { genre: 'electronic' },
    ]);
  });
  after(() => es.close());

  describe('adjacency_matrix', () => {
    const filters = {
      grpA: { terms: { accounts: ['hillary', 'sidney'] } },
      grpB: { terms: { accounts: ['donald', 'mitt'] } },
      grpC: { terms: { accounts: ['vladimir', 'nigel'] } },
    };

    it('the reference example: each group and each non-empty pair, keys sorted', async () => {
      const r = await aggs('emails', { aggs: { interactions: { adjacency_matrix: { filters } } } }, '?typed_keys');
      expect(r).to.deep.equal({
        'adjacency_matrix#interactions': {
          buckets: [
            { key: 'grpA', doc_count: 2 }, { key: 'grpA&grpB', doc_count: 1 }, { key: 'grpB', doc_count: 2 },
            { key: 'grpB&grpC', doc_count: 1 }, { key: 'grpC', doc_count: 1 },
          ],
        },
      });
    });

    it('separator and sub-aggregations per cell', async () => {
      const r = await aggs('emails', { aggs: { m: { adjacency_matrix: { separator: '|', filters: { b: filters.grpB, a: filters.grpA } }, aggs: { days: { date_histogram: { field: 'day', calendar_interval: 'day' } } } } } });
      expect(r.m.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([['a', 2], ['a|b', 1], ['b', 2]]);
      expect(r.m.buckets[1].days.buckets.map((b: { key_as_string: string }) => b.key_as_string)).to.deep.equal(['2016-01-02T00:00:00.000Z']);
    });

    it('refuses missing filters', async () => {
      const e = await error('emails', { aggs: { m: { adjacency_matrix: {} } } });
      expect(e.reason).to.equal('[filters] must not be null: [m]');
    });
  });

  describe('multi_terms', () => {
    it('combinations of genre and product: key as a list, key_as_string joined by |', async () => {
      const r = await aggs('products', { aggs: { genres_and_products: { multi_terms: { terms: [{ field: 'genre' }, { field: 'product' }] } } } }, '?typed_keys');
      expect(r).to.deep.equal({
        'multi_terms#genres_and_products': {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: ['rock', 'Product A'], key_as_string: 'rock|Product A', doc_count: 2 },
            { key: ['electronic', 'Product B'], key_as_string: 'electronic|Product B', doc_count: 1 },
            { key: ['jazz', 'Product B'], key_as_string: 'jazz|Product B', doc_count: 1 },
            { key: ['jazz', 'Product Z'], key_as_string: 'jazz|Product Z', doc_count: 1 },
            { key: ['rock', 'Product B'], key_as_string: 'rock|Product B', doc_count: 1 },
          ],
        },
      });
    });

    it('missing values, numbers, booleans and dates in keys; size, order and sub-aggregations', async () => {
      const r = await aggs('products', {
        aggs: {
          m: { multi_terms: { terms: [{ field: 'genre' }, { field: 'product', missing: 'Product Unknown' }], size: 2, order: { _key: 'asc' } }, aggs: { top: { max: { field: 'price' } } } },
          typed: { multi_terms: { terms: [{ field: 'price' }, { field: 'in_stock' }, { field: 'released' }], size: 1 } },
        },
      });
      expect(r.m.buckets.map((b: { key: string[]; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([[['electronic', 'Product B'], 1], [['electronic', 'Product Unknown'], 1]]);
      expect(r.m.sum_other_doc_count).to.equal(5);
      expect(r.m.buckets[0].top).to.deep.equal({ value: 12.5 });
      expect(r.typed.buckets[0]).to.deep.equal({ key: [10, true, '2021-01-01T00:00:00.000Z'], key_as_string: '10.0|true|2021-01-01T00:00:00.000Z', doc_count: 2 });
    });

    it('refuses fewer than two terms', async () => {
      const e = await error('products', { aggs: { m: { multi_terms: { terms: [{ field: 'genre' }] } } } });
      expect(e.reason).to.equal('The [terms] parameter in the aggregation [m] must be present and have at least 2 fields or scripts. For a single field user terms aggregation.');
    });
  });

  describe('matrix_stats', () => {
    const income = [10, 20, 30, 45, 60];
    const poverty = [30, 22, 17, 8, 3];

    before(async () => {
      await es.call('PUT', '/census', { mappings: { properties: { income: { type: 'double' }, poverty: { type: 'long' } } } });
      await load('census', [...income.map((v, i) => ({ income: v, poverty: poverty[i] })), { income: 100 }]);
    });

    /** Two-pass reference statistics: sample variance and covariance, moment skewness and kurtosis. */
    function reference(xs: number[], ys: number[]) {
      const n = xs.length;
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / n;
      const [mx, my] = [mean(xs), mean(ys)];
      const m = (v: number[], mu: number, k: number) => v.reduce((a, b) => a + (b - mu) ** k, 0);
      const variance = m(xs, mx, 2) / (n - 1);
      const cov = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / (n - 1);
      return {
        mean: mx, variance, skewness: (Math.sqrt(n) * m(xs, mx, 3)) / m(xs, mx, 2) ** 1.5, kurtosis: (n * m(xs, mx, 4)) / m(xs, mx, 2) ** 2,
        covariance: cov, correlation: cov / Math.sqrt(variance * (m(ys, my, 2) / (n - 1))),
      };
    }

    it('refuses a script as its parser does (matrix_stats takes none)', async () => {
      const e = await error('census', { aggs: { m: { matrix_stats: { fields: ['income'], script: { source: '1' } } } } });
      expect(e).to.include({ type: 'parsing_exception', reason: 'Unexpected token START_OBJECT [script] in [m].' });
    });

    it('count, mean, variance, skewness, kurtosis, covariance and correlation over documents with every field', async () => {
      const r = await aggs('census', { aggs: { statistics: { matrix_stats: { fields: ['poverty', 'income'] } } } }, '?typed_keys');
      const stats = r['matrix_stats#statistics'];
      expect(stats.doc_count).to.equal(5);
      const byName = Object.fromEntries(stats.fields.map((f: { name: string }) => [f.name, f]));
      const expected = reference(income, poverty);
      const got = byName.income;
      expect(got.count).to.equal(5);
      for (const k of ['mean', 'variance', 'skewness', 'kurtosis'] as const) expect(got[k]).to.be.closeTo(expected[k], 1e-9);
      expect(got.covariance.poverty).to.be.closeTo(expected.covariance, 1e-9);
      expect(got.covariance.income).to.be.closeTo(expected.variance, 1e-9);
      expect(got.correlation.poverty).to.be.closeTo(expected.correlation, 1e-12);
      expect(got.correlation.income).to.equal(1);
      expect(Object.keys(stats.fields[0])).to.deep.equal(['name', 'count', 'mean', 'variance', 'skewness', 'kurtosis', 'covariance', 'correlation']);
    });

    it('missing gives absent fields a value; no documents: doc_count 0 only', async () => {
      const r = await aggs('census', { aggs: { s: { matrix_stats: { fields: ['poverty', 'income'], missing: { poverty: 0 } } } } });
      expect(r.s.doc_count).to.equal(6);
      const none = await aggs('census', { query: { range: { income: { gt: 1000 } } }, aggs: { s: { matrix_stats: { fields: ['poverty', 'income'] } } } });
      expect(none.s).to.deep.equal({ doc_count: 0 });
    });
  });
});
