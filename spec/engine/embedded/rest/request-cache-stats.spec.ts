import { expect } from 'chai';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Index stats' `request_cache` as Elasticsearch's shard request cache reports it: a search that
 * may be cached (`size: 0`, or `request_cache=true`; not `request_cache=false`, not with `now`)
 * is a miss per shard the first time and a hit while the index's documents stay the same; a
 * change of the documents or `_cache/clear` drops the entries (the counts stay).
 */
describe('embedded engine: request cache stats', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const cache = async (index: string): Promise<any> => {
    const r = await es.call('GET', `/${index}/_stats/request_cache`);
    expect(r.status, r.text).to.equal(200);
    return r.json._all.total.request_cache;
  };
  const aggs = { size: 0, aggs: { n: { terms: { field: 'n' } } } };
  const search = async (path: string, body: unknown) => {
    const r = await es.call('POST', path, body);
    expect(r.status, r.text).to.equal(200);
  };

  before(async () => {
    es = await startEngine();
    for (const [index, shards] of [['rc1', 1], ['rc2', 2]] as const) {
      const r = await es.call('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: { properties: { n: { type: 'integer' }, d: { type: 'date' } } } });
      expect(r.status, r.text).to.equal(200);
      await es.call('PUT', `/${index}/_doc/1?refresh=true`, { n: 1, d: '2020-01-01' });
    }
  });
  after(() => es.close());

  it('a size 0 search is a miss, then a hit; each shard counts; its entry takes memory', async () => {
    await search('/rc1/_search', aggs);
    expect(await cache('rc1')).to.include({ hit_count: 0, miss_count: 1, evictions: 0 });
    expect((await cache('rc1')).memory_size_in_bytes).to.be.greaterThan(0);
    await search('/rc1/_search', aggs);
    expect(await cache('rc1')).to.include({ hit_count: 1, miss_count: 1 });
    await search('/rc2/_search', aggs);
    await search('/rc2/_search', aggs);
    expect(await cache('rc2')).to.include({ hit_count: 2, miss_count: 2 });
  });

  it('a search of hits (size > 0) without request_cache=true, request_cache=false and now are not cached', async () => {
    const before = await cache('rc1');
    await search('/rc1/_search', { query: { match_all: {} } });
    await search('/rc1/_search?request_cache=false', aggs);
    await search('/rc1/_search', { size: 0, query: { range: { d: { lte: 'now' } } } });
    expect(await cache('rc1')).to.include({ hit_count: before.hit_count, miss_count: before.miss_count });
    await search('/rc1/_search?request_cache=true', { query: { match_all: {} } });
    await search('/rc1/_search?request_cache=true', { query: { match_all: {} } });
    expect(await cache('rc1')).to.include({ hit_count: before.hit_count + 1, miss_count: before.miss_count + 1 });
  });

  it('a cached search whose answer holds exact integers (BigInts: an unsigned_long sort value) is counted like any other', async () => {
    expect((await es.call('PUT', '/rc3', { mappings: { properties: { u: { type: 'unsigned_long' } } } })).status).to.equal(200);
    await es.call('PUT', '/rc3/_doc/1?refresh=true', { u: '18446744073709551615' });
    const sorted = { sort: [{ u: 'desc' }], search_after: ['18446744073709551616'] };
    const r = await es.call('POST', '/rc3/_search?request_cache=true', { sort: [{ u: 'desc' }] });
    expect(r.status, r.text).to.equal(200);
    expect(r.text).to.include('[18446744073709551615]');
    await search('/rc3/_search?request_cache=true', { sort: [{ u: 'desc' }] });
    await search('/rc3/_search?request_cache=true', sorted);
    expect(await cache('rc3')).to.include({ hit_count: 1, miss_count: 2 });
  });

  it('a change of the documents, or _cache/clear, empties the cache: the same search misses again', async () => {
    const before = await cache('rc1');
    await es.call('PUT', '/rc1/_doc/2?refresh=true', { n: 2 });
    expect((await cache('rc1')).memory_size_in_bytes).to.equal(0);
    await search('/rc1/_search', aggs);
    expect(await cache('rc1')).to.include({ hit_count: before.hit_count, miss_count: before.miss_count + 1 });
    const cleared = await es.call('POST', '/rc1/_cache/clear?request=true');
    expect(cleared.status, cleared.text).to.equal(200);
    expect(await cache('rc1')).to.include({ memory_size_in_bytes: 0, miss_count: before.miss_count + 1 });
    await search('/rc1/_search', aggs);
    expect(await cache('rc1')).to.include({ hit_count: before.hit_count, miss_count: before.miss_count + 2 });
  });

  it('accounts each entry as its key and its answer, whether or not its size was asked before the next one was cached', async () => {
    const x = { size: 0, aggs: { s: { sum: { field: 'n' } } } };
    const y = { size: 0, aggs: { t: { terms: { field: 'n' } }, m: { max: { field: 'n' } } } };
    const alone = async (body: object) => {
      expect((await es.call('POST', '/rc1/_cache/clear?request=true')).status).to.equal(200);
      await search('/rc1/_search', body);
      return (await cache('rc1')).memory_size_in_bytes as number;
    };
    const [mx, my] = [await alone(x), await alone(y)];
    expect(mx).to.be.greaterThan(0);
    expect(my).to.be.greaterThan(mx);
    expect((await es.call('POST', '/rc1/_cache/clear?request=true')).status).to.equal(200);
    await search('/rc1/_search', x);
    await search('/rc1/_search', y);
    await search('/rc1/_search', x);
    // each answer's `took` may take another digit or two on a loaded machine
    expect((await cache('rc1')).memory_size_in_bytes).to.be.closeTo(mx + my, 4);
  });

  it('holds a digest of each cached request, not the request: distinct megabyte-long searches leave the heap about as it was', async () => {
    await es.call('PUT', '/rc-big', { mappings: { properties: { n: { type: 'integer' } } } });
    await es.call('PUT', '/rc-big/_doc/1?refresh=true', { n: 1 });
    const pad = 'x'.repeat(1_000_000);
    const before = heldMemory();
    for (let i = 0; i < 60; i++) await search('/rc-big/_search', { size: 0, query: { match_all: { _name: `${i}${pad}` } } });
    const grown = heldMemory() - before;
    const stats = await cache('rc-big');
    expect(stats).to.include({ miss_count: 60, hit_count: 0 });
    // the entries are accounted as Elasticsearch does (key and answer bytes), ~60 MB, but not held
    expect(stats.memory_size_in_bytes).to.be.greaterThan(60_000_000);
    expect(grown, `${(grown / 1e6).toFixed(1)} MB held`).to.be.lessThan(20_000_000);
  });
});

/** What the process holds after two full collections: its JS heap and its typed arrays' memory. */
function heldMemory(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
