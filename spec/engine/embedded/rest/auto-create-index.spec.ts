import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// action.auto_create_index and a composable template's allow_auto_create, as Elasticsearch's
// AutoCreateIndex decides whether a write may create the index it names.
describe('embedded engine: a write creates a missing index only as action.auto_create_index allows', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());
  afterEach(async () => {
    await es.call('PUT', '/_cluster/settings', { persistent: { 'action.auto_create_index': null }, transient: { 'action.auto_create_index': null } });
    await es.call('DELETE', '/_index_template/*');
    await es.call('DELETE', '/*');
  });

  const setting = (value: unknown) => es.call('PUT', '/_cluster/settings', { transient: { 'action.auto_create_index': value } });

  async function refused(p: string, body: unknown, reason: string): Promise<void> {
    const r = await es.call('PUT', p, body);
    expect(r.status, r.text).to.equal(404);
    expect(r.json.error).to.include({ type: 'index_not_found_exception', reason, index: reason.slice('no such index ['.length, reason.indexOf(']')) });
  }

  it('false refuses every missing index (an index, a bulk item, a reindex destination); an existing one is written', async () => {
    await es.call('PUT', '/test/_doc/1', { text: 'test' });
    expect((await setting(false)).status).to.equal(200);
    await refused('/dest/_doc/1', { a: 1 }, 'no such index [dest] and [action.auto_create_index] is [false]');
    const bulk = await es.call('POST', '/_bulk', '{"index":{"_index":"dest","_id":"1"}}\n{"a":1}\n', { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.items[0].index.error).to.include({ type: 'index_not_found_exception', reason: 'no such index [dest] and [action.auto_create_index] is [false]' });
    const reindex = await es.call('POST', '/_reindex', { source: { index: 'test' }, dest: { index: 'dest' } });
    expect(reindex.json.failures?.[0]?.cause ?? reindex.json.error).to.include({ type: 'index_not_found_exception' });
    expect((await es.call('HEAD', '/dest')).status).to.equal(404);
    expect((await es.call('PUT', '/test/_doc/2', { text: 'more' })).status).to.equal(201);
    expect((await es.call('PUT', '/made', {})).status, 'explicit creation is not auto-creation').to.equal(200);
  });

  it('patterns: the first that matches decides, + allows, - forbids, none matching refuses', async () => {
    await setting('test*,-dest*,+logs-*');
    expect((await es.call('PUT', '/test-1/_doc/1', { a: 1 })).status).to.equal(201);
    expect((await es.call('PUT', '/logs-1/_doc/1', { a: 1 })).status).to.equal(201);
    await refused('/dest/_doc/1', { a: 1 }, 'no such index [dest] and [action.auto_create_index] contains [-dest*] which forbids automatic creation of the index');
    await refused('/other/_doc/1', { a: 1 }, 'no such index [other] and [action.auto_create_index] ([test*,-dest*,+logs-*]) doesn\'t match');
  });

  it('a composable template\'s allow_auto_create overrides the setting', async () => {
    await es.call('PUT', '/_index_template/allowed', { index_patterns: ['allowed-*'], allow_auto_create: true });
    await es.call('PUT', '/_index_template/denied', { index_patterns: ['denied-*'], allow_auto_create: false });
    await setting(false);
    expect((await es.call('PUT', '/allowed-1/_doc/1', { a: 1 })).status).to.equal(201);
    await setting(true);
    await refused('/denied-1/_doc/1', { a: 1 }, 'no such index [denied-1] and composable template [denied-*] forbids index auto creation');
  });

  it('a value that is neither a boolean nor patterns is refused when set', async () => {
    for (const value of ['a,,b', '-', 'test,+']) {
      const r = await setting(value);
      expect(r.status, value).to.equal(400);
      expect(r.json.error.reason).to.equal(`Can't parse [${value}] for setting [action.auto_create_index] must be either [true, false, or a comma separated list of index patterns]`);
    }
  });
});
