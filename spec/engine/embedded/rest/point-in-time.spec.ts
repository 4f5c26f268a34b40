import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** Point in time API, Paginate search results (search_after with a PIT), Close point in time API (ES 8.15 reference). */
describe('embedded engine: point in time', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    await es.call('PUT', '/test');
    for (const [id, age] of [[1, 18], [42, 18], [172, 24]]) {
      expect((await es.call('PUT', `/test/_doc/${id}?refresh=true`, { id, foo: 'bar', age })).status).to.equal(201);
    }
    await es.call('PUT', '/test2/_doc/45?refresh=true', { id: 45, foo: 'bar', age: 19 });
  });
  afterEach(() => es.close());

  async function open(index: string, keepAlive = '5m'): Promise<string> {
    const r = await es.call('POST', `/${index}/_pit?keep_alive=${keepAlive}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.json.id).to.be.a('string');
    return r.json.id;
  }

  it('leaves out the indices where index_filter rewrites to match_none, and only those (the can-match test, not a search)', async () => {
    const opened = async (filter: unknown) => {
      const r = await es.call('POST', '/test,test2/_pit?keep_alive=1m', { index_filter: filter });
      expect(r.status, r.text).to.equal(200);
      return r.json;
    };
    // test2's largest age is 19: the range is beyond it
    const recent = await opened({ range: { age: { gte: 20 } } });
    expect(recent._shards.total).to.equal(1);
    const hits = await es.call('POST', '/_search', { pit: { id: recent.id }, query: { match_all: {} } });
    expect(hits.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal(['test', 'test', 'test']);
    // both map foo: a term no document holds rewrites to nothing, so both stay
    expect((await opened({ term: { foo: 'nothing' } }))._shards.total).to.equal(2);
    expect((await opened({ match_none: {} }))._shards.total).to.equal(0);
  });

  it('pages with search_after through the documents as they were when it was opened', async () => {
    const id = await open('test');
    const page = (after?: unknown[]) => es.call('POST', '/_search', {
      size: 1, query: { match: { foo: 'bar' } }, sort: [{ age: 'desc' }, { id: 'desc' }], pit: { id, keep_alive: '1m' }, ...(after ? { search_after: after } : {}),
    });
    const first = await page();
    expect(first.status, first.text).to.equal(200);
    expect(first.json.pit_id).to.equal(id);
    expect(first.json.hits.total.value).to.equal(3);
    expect(first.json.hits.hits[0]._id).to.equal('172');
    // the implicit _shard_doc tiebreaker follows the request's own sort values
    expect(first.json.hits.hits[0].sort.slice(0, 2)).to.deep.equal([24, 172]);
    expect(first.json.hits.hits[0].sort).to.have.length(3);

    // later writes, updates and deletes are not seen
    await es.call('PUT', '/test/_doc/100?refresh=true', { id: 100, foo: 'bar', age: 23 });
    await es.call('PUT', '/test/_doc/42?refresh=true', { id: 42, foo: 'baz', age: 50 });
    await es.call('DELETE', '/test/_doc/1?refresh=true');

    const second = await page([24, 172]);
    expect(second.json.hits.total.value).to.equal(3);
    expect(second.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['42']);
    expect(second.json.hits.hits[0]._source.foo).to.equal('bar');
    const third = await page(second.json.hits.hits[0].sort);
    expect(third.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
    const last = await page([18, 1]);
    expect(last.json.hits.hits).to.have.length(0);

    // the live index has moved on
    const live = await es.call('POST', '/test/_search', { query: { match: { foo: 'bar' } } });
    expect(live.json.hits.total.value).to.equal(2);

    const closed = await es.call('DELETE', '/_pit', { id });
    expect(closed.status).to.equal(200);
    expect(closed.json).to.deep.equal({ succeeded: true, num_freed: 1 });
  });

  it('reads every index a pattern names; msearch items may search it', async () => {
    const id = await open('t*');
    const r = await es.call('POST', '/_search', { size: 2, query: { match: { foo: 'bar' } }, sort: [{ age: 'desc' }, { id: 'desc' }], pit: { id, keep_alive: '1m' } });
    expect(r.json.hits.total.value).to.equal(4);
    expect(r.json.hits.hits.map((h: { _index: string; _id: string }) => `${h._index}/${h._id}`)).to.deep.equal(['test/172', 'test2/45']);
    const ms = await es.call('POST', '/_msearch', `{}\n${JSON.stringify({ query: { match: { _index: 'test' } }, pit: { id } })}\n{}\n${JSON.stringify({ query: { match_all: {} }, pit: { id } })}\n`, { 'content-type': 'application/x-ndjson' });
    expect(ms.json.responses.map((x: { hits: { total: { value: number } } }) => x.hits.total.value)).to.deep.equal([3, 4]);
    const bad = await es.call('POST', '/_msearch', `{"index":"test"}\n${JSON.stringify({ query: { match_all: {} }, pit: { id } })}\n`, { 'content-type': 'application/x-ndjson' });
    expect(bad.status).to.equal(400);
  });

  it('sorts on _shard_doc explicitly and pages through every document with it', async () => {
    const id = await open('test,test2');
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const r = await es.call('POST', '/_search', { size: 1, sort: [{ _shard_doc: 'asc' }], pit: { id }, ...(after ? { search_after: after } : {}) });
      expect(r.status, r.text).to.equal(200);
      if (!r.json.hits.hits.length) break;
      const hit = r.json.hits.hits[0];
      seen.push(hit._id);
      expect(hit.sort).to.have.length(1);
      after = hit.sort;
    }
    expect(seen.sort()).to.deep.equal(['1', '172', '42', '45']);
    const without = await es.call('POST', '/test/_search', { sort: ['_shard_doc'] });
    expect(without.status).to.equal(400);
    expect(without.json.error.reason).to.contain('[_shard_doc] sort field cannot be used without [point in time]');
  });

  it('refuses an index in the path, routing and scroll next to a pit', async () => {
    const id = await open('test');
    const r = await es.call('POST', '/test/_search', { pit: { id } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('action_request_validation_exception');
    expect(r.json.error.reason).to.equal('Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;');
    const routed = await es.call('POST', '/_search?routing=x', { pit: { id } });
    expect(routed.json.error.reason).to.contain('[routing] cannot be used with point in time');
    const scrolled = await es.call('POST', '/_search?scroll=1m', { pit: { id } });
    expect(scrolled.json.error.reason).to.contain('using [point in time] is not allowed in a scroll context');
    const noKeepAlive = await es.call('POST', '/test/_pit');
    expect(noKeepAlive.status).to.equal(400);
    expect(noKeepAlive.json.error.reason).to.contain('[keep_alive] is not specified');
  });

  it('answers 404 search_context_missing_exception once closed, expired, or its index deleted', async () => {
    const id = await open('test');
    expect((await es.call('DELETE', '/_pit', { id })).json.num_freed).to.equal(1);
    const gone = await es.call('POST', '/_search', { pit: { id } });
    expect(gone.status).to.equal(404);
    expect(gone.json.error.root_cause[0].type).to.equal('search_context_missing_exception');
    expect((await es.call('DELETE', '/_pit', { id })).json).to.deep.equal({ succeeded: true, num_freed: 0 });

    const short = await open('test', '1ms');
    // the keep-alive's timer frees it: wait for that signal (the context is gone), not for a time
    for (let r = await es.call('POST', '/_search', { pit: { id: short } }); r.status !== 404; r = await es.call('POST', '/_search', { pit: { id: short } })) {
      await new Promise((resolve) => setImmediate(resolve));
    }

    const onDeleted = await open('test');
    await es.call('DELETE', '/test');
    const afterDelete = await es.call('POST', '/_search', { pit: { id: onDeleted } });
    expect(afterDelete.status).to.equal(404);
    expect(afterDelete.json.error.root_cause[0].type).to.equal('search_context_missing_exception');
  });

  it('refuses an id it did not make, and one re-encoded to name other indices', async () => {
    const r = await es.call('POST', '/_search', { pit: { id: 'not-an-id' } });
    expect(r.status).to.equal(400);
    const id = await open('test');
    const content = JSON.parse(Buffer.from(id, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...content, indices: ['test2'] })).toString('base64url');
    const f = await es.call('POST', '/_search', { pit: { id: forged } });
    expect(f.status).to.equal(404);
  });
});
