import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

const refusal = (current: number, limit: number) =>
  `Validation Failed: 1: this action would add [1] shards, but this cluster currently has [${current}]/[${limit}] maximum normal shards open;`;

describe('embedded engine: the index limit (cluster.max_shards_per_node, one shard per index)', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());
  afterEach(async () => {
    await es.call('PUT', '/_cluster/settings', { transient: { 'cluster.max_shards_per_node': null } });
    await es.call('DELETE', '/lim-*?expand_wildcards=all');
  });

  it('the default is 1000, as in Elasticsearch', async () => {
    const r = await es.call('GET', '/_cluster/settings?include_defaults&flat_settings');
    expect(r.json.defaults['cluster.max_shards_per_node']).to.equal('1000');
  });

  it('past the limit, index creation, auto-creation and closed indices are answered as Elasticsearch answers: 400 validation_exception', async () => {
    const existing = Object.keys((await es.call('GET', '/_all/_settings?expand_wildcards=all')).json).length;
    expect((await es.call('PUT', '/_cluster/settings', { transient: { 'cluster.max_shards_per_node': existing + 2 } })).status).to.equal(200);
    expect((await es.call('PUT', '/lim-1')).status).to.equal(200);
    expect((await es.call('PUT', '/lim-2/_doc/1', { a: 1 })).status).to.equal(201);

    const refused = await es.call('PUT', '/lim-3');
    expect(refused.status).to.equal(400);
    expect(refused.json.error.type).to.equal('validation_exception');
    expect(refused.json.error.reason).to.equal(refusal(existing + 2, existing + 2));
    const auto = await es.call('PUT', '/lim-3/_doc/1', { a: 1 });
    expect(auto.status).to.equal(400);
    expect(auto.json.error.reason).to.equal(refusal(existing + 2, existing + 2));
    const bulk = await es.call('POST', '/_bulk', '{"index":{"_index":"lim-4","_id":"1"}}\n{"a":1}\n', { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.items[0].index.status).to.equal(400);
    expect(bulk.json.items[0].index.error.type).to.equal('validation_exception');

    // a closed index still holds its data, so it still counts
    expect((await es.call('POST', '/lim-1/_close')).status).to.equal(200);
    expect((await es.call('PUT', '/lim-3')).status).to.equal(400);
    // deleting one makes room for one
    expect((await es.call('DELETE', '/lim-1')).status).to.equal(200);
    expect((await es.call('PUT', '/lim-3')).status).to.equal(200);
    expect((await es.call('GET', '/lim-3')).status).to.equal(200);
  });

  it('the setting is validated as Elasticsearch validates it (an integer >= 1)', async () => {
    const zero = await es.call('PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 0 } });
    expect(zero.status).to.equal(400);
    expect(zero.json.error.reason).to.equal('Failed to parse value [0] for setting [cluster.max_shards_per_node] must be >= 1');
    const word = await es.call('PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 'many' } });
    expect(word.status).to.equal(400);
  });
});
