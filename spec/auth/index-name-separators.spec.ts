import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { RECORDED_BACKENDS, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * An index name holding a path separator (`/` or `\`, written `%2F` / `%5C` in a path, or in a
 * body or parameter) is refused where the request is read, as Elasticsearch refuses such a name:
 * read as one name that a pattern like `mine*` covers, it would be another path to anything that
 * decoded it again (the route-table review, finding 3). Date math keeps its `/`.
 */

const SPELLINGS = [
  ['GET', '/mine-1%2F..%2Fother-1/_search'],
  ['GET', '/mine-1%5C..%5Cother-1/_search'],
  ['GET', '/mine-1,mine-2%2F..%2Fother-1/_count'],
  ['GET', '/_search?index=mine-1%2F..%2Fother-1'],
  ['GET', '/mine-1%2F..%2Fother-1/_doc/1'],
] as const;

for (const backend of RECORDED_BACKENDS) {
  describe(`index names with a path separator are refused where the request is read (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      for (const index of ['mine-1', 'other-1']) expect((await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { f: index } })).status).to.equal(201);
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine*'], categories: ['docs', 'search'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    for (const [method, path] of SPELLINGS) {
      it(`${method} ${path}: 400 invalid_index_name_exception, nothing sent to the engine`, async () => {
        upstream?.clear();
        const res = await call(gw.url, method, path, { auth: tenant });
        expect(res.status, res.text).to.equal(400);
        expect(res.json.error.type).to.equal('invalid_index_name_exception');
        expect(res.text).to.not.include('"f":"other-1"');
        // (the tenant's own sign-in may read the credentials index: nothing else reaches the engine)
        if (upstream) expect(upstream.requests.map((r) => r.path).filter((p) => decodeURIComponent(p).includes('other-1'))).to.deep.equal([]);
      });
    }

    it('a body naming such an index is refused the same way; date math keeps its /', async () => {
      const mget = await call(gw.url, 'POST', '/_mget', { auth: tenant, body: { docs: [{ _index: 'mine-1/../other-1', _id: '1' }] } });
      expect(mget.status, mget.text).to.equal(400);
      expect(mget.json.error.type).to.equal('invalid_index_name_exception');
      const dated = await call(gw.url, 'GET', `/${encodeURIComponent('<mine-{now/d}>')}/_search?ignore_unavailable=true`, { auth: tenant });
      expect(dated.status, dated.text).to.not.equal(400);
    });
  });
}
