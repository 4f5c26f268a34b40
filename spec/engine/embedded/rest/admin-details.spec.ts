import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// Details of admin APIs as Elasticsearch answers them: legacy templates' flat_settings and alias
// routing, flush counted in the index stats and validated, an unknown stats metric with a
// suggestion, and cluster health per shard.
describe('embedded engine REST: templates, flush, stats metrics and shard health', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('GET _template gives flat settings with flat_settings, and an alias routing as index and search routing', async () => {
    await es.call('PUT', '/_template/t', {
      index_patterns: ['t-*'], settings: { number_of_shards: 1, number_of_replicas: 0 },
      aliases: { plain: {}, routed: { routing: 'b' }, filtered: { filter: { term: { user: 'kimchy' } } } },
    });
    const flat = await es.call('GET', '/_template/t?flat_settings=true');
    expect(flat.json.t.settings).to.deep.equal({ 'index.number_of_shards': '1', 'index.number_of_replicas': '0' });
    const nested = await es.call('GET', '/_template/t');
    expect(nested.json.t.settings).to.deep.equal({ index: { number_of_shards: '1', number_of_replicas: '0' } });
    expect(nested.json.t.aliases).to.deep.equal({
      plain: {}, routed: { index_routing: 'b', search_routing: 'b' }, filtered: { filter: { term: { user: 'kimchy' } } },
    });
    // the template still gives a new index its routed alias
    await es.call('PUT', '/t-1');
    expect((await es.call('GET', '/t-1/_alias/routed')).json['t-1'].aliases.routed).to.deep.equal({ index_routing: 'b', search_routing: 'b' });
  });

  it('counts each flush in the index stats, and refuses force without wait_if_ongoing', async () => {
    await es.call('PUT', '/f', { settings: { number_of_shards: 1 } });
    const refused = await es.call('POST', '/f/_flush?force=true&wait_if_ongoing=false');
    expect(refused.status).to.equal(400);
    expect(refused.json.error.type).to.equal('action_request_validation_exception');
    expect(refused.json.error.reason).to.equal('Validation Failed: 1: wait_if_ongoing must be true for a force flush;');
    expect((await es.call('GET', '/f/_stats/flush')).json.indices.f.primaries.flush).to.include({ total: 0, periodic: 0 });
    expect((await es.call('POST', '/f/_flush?force=true')).status).to.equal(200);
    await es.call('POST', '/_flush');
    expect((await es.call('GET', '/f/_stats/flush')).json.indices.f.primaries.flush.total).to.equal(2);
    const cat = await es.call('GET', '/_cat/shards/f?h=flush.total');
    expect(cat.text.trim()).to.equal('2');
  });

  it('answers an unknown stats metric with the close ones, as Elasticsearch suggests them', async () => {
    const one = await es.call('GET', '/_stats/fieldata');
    expect(one.status).to.equal(400);
    expect(one.json.error.reason).to.equal('request [/_stats/fieldata] contains unrecognized metric: [fieldata] -> did you mean [fielddata]?');
    const two = await es.call('GET', '/_stats/fieldata,zzz');
    expect(two.json.error.reason).to.equal('request [/_stats/fieldata,zzz] contains unrecognized metrics: [fieldata] -> did you mean [fielddata]?, [zzz]');
    const nodes = await es.call('GET', '/_nodes/stats/indeces');
    expect(nodes.json.error.reason).to.equal('request [/_nodes/stats/indeces] contains unrecognized metric: [indeces] -> did you mean [indices]?');
  });

  it('_stats gives the segments, translog, recovery, bulk and shard_stats sections, each by its metric too', async () => {
    await es.call('PUT', '/s1/_doc/1', { foo: 'bar' });
    await es.call('PUT', '/s2/_doc/1', { foo: 'baz' });
    const all = (await es.call('GET', '/_stats')).json._all.total;
    expect(all).to.include.keys('segments', 'translog', 'recovery', 'bulk', 'shard_stats');
    expect(all.segments).to.include({ count: 2 });
    expect(all.segments.file_sizes).to.deep.equal({});
    expect(all.shard_stats).to.deep.equal({ total_count: 2 });
    const one = (await es.call('GET', '/_stats/recovery')).json._all.total;
    expect(Object.keys(one)).to.deep.equal(['recovery']);
    const segments = (await es.call('GET', '/s1/_stats/segments?include_segment_file_sizes=true')).json.indices.s1.primaries;
    expect(Object.keys(segments)).to.deep.equal(['segments']);
  });

  it('a resize checks the target shard count before the source\'s write block, as Elasticsearch does', async () => {
    await es.call('PUT', '/src', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    const clone = await es.call('PUT', '/src/_clone/dst', { settings: { 'index.number_of_shards': 6 } });
    expect(clone.status).to.equal(400);
    expect(clone.json.error.type).to.equal('illegal_argument_exception');
    const unblocked = await es.call('PUT', '/src/_clone/dst', { settings: { 'index.number_of_shards': 2 } });
    expect(unblocked.json.error.type).to.equal('illegal_state_exception');
  });

  it('cluster health level=shards gives each shard of an index, level=indices none', async () => {
    await es.call('PUT', '/h', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    const indices = await es.call('GET', '/_cluster/health?level=indices');
    expect(indices.json.indices.h).to.not.have.property('shards');
    const shards = await es.call('GET', '/_cluster/health?level=shards');
    expect(Object.keys(shards.json.indices.h.shards)).to.deep.equal(['0', '1']);
    expect(shards.json.indices.h.shards['0']).to.deep.equal({
      status: 'yellow', primary_active: true, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 1, unassigned_primary_shards: 0,
    });
  });
});
