import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: clone, split and shrink', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/src', {
      settings: { number_of_shards: 2, analysis: { analyzer: { folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } } },
      mappings: { properties: { t: { type: 'text', analyzer: 'folded' } } },
    });
    expect(created.status).to.equal(200);
    const lines = Array.from({ length: 1_100 }, (_, i) => [{ index: { _index: 'src', _id: String(i), ...(i % 9 === 0 ? { routing: `r${i}` } : {}) } }, { t: `Café number ${i}` }]).flat();
    expect((await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
    expect((await es.call('PUT', '/src/_doc/5', { t: 'Café five, again' })).json._version).to.equal(2);
  });
  after(() => es.close());

  it('refuses a source that can still be written, mappings in the request, and a target that exists', async () => {
    const writable = await es.call('POST', '/src/_clone/c0');
    expect(writable.status).to.equal(500);
    expect(writable.json.error).to.deep.include({ type: 'illegal_state_exception', reason: 'index src must be read-only to resize index. use "index.blocks.write=true"' });
    expect((await es.call('HEAD', '/c0')).status).to.equal(404);
    await es.call('PUT', '/src/_block/write');
    expect((await es.call('POST', '/src/_clone/c0', { mappings: {} })).json.error.reason).to.equal('mappings are not allowed when resizing indices, all mappings are copied from the source index');
    expect((await es.call('POST', '/src/_clone/src')).json.error.type).to.equal('resource_already_exists_exception');
  });

  it('clones: every document with its version and routing, the mappings and analysis, the block unless cleared, new aliases', async () => {
    const r = await es.call('POST', '/src/_clone/c1', { settings: { 'index.blocks.write': null }, aliases: { c1_alias: {} } });
    expect(r.json).to.deep.equal({ acknowledged: true, shards_acknowledged: true, index: 'c1' });
    expect((await es.call('GET', '/c1/_count')).json.count).to.equal(1_100);
    expect((await es.call('GET', '/c1/_doc/5')).json).to.deep.include({ _version: 2, _source: { t: 'Café five, again' } });
    expect((await es.call('GET', '/c1/_doc/9?routing=r9')).json).to.deep.include({ found: true, _routing: 'r9' });
    // the analysis came along: a folded search finds the accented text
    expect((await es.call('POST', '/c1_alias/_search', { query: { match: { t: 'cafe' } }, size: 0 })).json.hits.total.value).to.equal(1_100);
    const settings = (await es.call('GET', '/c1/_settings')).json.c1.settings.index;
    expect(settings).to.deep.include({ number_of_shards: '2', resize: { source: { name: 'src', uuid: (await es.call('GET', '/src/_settings')).json.src.settings.index.uuid } } });
    expect(settings.blocks?.write).to.equal(undefined);
    expect((await es.call('PUT', '/c1/_doc/new', { t: 'x' })).status).to.equal(201);
  });

  it('split multiplies the shards, shrink divides them, each by the rules of Elasticsearch', async () => {
    expect((await es.call('POST', '/src/_split/s0')).json.error.reason).to.equal('index.number_of_shards is required for split operations');
    expect((await es.call('POST', '/src/_split/s0', { settings: { 'index.number_of_shards': 3 } })).json.error.reason).to.equal('the number of source shards [2] must be a factor of [3]');
    expect((await es.call('POST', '/src/_split/s1', { settings: { 'index.number_of_shards': 4 } })).status).to.equal(200);
    expect((await es.call('GET', '/s1/_settings')).json.s1.settings.index).to.deep.include({ number_of_shards: '4', blocks: { write: 'true' } });
    expect((await es.call('GET', '/s1/_count')).json.count).to.equal(1_100);
    expect((await es.call('POST', '/src/_shrink/k0', { settings: { 'index.number_of_shards': 4 } })).json.error.reason).to.equal('the number of target shards [4] must be less that the number of source shards [2]');
    expect((await es.call('POST', '/src/_shrink/k1')).status).to.equal(200);
    expect((await es.call('GET', '/k1/_settings')).json.k1.settings.index.number_of_shards).to.equal('1');
    expect((await es.call('GET', '/k1/_search', { query: { ids: { values: ['5'] } } })).json.hits.hits[0]._source).to.deep.equal({ t: 'Café five, again' });
  });

  it("with OpenSearch's wait_for_completion=false, answers a task whose stored outcome is the resize's answer", async () => {
    const r = await es.call('POST', '/src/_clone/bg1?wait_for_completion=false&task_execution_timeout=1h', { settings: { 'index.blocks.write': null } });
    expect(r.status).to.equal(200);
    expect(Object.keys(r.json)).to.deep.equal(['task']);
    expect(r.json.task).to.match(/^[^:]+:\d+$/);
    const done = await es.call('GET', `/_tasks/${r.json.task}?wait_for_completion=true`);
    expect(done.json).to.deep.include({ completed: true, response: { acknowledged: true, shards_acknowledged: true, index: 'bg1' } });
    expect(done.json.task).to.deep.include({ action: 'indices:admin/resize' });
    expect((await es.call('GET', '/bg1/_count')).json.count).to.equal(1_100);
    // checked before it answers: a refused resize is an error, not a task
    expect((await es.call('POST', '/src/_split/bg2?wait_for_completion=false')).json.error.reason).to.equal('index.number_of_shards is required for split operations');
    expect((await es.call('POST', '/src/_clone/bg3?task_execution_timeout=soon')).status).to.equal(400);
  });
});
