import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('embedded engine: aggregations', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const aggs = async (body: Record<string, unknown>, path = '/agg/_search'): Promise<any> => {
    const r = await es.call('POST', path, { size: 0, ...body });
    expect(r.status, r.text).to.equal(200);
    return r.json.aggregations;
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/agg', {
      mappings: {
        properties: {
          tag: { type: 'keyword' }, n: { type: 'long' }, price: { type: 'double' }, ok: { type: 'boolean' },
          day: { type: 'date' }, title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        },
      },
    });
    const docs = [
      { tag: 'a', n: 1, price: 10.5, ok: true, day: '2020-01-15T10:00:00Z', title: 'red fox' },
      { tag: 'a', n: 2, price: 20, ok: false, day: '2020-01-31T23:30:00Z', title: 'lazy dog' },
      { tag: 'b', n: 3, price: 30, ok: true, day: '2020-02-01T00:30:00Z', title: 'red dog' },
      { tag: 'c', n: 10, ok: true, day: '2020-03-10T00:00:00Z' },
      { n: 5, price: 40, day: '2020-03-11' },
    ];
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 'agg', _id: String(i + 1) } }, d));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  describe('terms', () => {
    it('counts keyword values: count desc then key asc, size and sum_other_doc_count', async () => {
      expect(await aggs({ aggs: { t: { terms: { field: 'tag' } } } })).to.deep.equal({
        t: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'a', doc_count: 2 }, { key: 'b', doc_count: 1 }, { key: 'c', doc_count: 1 }] },
      });
      const r = await aggs({ aggs: { t: { terms: { field: 'tag', size: 2 } } } });
      expect(r.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['a', 'b']);
      expect(r.t.sum_other_doc_count).to.equal(1);
    });

    it('min_doc_count 0 lists terms the hits lack; missing buckets documents without the field', async () => {
      const r = await aggs({ query: { term: { n: 1 } }, aggs: { t: { terms: { field: 'tag', min_doc_count: 0 } } } });
      expect(r.t.buckets).to.deep.equal([{ key: 'a', doc_count: 1 }, { key: 'b', doc_count: 0 }, { key: 'c', doc_count: 0 }]);
      const m = await aggs({ aggs: { t: { terms: { field: 'tag', missing: 'none' } } } });
      expect(m.t.buckets).to.deep.include({ key: 'none', doc_count: 1 });
    });

    it('include as a regular expression, exclude as values', async () => {
      let r = await aggs({ aggs: { t: { terms: { field: 'tag', include: 'a|b' } } } });
      expect(r.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['a', 'b']);
      r = await aggs({ aggs: { t: { terms: { field: 'tag', exclude: ['a'] } } } });
      expect(r.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['b', 'c']);
    });

    it('orders by a sub-aggregation metric and by _key', async () => {
      let r = await aggs({ aggs: { t: { terms: { field: 'tag', order: { avg_n: 'desc' } }, aggs: { avg_n: { avg: { field: 'n' } } } } } });
      expect(r.t.buckets).to.deep.equal([
        { key: 'c', doc_count: 1, avg_n: { value: 10 } },
        { key: 'b', doc_count: 1, avg_n: { value: 3 } },
        { key: 'a', doc_count: 2, avg_n: { value: 1.5 } },
      ]);
      r = await aggs({ aggs: { t: { terms: { field: 'tag', order: { _key: 'desc' } } } } });
      expect(r.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['c', 'b', 'a']);
    });

    it('numbers key as numbers, booleans as 1/0 with key_as_string, dates as millis with key_as_string', async () => {
      let r = await aggs({ aggs: { t: { terms: { field: 'n' } } } });
      expect(r.t.buckets.map((b: { key: number }) => b.key)).to.deep.equal([1, 2, 3, 5, 10]);
      expect(r.t.buckets[0]).to.deep.equal({ key: 1, doc_count: 1 });
      r = await aggs({ aggs: { t: { terms: { field: 'ok' } } } });
      expect(r.t.buckets).to.deep.equal([{ key: 1, key_as_string: 'true', doc_count: 3 }, { key: 0, key_as_string: 'false', doc_count: 1 }]);
      r = await aggs({ query: { term: { tag: 'b' } }, aggs: { t: { terms: { field: 'day' } } } });
      expect(r.t.buckets).to.deep.equal([{ key: Date.UTC(2020, 1, 1, 0, 30), key_as_string: '2020-02-01T00:30:00.000Z', doc_count: 1 }]);
    });

    it('aggregates a multi-field (title.raw) but refuses a text field without fielddata', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'title.raw', size: 1 } } } });
      expect(r.t.buckets).to.deep.equal([{ key: 'lazy dog', doc_count: 1 }]);
      const e = await es.call('POST', '/agg/_search', { aggs: { t: { terms: { field: 'title' } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.type).to.equal('illegal_argument_exception');
      expect(e.json.error.reason).to.match(/^Fielddata is disabled on \[title\] in \[agg\]\. Text fields are not optimised/);
    });
  });

  describe('metrics', () => {
    it('min, max, avg, sum, value_count, cardinality', async () => {
      const r = await aggs({
        aggs: {
          min: { min: { field: 'n' } }, max: { max: { field: 'n' } }, avg: { avg: { field: 'n' } }, sum: { sum: { field: 'price' } },
          count: { value_count: { field: 'price' } }, tags: { cardinality: { field: 'tag' } }, first: { min: { field: 'day' } },
        },
      });
      expect(r).to.deep.equal({
        min: { value: 1 }, max: { value: 10 }, avg: { value: 4.2 }, sum: { value: 100.5 }, count: { value: 4 }, tags: { value: 3 },
        first: { value: Date.UTC(2020, 0, 15, 10), value_as_string: '2020-01-15T10:00:00.000Z' },
      });
    });

    it('empty metrics: null values, zero sum and count', async () => {
      const r = await aggs({ query: { term: { tag: 'zzz' } }, aggs: { min: { min: { field: 'n' } }, avg: { avg: { field: 'n' } }, sum: { sum: { field: 'n' } }, s: { stats: { field: 'n' } } } });
      expect(r).to.deep.equal({ min: { value: null }, avg: { value: null }, sum: { value: 0 }, s: { count: 0, min: null, max: null, avg: null, sum: 0 } });
    });

    it('stats and extended_stats with std_deviation_bounds', async () => {
      const r = await aggs({ aggs: { s: { stats: { field: 'n' } }, e: { extended_stats: { field: 'n', sigma: 1 } } } });
      expect(r.s).to.deep.equal({ count: 5, min: 1, max: 10, avg: 4.2, sum: 21 });
      expect(r.e.sum_of_squares).to.equal(139);
      expect(r.e.variance).to.be.closeTo(10.16, 1e-9);
      expect(r.e.variance_sampling).to.be.closeTo(12.7, 1e-9);
      expect(r.e.std_deviation_bounds.upper).to.be.closeTo(4.2 + Math.sqrt(10.16), 1e-9);
      expect(Object.keys(r.e.std_deviation_bounds)).to.deep.equal(['upper', 'lower', 'upper_population', 'lower_population', 'upper_sampling', 'lower_sampling']);
    });

    it('percentiles keyed and not keyed; hdr as ES buckets values', async () => {
      let r = await aggs({ aggs: { p: { percentiles: { field: 'n', percents: [50, 100] } } } });
      expect(r.p).to.deep.equal({ values: { '50.0': 3, '100.0': 10 } });
      r = await aggs({ aggs: { p: { percentiles: { field: 'n', percents: [50], keyed: false } } } });
      expect(r.p).to.deep.equal({ values: [{ key: 50, value: 3 }] });
      r = await aggs({ aggs: { p: { percentiles: { field: 'price', percents: [50], hdr: {} } } } });
      expect(r.p.values['50.0']).to.equal(20.0078125);
    });

    it('top_hits sorted by a field, per bucket', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'tag', size: 1 }, aggs: { top: { top_hits: { size: 1, sort: [{ n: 'desc' }], _source: ['n'] } } } } } });
      expect(r.t.buckets[0].top.hits).to.deep.equal({
        total: { value: 2, relation: 'eq' }, max_score: null,
        hits: [{ _index: 'agg', _type: '_doc', _id: '2', _score: null, _source: { n: 2 }, sort: [2] }],
      });
    });
  });

  describe('histograms', () => {
    it('histogram fills gaps and extended_bounds', async () => {
      const r = await aggs({ aggs: { h: { histogram: { field: 'n', interval: 4, extended_bounds: { min: 0, max: 16 } } } } });
      expect(r.h.buckets).to.deep.equal([
        { key: 0, doc_count: 3 }, { key: 4, doc_count: 1 }, { key: 8, doc_count: 1 }, { key: 12, doc_count: 0 }, { key: 16, doc_count: 0 },
      ]);
      const k = await aggs({ aggs: { h: { histogram: { field: 'n', interval: 5, keyed: true, min_doc_count: 1 } } } });
      expect(k.h.buckets).to.deep.equal({ '0.0': { key: 0, doc_count: 3 }, '5.0': { key: 5, doc_count: 1 }, '10.0': { key: 10, doc_count: 1 } });
    });

    it('date_histogram by calendar month, in UTC and in a time zone', async () => {
      let r = await aggs({ aggs: { d: { date_histogram: { field: 'day', calendar_interval: 'month' } } } });
      expect(r.d.buckets).to.deep.equal([
        { key_as_string: '2020-01-01T00:00:00.000Z', key: Date.UTC(2020, 0, 1), doc_count: 2 },
        { key_as_string: '2020-02-01T00:00:00.000Z', key: Date.UTC(2020, 1, 1), doc_count: 1 },
        { key_as_string: '2020-03-01T00:00:00.000Z', key: Date.UTC(2020, 2, 1), doc_count: 2 },
      ]);
      r = await aggs({ aggs: { d: { date_histogram: { field: 'day', calendar_interval: '1M', time_zone: '+01:00' } } } });
      expect(r.d.buckets[1]).to.deep.equal({ key_as_string: '2020-02-01T00:00:00.000+01:00', key: Date.UTC(2020, 0, 31, 23), doc_count: 2 });
      r = await aggs({ aggs: { d: { date_histogram: { field: 'day', calendar_interval: 'month', time_zone: 'Europe/Paris', format: 'yyyy-MM' } } } });
      expect(r.d.buckets.map((b: { key_as_string: string; doc_count: number }) => [b.key_as_string, b.doc_count])).to.deep.equal([['2020-01', 1], ['2020-02', 2], ['2020-03', 2]]);
    });

    it('date_histogram with fixed_interval, min_doc_count and an unparseable calendar interval', async () => {
      const r = await aggs({ query: { terms: { tag: ['a', 'b'] } }, aggs: { d: { date_histogram: { field: 'day', fixed_interval: '12h', min_doc_count: 1, format: 'yyyy-MM-dd HH:mm' } } } });
      expect(r.d.buckets.map((b: { key_as_string: string }) => b.key_as_string)).to.deep.equal(['2020-01-15 00:00', '2020-01-31 12:00', '2020-02-01 00:00']);
      const e = await es.call('POST', '/agg/_search', { aggs: { d: { date_histogram: { field: 'day', calendar_interval: '2d' } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.reason).to.equal('The supplied interval [2d] could not be parsed as a calendar interval.');
    });
  });

  describe('ranges, filters, composite', () => {
    it('range buckets with Java-style keys; keyed', async () => {
      const r = await aggs({ aggs: { r: { range: { field: 'price', ranges: [{ to: 20 }, { from: 20, to: 40 }, { from: 40 }] } } } });
      expect(r.r.buckets).to.deep.equal([
        { key: '*-20.0', to: 20, doc_count: 1 }, { key: '20.0-40.0', from: 20, to: 40, doc_count: 2 }, { key: '40.0-*', from: 40, doc_count: 1 },
      ]);
      const k = await aggs({ aggs: { r: { range: { field: 'price', keyed: true, ranges: [{ key: 'cheap', to: 20 }] } } } });
      expect(k.r.buckets).to.deep.equal({ cheap: { to: 20, doc_count: 1 } });
      // one range written as an object is a list of one, as ObjectParser reads an object array
      const one = await aggs({ aggs: { r: { range: { field: 'price', ranges: { to: 20 } } } } });
      expect(one.r.buckets).to.deep.equal([{ key: '*-20.0', to: 20, doc_count: 1 }]);
    });

    it('date_range with a format and date math', async () => {
      const r = await aggs({ aggs: { r: { date_range: { field: 'day', format: 'yyyy-MM', ranges: [{ to: '2020-02' }, { from: '2020-02||+1M' }] } } } });
      expect(r.r.buckets).to.deep.equal([
        { key: '*-2020-02', to: Date.UTC(2020, 1, 1), to_as_string: '2020-02', doc_count: 2 },
        { key: '2020-03-*', from: Date.UTC(2020, 2, 1), from_as_string: '2020-03', doc_count: 2 },
      ]);
    });

    it('date_range and a range query read dates alike: date math in the time zone', async () => {
      const tokyo = 'Asia/Tokyo';
      const r = await aggs({
        aggs: {
          q: { filter: { range: { day: { gte: '2020-02-01||/M', lt: '2020-03-01', time_zone: tokyo } } } },
          r: { date_range: { field: 'day', time_zone: tokyo, ranges: [{ from: '2020-02-01||/M', to: '2020-03-01' }] } },
        },
      });
      expect(r.q.doc_count).to.equal(2);
      expect(r.r.buckets).to.deep.equal([{
        key: '2020-02-01T00:00:00.000+09:00-2020-03-01T00:00:00.000+09:00',
        from: Date.UTC(2020, 0, 31, 15), from_as_string: '2020-02-01T00:00:00.000+09:00',
        to: Date.UTC(2020, 1, 29, 15), to_as_string: '2020-03-01T00:00:00.000+09:00',
        doc_count: 2,
      }]);
      const e = await es.call('POST', '/agg/_search', { size: 0, aggs: { r: { date_range: { field: 'day', ranges: [{ from: 'now/q' }] } } } });
      expect([e.status, e.json.error.root_cause[0].type, e.json.error.root_cause[0].reason]).to.deep.equal([400, 'parse_exception', 'unit [q] not supported for date math [/q]']);
    });

    it('filter and filters with an other bucket, sub-aggregations inside', async () => {
      const r = await aggs({
        aggs: {
          f: { filter: { term: { ok: true } }, aggs: { s: { sum: { field: 'n' } } } },
          fs: { filters: { other_bucket_key: 'rest', filters: { a: { term: { tag: 'a' } }, b: { term: { tag: 'b' } } } } },
          anon: { filters: { filters: [{ term: { tag: 'c' } }] } },
          none: { missing: { field: 'tag' } },
        },
      });
      expect(r).to.deep.equal({
        f: { doc_count: 3, s: { value: 14 } },
        fs: { buckets: { a: { doc_count: 2 }, b: { doc_count: 1 }, rest: { doc_count: 2 } } },
        anon: { buckets: [{ doc_count: 1 }] },
        none: { doc_count: 1 },
      });
    });

    it('missing with a `missing` value: every valueless document takes it, so none is missing (mapped or not); a script gives the values', async () => {
      expect(await aggs({
        aggs: {
          given: { missing: { field: 'tag', missing: 'none' } },
          unmapped: { missing: { field: 'nope', missing: 0 } },
          unmappedBare: { missing: { field: 'nope' } },
          scripted: { missing: { script: { source: "doc['price'].size() == 0 ? [] : doc['price']" } } },
        },
      })).to.deep.equal({ given: { doc_count: 0 }, unmapped: { doc_count: 0 }, unmappedBare: { doc_count: 5 }, scripted: { doc_count: 1 } });
    });

    it('composite pages through keys with after_key', async () => {
      const first = await aggs({ aggs: { c: { composite: { size: 2, sources: [{ tag: { terms: { field: 'tag' } } }, { ok: { terms: { field: 'ok' } } }] } } } });
      expect(first.c).to.deep.equal({
        after_key: { tag: 'a', ok: true },
        buckets: [{ key: { tag: 'a', ok: false }, doc_count: 1 }, { key: { tag: 'a', ok: true }, doc_count: 1 }],
      });
      const next = await aggs({ aggs: { c: { composite: { size: 5, after: first.c.after_key, sources: [{ tag: { terms: { field: 'tag' } } }, { ok: { terms: { field: 'ok' } } }] } } } });
      expect(next.c.buckets.map((b: { key: unknown }) => b.key)).to.deep.equal([{ tag: 'b', ok: true }, { tag: 'c', ok: true }]);
    });
  });

  describe('request handling', () => {
    it('typed_keys prefixes names with the result type, at every level', async () => {
      const r = await aggs({ aggs: { t: { terms: { field: 'tag', size: 1 }, aggs: { m: { max: { field: 'n' } } } } } }, '/agg/_search?typed_keys=true');
      expect(r).to.deep.equal({ 'sterms#t': { doc_count_error_upper_bound: 0, sum_other_doc_count: 2, buckets: [{ key: 'a', doc_count: 2, 'max#m': { value: 2 } }] } });
    });

    it('a misspelt field of an aggregation: Elasticsearch\'s object parser error with its "did you mean"', async () => {
      const reason = async (agg: Record<string, unknown>) => {
        const e = await es.call('POST', '/agg/_search', { aggs: { x: agg } });
        expect(e.status, e.text).to.equal(400);
        return e.json.error.reason as string;
      };
      expect(await reason({ significant_terms: { field: 'tag', jlp: {} } })).to.equal('[significant_terms] unknown field [jlp] did you mean [jlh]?');
      expect(await reason({ terms: { field: 'tag', siz: 1 } })).to.equal('[terms] unknown field [siz] did you mean [size]?');
      expect(await reason({ avg: { feild: 'n' } })).to.equal('[avg] unknown field [feild] did you mean [field]?');
      expect(await reason({ histogram: { field: 'n', intervall: 1 } })).to.equal('[histogram] unknown field [intervall] did you mean [interval]?');
      expect(await reason({ percentiles: { field: 'n', percent: [1] } })).to.equal('[percentiles] unknown field [percent] did you mean [percents]?');
      // nothing close: no suggestion
      expect(await reason({ terms: { field: 'tag', zzz: 1 } })).to.equal('[terms] unknown field [zzz]');
    });

    it('unknown types and missing fields are ES 400s', async () => {
      let e = await es.call('POST', '/agg/_search', { aggs: { x: { term: { field: 'tag' } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.type).to.equal('parsing_exception');
      expect(e.json.error.reason).to.equal('Unknown aggregation type [term] did you mean [terms]?');
      e = await es.call('POST', '/agg/_search', { aggs: { x: { terms: { size: 1 } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.reason).to.match(/^Required one of fields \[field, script\], but none were specified/);
      e = await es.call('POST', '/agg/_search', { aggs: { x: { avg: { field: 'tag' } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.reason).to.equal('Field [tag] of type [keyword] is not supported for aggregation [avg]');
    });

    it('aggregations across indices merge their buckets; a text field fails as in ES', async () => {
      await es.call('PUT', '/agg2', { mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'integer' } } } });
      await es.call('PUT', '/agg2/_doc/1?refresh=true', { tag: 'a', n: 100 });
      await es.call('PUT', '/agg3/_doc/1?refresh=true', { tag: 'a' });
      const e = await es.call('POST', '/agg,agg3/_search', { aggs: { t: { terms: { field: 'tag' } } } });
      expect(e.status).to.equal(400);
      expect(e.json.error.reason).to.match(/^Fielddata is disabled on \[tag\] in \[agg3\]/);
      const r = await aggs({ aggs: { t: { terms: { field: 'tag', size: 1 }, aggs: { m: { max: { field: 'n' } } } } } }, '/agg,agg2/_search');
      expect(r.t.buckets).to.deep.equal([{ key: 'a', doc_count: 3, m: { value: 100 } }]);
    });
  });
});
