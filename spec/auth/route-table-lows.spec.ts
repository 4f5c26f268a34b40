import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { RECORDED_BACKENDS, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Issue 32, the low findings of the last review of the one route table, on both backends: the
 * table says which APIs read no body (a body sent to one is Elasticsearch's 400), its API words are
 * case-sensitive (`/_SEARCH` is no API: Elasticsearch's `no handler found` 400, not a 403), and
 * `GET /{index}/_doc/_search` is read as what the engine runs: the product serves Elasticsearch 7's
 * typed search there (docs/api-compatibility.md), so the gateway authorizes a search, and a
 * credential that may search reads hits. A path none of the table's routes takes is refused for a scoped
 * credential ("unknown means refused") and goes on for the admin. None of these reaches the engine.
 */

/** The reason of an error body, in Elasticsearch's object shape or its flat one. */
const reasonOf = (json: { error?: string | { reason?: string } }) => (typeof json.error === 'string' ? json.error : json.error?.reason);

for (const backend of RECORDED_BACKENDS) {
  describe(`the route table's low findings (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      const put = await call(gw.url, 'PUT', '/mine/_doc/1?refresh=true', { body: { word: 'one' } });
      expect(put.status, put.text).to.equal(201);
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['docs', 'search', 'cluster'], ops: ['read'] } });
      expect(res.status, res.text).to.equal(201);
      tenant = basic(res.json.credential.username, res.json.password);
    });
    after(() => stop());

    /** The requests for `path` that reached the engine. */
    const reached = (path: string) => (upstream ? upstream.requests.filter((r) => r.path === path) : []);

    describe('(a) a body sent to an API that reads none', () => {
      for (const [method, path] of [['GET', '/'], ['GET', '/mine/_doc/1'], ['GET', '/_cat/indices'], ['GET', '/mine/_mapping']]) {
        it(`${method} ${path} with a body is Elasticsearch's 400, for the admin and a scoped credential`, async () => {
          for (const auth of [undefined, tenant]) {
            upstream?.clear();
            const res = await call(gw.url, method, path, { auth, body: { query: { match_all: {} } } });
            expect(res.status, res.text).to.equal(400);
            expect(res.json.error.type).to.equal('illegal_argument_exception');
            expect(reasonOf(res.json)).to.equal(`request [${method} ${path}] does not support having a body`);
            expect(reached(path), 'nothing reached the engine').to.deep.equal([]);
          }
        });
      }

      it('an API that reads a body still takes one, on GET too', async () => {
        const res = await call(gw.url, 'GET', '/mine/_search', { auth: tenant, body: { query: { match_all: {} } } });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.hits.total.value).to.equal(1);
        expect((await call(gw.url, 'GET', '/mine/_doc/1', { auth: tenant })).json._source).to.deep.equal({ word: 'one' });
      });
    });

    describe('(b) an API word in another case is no API', () => {
      for (const [method, path] of [['GET', '/_SEARCH'], ['GET', '/mine/_Doc/1'], ['POST', '/mine/_Search'], ['GET', '/_Cat/indices'], ['GET', '/_cluster/Health']]) {
        it(`${method} ${path}: Elasticsearch's no handler 400, not a 403`, async () => {
          for (const auth of [tenant, undefined]) {
            upstream?.clear();
            const res = await call(gw.url, method, path, { auth });
            expect(res.status, res.text).to.equal(400);
            expect(reasonOf(res.json)).to.equal(`no handler found for uri [${path}] and method [${method}]`);
            expect(reached(path), 'nothing reached the engine').to.deep.equal([]);
          }
        });
      }
    });

    describe('(c) GET /{index}/_doc/_search is the typed search, read as one by the gateway and the engine alike', () => {
      it('a search credential gets hits; the engine receives the typeless search it was authorized as', async () => {
        const created = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['search'], ops: ['read'] } });
        const searcher = basic(created.json.credential.username, created.json.password);
        upstream?.clear();
        const res = await call(gw.url, 'GET', '/mine/_doc/_search', { auth: searcher });
        expect(res.status, res.text).to.equal(200);
        expect(res.json).to.have.property('hits');
        if (upstream) expect(upstream.requests.filter((r) => r.path.startsWith('/mine/')).map((r) => r.path.split('?')[0])).to.deep.equal(['/mine/_search']);
      });
    });

    describe('a path the table does not know', () => {
      for (const [method, path] of [['GET', '/_ml/anomaly_detectors'], ['GET', '/mine/_unknown_api'], ['PUT', '/_security/user/bob']]) {
        it(`${method} ${path} is refused for a scoped credential, and reaches no engine`, async () => {
          upstream?.clear();
          const res = await call(gw.url, method, path, { auth: tenant, body: method === 'PUT' ? { password: 'x' } : undefined });
          expect(res.status, res.text).to.equal(403);
          expect(res.json.error.type).to.equal('security_exception');
          expect(reached(path)).to.deep.equal([]);
        });
      }

      it('the admin\'s goes on to the engine, which answers it', async () => {
        upstream?.clear();
        const res = await call(gw.url, 'GET', '/_ml/anomaly_detectors');
        expect(res.status, res.text).to.equal(400);
        expect(reasonOf(res.json)).to.equal('no handler found for uri [/_ml/anomaly_detectors] and method [GET]');
        if (upstream) expect(reached('/_ml/anomaly_detectors')).to.have.length(1);
      });
    });
  });
}
