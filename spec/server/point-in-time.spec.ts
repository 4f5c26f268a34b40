import { expect } from 'chai';
import { decodePitId } from '../../lib/point-in-time/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const ids = (r: { json: { hits: { hits: Array<{ _index: string; _id: string }> } } }) => r.json.hits.hits.map((h) => `${h._index}/${h._id}`);

for (const backend of BACKENDS) {
  describe(`point in time through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyA: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const i of [1, 2, 3]) await call(gw.url, 'PUT', `/a/_doc/${i}?refresh=true`, { body: { n: i, owner: 'a' } });
      await call(gw.url, 'PUT', '/b/_doc/1?refresh=true', { body: { n: 1, owner: 'b', secret: 'only b' } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['search'], ops: ['read'] } });
      onlyA = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('a credential scoped to a cannot read b through a point in time the admin opened on b, nor close it', async () => {
      const opened = await call(gw.url, 'POST', '/b/_pit?keep_alive=1m');
      expect(opened.status, opened.text).to.equal(200);
      const id = opened.json.id as string;
      const admin = await call(gw.url, 'POST', '/_search', { body: { pit: { id } } });
      expect(admin.status, admin.text).to.equal(200);
      expect(ids(admin)).to.deep.equal(['b/1']);

      const scoped = await call(gw.url, 'POST', '/_search', { auth: onlyA, body: { pit: { id }, query: { match_all: {} } } });
      expect(scoped.status, scoped.text).to.equal(403);
      expect(scoped.json.error.type).to.equal('security_exception');
      const multi = await call(gw.url, 'POST', '/_msearch', { auth: onlyA, body: `{}\n${JSON.stringify({ pit: { id } })}\n`, headers: { 'content-type': 'application/x-ndjson' } });
      expect(multi.status, multi.text).to.equal(403);
      // an id that does not decode names indices no one can tell: refused, never passed on
      const garbage = await call(gw.url, 'POST', '/_search', { auth: onlyA, body: { pit: { id: 'AAAA' } } });
      expect(garbage.status, garbage.text).to.equal(403);
      // an id re-encoded to name a is not b's context: nothing of b comes back
      const content = decodePitId(id);
      if (content) {
        const forged = Buffer.from(JSON.stringify({ ...content, indices: ['a'] })).toString('base64url');
        const f = await call(gw.url, 'POST', '/_search', { auth: onlyA, body: { pit: { id: forged } } });
        expect(f.status, f.text).to.equal(404);
        expect(JSON.stringify(f.json)).not.to.contain('only b');
      }
      const close = await call(gw.url, 'DELETE', '/_pit', { auth: onlyA, body: { id } });
      expect(close.status, close.text).to.equal(403);
      const closed = await call(gw.url, 'DELETE', '/_pit', { body: { id } });
      expect(closed.json).to.deep.equal({ succeeded: true, num_freed: 1 });
    });

    it('a credential scoped to a opens a point in time on a and pages through it with search_after', async () => {
      const opened = await call(gw.url, 'POST', '/a/_pit?keep_alive=1m', { auth: onlyA });
      expect(opened.status, opened.text).to.equal(200);
      const id = opened.json.id as string;
      const first = await call(gw.url, 'POST', '/_search', { auth: onlyA, body: { size: 2, sort: [{ n: 'asc' }], pit: { id, keep_alive: '1m' } } });
      if (!decodePitId(id)) {
        // another engine's id: the gateway cannot tell which indices it reads, so it refuses (fail closed)
        expect(first.status).to.equal(403);
        return;
      }
      expect(first.status, first.text).to.equal(200);
      expect(ids(first)).to.deep.equal(['a/1', 'a/2']);
      // written after the point in time: not seen through it
      await call(gw.url, 'PUT', '/a/_doc/4?refresh=true', { body: { n: 4, owner: 'a' } });
      const after = first.json.hits.hits[1].sort;
      const second = await call(gw.url, 'POST', '/_search', { auth: onlyA, body: { size: 2, sort: [{ n: 'asc' }], search_after: after, pit: { id: first.json.pit_id } } });
      expect(second.status, second.text).to.equal(200);
      expect(ids(second)).to.deep.equal(['a/3']);
      const closed = await call(gw.url, 'DELETE', '/_pit', { auth: onlyA, body: { id } });
      expect(closed.status, closed.text).to.equal(200);
      expect(closed.json.num_freed).to.equal(1);
    });

    it("OpenSearch's points in time: a scoped credential deletes and inspects its own by id, never another's, nor lists or deletes them all", async () => {
      const theirs = (await call(gw.url, 'POST', '/b/_search/point_in_time?keep_alive=1m')).json.pit_id as string;
      const created = await call(gw.url, 'POST', '/a/_search/point_in_time?keep_alive=1m', { auth: onlyA });
      expect(created.status, created.text).to.equal(200);
      const mine = created.json.pit_id as string;
      for (const [method, path] of [['GET', '/_search/point_in_time/_all'], ['DELETE', '/_search/point_in_time/_all'], ['GET', '/_cat/pit_segments/_all']]) {
        const r = await call(gw.url, method, path, { auth: onlyA });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
      expect((await call(gw.url, 'DELETE', '/_search/point_in_time', { auth: onlyA, body: { pit_id: [theirs] } })).status).to.equal(403);
      expect((await call(gw.url, 'DELETE', '/_search/point_in_time', { auth: onlyA, body: { pit_id: [mine, theirs] } })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_cat/pit_segments', { auth: onlyA, body: { pit_id: [theirs] } })).status).to.equal(403);
      const segments = await call(gw.url, 'GET', '/_cat/pit_segments?format=json&h=index', { auth: onlyA, body: { pit_id: [mine] } });
      expect(segments.status, segments.text).to.equal(200);
      expect(segments.json).to.deep.equal([{ index: 'a' }]);
      const deleted = await call(gw.url, 'DELETE', '/_search/point_in_time', { auth: onlyA, body: { pit_id: [mine] } });
      expect(deleted.json).to.deep.equal({ pits: [{ successful: true, pit_id: mine }] });
      // the admin's is still there, and the admin sees and deletes every one
      const listed = await call(gw.url, 'GET', '/_search/point_in_time/_all');
      expect(listed.json.pits.map((p: { pit_id: string }) => p.pit_id)).to.include(theirs).and.not.include(mine);
      expect((await call(gw.url, 'DELETE', '/_search/point_in_time/_all')).json.pits).to.deep.include({ successful: true, pit_id: theirs });
    });
  });
}
