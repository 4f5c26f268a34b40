import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/**
 * The per-bucket parent pipelines — bucket_script, bucket_selector, bucket_sort — under every
 * multi-bucket parent ("Bucket script aggregation", "Bucket selector aggregation", "Bucket sort
 * aggregation"): terms, date_histogram, histogram, filters, and a terms inside a terms, with
 * buckets_path to a metric, to `_count`, and to `_key` where the key is a number.
 */
describe('embedded engine: bucket_script, bucket_selector and bucket_sort under multi-bucket aggregations', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Bucket = Record<string, any>;
  const aggs = (body: Record<string, unknown>, params = '') => aggregationsOf(es, 'shop', body, params);
  const keys = (buckets: Bucket[]) => buckets.map((b) => b.key_as_string ?? b.key);
  const avgPerDoc = { bucket_script: { buckets_path: { total: 'total', n: '_count' }, script: 'params.total / params.n' } };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/shop', {
      mappings: { properties: { cat: { type: 'keyword' }, sub: { type: 'keyword' }, price: { type: 'long' }, qty: { type: 'integer' }, day: { type: 'date' } } },
    });
    const docs = [
      { cat: 'a', sub: 'x', price: 10, qty: 1, day: '2024-01-01' },
      { cat: 'a', sub: 'y', price: 30, qty: 2, day: '2024-01-01' },
      { cat: 'b', sub: 'x', price: 5, qty: 5, day: '2024-01-02' },
      { cat: 'c', sub: 'x', price: 40, qty: 1, day: '2024-01-03' },
      { cat: 'c', sub: 'x', price: 20, qty: 3, day: '2024-01-03' },
      { cat: 'c', sub: 'y', price: 6, qty: 2, day: '2024-01-05' },
    ];
    await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((d, i) => [{ index: { _index: 'shop', _id: String(i + 1) } }, d])),
      { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  describe('under terms', () => {
    it('bucket_script adds its value to each term bucket, from a metric and _count (Painless)', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'cat' }, aggs: { total: { sum: { field: 'price' } }, avg: avgPerDoc } } } });
      expect(r.t.buckets.map((b: Bucket) => [b.key, b.avg])).to.deep.equal([['c', { value: 22 }], ['a', { value: 20 }], ['b', { value: 5 }]]);
    });

    it('bucket_script reads a long term\'s _key as a number', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'qty', order: { _key: 'asc' } }, aggs: {
        units: { bucket_script: { buckets_path: { k: '_key', n: '_count' }, script: 'params.k * params.n' } },
      } } } });
      expect(r.t.buckets.map((b: Bucket) => [b.key, b.units.value])).to.deep.equal([[1, 2], [2, 4], [3, 3], [5, 5]]);
    });

    it('a string term\'s _key is no number for buckets_path', async () => {
      const e = await refusalOf(es, 'shop', { aggs: { t: { terms: { field: 'cat' }, aggs: {
        k: { bucket_script: { buckets_path: { k: '_key' }, script: 'params.k' } },
      } } } });
      expect(e.reason).to.contain('got: [String] at aggregation [_key]');
    });

    it('bucket_selector keeps the term buckets its script accepts, reading another pipeline\'s value declared after it', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'cat' }, aggs: {
        keep: { bucket_selector: { buckets_path: { v: 'avg' }, script: 'params.v > 10' } },
        total: { sum: { field: 'price' } }, avg: avgPerDoc,
      } } } });
      expect(keys(r.t.buckets)).to.deep.equal(['c', 'a']);
    });

    it('bucket_selector on _count', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'cat' }, aggs: { few: { bucket_selector: { buckets_path: { n: '_count' }, script: 'params.n < 3' } } } } } });
      expect(keys(r.t.buckets)).to.deep.equal(['a', 'b']);
    });

    it('bucket_sort sorts the term buckets by a metric, then from and size cut them', async () => {
      const body = (sort: Record<string, unknown>) => ({ aggs: { t: { terms: { field: 'cat' }, aggs: { total: { sum: { field: 'price' } }, s: { bucket_sort: sort } } } } });
      expect(keys((await aggs(body({ sort: [{ total: { order: 'asc' } }] }))).t.buckets)).to.deep.equal(['b', 'a', 'c']);
      expect(keys((await aggs(body({ sort: ['total'], from: 1, size: 1 }))).t.buckets)).to.deep.equal(['a']);
      expect(keys((await aggs(body({ sort: [{ _key: 'desc' }] }))).t.buckets)).to.deep.equal(['c', 'b', 'a']);
      expect(keys((await aggs(body({ size: 2 }))).t.buckets)).to.deep.equal(['c', 'a']);
      expect((await aggs(body({ from: 5 }))).t.buckets).to.deep.equal([]);
    });

    it('with typed_keys a bucket_script\'s value is a simple_value', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'cat', size: 1 }, aggs: { total: { sum: { field: 'price' } }, avg: avgPerDoc } } } }, '?typed_keys');
      expect(r['sterms#t'].buckets[0]['simple_value#avg']).to.deep.equal({ value: 22 });
    });
  });

  describe('under date_histogram', () => {
    const days = (sub: Record<string, unknown>) => aggs({ aggs: { d: { date_histogram: { field: 'day', calendar_interval: 'day', format: 'yyyy-MM-dd' }, aggs: {
      total: { sum: { field: 'price' } }, ...sub,
    } } } });

    it('bucket_script skips the empty day (a gap) and fills the others', async () => {
      const r = await days({ avg: avgPerDoc });
      expect(r.d.buckets.map((b: Bucket) => [b.key_as_string, b.avg?.value])).to.deep.equal([
        ['2024-01-01', 20], ['2024-01-02', 5], ['2024-01-03', 30], ['2024-01-04', undefined], ['2024-01-05', 6],
      ]);
    });

    it('bucket_selector on _count', async () => {
      const r = await days({ busy: { bucket_selector: { buckets_path: { n: '_count' }, script: 'params.n >= 2' } } });
      expect(keys(r.d.buckets)).to.deep.equal(['2024-01-01', '2024-01-03']);
    });

    it('bucket_sort leaves out a bucket with a gap in every sort field, puts one with a gap in some last, and cuts by size', async () => {
      expect(keys((await days({ s: { bucket_sort: { sort: ['total'] } } })).d.buckets))
        .to.deep.equal(['2024-01-02', '2024-01-05', '2024-01-01', '2024-01-03']);
      expect(keys((await days({ s: { bucket_sort: { sort: ['total', { _key: 'desc' }] } } })).d.buckets))
        .to.deep.equal(['2024-01-02', '2024-01-05', '2024-01-01', '2024-01-03', '2024-01-04']);
      expect(keys((await days({ s: { bucket_sort: { sort: [{ total: { order: 'desc' } }], size: 2 } } })).d.buckets)).to.deep.equal(['2024-01-03', '2024-01-01']);
    });
  });

  describe('under histogram', () => {
    const prices = (sub: Record<string, unknown>) => aggs({ aggs: { h: { histogram: { field: 'price', interval: 10 }, aggs: { q: { sum: { field: 'qty' } }, ...sub } } } });

    it('bucket_script reads the numeric _key and a metric', async () => {
      const r = await prices({ s: { bucket_script: { buckets_path: { k: '_key', q: 'q' }, script: 'params.k + params.q' } } });
      expect(r.h.buckets.map((b: Bucket) => b.s.value)).to.deep.equal([7, 11, 23, 32, 41]);
    });

    it('bucket_selector and bucket_sort', async () => {
      expect(keys((await prices({ s: { bucket_selector: { buckets_path: { q: 'q' }, script: 'params.q > 2' } } })).h.buckets)).to.deep.equal([0, 20]);
      expect(keys((await prices({ s: { bucket_sort: { sort: [{ q: { order: 'desc' } }], size: 3 } } })).h.buckets)).to.deep.equal([0, 20, 30]);
      expect(keys((await prices({ s: { bucket_sort: { sort: [{ _key: { order: 'desc' } }], size: 2 } } })).h.buckets)).to.deep.equal([40, 30]);
    });
  });

  describe('under filters', () => {
    const filters = { cheap: { range: { price: { lt: 10 } } }, dear: { range: { price: { gte: 10 } } } };
    const sub = { total: { sum: { field: 'price' } } };

    it('keyed: bucket_script adds a value, bucket_selector drops a bucket, bucket_sort orders the keys', async () => {
      const r = await aggs({ aggs: {
        f: { filters: { filters }, aggs: { ...sub, avg: avgPerDoc } },
        g: { filters: { filters }, aggs: { ...sub, keep: { bucket_selector: { buckets_path: { t: 'total' }, script: 'params.t > 50' } } } },
        h: { filters: { filters }, aggs: { ...sub, s: { bucket_sort: { sort: [{ total: 'desc' }] } } } },
      } });
      expect(r.f.buckets.cheap.avg).to.deep.equal({ value: 5.5 });
      expect(r.f.buckets.dear.avg).to.deep.equal({ value: 25 });
      expect(Object.keys(r.g.buckets)).to.deep.equal(['dear']);
      expect(Object.keys(r.h.buckets)).to.deep.equal(['dear', 'cheap']);
    });

    it('anonymous (a list): bucket_sort on _count', async () => {
      const r = await aggs({ aggs: { f: { filters: { filters: Object.values(filters) }, aggs: { s: { bucket_sort: { sort: [{ _count: 'desc' }] } } } } } });
      expect(r.f.buckets.map((b: Bucket) => b.doc_count)).to.deep.equal([4, 2]);
    });
  });

  it('under a keyed range: each range keeps its key beside the bucket_script\'s value', async () => {
    const r = await aggs({ aggs: { r: { range: { field: 'price', keyed: true, ranges: [{ to: 10 }, { from: 10 }] }, aggs: { total: { sum: { field: 'price' } }, avg: avgPerDoc } } } });
    expect(r.r.buckets).to.deep.equal({
      '*-10.0': { to: 10, doc_count: 2, total: { value: 11 }, avg: { value: 5.5 } },
      '10.0-*': { from: 10, doc_count: 4, total: { value: 100 }, avg: { value: 25 } },
    });
  });

  it('a terms inside a terms: the inner pipelines run in each outer bucket, the outer one over the outer buckets', async () => {
    const r = await aggs({ aggs: { cat: { terms: { field: 'cat' }, aggs: {
      sub: { terms: { field: 'sub' }, aggs: {
        total: { sum: { field: 'price' } }, avg: avgPerDoc,
        pairs: { bucket_selector: { buckets_path: { n: '_count' }, script: 'params.n >= 2' } },
      } },
      s: { bucket_sort: { sort: [{ _key: 'desc' }] } },
    } } } });
    expect(keys(r.cat.buckets)).to.deep.equal(['c', 'b', 'a']);
    expect(r.cat.buckets[0].sub.buckets).to.deep.equal([{ key: 'x', doc_count: 2, total: { value: 60 }, avg: { value: 30 } }]);
    expect(r.cat.buckets[1].sub.buckets).to.deep.equal([]);
    expect(r.cat.buckets[2].sub.buckets).to.deep.equal([]);
  });

  describe('refusals', () => {
    it('a bucket_sort that neither sorts nor cuts', async () => {
      const e = await refusalOf(es, 'shop', { aggs: { t: { terms: { field: 'cat' }, aggs: { s: { bucket_sort: {} } } } } });
      expect(e.reason).to.contain('[bucket_sort] aggregation [s] is configured to perform nothing');
    });

    it('a path to no sibling aggregation', async () => {
      const e = await refusalOf(es, 'shop', { aggs: { t: { terms: { field: 'cat' }, aggs: { s: { bucket_sort: { sort: ['garbage'] } } } } } });
      expect(e.reason).to.contain('No aggregation found for path [garbage]');
      const f = await refusalOf(es, 'shop', { aggs: { t: { terms: { field: 'cat' }, aggs: { s: { bucket_script: { buckets_path: { m: 'missing' }, script: 'params.m' } } } } } });
      expect(f.reason).to.contain('No aggregation found for path [missing]');
    });

    it('a sequential pipeline (derivative) under a terms', async () => {
      const e = await refusalOf(es, 'shop', { aggs: { t: { terms: { field: 'cat' }, aggs: { total: { sum: { field: 'price' } }, d: { derivative: { buckets_path: 'total' } } } } } });
      expect(e.reason).to.contain('derivative aggregation [d] must have a histogram, date_histogram or auto_date_histogram as parent');
    });
  });

  it('terms over a script returning doubles: the keys are the doubles as Java prints them', async () => {
    const r = await aggs({ aggs: { t: { terms: { script: "doc['qty'].value * 1.0", order: { _key: 'asc' } } } } });
    expect(keys(r.t.buckets)).to.deep.equal(['1.0', '2.0', '3.0', '5.0']);
  });
});
