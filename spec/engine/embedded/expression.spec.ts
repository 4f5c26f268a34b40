import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

describe('the expression script language on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/ex', { mappings: { properties: { age: { type: 'long' }, price: { type: 'double' }, born: { type: 'date' }, name: { type: 'keyword' }, loc: { type: 'geo_point' } } } });
    await es.call('PUT', '/ex/_doc/1', { age: 23, price: [2.5, 1.5, 4], born: '2000-03-04T05:06:07Z', name: 'a', loc: { lat: 10, lon: 20 } });
    await es.call('PUT', '/ex/_doc/2', { age: 40, name: 'b' });
    await es.call('POST', '/ex/_refresh');
  });
  after(() => es.close());

  const expr = (source: string, params?: Record<string, unknown>) => ({ lang: 'expression', source, ...(params ? { params } : {}) });

  async function fields(scripts: Record<string, string>, params?: Record<string, unknown>) {
    const script_fields = Object.fromEntries(Object.entries(scripts).map(([k, s]) => [k, { script: expr(s, params) }]));
    const r = await es.call('POST', '/ex/_search', { query: { ids: { values: ['1'] } }, script_fields });
    expect(r.status, r.text).to.equal(200);
    return Object.fromEntries(Object.entries(r.json.hits.hits[0].fields as Record<string, unknown[]>).map(([k, v]) => [k, v[0]]));
  }

  it('computes script fields from doc values, params and functions, as doubles', async () => {
    expect(await fields({
      plus: 'doc["age"].value + 19', min: "doc['price'].min()", max: "doc['price'].max()", avg: "doc['price'].avg()", sum: "doc['price'].sum()",
      len: "doc['price'].length", empty: "doc['price'].empty", first: "doc['price']", f: 'sqrt(pow(3, 2) + 16) * factor', t: "doc['age'].value > 20 ? 1 : 0",
      bits: '0x10 | 1', shift: '1 << 3', year: "doc['born'].date.year", month: "doc['born'].getMonth()", lat: "doc['loc'].lat",
    }, { factor: 2 })).to.deep.equal({ plus: 42, min: 1.5, max: 4, avg: 8 / 3, sum: 8, len: 3, empty: 0, first: 1.5, f: 10, t: 1, bits: 17, shift: 8, year: 2000, month: 2, lat: 10 });
  });

  it('scores with script_score and function_score, sorts, and aggregates _score', async () => {
    const scored = await es.call('POST', '/ex/_search', { query: { script_score: { query: { match_all: {} }, script: expr("doc['age'].value * 2") } } });
    expect(scored.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['2', 80], ['1', 46]]);
    const sorted = await es.call('POST', '/ex/_search', { sort: { _script: { type: 'number', order: 'asc', script: expr("-doc['age'].value") } } });
    expect(sorted.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2', '1']);
    const aggs = await es.call('POST', '/ex/_search', { size: 0, aggs: { m: { max: { script: expr('_score') } }, s: { sum: { script: expr("doc['age'].value") } } } });
    expect(aggs.json.aggregations).to.deep.equal({ m: { value: 1 }, s: { value: 63 } });
  });

  it('runs bucket_script and bucket_selector with the buckets_path values as variables', async () => {
    const r = await es.call('POST', '/ex/_search', { size: 0, aggs: { by: { histogram: { field: 'age', interval: 10 }, aggs: {
      a: { max: { field: 'age' } },
      twice: { bucket_script: { buckets_path: { v: 'a' }, script: expr('v * k', { k: 2 }) } },
      keep: { bucket_selector: { buckets_path: { v: 'a' }, script: expr('v > 30') } },
    } } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.aggregations.by.buckets.map((b: { key: number; twice?: { value: number } }) => [b.key, b.twice?.value]), r.text).to.deep.equal([[40, 80]]);
  });

  it('refuses what Elasticsearch refuses: non-numeric fields, unknown variables, string params, other contexts', async () => {
    const keyword = await es.call('POST', '/ex/_search', { script_fields: { x: { script: expr("doc['name'].value") } } });
    expect(JSON.stringify(keyword.json)).to.include('Field [name] must be numeric, date, or geopoint');
    const unknown = await es.call('POST', '/ex/_search', { script_fields: { x: { script: expr('foo + 1') } } });
    expect(unknown.status).to.equal(400);
    expect(JSON.stringify(unknown.json)).to.include('Unknown variable [foo]');
    const param = await es.call('POST', '/ex/_search', { script_fields: { x: { script: expr('p + 1', { p: 'text' }) } } });
    expect(JSON.stringify(param.json)).to.include('Parameter [p] must be a numeric type');
    const syntax = await es.call('POST', '/ex/_search', { script_fields: { x: { script: expr('1 +') } } });
    expect(syntax.json.error.root_cause[0]).to.deep.include({ type: 'script_exception', reason: 'compile error', lang: 'expression' });
    const update = await es.call('POST', '/ex/_update/1', { script: expr('1') });
    expect(update.status).to.equal(400);
    expect(update.json.error.reason).to.equal('expression engine does not know how to handle script context [update]');
    const ingest = await es.call('PUT', '/_ingest/pipeline/e', { processors: [{ script: expr('1') }] });
    expect(ingest.status).to.equal(400);
    expect(JSON.stringify(ingest.json)).to.include('expression engine does not know how to handle script context');
    const stringSort = await es.call('POST', '/ex/_search', { sort: { _script: { type: 'string', script: expr('1') } } });
    expect(JSON.stringify(stringSort.json)).to.include('expression engine does not know how to handle script context [string_sort]');
  });

  it('never hands the source to the JavaScript engine: JavaScript outside the grammar is a compile error', async () => {
    for (const source of ['('.repeat(6000) + '1' + ')'.repeat(6000), 'this.constructor', 'process.exit(1)', "doc['age'].constructor.constructor('return 1')()", '(() => 1)()', 'x = 1']) {
      const r = await es.call('POST', '/ex/_search', { script_fields: { x: { script: expr(source) } } });
      expect(r.status, source).to.equal(400);
      expect(JSON.stringify(r.json), source).to.match(/compile error|link error|Unknown variable|Unrecognized function|nests too deeply/);
    }
  });
});
