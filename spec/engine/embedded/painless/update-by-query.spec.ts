import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('painless: scripted _update_by_query', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  async function levels(index: string): Promise<void> {
    await es.call('DELETE', `/${index}`);
    for (const [id, level] of [['1', 9], ['2', 10], ['3', 11], ['4', 12]] as const) {
      await es.call('PUT', `/${index}/_doc/${id}`, { level, last_updated: '2016-01-01T12:10:30Z' });
    }
  }

  const search = async (index: string, query: unknown) => (await es.call('POST', `/${index}/_search?rest_total_hits_as_int=true`, { query })).json.hits.total;

  it('updates every matching document, counting updated / noops / deleted', async () => {
    await levels('lv');
    const r = await es.call('POST', '/lv/_update_by_query?refresh=true', {
      script: {
        lang: 'painless',
        source: `int choice = ctx._source.level % 3;
          if (choice == 0) { ctx._source.last_updated = "2016-01-02T00:00:00Z"; }
          else if (choice == 1) { ctx.op = "noop"; }
          else { ctx.op = "delete"; }`,
      },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.include({ total: 4, updated: 2, deleted: 1, noops: 1, batches: 1, version_conflicts: 0, failures: [] });
    expect(await search('lv', { match: { last_updated: '2016-01-02T00:00:00Z' } })).to.equal(2);
    expect(await search('lv', { match: { last_updated: '2016-01-01T12:10:30Z' } })).to.equal(1);
    expect(await search('lv', { term: { level: 11 } })).to.equal(0);
  });

  it('takes the query, params and the short script form', async () => {
    await es.call('PUT', '/users/_doc/1', { name: 'user', age: 29 });
    await es.call('PUT', '/users/_doc/2', { name: 'other', age: 40 });
    let r = await es.call('POST', '/users/_update_by_query?refresh=true', { query: { term: { name: 'user' } }, script: { source: 'ctx._source.age++', lang: 'painless' } });
    expect(r.json).to.deep.include({ total: 1, updated: 1, noops: 0 });
    r = await es.call('POST', '/users/_update_by_query?refresh=true', { script: { source: 'ctx._source.age += params.years', params: { years: 10 } } });
    expect(r.json.updated).to.equal(2);
    r = await es.call('POST', '/users/_update_by_query?refresh=true', { script: 'ctx._source.name = "not" + ctx._source.name' });
    expect(r.json.updated).to.equal(2);
    expect((await es.call('GET', '/users/_doc/1')).json._source).to.deep.equal({ name: 'notuser', age: 40 });
    expect((await es.call('GET', '/users/_doc/2')).json._source).to.deep.equal({ name: 'notother', age: 50 });
  });

  it('every document a noop: nothing written, versions unchanged', async () => {
    const before = (await es.call('GET', '/users/_doc/1')).json._version;
    const r = await es.call('POST', '/users/_update_by_query?refresh=true', { script: { lang: 'painless', source: 'ctx.op = "noop"' } });
    expect(r.json).to.deep.include({ updated: 0, noops: 2, batches: 1 });
    expect((await es.call('GET', '/users/_doc/1')).json._version).to.equal(before);
  });

  it('ctx._version is the version only when the request asks for versions (version=true), else -1', async () => {
    await es.call('PUT', '/ver/_doc/1?version=500&version_type=external', { user: 'kimchy' });
    await es.call('POST', '/ver/_update_by_query?refresh=true&version=true', { script: 'ctx._source.old_version = ctx._version' });
    expect((await es.call('GET', '/ver/_doc/1')).json._source.old_version).to.equal(500);
    await es.call('POST', '/ver/_update_by_query?refresh=true', { script: 'ctx._source.old_version = ctx._version' });
    expect((await es.call('GET', '/ver/_doc/1')).json._source.old_version).to.equal(-1);
  });

  it("refuses what ES 8 refuses: junk in ctx, changing _id, an unknown op, a broken script", async () => {
    let r = await es.call('POST', '/users/_update_by_query', { script: { lang: 'painless', source: 'ctx.junk = "stuff"' } });
    expect(r.status).to.equal(400);
    expect(r.json.error.caused_by.reason).to.equal('Cannot put key [junk] with value [stuff] into ctx');
    r = await es.call('POST', '/users/_update_by_query', { script: { lang: 'painless', source: 'ctx._id = "stuff"' } });
    expect(r.json.error.caused_by.reason).to.equal('_id cannot be updated');
    r = await es.call('POST', '/users/_update_by_query', { script: { lang: 'painless', source: 'if (ctx._source.age > 45) {ctx.op = "index"} else {ctx.op = "junk"}' } });
    expect(r.status).to.equal(400);
    expect(r.json.error.caused_by.reason).to.equal('[op] must be one of delete, index, noop, not [junk]');
    r = await es.call('POST', '/users/_update_by_query', { script: { lang: 'painless', source: 'syntax errors are fun!' } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('compile error');
    r = await es.call('POST', '/users/_delete_by_query', { query: { match_all: {} }, script: 'ctx.op = "noop"' });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('parsing_exception');
  });
});
