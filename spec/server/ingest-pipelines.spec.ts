import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';


/**
 * Elasticsearch lets a pipeline re-target a write (`ctx._index = …`), and the gateway cannot know
 * where a pipeline will send a document. So, fail-closed, a write that runs a named pipeline
 * (`pipeline=`, a bulk action's `pipeline`) or that sets `index.default_pipeline` /
 * `index.final_pipeline` writes every index: a credential scoped to some indices is refused.
 */
for (const backend of BACKENDS) {
  describe(`ingest pipelines through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyA: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const put = await call(gw.url, 'PUT', '/_ingest/pipeline/to-b', { body: { processors: [{ set: { field: '_index', value: 'b' } }] } });
      expect(put.status, put.text).to.equal(200);
      await call(gw.url, 'PUT', '/a/_doc/0?refresh=true', { body: { seed: true } });
      await call(gw.url, 'PUT', '/b/_doc/0?refresh=true', { body: { seed: true } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a', 'a-*'], categories: ['docs', 'indices', 'search'], ops: ['read', 'write'] } });
      expect(cred.status, cred.text).to.equal(201);
      onlyA = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('the admin writes through a pipeline that re-targets the document', async () => {
      const r = await call(gw.url, 'PUT', '/a/_doc/1?pipeline=to-b&refresh=true', { body: { n: 1 } });
      expect(r.status, r.text).to.equal(201);
      expect(r.json._index).to.equal('b');
      expect((await call(gw.url, 'GET', '/b/_doc/1')).json._source).to.deep.equal({ n: 1 });
    });

    it('a credential scoped to index a may write to a without a pipeline, and with pipeline=_none', async () => {
      expect((await call(gw.url, 'PUT', '/a/_doc/2', { auth: onlyA, body: { n: 2 } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/a/_doc/3?pipeline=_none', { auth: onlyA, body: { n: 3 } })).status).to.equal(201);
    });

    it('is refused 403 when its write names a pipeline (URL or bulk action), and nothing reaches b', async () => {
      for (const [method, path] of [['PUT', '/a/_doc/4?pipeline=to-b'], ['POST', '/a/_doc?pipeline=to-b'], ['PUT', '/a/_create/5?pipeline=to-b'], ['POST', '/a/_update_by_query?pipeline=to-b']] as const) {
        const r = await call(gw.url, method, path, { auth: onlyA, body: method === 'POST' && path.includes('by_query') ? { query: { match_all: {} } } : { n: 4 } });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
      const urlBulk = await call(gw.url, 'POST', '/_bulk?pipeline=to-b', { auth: onlyA, body: ndjson([{ index: { _index: 'a', _id: '6' } }, { n: 6 }]), headers: NDJSON });
      expect(urlBulk.status, urlBulk.text).to.equal(403);
      const actionBulk = await call(gw.url, 'POST', '/_bulk', { auth: onlyA, body: ndjson([{ index: { _index: 'a', _id: '7', pipeline: 'to-b' } }, { n: 7 }]), headers: NDJSON });
      expect(actionBulk.status, actionBulk.text).to.equal(403);
      await call(gw.url, 'POST', '/b/_refresh');
      const inB = await call(gw.url, 'POST', '/b/_search', { body: { query: { terms: { _id: ['4', '5', '6', '7'] } } } });
      expect(inB.json.hits.total.value).to.equal(0);
    });

    it('is refused 403 when it gives its own index a default or final pipeline', async () => {
      const settings = await call(gw.url, 'PUT', '/a/_settings', { auth: onlyA, body: { index: { default_pipeline: 'to-b' } } });
      expect(settings.status, settings.text).to.equal(403);
      const plain = await call(gw.url, 'PUT', '/a-plain', { auth: onlyA, body: { settings: { 'index.number_of_replicas': 0 } } });
      expect(plain.status, plain.text).to.equal(200);
      const created = await call(gw.url, 'PUT', '/a-new', { auth: onlyA, body: { settings: { 'index.final_pipeline': 'to-b' } } });
      expect(created.status, created.text).to.equal(403);
      expect((await call(gw.url, 'HEAD', '/a-new')).status).to.equal(404);
      const pipelines = await call(gw.url, 'PUT', '/_ingest/pipeline/mine', { auth: onlyA, body: { processors: [] } });
      expect(pipelines.status, pipelines.text).to.equal(403);
    });
  });
}
