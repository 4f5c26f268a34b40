import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * `GET _scripts/painless/_context` (Elasticsearch's and OpenSearch's painless module): the names of
 * Painless's contexts, or with `context` one's API (PainlessContextInfo's layout); authorized as a
 * cluster read, like `_script_context`.
 */
for (const backend of BACKENDS) {
  describe(`Painless contexts API through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('lists the contexts Painless runs in, sorted, and describes one; an unknown one is 400', async () => {
      const all = await call(gw.url, 'GET', '/_scripts/painless/_context');
      expect(all.status, all.text).to.equal(200);
      expect(all.json.contexts).to.include.members(['score', 'update', 'filter']);
      expect(all.json.contexts).to.deep.equal([...all.json.contexts].sort());
      expect(all.json.contexts).to.not.include('template');
      const score = await call(gw.url, 'GET', '/_scripts/painless/_context?context=score');
      expect(score.status, score.text).to.equal(200);
      expect(Object.keys(score.json)).to.deep.equal(['name', 'classes', 'imported_methods', 'class_bindings', 'instance_bindings']);
      expect(score.json.name).to.equal('score');
      const unknown = await call(gw.url, 'GET', '/_scripts/painless/_context?context=nope');
      expect([unknown.status, unknown.json.error.type, unknown.json.error.reason]).to.deep.equal([400, 'illegal_argument_exception', 'script context [nope] not found']);
      // a stored script is still stored under painless's name through the other methods
      const put = await call(gw.url, 'PUT', '/_scripts/painless/_context', { body: { script: { lang: 'painless', source: '1' } } });
      expect(put.status, put.text).to.equal(400);
    });

    it('is a cluster read: a credential with cluster read may ask, one with documents only may not', async () => {
      const reader = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['cluster'], ops: ['read'] } });
      const docs = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['docs'], ops: ['read', 'write'] } });
      const ok = await call(gw.url, 'GET', '/_scripts/painless/_context', { auth: basic(reader.json.credential.username, reader.json.password) });
      expect(ok.status, ok.text).to.equal(200);
      const refused = await call(gw.url, 'GET', '/_scripts/painless/_context?context=score', { auth: basic(docs.json.credential.username, docs.json.password) });
      expect(refused.status, refused.text).to.equal(403);
    });
  });
}
