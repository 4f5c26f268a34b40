import { expect } from 'chai';
import { threadCpuMs } from '../../../../lib/cooperative/thread-clock.js';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** Every aggregation is bounded: buckets over the whole response, filters, ranges, regexes (issue 39). */
describe('aggregations: bounds', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const lines: unknown[] = [];
    // 400 users × 200 distinct seconds: a terms × date_histogram grid of 80,000 cells.
    for (let i = 0; i < 2000; i++) {
      lines.push({ index: { _index: 'events', _id: String(i) } }, { user: `u${i % 400}`, at: new Date(Date.UTC(2024, 0, 1) + (i % 200) * 1000).toISOString(), n: i });
    }
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text.slice(0, 500)).to.equal(false);
  });
  after(() => es.close());

  it('search.max_buckets counts every level of the response, not each aggregation', async () => {
    const err = await refusalOf(es, 'events', {
      aggs: { users: { terms: { field: 'user.keyword', size: 400 }, aggs: { t: { date_histogram: { field: 'at', fixed_interval: '1s', min_doc_count: 0, extended_bounds: { min: '2024-01-01T00:00:00Z', max: '2024-01-01T00:03:19Z' } } } } } },
    });
    expect(err.type).to.equal('too_many_buckets_exception');
    expect(err.reason).to.equal('Trying to create too many buckets. Must be less than or equal to: [65536] but was [65537]. This limit can be set by changing the [search.max_buckets] cluster level setting.');
  });

  it('a terms aggregation\'s min_doc_count is a long (no bucket reaches 2^31), its size an int, as both engines parse them', async () => {
    const aggs = await aggregationsOf(es, 'events', { size: 0, aggs: { users: { terms: { field: 'user.keyword', min_doc_count: 2147483648 } } } });
    expect(aggs.users.buckets).to.deep.equal([]);
    const err = await refusalOf(es, 'events', { aggs: { users: { terms: { field: 'user.keyword', size: 2147483648 } } } });
    expect(err.reason).to.equal('[1:1] [terms] failed to parse field [size]: Numeric value (2147483648) out of range of int (-2147483648 - 2147483647)');
  });

  it('the same grid below the limit answers, single-bucket aggregations not counted', async () => {
    const aggs = await aggregationsOf(es, 'events', {
      aggs: { all: { filter: { match_all: {} }, aggs: { users: { terms: { field: 'user.keyword', size: 300 }, aggs: { t: { date_histogram: { field: 'at', fixed_interval: '1s', min_doc_count: 0, extended_bounds: { min: '2024-01-01T00:00:00Z', max: '2024-01-01T00:03:19Z' } } } } } } } },
    });
    // 300 + 300 × 200 = 60,300 buckets.
    expect(aggs.all.users.buckets).to.have.length(300);
    expect(aggs.all.users.buckets[0].t.buckets).to.have.length(200);
  });

  it('adjacency_matrix refuses more filters than index.max_adjacency_matrix_filters (100)', async () => {
    const filters = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { term: { n: i } }]));
    const err = await refusalOf(es, 'events', { aggs: { m: { adjacency_matrix: { filters } } } });
    expect(err).to.deep.include({
      type: 'illegal_argument_exception',
      reason: 'Number of filters is too large, must be less than or equal to: [100] but was [101].This limit can be set by changing the [index.max_adjacency_matrix_filters] index level setting.',
    });
    const ok = await aggregationsOf(es, 'events', { aggs: { m: { adjacency_matrix: { filters: { a: { term: { n: 1 } }, b: { range: { n: { lte: 1 } } } } } } } });
    expect(ok.m.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([['a', 1], ['a&b', 1], ['b', 2]]);
  });

  it('auto_date_histogram refuses a bucket target past its ceiling (max_buckets / widest inner interval)', async () => {
    const err = await refusalOf(es, 'events', { aggs: { h: { auto_date_histogram: { field: 'at', buckets: 1_000_000_000 } } } });
    expect(err).to.deep.include({ type: 'illegal_argument_exception', reason: 'buckets must be less than 655' });
    const ok = await aggregationsOf(es, 'events', { aggs: { h: { auto_date_histogram: { field: 'at', buckets: 655 } } } });
    expect(ok.h.buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0)).to.equal(2000);
  });

  it('range: more ranges than max_buckets are refused before collecting; many ranges still count right', async () => {
    const tooMany = Array.from({ length: 100_000 }, (_, i) => ({ from: i, to: i + 1 }));
    const err = await refusalOf(es, 'events', { aggs: { r: { range: { field: 'n', ranges: tooMany } } } });
    expect(err.type).to.equal('too_many_buckets_exception');
    expect(err.reason).to.include('but was [100000]');
    // Overlapping and open ranges: each document counts once per range it falls in.
    const ranges = [...Array.from({ length: 2000 }, (_, i) => ({ from: i, to: i + 1 })), { to: 10 }, { from: 1990 }, { from: 5, to: 15 }];
    const ok = await aggregationsOf(es, 'events', { aggs: { r: { range: { field: 'n', ranges } } } });
    const byKey = new Map<string, number>(ok.r.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count]));
    expect(ok.r.buckets).to.have.length(2003);
    expect(byKey.get('*-10.0')).to.equal(10);
    expect(byKey.get('1990.0-*')).to.equal(10);
    expect(byKey.get('5.0-15.0')).to.equal(10);
    expect(byKey.get('7.0-8.0')).to.equal(1);
  });

  it("a large request that names no runtime field computes none of the mappings' (100,000 ranges: ~200,000 values to look through)", async () => {
    // a runtime field of the mappings that takes ~10^6 steps a document: computed for 2,000 documents, it would use up any timeout
    expect((await es.call('PUT', '/events/_mapping', { runtime: { slow: { type: 'long', script: 'long s = 0; for (int i = 0; i < 900000; i++) { s += i } emit(s);' } } })).status).to.equal(200);
    expect((await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_buckets': 200_000 } })).status).to.equal(200);
    try {
      // the engine works on this thread: the CPU time it used is the work the search did, which a
      // busy machine does not stretch as it stretches wall-clock time (and so the timeout's margin)
      const cpuBefore = threadCpuMs();
      const r = await es.call('POST', '/events/_search', { size: 0, timeout: '60s', aggs: { r: { range: { field: 'n', ranges: Array.from({ length: 100_000 }, (_, i) => ({ from: i, to: i + 1 })) } } } });
      const cpuAfter = threadCpuMs();
      expect(r.status, r.text.slice(0, 300)).to.equal(200);
      if (cpuBefore !== undefined && cpuAfter !== undefined) expect(cpuAfter - cpuBefore, 'ms of the engine thread\'s CPU').to.be.below(4000);
      expect(r.json.timed_out).to.equal(false);
      expect(r.json.aggregations.r.buckets).to.have.length(100_000);
      expect(r.json.aggregations.r.buckets[1999].doc_count).to.equal(1);
    } finally {
      await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_buckets': null } });
      await es.call('PUT', '/events/_mapping', { runtime: { slow: null } });
    }
  });

  it('an include regex longer than index.max_regex_length (1000) is refused with ES\'s message', async () => {
    const include = 'u1' + '.?'.repeat(600);
    const err = await refusalOf(es, 'events', { aggs: { t: { terms: { field: 'user.keyword', include } } } });
    expect(err).to.deep.include({
      type: 'illegal_argument_exception',
      reason: `The length of regex [${include.length}] used in the request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
    });
    const ok = await aggregationsOf(es, 'events', { aggs: { t: { terms: { field: 'user.keyword', include: 'u1[0-9]', size: 20 } } } });
    expect(ok.t.buckets).to.have.length(10);
  });
});
