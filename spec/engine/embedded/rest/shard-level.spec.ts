import { expect } from 'chai';
import { call as gatewayCall } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

const bulk = ndjson([
  { index: { _index: 'one', _id: '1' } }, { n: 1 },
  { index: { _index: 'one', _id: '2' } }, { n: 2 },
  { index: { _index: 'two', _id: '1' } }, { n: 3 },
]);

describe('embedded engine: _segments, _recovery, _shard_stores, _upgrade', () => {
  let es: TestEngine;
  let nodeId: string;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/one', { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).to.equal(200);
    expect((await es.call('PUT', '/two', { settings: { number_of_shards: 2 } })).status).to.equal(200);
    expect((await es.call('PUT', '/empty', { settings: { number_of_replicas: 0 } })).status).to.equal(200);
    expect((await es.call('POST', '/_bulk?refresh=true', bulk, { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
    nodeId = Object.keys((await es.call('GET', '/_nodes')).json.nodes)[0];
  });
  after(() => es.close());

  it('_segments: one segment per started primary holding documents, with the routing and the copies counted in _shards', async () => {
    const r = await es.call('GET', '/one/_segments');
    expect(r.status, r.text).to.equal(200);
    expect(r.json._shards).to.deep.equal({ total: 1, successful: 1, failed: 0 });
    const [copy] = r.json.indices.one.shards['0'];
    expect(copy.routing).to.deep.equal({ state: 'STARTED', primary: true, node: nodeId });
    expect(copy.num_search_segments).to.equal(1);
    expect(copy.segments._0).to.include({ num_docs: 2, deleted_docs: 0, committed: true, search: true, version: '9.11.1', compound: true });
    expect(copy.segments._0.size_in_bytes).to.be.greaterThan(0);
    const two = await es.call('GET', '/two/_segments');
    // two primaries started, their two replicas unassigned on the one node
    expect(two.json._shards).to.deep.equal({ total: 4, successful: 2, failed: 0 });
    expect(Object.keys(two.json.indices.two.shards)).to.deep.equal(['0', '1']);
    const empty = await es.call('GET', '/empty/_segments');
    expect(empty.json.indices.empty.shards['0'][0]).to.include({ num_search_segments: 0 });
    expect(empty.json.indices.empty.shards['0'][0].segments).to.deep.equal({});
  });

  it('_segments: an unknown index is a 404, a closed one a 400 unless ignore_unavailable; no index at all is empty', async () => {
    expect((await es.call('GET', '/nope/_segments')).json.error.type).to.equal('index_not_found_exception');
    expect((await es.call('PUT', '/shut')).status).to.equal(200);
    expect((await es.call('POST', '/shut/_close')).status).to.equal(200);
    const closed = await es.call('GET', '/shut/_segments');
    expect(closed.status).to.equal(400);
    expect(closed.json.error.type).to.equal('index_closed_exception');
    const ignored = await es.call('GET', '/shut/_segments?ignore_unavailable=true');
    expect(ignored.json).to.deep.equal({ _shards: { total: 0, successful: 0, failed: 0 }, indices: {} });
    expect((await es.call('GET', '/none*/_segments')).json).to.deep.equal({ _shards: { total: 0, successful: 0, failed: 0 }, indices: {} });
  });

  it('_recovery: each primary recovered from an empty store, DONE, on this node; active_only lists none', async () => {
    const r = await es.call('GET', '/one,two/_recovery');
    expect(r.status, r.text).to.equal(200);
    expect(Object.keys(r.json)).to.deep.equal(['one', 'two']);
    const [shard] = r.json.one.shards;
    expect(shard).to.include({ id: 0, type: 'EMPTY_STORE', stage: 'DONE', primary: true });
    expect(shard.start_time_in_millis).to.be.a('number');
    expect(shard.target).to.include({ id: nodeId, ip: '127.0.0.1' });
    expect(shard.index.files).to.include({ total: 0, reused: 0, recovered: 0 });
    expect(shard.translog).to.include({ recovered: 0, total_on_start: 0 });
    expect(shard.verify_index).to.deep.equal({ check_index_time_in_millis: 0, total_time_in_millis: 0 });
    expect(r.json.two.shards.map((s: { id: number }) => s.id)).to.deep.equal([0, 1]);
    expect((await es.call('GET', '/one/_recovery?active_only=true')).json).to.deep.equal({});
  });

  it('_recovery?human=true: each time, date and size also in readable form, before its raw value, as XContentBuilder writes it', async () => {
    const [shard] = (await es.call('GET', '/one/_recovery?human=true')).json.one.shards;
    const start = shard.start_time_in_millis as number;
    expect(Object.keys(shard).slice(4, 10)).to.deep.equal(['start_time', 'start_time_in_millis', 'stop_time', 'stop_time_in_millis', 'total_time', 'total_time_in_millis']);
    expect(shard).to.include({ start_time: new Date(start).toISOString(), stop_time: new Date(shard.stop_time_in_millis).toISOString(), total_time: '0s' });
    expect(shard.index.size).to.deep.equal({
      total: '0b', total_in_bytes: 0, reused: '0b', reused_in_bytes: 0, recovered: '0b', recovered_in_bytes: 0,
      recovered_from_snapshot: '0b', recovered_from_snapshot_in_bytes: 0, percent: '100.0%',
    });
    expect(shard.index).to.include({ total_time: '0s', source_throttle_time: '0s', target_throttle_time: '0s' });
    expect(shard.translog).to.include({ total_time: '0s', total_time_in_millis: 0 });
    expect(shard.verify_index).to.deep.equal({ check_index_time: '0s', check_index_time_in_millis: 0, total_time: '0s', total_time_in_millis: 0 });
    expect((await es.call('GET', '/one/_recovery')).json.one.shards[0]).to.not.have.any.keys('start_time', 'total_time');
  });

  it('_recovery of a closed index: its shards recovered from the existing store, DONE; wildcards expand to closed indices', async () => {
    const created = await es.call('PUT', '/sealed', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    expect(created.status, created.text).to.equal(200);
    await es.call('PUT', '/sealed/_doc/1?refresh=true', { a: 1 });
    expect((await es.call('POST', '/sealed/_close')).status).to.equal(200);
    const r = await es.call('GET', '/sealed/_recovery');
    expect(r.status, r.text).to.equal(200);
    expect(r.json.sealed.shards.map((s: { id: number; type: string; stage: string; primary: boolean }) => [s.id, s.type, s.stage, s.primary]), r.text).to.deep.equal([
      [0, 'EXISTING_STORE', 'DONE', true], [1, 'EXISTING_STORE', 'DONE', true],
    ]);
    expect(Object.keys((await es.call('GET', '/sea*/_recovery')).json)).to.deep.equal(['sealed']);
    expect((await es.call('GET', '/sealed/_segments')).status).to.equal(400);
  });

  it('_shard_stores: the primary store on this node for the shards whose health the status names (yellow and red by default)', async () => {
    // `one` has no replicas (green), `two` has an unassigned replica per shard (yellow)
    const byDefault = await es.call('GET', '/one,two/_shard_stores');
    expect(byDefault.status, byDefault.text).to.equal(200);
    expect(Object.keys(byDefault.json.indices)).to.deep.equal(['two']);
    const green = await es.call('GET', '/one/_shard_stores?status=green');
    const [store] = green.json.indices.one.shards['0'].stores;
    expect(store.allocation).to.equal('primary');
    expect(store[nodeId]).to.include({ transport_address: '127.0.0.1:9300' });
    expect(store.allocation_id).to.be.a('string');
    const all = await es.call('GET', '/one,two/_shard_stores?status=all');
    expect(Object.keys(all.json.indices.two.shards)).to.deep.equal(['0', '1']);
    expect((await es.call('GET', '/one/_shard_stores?status=purple')).status).to.equal(400);
  });

  it("OpenSearch's _upgrade: nothing to upgrade (GET), every index already at the running version (POST)", async () => {
    const status = await es.call('GET', '/one/_upgrade');
    expect(status.status, status.text).to.equal(200);
    expect(status.json).to.include({ size_to_upgrade_in_bytes: 0, size_to_upgrade_ancient_in_bytes: 0 });
    expect(status.json.indices.one.size_in_bytes).to.be.greaterThan(0);
    const done = await es.call('POST', '/one,two/_upgrade');
    expect(done.status, done.text).to.equal(200);
    expect(done.json._shards).to.deep.equal({ total: 5, successful: 3, failed: 0 });
    expect(done.json.upgraded_indices.one).to.deep.equal({ upgrade_version: '8.15.0', oldest_lucene_segment_version: '9.11.1' });
  });
});

for (const backend of BACKENDS) {
  describe(`shard-level monitoring APIs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await gatewayCall(url, 'PUT', '/one', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status).to.equal(200);
      const r = await gatewayCall(url, 'POST', '/_bulk?refresh=true', { body: ndjson([{ index: { _index: 'one', _id: '1' } }, { n: 1 }]), headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    it('answers _segments, _recovery, _shard_stores and _upgrade', async () => {
      const seg = await gatewayCall(url, 'GET', '/one/_segments');
      expect(seg.status, seg.text).to.equal(200);
      expect(seg.json.indices.one.shards['0'][0].segments._0.num_docs).to.equal(1);
      const rec = await gatewayCall(url, 'GET', '/one/_recovery');
      expect(rec.status, rec.text).to.equal(200);
      expect(rec.json.one.shards[0]).to.include({ stage: 'DONE', primary: true });
      const stores = await gatewayCall(url, 'GET', '/one/_shard_stores?status=green');
      expect(stores.status, stores.text).to.equal(200);
      expect(stores.json.indices.one.shards['0'].stores[0].allocation).to.equal('primary');
      const up = await gatewayCall(url, 'POST', '/one/_upgrade');
      expect(up.status, up.text).to.equal(200);
      expect(up.json.upgraded_indices.one.oldest_lucene_segment_version).to.equal('9.11.1');
      const upStatus = await gatewayCall(url, 'GET', '/one/_upgrade');
      expect(upStatus.status, upStatus.text).to.equal(200);
      expect(upStatus.json.size_to_upgrade_in_bytes).to.equal(0);
    });
  });
}
