import { expect } from 'chai';
import { Client as Client8 } from '@elastic/elasticsearch';
import { Client as Client9 } from '@elastic/elasticsearch9';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

const auth = { username: ADMIN.user, password: ADMIN.password };
const V9 = 'application/vnd.elasticsearch+json; compatible-with=9';

for (const backend of BACKENDS) {
  describe(`compatible-with=9 and 8, answered in kind (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('a v9 client is answered compatible-with=9, a v8 client compatible-with=8, a plain request application/json', async () => {
      const v9 = new Client9({ node: gw.url, auth });
      const v8 = new Client8({ node: gw.url, auth });
      try {
        const nine = await v9.index({ index: 'kinds', id: '1', document: { title: 'Dune' }, refresh: true }, { meta: true });
        expect(nine.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=9');
        expect(nine.headers['x-elastic-product']).to.equal('Elasticsearch');
        const bulk = await v9.bulk({ operations: [{ index: { _index: 'kinds', _id: '2' } }, { title: 'Emma' }] }, { meta: true });
        expect(bulk.body.errors).to.equal(false);
        expect(bulk.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=9');
        const eight = await v8.get({ index: 'kinds', id: '1' }, { meta: true });
        expect(eight.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=8');
        expect(eight.body._source).to.deep.equal({ title: 'Dune' });
      } finally {
        await v9.close();
        await v8.close();
      }
      const plain = await call(gw.url, 'GET', '/kinds/_doc/1');
      expect(plain.headers['content-type']).to.match(/^application\/json/);
      // an error too is answered in kind
      const missing = await call(gw.url, 'GET', '/no-such-index/_doc/1', { headers: { accept: V9 } });
      expect(missing.status).to.equal(404);
      expect(missing.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=9');
      expect(missing.json.error.type).to.equal('index_not_found_exception');
    });

    it('compatible-with=10 is refused as Elasticsearch refuses a version it does not serve', async () => {
      const r = await call(gw.url, 'GET', '/', { headers: { accept: 'application/vnd.elasticsearch+json; compatible-with=10' } });
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.type).to.equal('media_type_header_exception');
    });
  });
}

describe('the engine behind is sent the media types every engine accepts (OpenSearch refuses the versioned ones)', function () {
  this.timeout(30_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let stop: () => Promise<void>;
  before(async () => {
    ({ upstream, gateway: gw, stop } = await startRecordedGateway());
  });
  after(() => stop());

  it('a v9 client\'s JSON and NDJSON requests reach the engine as application/json and application/x-ndjson, and are answered in kind', async () => {
    const v9 = new Client9({ node: gw.url, auth });
    try {
      upstream.clear();
      const created = await v9.indices.create({ index: 'plain' }, { meta: true });
      expect(created.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=9');
      const bulk = await v9.bulk({ refresh: true, operations: [{ index: { _index: 'plain', _id: '1' } }, { title: 'Dune' }] });
      expect(bulk.errors).to.equal(false);
      const found = await v9.search({ index: 'plain', query: { match: { title: 'dune' } } }, { meta: true });
      expect(found.body.hits.hits.map((h) => h._id)).to.deep.equal(['1']);
      expect(found.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=9');
    } finally {
      await v9.close();
    }
    const byPath = (p: string) => upstream.requests.filter((r) => r.path.startsWith(p));
    const sent = [...byPath('/plain'), ...byPath('/_bulk')];
    expect(sent.length).to.be.at.least(3);
    for (const r of sent) {
      expect(String(r.headers.accept ?? ''), `${r.method} ${r.path}`).not.to.contain('vnd.elasticsearch');
      expect(String(r.headers['content-type'] ?? 'none'), `${r.method} ${r.path}`).not.to.contain('vnd.elasticsearch');
    }
    expect(byPath('/_bulk').map((r) => r.headers['content-type'])).to.include('application/x-ndjson');
  });
});
