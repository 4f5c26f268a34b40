import { expect } from 'chai';
import { parse } from 'lossless-json';
import { ndjson, startEngine, type Reply, type TestEngine } from '../support.js';

/** A response body with its integers exact (JSON.parse would round epoch nanoseconds): BigInts past 2^53. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exact(r: Reply): any {
  return parse(r.text, null, (n) => (/^-?\d+$/.test(n) && !Number.isSafeInteger(Number(n)) ? BigInt(n) : Number(n)));
}

/** An index whose `t` is date_nanos, with one document per id holding that date. */
async function datesIndex(es: TestEngine, name: string, dates: Record<string, string>): Promise<void> {
  await es.call('PUT', `/${name}`, { mappings: { properties: { t: { type: 'date_nanos' } } } });
  const lines = Object.entries(dates).flatMap(([id, t]) => [{ index: { _index: name, _id: id } }, { t }]);
  await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
}

const ids = (r: Reply) => (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id);

describe('embedded engine: date_nanos to the nanosecond', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/ns', { mappings: { properties: { t: { type: 'date_nanos' }, n: { type: 'long' } } } });
    await es.call('PUT', '/ms', { mappings: { properties: { t: { type: 'date' } } } });
    await es.call('PUT', '/custom', { mappings: { properties: { t: { type: 'date_nanos', format: 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS' } } } });
    const docs: unknown[] = [
      { index: { _index: 'ns', _id: 'a' } }, { t: '2018-10-29T12:12:12.123456789Z', n: 1 },
      { index: { _index: 'ns', _id: 'b' } }, { t: '2018-10-29T12:12:12.123456790Z', n: 2 },
      { index: { _index: 'ns', _id: 'c' } }, { t: '2018-10-29T12:12:12.123456788Z', n: 3 },
      { index: { _index: 'ms', _id: 'm' } }, { t: '2018-10-29T12:12:12.123Z' },
      { index: { _index: 'custom', _id: 'x' } }, { t: '2019-10-21 00:30:04.828740001' },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(docs), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors).to.equal(false);
  });
  after(() => es.close());

  it('sorts documents 1 ns apart, with their epoch nanoseconds as sort values', async () => {
    let r = await es.call('POST', '/ns/_search', { sort: [{ t: 'asc' }] });
    expect(ids(r)).to.deep.equal(['c', 'a', 'b']);
    expect(exact(r).hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal([1540815132123456788n, 1540815132123456789n, 1540815132123456790n]);
    expect(r.text).to.include('"sort":[1540815132123456788]');
    r = await es.call('POST', '/ns/_search', { sort: [{ t: 'desc' }] });
    expect(ids(r)).to.deep.equal(['b', 'a', 'c']);
  });

  it('range and term queries tell apart dates 1 ns apart', async () => {
    let r = await es.call('POST', '/ns/_search', { query: { range: { t: { gt: '2018-10-29T12:12:12.123456788Z', lte: '2018-10-29T12:12:12.123456789Z' } } } });
    expect(ids(r)).to.deep.equal(['a']);
    r = await es.call('POST', '/ns/_search', { query: { range: { t: { gte: '2018-10-29T12:12:12.123456789Z' } } }, sort: ['t'] });
    expect(ids(r)).to.deep.equal(['a', 'b']);
    r = await es.call('POST', '/ns/_search', { query: { term: { t: '2018-10-29T12:12:12.123456790Z' } } });
    expect(ids(r)).to.deep.equal(['b']);
    // Bounds beyond what date_nanos holds stand for its ends.
    r = await es.call('POST', '/ns/_search', { query: { range: { t: { gte: '1960-01-01', lt: '2300-01-01' } } } });
    expect(r.json.hits.total.value).to.equal(3);
  });

  it('date math rounds up to the last millisecond of the unit, as Elasticsearch (JavaDateMathParser) does', async () => {
    await datesIndex(es, 'edge', { inside: '2018-10-29T12:12:12.999Z', first: '2018-10-29T12:12:12.999000001Z', last: '2018-10-29T12:12:12.999999999Z', next: '2018-10-29T12:12:13Z' });
    let r = await es.call('POST', '/edge/_search', { query: { range: { t: { lte: '2018-10-29T12:12:12||/s' } } }, sort: ['t'] });
    expect(ids(r)).to.deep.equal(['inside']);
    r = await es.call('POST', '/edge/_search', { query: { range: { t: { gt: '2018-10-29T12:12:12||/s' } } }, sort: ['t'] });
    expect(ids(r)).to.deep.equal(['first', 'last', 'next']);
  });

  it('search_after takes exact epoch nanoseconds, or a date in the field format', async () => {
    // The sort value of "a" is written as JSON sends it: an integer a JS number would round.
    const body = '{"sort":[{"t":"asc"}],"search_after":[1540815132123456789]}';
    let r = await es.call('POST', '/ns/_search', body);
    expect(ids(r)).to.deep.equal(['b']);
    r = await es.call('POST', '/ns/_search', { sort: [{ t: 'desc' }], search_after: ['2018-10-29T12:12:12.123456789Z'] });
    expect(ids(r)).to.deep.equal(['c']);
    r = await es.call('POST', '/custom/_search', { sort: [{ t: 'desc' }], search_after: ['2019-10-21 00:30:04.828740002'] });
    expect(ids(r)).to.deep.equal(['x']);
    r = await es.call('POST', '/custom/_search', { sort: [{ t: 'desc' }], search_after: ['2019-10-21 00:30:04.828740001'] });
    expect(ids(r)).to.deep.equal([]);
    const m = await es.call('POST', '/_msearch', `{"index":"ns"}\n${body}\n`, { 'content-type': 'application/x-ndjson' });
    expect(m.json.responses[0].hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['b']);
  });

  it('refuses dates before 1970 and after 2262-04-11T23:47:16.854775807Z with ES reasons, unless ignore_malformed', async () => {
    const lines = [
      { index: { _index: 'ns', _id: 'old' } }, { t: '1969-12-31T23:59:59.999999999Z' },
      { index: { _index: 'ns', _id: 'late' } }, { t: '2262-04-11T23:47:16.854775808Z' },
      { index: { _index: 'ns', _id: 'last' } }, { t: '2262-04-11T23:47:16.854775807Z' },
      { index: { _index: 'ns', _id: 'day' } }, { t: '1969-10-28' },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    const items = r.json.items.map((i: { index: { status: number; error?: { caused_by: { type: string; reason: string } } } }) => i.index);
    expect(items.map((i: { status: number }) => i.status)).to.deep.equal([400, 400, 201, 400]);
    expect(items[0].error.caused_by).to.deep.equal({
      type: 'illegal_argument_exception',
      reason: 'date[1969-12-31T23:59:59.999999999Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
    });
    expect(items[1].error.caused_by.reason).to.equal('date[2262-04-11T23:47:16.854775808Z] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution');
    expect(items[3].error.caused_by.reason).to.equal('date[1969-10-28T00:00:00Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution');
    const last = await es.call('POST', '/ns/_search', { query: { ids: { values: ['last'] } }, sort: ['t'] });
    expect(exact(last).hits.hits[0].sort).to.deep.equal([9223372036854775807n]);
    await es.call('DELETE', '/ns/_doc/last?refresh=true');

    await es.call('PUT', '/lenient', { mappings: { properties: { t: { type: 'date_nanos', ignore_malformed: true } } } });
    const ok = await es.call('PUT', '/lenient/_doc/1?refresh=true', { t: '1900-01-01T00:00:00Z' });
    expect(ok.status).to.equal(201);
    const doc = await es.call('POST', '/lenient/_search', { query: { exists: { field: '_ignored' } } });
    expect(doc.json.hits.hits[0]._ignored).to.deep.equal(['t']);
  });

  it('fields and docvalue_fields print as many fraction digits as the format asks for', async () => {
    await datesIndex(es, 'printed', { centis: '2018-10-29T12:12:12.12Z', micros: '2018-10-29T12:12:12.123456Z', nanos: '1540815132123.456789' });
    const printed = async (what: 'fields' | 'docvalue_fields', format?: string) => {
      const r = await es.call('POST', '/printed/_search', { sort: ['t'], _source: false, [what]: [format ? { field: 't', format } : 't'] });
      return r.json.hits.hits.map((h: { fields: { t: string[] } }) => h.fields.t[0]);
    };
    for (const what of ['fields', 'docvalue_fields'] as const) {
      expect(await printed(what)).to.deep.equal(['2018-10-29T12:12:12.120Z', '2018-10-29T12:12:12.123456Z', '2018-10-29T12:12:12.123456789Z']);
      expect(await printed(what, 'strict_date_optional_time')).to.deep.equal(['2018-10-29T12:12:12.120Z', '2018-10-29T12:12:12.123Z', '2018-10-29T12:12:12.123Z']);
      expect(await printed(what, 'epoch_millis')).to.deep.equal(['1540815132120', '1540815132123.456', '1540815132123.456789']);
      expect(await printed(what, 'epoch_second')).to.deep.equal(['1540815132.12', '1540815132.123456', '1540815132.123456789']);
      expect(await printed(what, "uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSX")).to.deep.equal([
        '2018-10-29T12:12:12.120000000Z', '2018-10-29T12:12:12.123456000Z', '2018-10-29T12:12:12.123456789Z',
      ]);
    }
  });

  it('sorts a field mapped as date in one index and date_nanos in another on the scale numeric_type asks for', async () => {
    // Raw longs by default, as ES: nanoseconds outrank milliseconds.
    let r = await es.call('POST', '/ns,ms/_search', { sort: [{ t: 'desc' }] });
    expect(ids(r)).to.deep.equal(['b', 'a', 'c', 'm']);
    r = await es.call('POST', '/ns,ms/_search', { sort: [{ t: { order: 'asc', numeric_type: 'date_nanos' } }] });
    expect(ids(r)).to.deep.equal(['m', 'c', 'a', 'b']);
    expect(exact(r).hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal([1540815132123000000n, 1540815132123456788n, 1540815132123456789n, 1540815132123456790n]);
    // In milliseconds all four tie: the second criterion decides (m has no n: last).
    r = await es.call('POST', '/ns,ms/_search', { sort: [{ t: { order: 'asc', numeric_type: 'date' } }, { n: 'asc' }] });
    expect(ids(r)).to.deep.equal(['a', 'b', 'c', 'm']);
    expect(r.json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal([1540815132123, 1540815132123, 1540815132123, 1540815132123]);
    // java.time's fraction: at least 3 digits, trailing zeros dropped beyond them.
    r = await es.call('POST', '/ns,ms/_search', { sort: [{ t: { order: 'asc', numeric_type: 'date_nanos', format: 'strict_date_optional_time_nanos' } }] });
    expect(r.json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal([
      '2018-10-29T12:12:12.123Z', '2018-10-29T12:12:12.123456788Z', '2018-10-29T12:12:12.123456789Z', '2018-10-29T12:12:12.12345679Z',
    ]);
  });

  it('aggregations read date_nanos in milliseconds', async () => {
    const r = await es.call('POST', '/ns/_search', {
      size: 0,
      aggs: { lo: { min: { field: 't' } }, hi: { max: { field: 't' } }, d: { date_histogram: { field: 't', calendar_interval: 'day' } } },
    });
    expect(r.json.aggregations.lo).to.deep.equal({ value: 1540815132123, value_as_string: '2018-10-29T12:12:12.123Z' });
    expect(r.json.aggregations.hi.value).to.equal(1540815132123);
    expect(r.json.aggregations.d.buckets).to.deep.equal([{ key: 1540771200000, key_as_string: '2018-10-29T00:00:00.000Z', doc_count: 3 }]);
  });
});
