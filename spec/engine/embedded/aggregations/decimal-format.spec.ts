import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * `format` of numeric aggregations and docvalue_fields is a java.text.DecimalFormat pattern
 * (DocValueFormat.Decimal): literal prefixes and suffixes, quotes, `%`, a negative subpattern.
 * Held-out search.aggregation/10_histogram "Format test" formats keys with "Value is ##0.0".
 */
describe('embedded engine: DecimalFormat patterns of `format`', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const search = async (body: Record<string, unknown>): Promise<any> => {
    const r = await es.call('POST', '/numbers/_search', body);
    expect(r.status, r.text).to.equal(200);
    return r.json;
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/numbers', { mappings: { properties: { n: { type: 'integer' }, d: { type: 'double' }, date: { type: 'date' } } } });
    const docs = [{ n: 1, d: -2.5, date: '2016-01-01' }, { n: 51, d: 0.125, date: '2016-01-02' }, { n: 101, d: 1234.5, date: '2016-02-01' }, { n: 151, date: '2016-03-01' }];
    const lines = docs.flatMap((d, i) => [{ index: { _index: 'numbers', _id: String(i + 1) } }, d]);
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('histogram keys keep the literal prefix of the pattern (ES: "Value is 0.0")', async () => {
    const out = await search({ size: 0, aggs: { histo: { histogram: { field: 'n', interval: 50, format: 'Value is ##0.0' } } } });
    expect(out.aggregations.histo.buckets.map((b: { key_as_string: string }) => b.key_as_string))
      .to.deep.equal(['Value is 0.0', 'Value is 50.0', 'Value is 100.0', 'Value is 150.0']);
  });

  it('metric value_as_string: quoted text, a suffix, grouping (HALF_EVEN: 1232.125 → 1232.12), % and a negative subpattern', async () => {
    const out = await search({
      size: 0,
      aggs: {
        quoted: { max: { field: 'n', format: "'#'0" } },
        suffix: { sum: { field: 'd', format: '#,##0.00 EUR' } },
        percent: { min: { field: 'd', format: '0.0%;(0.0%)' } },
      },
    });
    expect(out.aggregations.quoted.value_as_string).to.equal('#151');
    expect(out.aggregations.suffix.value_as_string).to.equal('1,232.12 EUR');
    expect(out.aggregations.percent.value_as_string).to.equal('(250.0%)');
  });

  it('docvalue_fields with a numeric format use the same patterns', async () => {
    const out = await search({ query: { ids: { values: ['2'] } }, _source: false, docvalue_fields: [{ field: 'd', format: 'about 0.00' }] });
    expect(out.hits.hits[0].fields).to.deep.equal({ d: ['about 0.12'] });
  });

  it('histogram order on 7.x `_time` sorts by key, as `_key` (REST compatibility with 7)', async () => {
    const out = await search({ size: 0, aggs: { histo: { date_histogram: { field: 'date', calendar_interval: 'month', order: { _time: 'desc' } } } } });
    expect(out.aggregations.histo.buckets.map((b: { key_as_string: string }) => b.key_as_string))
      .to.deep.equal(['2016-03-01T00:00:00.000Z', '2016-02-01T00:00:00.000Z', '2016-01-01T00:00:00.000Z']);
  });

  it('a pattern asking for more digits than a double has is held to DecimalFormat\'s 309 integer and 340 fraction digits, not an error', async () => {
    // 101+ fraction digits was a 500 (toFixed's limit), and a million 0s made every key a million characters long
    const out = await search({
      size: 0,
      aggs: {
        frac: { max: { field: 'n', format: `0.${'0'.repeat(400)}` } },
        optional: { max: { field: 'd', format: `0.${'#'.repeat(150)}` } },
        int: { histogram: { field: 'n', interval: 50, format: '0'.repeat(1_000_000) } },
      },
    });
    expect(out.aggregations.frac.value_as_string).to.equal(`151.${'0'.repeat(340)}`);
    expect(out.aggregations.optional.value_as_string).to.equal('1234.5');
    const keys = out.aggregations.int.buckets.map((b: { key_as_string: string }) => b.key_as_string);
    expect(keys.map((k: string) => k.length)).to.deep.equal([309, 309, 309, 309]);
    expect(keys[3]).to.equal(`${'0'.repeat(306)}150`);
  });
});
