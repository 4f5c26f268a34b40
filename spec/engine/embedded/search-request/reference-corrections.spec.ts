import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Differences from Elasticsearch 8.15 found by a sample of Elasticsearch 7's REST suites
 * (scroll/20_keep_alive, search.aggregation/10_histogram and 220_filters_bucket,
 * search.highlight/40_keyword_ignore, search/190_index_prefix_search).
 */
describe('embedded engine: search.max_keep_alive, extended_bounds with an offset, filters without filters, ignore_above in highlights, docvalue_fields limit, query_string regexps', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/scrolled/_doc/1?refresh=true', { foo: 1 });
    await es.call('PUT', '/days', { mappings: { properties: { date: { type: 'date' } } } });
    await es.call('POST', '/days/_bulk?refresh=true', '{"index":{}}\n{"date":"2016-01-02"}\n{"index":{}}\n{"date":"2016-01-03"}\n', { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/kw', { mappings: { properties: { k1: { type: 'keyword' }, k2: { type: 'keyword', ignore_above: 3 } } } });
    await es.call('POST', '/kw/_bulk?refresh=true', '{"index":{"_id":"1"}}\n{"k1":"123","k2":"123"}\n{"index":{"_id":"2"}}\n{"k1":"1234","k2":"1234"}\n', { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/texts/_doc/1?refresh=true', { text: 'sentence with UPPERCASE WORDS' });
  });
  after(async () => {
    await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': null } });
    await es.close();
  });

  it('search.max_keep_alive bounds a scroll keep-alive, worded as TimeValue prints durations', async () => {
    let r = await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': '1m' } });
    expect(r.status, r.text).to.equal(200);
    r = await es.call('POST', '/scrolled/_search?scroll=2m', {});
    expect([r.status, r.json.error?.type, r.json.error?.reason]).to.deep.equal([400, 'illegal_argument_exception',
      'Keep alive for request (2m) is too large. It must be less than (1m). This limit can be set by changing the [search.max_keep_alive] cluster level setting.']);
    r = await es.call('POST', '/scrolled/_search?scroll=1m', {});
    expect(r.status, r.text).to.equal(200);
    const renewed = await es.call('POST', '/_search/scroll', { scroll_id: r.json._scroll_id, scroll: '90s' });
    expect([renewed.status, renewed.json.error?.reason]).to.deep.equal([400,
      'Keep alive for request (1.5m) is too large. It must be less than (1m). This limit can be set by changing the [search.max_keep_alive] cluster level setting.']);
    r = await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': 'soon' } });
    expect(r.status).to.equal(400);
    await es.call('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': null } });
    r = await es.call('POST', '/scrolled/_search?scroll=2m', {});
    expect(r.status, r.text).to.equal(200);
  });

  it('a date_histogram rounds extended_bounds without its offset, then adds it', async () => {
    const r = await es.call('POST', '/days/_search', {
      size: 0,
      aggs: { h: { date_histogram: { field: 'date', calendar_interval: 'day', offset: '1h', extended_bounds: { min: '2016-01-01', max: '2016-01-04' } } } },
    });
    expect(r.json.aggregations.h.buckets.map((b: { key_as_string: string; doc_count: number }) => [b.key_as_string, b.doc_count])).to.deep.equal([
      ['2016-01-01T01:00:00.000Z', 1], ['2016-01-02T01:00:00.000Z', 1], ['2016-01-03T01:00:00.000Z', 0], ['2016-01-04T01:00:00.000Z', 0],
    ]);
  });

  it('a filters aggregation with no filters at all is empty, as Elasticsearch says', async () => {
    const r = await es.call('POST', '/days/_search', { size: 0, aggs: { f: { filters: {} } } });
    expect([r.status, r.json.error.type, r.json.error.reason]).to.deep.equal([400, 'illegal_argument_exception', '[filters] cannot be empty.']);
  });

  it('a keyword value over ignore_above is not highlighted (plain and unified)', async () => {
    for (const type of ['plain', 'unified']) {
      const r = await es.call('POST', '/kw/_search', {
        sort: ['k1'],
        query: { prefix: { k1: '12' } },
        highlight: { require_field_match: false, fields: { k2: { type } } },
      });
      expect(r.json.hits.hits.map((h: { highlight?: unknown }) => h.highlight), type).to.deep.equal([{ k2: ['<em>123</em>'] }, undefined]);
    }
  });

  it('index.max_docvalue_fields_search counts the mapped fields docvalue_fields resolves to, each once', async () => {
    await es.call('PUT', '/dv', { settings: { 'index.max_docvalue_fields_search': 2 }, mappings: { properties: { a: { type: 'keyword' }, b: { type: 'keyword' }, c: { type: 'keyword' } } } });
    await es.call('PUT', '/dv/_doc/1?refresh=true', { a: 'x', b: 'y', c: 'z' });
    const tooMany = (n: number) => [400, `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [2] but was [${n}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`];
    for (const docvalue_fields of [['a', 'unmapped1', 'unmapped2'], ['a', 'a', { field: 'a', format: 'use_field_mapping' }], ['a', 'b']]) {
      const r = await es.call('POST', '/dv/_search', { docvalue_fields });
      expect(r.status, `${JSON.stringify(docvalue_fields)} ${r.text}`).to.equal(200);
    }
    let r = await es.call('POST', '/dv/_search', { docvalue_fields: ['a', 'b', 'c'] });
    expect([r.status, r.json.error?.reason]).to.deep.equal(tooMany(3));
    r = await es.call('POST', '/dv/_search', { docvalue_fields: ['*'] });
    expect([r.status, r.json.error?.reason]).to.deep.equal(tooMany(3));
    r = await es.call('POST', '/dv/_search', { runtime_mappings: { r: { type: 'keyword' } }, docvalue_fields: ['a', 'b', 'r'] });
    expect([r.status, r.json.error?.reason]).to.deep.equal(tooMany(3));
  });

  it('a query_string regexp is normalized by the field analyzer, as Lucene normalizes it', async () => {
    const r = await es.call('POST', '/texts/_search', { query: { query_string: { default_field: 'text', query: '/UPPERCASE/' } } });
    expect(r.json.hits.total.value, r.text).to.equal(1);
  });
});
