import { expect } from 'chai';
import { aggregationsOf, refusalOf, startEngine, type TestEngine } from '../support.js';

/**
 * Elasticsearch registers range fields (integer_range … ip_range) only with the aggregations that
 * can read an interval — histogram, date_histogram — and with those that take any field
 * (cardinality, value_count, missing); every other one refuses such a field before it runs:
 * `Field [r] of type [integer_range] is not supported for aggregation [terms]`.
 */
describe('embedded engine: aggregations refuse range fields they cannot read', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const create = await es.call('PUT', '/ranges', {
      mappings: { properties: { r: { type: 'integer_range' }, d: { type: 'date_range' }, ip: { type: 'ip_range' }, n: { type: 'long' } } },
    });
    expect(create.status, create.text).to.equal(200);
    const put = await es.call('PUT', '/ranges/_doc/1?refresh=true', { r: { gte: 1, lte: 5 }, d: { gte: '2020-01-01', lte: '2020-01-03' }, ip: '10.0.0.0/24', n: 1 });
    expect(put.status, put.text).to.equal(201);
  });
  after(() => es.close());

  const refused: Array<[string, string, Record<string, unknown>]> = [
    ['terms', 'integer_range', { terms: { field: 'r' } }],
    ['rare_terms', 'integer_range', { rare_terms: { field: 'r' } }],
    ['significant_terms', 'integer_range', { significant_terms: { field: 'r' } }],
    ['range', 'integer_range', { range: { field: 'r', ranges: [{ to: 3 }] } }],
    ['date_range', 'date_range', { date_range: { field: 'd', ranges: [{ to: '2020-01-02' }] } }],
    ['ip_range', 'ip_range', { ip_range: { field: 'ip', ranges: [{ to: '10.0.0.5' }] } }],
    ['avg', 'integer_range', { avg: { field: 'r' } }],
    ['sum', 'integer_range', { sum: { field: 'r' } }],
    ['stats', 'integer_range', { stats: { field: 'r' } }],
    ['percentiles', 'integer_range', { percentiles: { field: 'r' } }],
    ['multi_terms', 'integer_range', { multi_terms: { terms: [{ field: 'n' }, { field: 'r' }] } }],
  ];
  for (const [agg, type, body] of refused) {
    it(`${agg} on a ${type} field is refused`, async () => {
      const field = body.multi_terms ? 'r' : (Object.values(body)[0] as { field: string }).field;
      const error = await refusalOf(es, 'ranges', { aggs: { a: body } });
      expect(error).to.include({ type: 'illegal_argument_exception', reason: `Field [${field}] of type [${type}] is not supported for aggregation [${agg}]` });
    });
  }

  it('a composite source refuses one as its aggregation does', async () => {
    for (const [source, body] of [['terms', { field: 'r' }], ['histogram', { field: 'r', interval: 2 }]] as const) {
      const error = await refusalOf(es, 'ranges', { aggs: { c: { composite: { sources: [{ s: { [source]: body } }] } } } });
      expect(error.reason).to.equal(`Field [r] of type [integer_range] is not supported for aggregation [${source}]`);
    }
  });

  it('histogram, cardinality, value_count and missing still read one', async () => {
    const aggs = await aggregationsOf(es, 'ranges', {
      aggs: { h: { histogram: { field: 'r', interval: 2 } }, c: { cardinality: { field: 'r' } }, v: { value_count: { field: 'r' } }, m: { missing: { field: 'r' } } },
    });
    expect(aggs.h.buckets.map((b: { key: number }) => b.key)).to.deep.equal([0, 2, 4]);
    expect(aggs.m.doc_count).to.equal(0);
  });

  it('a script reading the field is not refused', async () => {
    const aggs = await aggregationsOf(es, 'ranges', { aggs: { t: { terms: { script: { source: "doc['n'].value" } } } } });
    expect(aggs.t.buckets).to.have.length(1);
  });
});
