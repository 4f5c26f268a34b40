import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`scripted updates through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/counters/_doc/1?refresh=true', { body: { counter: 1, tags: ['red'] } });
    });
    after(() => stop());

    it('_update with a painless script changes the document', async () => {
      const r = await call(gw.url, 'POST', '/counters/_update/1?refresh=true', {
        body: { script: { source: 'ctx._source.counter += params.count; ctx._source.tags.add(params.tag)', lang: 'painless', params: { count: 4, tag: 'blue' } } },
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.json).to.deep.include({ _id: '1', _version: 2, result: 'updated' });
      const doc = await call(gw.url, 'GET', '/counters/_doc/1');
      expect(doc.json._source).to.deep.equal({ counter: 5, tags: ['red', 'blue'] });
    });

    it("ctx.op = 'noop' answers noop, and a broken script ES's script_exception", async () => {
      let r = await call(gw.url, 'POST', '/counters/_update/1', { body: { script: "ctx.op = 'noop'" } });
      expect(r.json.result).to.equal('noop');
      r = await call(gw.url, 'POST', '/counters/_update/1', { body: { script: { source: 'ctx._source.counter +=', lang: 'painless' } } });
      expect(r.status).to.equal(400);
      expect(r.json.error).to.deep.include({ type: 'script_exception', reason: 'compile error', lang: 'painless' });
    });

    it('a scripted upsert creates the document', async () => {
      const r = await call(gw.url, 'POST', '/counters/_update/2?refresh=true', {
        body: { scripted_upsert: true, script: { source: "if (ctx.op == 'create') { ctx._source.counter = params.start }", params: { start: 10 } }, upsert: {} },
      });
      expect(r.status, r.text).to.equal(201);
      expect((await call(gw.url, 'GET', '/counters/_doc/2')).json._source).to.deep.equal({ counter: 10 });
    });

    it("the body's _source filters the answer's get, an upsert's too (ES's UpdateRequest field)", async () => {
      let r = await call(gw.url, 'POST', '/counters/_update/1', { body: { doc: { note: 'n' }, _source: ['note'] } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.get).to.deep.include({ found: true, _source: { note: 'n' } });
      r = await call(gw.url, 'POST', '/counters/_update/3', { body: { doc: { a: 1 }, upsert: { a: 0, b: 2 }, _source: { excludes: ['b'] } } });
      expect(r.status, r.text).to.equal(201);
      expect(r.json.get).to.deep.include({ found: true, _source: { a: 0 } });
      r = await call(gw.url, 'POST', '/counters/_update/1', { body: { doc: { note: 'm' }, _source: false } });
      expect(r.json).to.not.have.property('get');
    });
  });
}
