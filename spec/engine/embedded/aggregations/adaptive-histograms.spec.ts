import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** auto_date_histogram and variable_width_histogram: histograms that choose their own buckets. */
describe('embedded engine: auto_date_histogram and variable_width_histogram', () => {
  let es: TestEngine;
  const aggs = (body: Record<string, unknown>, index = 'sales', params = '') => aggregationsOf(es, index, body, params);
  const error = (body: Record<string, unknown>) => refusalOf(es, 'sales', body);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/sales', {
      mappings: { properties: { date: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss' }, price: { type: 'long' }, promoted: { type: 'boolean' }, rating: { type: 'integer' }, type: { type: 'keyword' } } },
    });
    const sales = [
      ['2015/01/01 00:00:00', 10, 'hat'], ['2015/01/01 00:00:00', 200, 't-shirt'], ['2015/01/01 00:00:00', 200, 'bag'],
      ['2015/02/01 00:00:00', 10, 'hat'], ['2015/02/01 00:00:00', 10, 'hat'], ['2015/03/01 00:00:00', 200, 't-shirt'], ['2015/03/01 00:00:00', 175, 't-shirt'],
    ];
    const lines: unknown[] = [];
    sales.forEach(([date, price, type]) => lines.push({ index: { _index: 'sales' } }, { date, price, type }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  describe('auto_date_histogram', () => {
    it('the reference example: five buckets at most gives monthly buckets, interval 1M', async () => {
      const r = await aggs({ aggs: { sales_over_time: { auto_date_histogram: { field: 'date', buckets: 5, format: 'yyyy-MM-dd' } } } }, 'sales', '?typed_keys');
      expect(r).to.deep.equal({
        'auto_date_histogram#sales_over_time': {
          buckets: [
            { key_as_string: '2015-01-01', key: 1420070400000, doc_count: 3 },
            { key_as_string: '2015-02-01', key: 1422748800000, doc_count: 2 },
            { key_as_string: '2015-03-01', key: 1425168000000, doc_count: 2 },
          ],
          interval: '1M',
        },
      });
    });

    it('ten buckets: days merged by seven (interval 7d), empty buckets in between, the field\'s format', async () => {
      const r = await aggs({ aggs: { t: { auto_date_histogram: { field: 'date' } } } });
      expect(r.t.interval).to.equal('7d');
      expect(r.t.buckets).to.have.length(9);
      expect(r.t.buckets[0]).to.deep.equal({ key_as_string: '2015/01/01 00:00:00', key: 1420070400000, doc_count: 3 });
      expect(r.t.buckets.map((b: { doc_count: number }) => b.doc_count)).to.deep.equal([3, 0, 0, 0, 2, 0, 0, 0, 2]);
    });

    it('time_zone, minimum_interval, sub-aggregations and an empty result', async () => {
      const r = await aggs({ aggs: { t: { auto_date_histogram: { field: 'date', buckets: 3, time_zone: '-01:00' }, aggs: { revenue: { sum: { field: 'price' } } } } } });
      expect(r.t.interval).to.equal('1M');
      expect(r.t.buckets.map((b: { key_as_string: string; revenue: { value: number } }) => [b.key_as_string, b.revenue.value]))
        .to.deep.equal([['2014/12/01 00:00:00', 410], ['2015/01/01 00:00:00', 20], ['2015/02/01 00:00:00', 375]]);
      const one = await aggs({ query: { term: { type: 'bag' } }, aggs: { t: { auto_date_histogram: { field: 'date', minimum_interval: 'day' } } } });
      expect(one.t).to.deep.equal({ buckets: [{ key_as_string: '2015/01/01 00:00:00', key: 1420070400000, doc_count: 1 }], interval: '1d' });
      const none = await aggs({ query: { term: { type: 'none' } }, aggs: { t: { auto_date_histogram: { field: 'date' } } } });
      expect(none.t).to.deep.equal({ buckets: [], interval: '1s' });
    });

    it('refuses non-positive buckets and unknown minimum intervals', async () => {
      let e = await error({ aggs: { t: { auto_date_histogram: { field: 'date', buckets: 0 } } } });
      expect(e.reason).to.equal('buckets must be greater than 0 for [t]');
      e = await error({ aggs: { t: { auto_date_histogram: { field: 'date', minimum_interval: 'week' } } } });
      expect(e.reason).to.equal('minimum_interval must be one of [second, minute, hour, day, month, year]');
    });
  });

  describe('variable_width_histogram', () => {
    it('clusters the prices into two buckets with min, centroid key and max', async () => {
      const r = await aggs({ aggs: { prices: { variable_width_histogram: { field: 'price', buckets: 2 } } } }, 'sales', '?typed_keys');
      expect(r).to.deep.equal({
        'variable_width_histogram#prices': {
          buckets: [{ min: 10, key: 10, max: 10, doc_count: 3 }, { min: 175, key: 193.75, max: 200, doc_count: 4 }],
        },
      });
    });

    it('more buckets than distinct values: one per value; sub-aggregations per cluster', async () => {
      const r = await aggs({ aggs: { prices: { variable_width_histogram: { field: 'price' }, aggs: { types: { terms: { field: 'type' } } } } } });
      expect(r.prices.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([[10, 3], [175, 1], [200, 3]]);
      expect(r.prices.buckets[0].types.buckets).to.deep.equal([{ key: 'hat', doc_count: 3 }]);
    });

    it('values beyond the initial buffer join their nearest cluster', async () => {
      await es.call('PUT', '/numbers', { mappings: { properties: { n: { type: 'double' } } } });
      const lines: unknown[] = [];
      for (let i = 0; i < 60; i++) lines.push({ index: { _index: 'numbers' } }, { n: i < 30 ? i : 1000 + i });
      await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
      const r = await aggs({ aggs: { h: { variable_width_histogram: { field: 'n', buckets: 2, shard_size: 8, initial_buffer: 10 } } } }, 'numbers');
      expect(r.h.buckets.map((b: { min: number; max: number; doc_count: number }) => [b.min, b.max, b.doc_count])).to.deep.equal([[0, 29, 30], [1030, 1059, 30]]);
    });

    it('format prints min, key and max as strings too', async () => {
      const r = await aggs({ aggs: { prices: { variable_width_histogram: { field: 'price', buckets: 2, format: '0.00' } } } });
      expect(r.prices.buckets[1]).to.deep.equal({ min: 175, min_as_string: '175.00', key: 193.75, key_as_string: '193.75', max: 200, max_as_string: '200.00', doc_count: 4 });
    });

    it('refuses buckets below 1', async () => {
      const e = await error({ aggs: { h: { variable_width_histogram: { field: 'price', buckets: 0 } } } });
      expect(e.type).to.equal('illegal_argument_exception');
    });
  });
});
