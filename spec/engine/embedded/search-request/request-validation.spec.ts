import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine: terms lookup, search_type, batched_reduce_size, max_terms_count, indices_boost, search_after on dates', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/users', { settings: { 'index.max_terms_count': 2 }, mappings: { properties: { user: { type: 'keyword' }, followers: { type: 'keyword' } } } });
    await es.call('PUT', '/users/_doc/u1', { user: 'u1', followers: ['u2', 'u3'] });
    await es.call('PUT', '/users/_doc/u2', { user: 'u2', followers: ['u1', 'u3', 'u4'] });
    await es.call('PUT', '/users/_doc/u3?refresh=true', { user: 'u3', meta: { followers: ['u1'] } });
    await es.call('PUT', '/logs', { mappings: { properties: { t: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss.SSS' } } } });
    await es.call('PUT', '/logs/_doc/1', { t: '2019-10-21 08:30:04.828' });
    await es.call('PUT', '/logs/_doc/2?refresh=true', { t: '2019-10-21 08:30:04.829' });
  });
  after(() => es.close());

  it('terms lookup: the values at `path` in another document; a missing index is index_not_found', async () => {
    let r = await es.call('POST', '/users/_search', { query: { terms: { user: { index: 'users', id: 'u1', path: 'followers' } } } });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['u2', 'u3']);
    r = await es.call('POST', '/users/_count', { query: { terms: { user: { index: 'users', id: 'u3', path: 'meta.followers' } } } });
    expect(r.json.count).to.equal(1);
    r = await es.call('POST', '/users/_search', { query: { terms: { user: { index: 'users', id: 'nobody', path: 'followers' } } } });
    expect(r.json.hits.total.value).to.equal(0);
    r = await es.call('POST', '/users/_search', { query: { terms: { user: { index: 'nope', id: 'u1', path: 'followers' } } } });
    expect(r.status).to.equal(404);
    expect(r.json.error.reason).to.equal('no such index [nope]');
  });

  it('a terms query over index.max_terms_count is refused', async () => {
    const r = await es.call('POST', '/users/_search', { query: { bool: { filter: [{ terms: { user: ['u1', 'u2', 'u3'] } }] } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('The number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.');
  });

  it('search_type query_and_fetch and batched_reduce_size < 2 are refused', async () => {
    let r = await es.call('POST', '/users/_search?search_type=query_and_fetch', {});
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Unsupported search type [query_and_fetch]');
    expect((await es.call('POST', '/users/_search?search_type=dfs_query_then_fetch', {})).status).to.equal(200);
    r = await es.call('GET', '/users/_search?batched_reduce_size=1');
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.match(/batchedReduceSize must be >= 2/);
  });

  it('the execution parameters are refused while the request is read, before its indices are resolved', async () => {
    // search/140_pre_filter_search_shards: pre_filter_shard_size=0 on an index that does not exist is a 400
    for (const [query, reason] of [
      ['pre_filter_shard_size=0', 'preFilterShardSize must be >= 1'], ['max_concurrent_shard_requests=0', 'maxConcurrentShardRequests must be >= 1'],
      ['search_type=query_and_fetch', 'Unsupported search type [query_and_fetch]'],
    ]) {
      const r = await es.call('GET', `/no_such_index/_search?${query}`);
      expect(r.status, query).to.equal(400);
      expect(r.json.error.reason).to.equal(reason);
    }
    expect((await es.call('GET', '/no_such_index/_search?pre_filter_shard_size=1')).status).to.equal(404);
  });

  it('indices_boost naming an unknown index: index_not_found, unless ignore_unavailable', async () => {
    let r = await es.call('POST', '/_all/_search', { indices_boost: [{ nonexistent: 2 }, { users: 1 }] });
    expect(r.status).to.equal(404);
    expect(r.json.error.type).to.equal('index_not_found_exception');
    r = await es.call('POST', '/_all/_search?ignore_unavailable=true', { indices_boost: [{ nonexistent: 2 }, { users: 1 }] });
    expect(r.status).to.equal(200);
  });

  it('search_after on a date with a custom format takes the epoch millis of the sort values', async () => {
    const first = await es.call('POST', '/logs/_search', { size: 1, sort: [{ t: 'desc' }] });
    expect(first.json.hits.hits[0]._id).to.equal('2');
    const r = await es.call('POST', '/logs/_search', { size: 1, sort: [{ t: 'desc' }], search_after: first.json.hits.hits[0].sort });
    expect(r.status).to.equal(200);
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
  });
});
