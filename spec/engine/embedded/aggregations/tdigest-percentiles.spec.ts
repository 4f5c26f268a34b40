import { expect } from 'chai';
import { TDigest } from '../../../../lib/engine/embedded/search/aggregations/tdigest.js';
import { call as gatewayCall } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * percentiles, percentile_ranks and median_absolute_deviation over Elasticsearch's t-digest
 * (t-digest 3.2's AVLTreeDigest, compression 100): a value is its own centroid while values are
 * few, and a percentile interpolates between centroid centres and, at the ends, the minimum and
 * maximum — so the 1st percentile of 1, 51, 101, 151 is 1 (not 2.5, as a linear interpolation
 * between closest ranks would answer).
 */
const MAPPING = { mappings: { properties: { int_field: { type: 'integer' }, double_field: { type: 'double' }, string_field: { type: 'keyword' } } } };
const BULK = ndjson([1, 51, 101, 151].flatMap((n, i) => [{ index: { _index: 'pct', _id: String(i + 1) } }, { int_field: n, double_field: n, string_field: 'foo' }]));
/** The default percents of 1, 51, 101, 151 as Elasticsearch 7 answers them. */
const FOUR_VALUES = { '1.0': 1, '5.0': 1, '25.0': 26, '50.0': 76, '75.0': 126, '95.0': 151, '99.0': 151 };

describe('embedded engine: percentiles on the t-digest', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const aggs = async (body: Record<string, unknown>): Promise<any> => {
    const r = await es.call('POST', '/pct/_search', { size: 0, ...body });
    expect(r.status, r.text).to.equal(200);
    return r.json.aggregations;
  };

  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/pct', MAPPING)).status).to.equal(200);
    expect((await es.call('POST', '/_bulk?refresh=true', BULK, { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
  });
  after(() => es.close());

  it('past DIGEST_MAX_VALUES values, reads exact quantiles off the sorted values (a digest of millions held the event loop for seconds)', async () => {
    // one document, 60,001 values 0..60000 from a script: the median is 30000, the 1st percentile 600
    const script = { source: 'def l = new ArrayList(); for (int i = 0; i <= 60000; i++) { l.add(i); } return l' };
    const r = await aggs({ query: { ids: { values: ['1'] } }, aggs: { p: { percentiles: { script, percents: [1, 50] } }, r: { percentile_ranks: { script, values: [30000] } }, m: { median_absolute_deviation: { script } } } });
    expect(r.p.values).to.deep.equal({ '1.0': 600, '50.0': 30000 });
    expect(r.r.values['30000.0']).to.be.closeTo(50, 0.001);
    expect(r.m.value).to.equal(15000);
  });

  it('interpolates between centroid centres, and to the minimum and maximum at the ends', async () => {
    const r = await aggs({ aggs: { i: { percentiles: { field: 'int_field' } }, d: { percentiles: { field: 'double_field', tdigest: { compression: 200 } } } } });
    expect(r.i.values).to.deep.equal(FOUR_VALUES);
    expect(r.d.values).to.deep.equal(FOUR_VALUES);
  });

  it('over the documents the query keeps; missing stands in for documents without the field', async () => {
    const r = await aggs({ query: { range: { int_field: { gte: 50 } } }, aggs: { i: { percentiles: { field: 'int_field' } } } });
    expect(r.i.values).to.deep.equal({ '1.0': 51, '5.0': 51, '25.0': 63.5, '50.0': 101, '75.0': 138.5, '95.0': 151, '99.0': 151 });
    const m = await aggs({ aggs: { m: { percentiles: { field: 'missing_field', missing: 1.0, percents: [1, 50, 99] } } } });
    expect(m.m.values).to.deep.equal({ '1.0': 1, '50.0': 1, '99.0': 1 });
  });

  it('percentile_ranks are the digest\'s cdf, as a percentage', async () => {
    // each centroid spreads its count over half the gap to each neighbour; the last two share
    // the rest, so past the middle of 101 and 151 every value ranks 100
    const r = await aggs({ aggs: { r: { percentile_ranks: { field: 'int_field', values: [26, 51, 101, 140, 200] } } } });
    expect(r.r.values).to.deep.equal({ '26.0': 25, '51.0': 37.5, '101.0': 62.5, '140.0': 100, '200.0': 100 });
  });

  it('hdr percentile_ranks: the share of values at or below the value\'s bucket (a value equal to it counts whole)', async () => {
    const r = await aggs({ aggs: { r: { percentile_ranks: { field: 'int_field', values: [0, 1, 50, 51, 99, 151], hdr: {} } }, t: { percentile_ranks: { field: 'int_field', values: [50, 99] } } } });
    expect(r.r.values).to.deep.equal({ '0.0': 0, '1.0': 25, '50.0': 25, '51.0': 50, '99.0': 50, '151.0': 100 });
    expect(r.t.values).to.deep.equal({ '50.0': 37, '99.0': 61.5 });
  });

  it('median_absolute_deviation: the median of the centroids\' distances to the digest\'s median', async () => {
    // median 76; distances 75, 25, 25, 75 → their digest's median 50
    expect((await aggs({ aggs: { m: { median_absolute_deviation: { field: 'int_field' } } } })).m).to.deep.equal({ value: 50 });
  });

  it('refuses a negative compression with Elasticsearch\'s message (the number as a Java double)', async () => {
    const r = await es.call('POST', '/pct/_search', { aggs: { percentiles_int: { percentiles: { field: 'int_field', tdigest: { compression: -1 } } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.root_cause[0].reason).to.equal('[compression] must be greater than or equal to 0. Found [-1.0] in [percentiles_int]');
    const s = await es.call('POST', '/pct/_search', { aggs: { e: { extended_stats: { field: 'int_field', sigma: -1 } } } });
    expect(s.status).to.equal(400);
    expect(s.json.error.root_cause[0].reason).to.equal('[sigma] must be greater than or equal to 0. Found [-1.0] in [e]');
  });

  it('percents and values that are not numbers fail to parse (x_content_parse_exception); numeric strings are coerced', async () => {
    const ranks = await es.call('POST', '/pct/_search', { aggs: { r: { percentile_ranks: { field: 'int_field', values: ['foo'] } } } });
    expect(ranks.status).to.equal(400);
    expect(ranks.json.error.root_cause[0]).to.include({ type: 'x_content_parse_exception', reason: '[1:1] [percentile_ranks] failed to parse field [values]' });
    const pct = await es.call('POST', '/pct/_search', { aggs: { p: { percentiles: { field: 'int_field', percents: [50, 'x'] } } } });
    expect(pct.status).to.equal(400);
    expect(pct.json.error.root_cause[0]).to.include({ type: 'x_content_parse_exception', reason: '[1:1] [percentiles] failed to parse field [percents]' });
    const coerced = await es.call('POST', '/pct/_search', { size: 0, aggs: { r: { percentile_ranks: { field: 'int_field', values: ['200'] } } } });
    expect(coerced.status, coerced.text).to.equal(200);
    expect(coerced.json.aggregations.r.values).to.deep.equal({ '200.0': 100 });
  });

  it('extended_stats: a sigma that is not a number fails to parse (x_content_parse_exception); a numeric string is coerced', async () => {
    const r = await es.call('POST', '/pct/_search', { aggs: { e: { extended_stats: { field: 'int_field', sigma: 'foo' } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.root_cause[0].type).to.equal('x_content_parse_exception');
    expect(r.json.error.root_cause[0].reason).to.equal('[1:1] [extended_stats] failed to parse field [sigma]');
    const s = await es.call('POST', '/pct/_search', { aggs: { e: { extended_stats: { field: 'int_field', sigma: '3' } } } });
    expect(s.status, s.text).to.equal(200);
    expect(s.json.aggregations.e.std_deviation_bounds.upper).to.equal(243.7050983124842);
  });
});

describe('t-digest (Elasticsearch 7\'s AVLTreeDigest)', () => {
  it('one value answers every quantile; no value answers NaN', () => {
    const one = new TDigest(100);
    one.add(7);
    expect([one.quantile(0), one.quantile(0.5), one.quantile(1)]).to.deep.equal([7, 7, 7]);
    expect([one.cdf(6), one.cdf(7)]).to.deep.equal([0, 1]);
    expect(new TDigest(100).quantile(0.5)).to.be.NaN;
  });

  it('merges values into centroids once there are many, and stays close to the true quantiles', () => {
    const digest = new TDigest(100);
    // 0 … 99,999 in a scrambled order
    for (let i = 0; i < 100_000; i++) digest.add((i * 7919) % 100_000);
    expect(digest.size).to.equal(100_000);
    expect([...digest.centroids()].length).to.be.below(2_000);
    for (const q of [0.01, 0.25, 0.5, 0.75, 0.99]) expect(Math.abs(digest.quantile(q) - q * 100_000)).to.be.below(300);
    expect(digest.quantile(0)).to.equal(0);
    expect(digest.quantile(1)).to.equal(99_999);
    expect(Math.abs(digest.cdf(50_000) - 0.5)).to.be.below(0.003);
  });
});

for (const backend of BACKENDS) {
  describe(`percentiles through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await gatewayCall(url, 'PUT', '/pct', { body: MAPPING })).status).to.equal(200);
      const r = await gatewayCall(url, 'POST', '/_bulk?refresh=true', { body: BULK, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    it('answers Elasticsearch\'s t-digest percentiles', async () => {
      const r = await gatewayCall(url, 'POST', '/pct/_search', { body: { size: 0, aggs: { i: { percentiles: { field: 'int_field' } } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.aggregations.i.values).to.deep.equal(FOUR_VALUES);
    });
  });
}
