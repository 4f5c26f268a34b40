import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: index blocks and the cluster state', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/blk', { settings: { number_of_shards: 2 }, mappings: { properties: { a: { type: 'keyword' } } }, aliases: { blk_alias: {} } })).status).to.equal(200);
    expect((await es.call('PUT', '/blk/_doc/1?refresh=true', { a: 'x' })).status).to.equal(201);
  });
  after(() => es.close());

  const blocked = (id: number, what: string) => `index [blk] blocked by: [FORBIDDEN/${id}/${what}];`;

  it('a write block refuses document writes (each _bulk item too) and leaves reads; lifting it by settings works', async () => {
    const added = await es.call('PUT', '/blk/_block/write');
    expect(added.json).to.deep.equal({ acknowledged: true, shards_acknowledged: true, indices: [{ name: 'blk', blocked: true }] });
    for (const [method, path, body] of [['PUT', '/blk/_doc/2', { a: 'y' }], ['DELETE', '/blk/_doc/1', undefined], ['POST', '/blk/_update/1', { doc: { a: 'z' } }]] as const) {
      const r = await es.call(method, path, body);
      expect(r.status, `${method} ${path}`).to.equal(403);
      expect(r.json.error).to.deep.include({ type: 'cluster_block_exception', reason: blocked(8, 'index write (api)') });
    }
    const bulk = await es.call('POST', '/_bulk', ndjson([{ index: { _index: 'blk', _id: '3' } }, { a: 'w' }]), { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.items[0].index.status).to.equal(403);
    expect((await es.call('GET', '/blk/_doc/1')).status).to.equal(200);
    expect((await es.call('GET', '/blk/_search')).json.hits.total.value).to.equal(1);
    expect((await es.call('PUT', '/blk/_settings', { 'index.blocks.write': false })).status).to.equal(200);
    expect((await es.call('PUT', '/blk/_doc/2', { a: 'y' })).status).to.equal(201);
  });

  it('a read block refuses searches and gets; read_only refuses writes and metadata changes but not its own lifting', async () => {
    await es.call('PUT', '/blk/_block/read');
    for (const path of ['/blk/_search', '/blk/_doc/1', '/blk/_count']) {
      const r = await es.call('GET', path);
      expect(r.status, path).to.equal(403);
      expect(r.json.error.reason).to.equal(blocked(7, 'index read (api)'));
    }
    await es.call('PUT', '/blk/_settings', { index: { blocks: { read: false, read_only: true } } });
    expect((await es.call('PUT', '/blk/_mapping', { properties: { b: { type: 'keyword' } } })).json.error.reason).to.equal(blocked(5, 'index read-only (api)'));
    expect((await es.call('PUT', '/blk/_settings', { 'index.number_of_replicas': 0 })).status).to.equal(403);
    expect((await es.call('PUT', '/blk/_doc/4', { a: 'v' })).status).to.equal(403);
    expect((await es.call('PUT', '/blk/_settings', { 'index.blocks.read_only': false })).status).to.equal(200);
    expect((await es.call('PUT', '/blk/_mapping', { properties: { b: { type: 'keyword' } } })).status).to.equal(200);
    expect((await es.call('PUT', '/blk/_block/everything')).json.error.reason).to.equal('No block found with name [everything]');
  });

  it('GET _cluster/state: metadata, blocks, routing table and nodes, by metric and index', async () => {
    await es.call('PUT', '/blk/_block/write');
    const state = await es.call('GET', '/_cluster/state/metadata,blocks,routing_table/blk');
    expect(state.status, state.text).to.equal(200);
    const meta = state.json.metadata.indices.blk;
    expect(meta).to.deep.include({ state: 'open', aliases: ['blk_alias'] });
    expect(meta.settings.index).to.deep.include({ number_of_shards: '2' });
    expect(meta.settings.index.blocks.write).to.equal('true');
    expect(meta.mappings._doc.properties).to.have.keys('a', 'b');
    expect(state.json.blocks.indices.blk).to.deep.equal({ 8: { description: 'index write (api)', retryable: false, levels: ['write'] } });
    expect(Object.keys(state.json.routing_table.indices.blk.shards)).to.deep.equal(['0', '1']);
    expect(state.json).not.to.have.property('nodes');
    const all = await es.call('GET', '/_cluster/state');
    expect(all.json).to.include.keys('cluster_name', 'cluster_uuid', 'version', 'state_uuid', 'master_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes');
    expect(all.json.nodes).to.have.key(all.json.master_node);
    expect((await es.call('GET', '/_cluster/state/everything')).status).to.equal(400);
    await es.call('POST', '/blk/_close');
    const closed = await es.call('GET', '/_cluster/state/blocks,metadata/blk');
    expect(closed.json.metadata.indices.blk.state).to.equal('close');
    expect(closed.json.blocks.indices.blk['4']).to.deep.equal({ description: 'index closed', retryable: false, levels: ['read', 'write'] });
    expect((await es.call('GET', '/_cluster/pending_tasks')).json).to.deep.equal({ tasks: [] });
  });
});
