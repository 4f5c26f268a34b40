import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** OpenSearch 2.18's `_list` APIs (`_cat/indices` and `_cat/shards` in pages), its nodes usage and the allocation explanation. */
describe("embedded engine: OpenSearch's _list APIs, nodes usage and hot threads, allocation explain", () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    // created in this order: the pages follow creation time, then name
    for (const index of ['c', 'a', 'b']) {
      expect((await es.call('PUT', `/${index}`, { settings: { number_of_shards: 3, number_of_replicas: 1 } })).status).to.equal(200);
    }
  });
  after(() => es.close());

  it('GET /_list lists the list APIs', async () => {
    const r = await es.call('GET', '/_list');
    expect(r.status).to.equal(200);
    expect(r.text).to.equal('=^.^=\n/_list/indices\n/_list/indices/{index}\n/_list/shards\n/_list/shards/{index}\n');
  });

  it('_list/indices pages the indices by creation, next_token naming where the next page starts', async () => {
    const names = (j: { indices: Array<{ index: string }> }) => j.indices.map((i) => i.index);
    const first = await es.call('GET', '/_list/indices?format=json&size=2&h=index');
    expect(first.status, first.text).to.equal(200);
    const byCreation = names(first.json);
    expect(byCreation.length).to.equal(2);
    expect(first.json.next_token).to.be.a('string');
    const second = await es.call('GET', `/_list/indices?format=json&size=2&h=index&next_token=${encodeURIComponent(first.json.next_token)}`);
    expect(second.json.next_token).to.equal(null);
    expect([...byCreation, ...names(second.json)]).to.have.members(['a', 'b', 'c']);
    const desc = await es.call('GET', '/_list/indices?format=json&size=5&sort=desc&h=index');
    expect(names(desc.json)).to.deep.equal([...byCreation, ...names(second.json)].reverse());
    const text = await es.call('GET', '/_list/indices/a?h=index');
    expect(text.text).to.equal('a\nnext_token null\n');
  });

  it('_list/indices refuses a size, sort or token it does not take, as OpenSearch does', async () => {
    const reason = async (qs: string) => (await es.call('GET', `/_list/indices?${qs}`)).json.error;
    expect(await reason('size=0')).to.include({ type: 'illegal_argument_exception', reason: 'size must be greater than zero' });
    expect(await reason('size=5001')).to.include({ reason: 'size should be less than [5000]' });
    expect(await reason('sort=up')).to.include({ reason: 'value of sort can either be asc or desc' });
    const tainted = 'Parameter [next_token] has been tainted and is incorrect. Please provide a valid [next_token].';
    expect(await reason('next_token=garbage!')).to.include({ type: 'parse_exception', reason: tainted });
    expect(await reason(`next_token=${Buffer.from('x|a').toString('base64')}`)).to.include({ reason: tainted });
    expect((await es.call('GET', '/_list/indices?size=5000&format=json')).status).to.equal(200);
  });

  it('_list/shards: every copy, in pages of at least 2000', async () => {
    const r = await es.call('GET', '/_list/shards/a,b?format=json&h=index,shard,prirep');
    expect(r.status, r.text).to.equal(200);
    expect(r.json.next_token).to.equal(null);
    expect(r.json.shards.length).to.equal(12);
    expect(r.json.shards.filter((s: { prirep: string }) => s.prirep === 'p').length).to.equal(6);
    expect((await es.call('GET', '/_list/shards?size=10')).json.error.reason).to.equal('size should at least be [2000]');
  });

  it('_nodes/usage by metric; a metric it does not know is refused', async () => {
    const all = await es.call('GET', '/_nodes/_all/usage/_all');
    expect(all.status).to.equal(200);
    const [node] = Object.values(all.json.nodes) as Array<Record<string, unknown>>;
    expect(node).to.have.keys(['timestamp', 'since', 'rest_actions', 'aggregations']);
    const one = await es.call('GET', '/_nodes/usage/rest_actions');
    expect(Object.values(one.json.nodes as Record<string, object>)[0]).to.have.keys(['timestamp', 'since', 'rest_actions']);
    const bad = await es.call('GET', '/_nodes/usage/rest_action');
    expect(bad.status).to.equal(400);
    expect(bad.json.error.reason).to.equal('request [/_nodes/usage/rest_action] contains unrecognized metric: [rest_action] -> did you mean [rest_actions]?');
    expect((await es.call('GET', '/_nodes/usage/_all,aggregations')).json.error.reason).to.equal('request [/_nodes/usage/_all,aggregations] contains _all and individual metrics [_all,aggregations]');
  });

  it('_nodes/hot_threads: a text report naming the node, no busy thread; its parameters checked', async () => {
    const r = await es.call('GET', '/_nodes/_all/hot_threads?threads=2&ignore_idle_threads=false');
    expect(r.status).to.equal(200);
    const [node, sampling] = r.text.split('\n');
    expect(node).to.match(/^::: \{[^}]+\}\{[^}]+\}/);
    expect(sampling).to.match(/^ {3}Hot threads at \S+, interval=500ms, busiestThreads=2, ignoreIdleThreads=false:$/);
    expect((await es.call('GET', '/_nodes/hot_threads?type=heap')).json.error.reason).to.equal('type not supported [heap]');
    expect((await es.call('GET', '/_nodes/hot_threads?sort=name')).json.error.reason).to.equal('sort order not supported [name]');
    expect((await es.call('GET', '/_nodes/nobody/hot_threads')).text).to.equal('');
  });

  it('dangling indices: none on the one node; an import or delete names none', async () => {
    const list = await es.call('GET', '/_dangling');
    expect(list.status).to.equal(200);
    expect(list.json).to.include({ cluster_name: list.json.cluster_name });
    expect(list.json.dangling_indices).to.deep.equal([]);
    for (const method of ['POST', 'DELETE']) {
      const r = await es.call(method, '/_dangling/zmM4e0JtBkeUjiHD-MihPQ?accept_data_loss=true');
      expect(r.status).to.equal(400);
      expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: 'No dangling index found for UUID [zmM4e0JtBkeUjiHD-MihPQ]' });
    }
  });

  it('allocation explain: an unassigned replica without a body, a started primary when named', async () => {
    const any = await es.call('GET', '/_cluster/allocation/explain');
    expect(any.status, any.text).to.equal(200);
    expect(any.json).to.include({ shard: 0, primary: false, current_state: 'unassigned', can_allocate: 'no' });
    expect(any.json.node_allocation_decisions[0].deciders[0].decider).to.equal('same_shard');
    const primary = await es.call('POST', '/_cluster/allocation/explain', { index: 'b', shard: 2, primary: true });
    expect(primary.json).to.include({ index: 'b', shard: 2, primary: true, current_state: 'started', can_remain_on_current_node: 'yes' });
    const incomplete = await es.call('POST', '/_cluster/allocation/explain', { index: 'b' });
    expect(incomplete.json.error.reason).to.equal('Validation Failed: 1: shard must be specified;2: primary must be specified;');
    expect((await es.call('POST', '/_cluster/allocation/explain', { index: 'nope', shard: 0, primary: true })).status).to.equal(404);
    expect((await es.call('POST', '/_cluster/allocation/explain', { index: 'b', shard: 3, primary: true })).status).to.equal(400);
  });
});
