import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('painless: scripted _update', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  const source = async (id: string, index = 'test') => (await es.call('GET', `/${index}/_doc/${id}`)).json._source;

  // The examples of the Update API reference page, in order (on an index of their own).
  describe("the reference page's examples", () => {
    const source = async (id: string, index = 'ex') => (await es.call('GET', `/${index}/_doc/${id}`)).json._source;
    before(async () => {
      await es.call('PUT', '/ex/_doc/1?refresh=true', { counter: 1, tags: ['red'] });
    });

    it('increments a counter by a param', async () => {
      const r = await es.call('POST', '/ex/_update/1', { script: { source: 'ctx._source.counter += params.count', lang: 'painless', params: { count: 4 } } });
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.include({ _index: 'ex', _id: '1', _version: 2, result: 'updated', _seq_no: 1, _primary_term: 1 });
      expect(await source('1')).to.deep.equal({ counter: 5, tags: ['red'] });
    });

    it('adds a tag to a list, then removes it', async () => {
      await es.call('POST', '/ex/_update/1', { script: { source: 'ctx._source.tags.add(params.tag)', lang: 'painless', params: { tag: 'blue' } } });
      expect((await source('1')).tags).to.deep.equal(['red', 'blue']);
      await es.call('POST', '/ex/_update/1', {
        script: { source: 'if (ctx._source.tags.contains(params.tag)) { ctx._source.tags.remove(ctx._source.tags.indexOf(params.tag)) }', lang: 'painless', params: { tag: 'blue' } },
      });
      expect((await source('1')).tags).to.deep.equal(['red']);
    });

    it('adds and removes a field (the short script form)', async () => {
      await es.call('POST', '/ex/_update/1', { script: "ctx._source.new_field = 'value_of_new_field'" });
      expect(await source('1')).to.deep.include({ new_field: 'value_of_new_field' });
      await es.call('POST', '/ex/_update/1', { script: "ctx._source.remove('new_field')" });
      expect(await source('1')).to.not.have.property('new_field');
      await es.call('POST', '/ex/_update/1', { script: "ctx._source['my-object'] = ['my-subfield': 1, 'other': 2]" });
      await es.call('POST', '/ex/_update/1', { script: "ctx._source['my-object'].remove('my-subfield')" });
      expect((await source('1'))['my-object']).to.deep.equal({ other: 2 });
    });

    it("ctx.op = 'noop' (or 'none') leaves the document: result noop, no new version", async () => {
      const script = { source: "if (ctx._source.tags.contains(params.tag)) { ctx.op = 'delete' } else { ctx.op = 'noop' }", lang: 'painless', params: { tag: 'green' } };
      let r = await es.call('POST', '/ex/_update/1', { script });
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.equal({
        _index: 'ex', _type: '_doc', _id: '1', _version: 8, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 }, _seq_no: 7, _primary_term: 1,
      });
      r = await es.call('POST', '/ex/_update/1', { script: "ctx.op = 'none'" });
      expect(r.json.result).to.equal('noop');
    });

    it("ctx.op = 'delete' deletes the document: result deleted", async () => {
      const r = await es.call('POST', '/ex/_update/1', {
        script: { source: "if (ctx._source.tags.contains(params.tag)) { ctx.op = 'delete' } else { ctx.op = 'noop' }", lang: 'painless', params: { tag: 'red' } },
      });
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.include({ result: 'deleted', _version: 9 });
      expect((await es.call('GET', '/ex/_doc/1')).status).to.equal(404);
    });

    it('a missing document gets the upsert document; the script runs once it exists', async () => {
      const body = { script: { source: 'ctx._source.counter += params.count', lang: 'painless', params: { count: 4 } }, upsert: { counter: 1 } };
      let r = await es.call('POST', '/ex/_update/up', body);
      expect(r.status).to.equal(201);
      expect(r.json.result).to.equal('created');
      expect(await source('up')).to.deep.equal({ counter: 1 });
      r = await es.call('POST', '/ex/_update/up', body);
      expect(r.json.result).to.equal('updated');
      expect(await source('up')).to.deep.equal({ counter: 5 });
    });

    it("scripted_upsert runs the script on the upsert document with ctx.op 'create'", async () => {
      const body = {
        scripted_upsert: true,
        script: { source: "if (ctx.op == 'create') { ctx._source.counter = params.count } else { ctx._source.counter += params.count }", params: { count: 4 } },
        upsert: {},
      };
      let r = await es.call('POST', '/sessions/_update/s1', body);
      expect(r.status).to.equal(201);
      expect(await source('s1', 'sessions')).to.deep.equal({ counter: 4 });
      r = await es.call('POST', '/sessions/_update/s1', body);
      expect(await source('s1', 'sessions')).to.deep.equal({ counter: 8 });
      // A scripted upsert that decides against creating: noop, version -1, nothing written.
      r = await es.call('POST', '/sessions/_update/s2', { scripted_upsert: true, script: "ctx.op = 'noop'", upsert: { a: 1 } });
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.equal({ _index: 'sessions', _type: '_doc', _id: 's2', _version: -1, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } });
      expect((await es.call('GET', '/sessions/_doc/s2')).status).to.equal(404);
    });
  });

  it('ctx gives the metadata: _index, _id, _version, _routing, _now; they are read-only', async () => {
    await es.call('PUT', '/meta/_doc/m1?routing=r&refresh=true', { n: 1 });
    const r = await es.call('POST', '/meta/_update/m1?routing=r', {
      script: "ctx._source.seen = [ctx._index, ctx._id, ctx._version, ctx._routing, ctx._type, ctx._now > 1600000000000L, ctx.op]",
    });
    expect(r.status, r.text).to.equal(200);
    expect((await es.call('GET', '/meta/_doc/m1?routing=r')).json._source.seen).to.deep.equal(['meta', 'm1', 1, 'r', '_doc', true, 'index']);
    const bad = await es.call('POST', '/meta/_update/m1?routing=r', { script: "ctx._id = 'other'" });
    expect(bad.status).to.equal(400);
    expect(bad.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: '_id cannot be updated' });
    const junk = await es.call('POST', '/meta/_update/m1?routing=r', { script: "ctx.junk = 'stuff'" });
    expect(junk.json.error.caused_by.reason).to.equal('Cannot put key [junk] with value [stuff] into ctx');
  });

  it('ctx._source can be replaced by another map', async () => {
    await es.call('PUT', '/test/_doc/r1', { a: 1 });
    await es.call('POST', '/test/_update/r1', { script: "ctx._source = ['b': ctx._source.a + 1]" });
    expect(await source('r1')).to.deep.equal({ b: 2 });
  });

  it('numbers keep their Java types: a source written 10.0 divides as a double', async () => {
    await es.call('PUT', '/test/_doc/d1', '{"total": 10.0, "count": 4, "whole": 10}');
    await es.call('POST', '/test/_update/d1', '{"script": {"source": "ctx._source.avg = ctx._source.total / ctx._source.count; ctx._source.intAvg = ctx._source.whole / ctx._source.count; ctx._source.p = ctx._source.whole / params.d", "params": {"d": 4.0}}}');
    expect(await source('d1')).to.deep.include({ avg: 2.5, intAvg: 2, p: 2.5 });
  });

  it('a script with a compile error answers 400 script_exception "compile error"; nothing is written', async () => {
    await es.call('PUT', '/test/_doc/e1', { n: 1 });
    const r = await es.call('POST', '/test/_update/e1', { script: { source: 'ctx._source.n += ', lang: 'painless' } });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.deep.include({ type: 'script_exception', reason: 'compile error', script: 'ctx._source.n += ', lang: 'painless' });
    expect(r.json.error.root_cause[0]).to.deep.include({ type: 'script_exception', reason: 'compile error' });
    expect(r.json.error.caused_by.type).to.equal('illegal_argument_exception');
    expect((await es.call('GET', '/test/_doc/e1')).json._version).to.equal(1);
  });

  it('a runtime failure answers 400 script_exception "runtime error" with its Java cause', async () => {
    const r = await es.call('POST', '/test/_update/e1', { script: 'ctx._source.missing.length()' });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.deep.include({
      type: 'script_exception', reason: 'runtime error', script_stack: ['ctx._source.missing.length()', '                    ^---- HERE'],
      position: { offset: 20, start: 0, end: 28 },
    });
    expect(r.json.error.caused_by.type).to.equal('null_pointer_exception');
    const loop = await es.call('POST', '/test/_update/e1', { script: 'while (true) { ctx._source.n++ }' });
    expect(loop.json.error.caused_by).to.deep.equal({ type: 'painless_error', reason: 'The maximum number of statements that can be executed in a loop has been reached.' });
    expect((await es.call('GET', '/test/_doc/e1')).json._source).to.deep.equal({ n: 1 });
  });

  it('refuses other languages, unknown stored scripts, and a script with a doc', async () => {
    let r = await es.call('POST', '/test/_update/e1', { script: { source: 'doc.x', lang: 'expression' } });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.deep.include({ type: 'illegal_argument_exception', reason: 'expression engine does not know how to handle script context [update]' });
    r = await es.call('POST', '/test/_update/e1', { script: { source: 'x', lang: 'python' } });
    expect(r.json.error).to.deep.include({ type: 'illegal_argument_exception', reason: 'script_lang not supported [python]' });
    r = await es.call('POST', '/test/_update/e1', { script: { id: 'no-such-script' } });
    expect(r.status).to.equal(404);
    expect(r.json.error).to.deep.include({ type: 'resource_not_found_exception', reason: 'unable to find script [no-such-script] in cluster state' });
    r = await es.call('POST', '/test/_update/e1', { script: 'ctx._source.n = 2', doc: { n: 3 } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal("Validation Failed: 1: can't provide both script and doc;");
    r = await es.call('POST', '/test/_update/e1', { script: { source: 'x', foo: 1 } });
    expect(r.status).to.equal(400);
    r = await es.call('POST', '/test/_update/nope', { script: 'ctx._source.n = 2' });
    expect(r.status).to.equal(404);
    expect(r.json.error.type).to.equal('document_missing_exception');
  });

  it('retry_on_conflict is accepted; _source asks for the updated document', async () => {
    const r = await es.call('POST', '/test/_update/e1?retry_on_conflict=3&_source=true', { script: 'ctx._source.n += 10' });
    expect(r.status).to.equal(200);
    expect(r.json.get._source).to.deep.equal({ n: 11 });
  });

  it('_bulk update actions run scripts too', async () => {
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson([
      { index: { _index: 'bulk', _id: '1' } }, { n: 1 },
      { update: { _index: 'bulk', _id: '1' } }, { script: { source: 'ctx._source.n += params.by', params: { by: 2 } } },
      { update: { _index: 'bulk', _id: '2' } }, { script: 'ctx._source.n = 1', upsert: { n: 0 } },
      { update: { _index: 'bulk', _id: '1' } }, { script: "ctx.op = 'delete'" },
      { update: { _index: 'bulk', _id: '2' } }, { script: 'syntax error here' },
    ]));
    expect(r.status).to.equal(200);
    const items = r.json.items.map((i: { update?: Record<string, unknown>; index?: Record<string, unknown> }) => i.update ?? i.index);
    expect(items.map((i: Record<string, unknown>) => i.result ?? (i.error as { type: string }).type)).to.deep.equal(['created', 'updated', 'created', 'deleted', 'script_exception']);
    expect(await source('2', 'bulk')).to.deep.equal({ n: 0 });
  });
});
