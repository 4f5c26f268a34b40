import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: index stats (_stats)', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/st', { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' }, t: { type: 'text' } } } });
    const lines = [{ index: { _id: '1' } }, { n: 1, t: 'red fox' }, { index: { _id: '2' } }, { n: 2, t: 'lazy dog' }, { index: { _id: '3' } }, { n: 'not a number' }];
    await es.call('POST', '/st/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/st/_doc/4', { n: 4, t: 'red dog' });
    await es.call('DELETE', '/st/_doc/4');
    await es.call('POST', '/st/_update/1', { doc: { n: 1 } }); // noop
    await es.call('GET', '/st/_doc/1');
    await es.call('GET', '/st/_doc/nope');
    await es.call('POST', '/st/_search', { query: { match: { t: 'red' } } });
    await es.call('POST', '/st/_search', { size: 0, query: { match_all: {} } });
    await es.call('PUT', '/other', { settings: { number_of_replicas: 1 } });
    await es.call('PUT', '/other/_doc/x', { a: 1 });
  });
  after(() => es.close());

  it('counts indexing, deletes, noop updates, gets and searches of an index', async () => {
    const r = await es.call('GET', '/st/_stats');
    expect(r.status, r.text).to.equal(200);
    const p = r.json.indices.st.primaries;
    expect(r.json.indices.st).to.include({ uuid: r.json.indices.st.uuid, health: 'green', status: 'open' });
    expect(p.docs).to.deep.equal({ count: 2, deleted: 0 });
    expect(p.store.size_in_bytes).to.be.greaterThan(30);
    // Two bulk items and one PUT indexed, one bulk item refused by its mapping; the update was a noop.
    expect(p.indexing).to.include({ index_total: 3, index_failed: 1, delete_total: 1, noop_update_total: 1, is_throttled: false });
    // The update's read counts as a get, as in Elasticsearch.
    expect(p.get).to.include({ total: 3, exists_total: 2, missing_total: 1, current: 0 });
    expect(p.search).to.include({ query_total: 2, fetch_total: 1, open_contexts: 0, scroll_total: 0 });
    expect(r.json.indices.st.total).to.deep.equal(p);
  });

  it('_all sums the indices; _shards counts shard copies; level=cluster leaves the indices out', async () => {
    const r = await es.call('GET', '/_stats/docs,indexing');
    expect(r.json._shards).to.deep.equal({ total: 3, successful: 2, failed: 0 });
    expect(Object.keys(r.json._all.primaries)).to.deep.equal(['docs', 'indexing']);
    expect(r.json._all.primaries.docs).to.deep.equal({ count: 3, deleted: 0 });
    expect(r.json._all.primaries.indexing.index_total).to.equal(4);
    const cluster = await es.call('GET', '/_stats/docs?level=cluster');
    expect(cluster.json).to.not.have.property('indices');
    expect(cluster.json._all.total.docs.count).to.equal(3);
  });

  it('a terms lookup counts one get on the looked-up index', async () => {
    await es.call('PUT', '/lookup/_doc/1', { ids: ['1', '2'] });
    const before = (await es.call('GET', '/lookup/_stats/get')).json.indices.lookup.total.get.total;
    const r = await es.call('POST', '/st/_search', { query: { terms: { _id: { index: 'lookup', id: '1', path: 'ids' } } } });
    expect(r.json.hits.total.value).to.equal(2);
    expect((await es.call('GET', '/lookup/_stats/get')).json.indices.lookup.total.get.total).to.equal(before + 1);
  });

  it('an open scroll is an open context; cleared, it counts as a scroll', async () => {
    const opened = await es.call('POST', '/st/_search?scroll=1m', { size: 1 });
    expect((await es.call('GET', '/st/_stats/search')).json.indices.st.total.search).to.include({ open_contexts: 1, scroll_current: 1 });
    await es.call('DELETE', '/_search/scroll', { scroll_id: opened.json._scroll_id });
    expect((await es.call('GET', '/st/_stats/search')).json.indices.st.total.search).to.include({ open_contexts: 0, scroll_total: 1 });
  });

  it('refuses an unknown metric and a named closed index, as Elasticsearch does', async () => {
    const bad = await es.call('GET', '/_stats/bogus');
    expect(bad.status).to.equal(400);
    expect(bad.json.error.reason).to.equal('request [/_stats/bogus] contains unrecognized metric: [bogus]');
    await es.call('PUT', '/shut/_doc/1', { a: 1 });
    await es.call('POST', '/shut/_close');
    expect((await es.call('GET', '/shut/_stats')).json.error.type).to.equal('index_closed_exception');
    expect((await es.call('GET', '/_stats')).json.indices).to.not.have.property('shut');
  });
  it('request cache: two like size 0 searches are a miss and a hit, in Elasticsearch\'s shape (index, shard and node stats)', async () => {
    const before = (await es.call('GET', '/st/_stats/request_cache')).json._all.total.request_cache;
    for (let i = 0; i < 2; i++) expect((await es.call('POST', '/st/_search?request_cache=true', { size: 0, aggs: { n: { max: { field: 'n' } } } })).status).to.equal(200);
    const r = await es.call('GET', '/st/_stats/request_cache?level=shards');
    expect(r.status, r.text).to.equal(200);
    const cache = r.json._all.total.request_cache;
    expect(cache).to.include({ evictions: 0, hit_count: before.hit_count + 1, miss_count: before.miss_count + 1 });
    expect(cache.memory_size_in_bytes).to.be.greaterThan(0);
    expect(r.json._all).to.deep.equal({ primaries: { request_cache: cache }, total: { request_cache: cache } });
    expect(r.json.indices.st.primaries).to.deep.equal({ request_cache: cache });
    expect(r.json.indices.st.shards['0'][0].request_cache).to.deep.equal(cache);
    const nodes = await es.call('GET', '/_nodes/stats/indices/request_cache');
    expect(nodes.status, nodes.text).to.equal(200);
    for (const node of Object.values(nodes.json.nodes) as Array<{ indices: unknown }>) expect(node.indices).to.deep.equal({ request_cache: cache });
  });
});
