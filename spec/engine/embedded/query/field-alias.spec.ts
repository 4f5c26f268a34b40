import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Field aliases (`type: alias`, Elasticsearch's "Alias field type"): a query, a multi-field query,
 * a query string, an aggregation and a sort naming the alias read the field it points to.
 */
describe('embedded engine: field aliases in queries, aggregations and sorts', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    const properties = {
      title: { type: 'text' }, t: { type: 'alias', path: 'title' },
      n: { type: 'integer' }, na: { type: 'alias', path: 'n' },
      k: { type: 'keyword' }, ka: { type: 'alias', path: 'k' },
    };
    expect((await es.call('PUT', '/aliased', { mappings: { properties } })).status).to.equal(200);
    const lines = [{ index: { _id: '1' } }, { title: 'hello world', n: 5, k: 'Key1' }, { index: { _id: '2' } }, { title: 'goodbye', n: 3, k: 'Key2' }];
    await es.call('POST', '/aliased/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  const ids = async (query: unknown) => {
    const r = await es.call('POST', '/aliased/_search', { query });
    expect(r.status, r.text).to.equal(200);
    return r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
  };

  it('queries through an alias find what the field finds', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ match: { t: 'hello' } }, ['1']],
      [{ match_phrase: { t: 'hello world' } }, ['1']],
      [{ term: { na: 5 } }, ['1']],
      [{ range: { na: { lte: 4 } } }, ['2']],
      [{ exists: { field: 'ka' } }, ['1', '2']],
      [{ regexp: { ka: 'Key[12]' } }, ['1', '2']],
      [{ prefix: { ka: 'Key2' } }, ['2']],
      [{ query_string: { query: 'ka:Key1 OR t:goodb*' } }, ['1', '2']],
      [{ multi_match: { query: 'goodbye', fields: ['t'] } }, ['2']],
      [{ simple_query_string: { query: 'hello', fields: ['t'] } }, ['1']],
    ];
    for (const [query, expected] of cases) expect(await ids(query), JSON.stringify(query)).to.deep.equal(expected);
  });

  it('aggregations and sorts through an alias read the field', async () => {
    const r = await es.call('POST', '/aliased/_search', { _source: false, sort: [{ na: 'asc' }], aggs: { keys: { terms: { field: 'ka' } }, top: { max: { field: 'na' } } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort])).to.deep.equal([['2', [3]], ['1', [5]]]);
    expect(r.json.aggregations.keys.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['Key1', 'Key2']);
    expect(r.json.aggregations.top.value).to.equal(5);
  });
});
