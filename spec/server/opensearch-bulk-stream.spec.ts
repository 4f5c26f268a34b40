import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

/**
 * OpenSearch 2.17's streaming bulk (`/_bulk/stream`, `/{index}/_bulk/stream`): applied and answered
 * as `_bulk` (the body read whole is one batch), authorized as `_bulk` on each item's index.
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch's streaming bulk through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyA: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/b/_doc/1?refresh=true', { body: { owner: 'b' } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['docs'], ops: ['read', 'write'] } });
      onlyA = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('applies the items and answers with the bulk answer, on /_bulk/stream and /{index}/_bulk/stream', async () => {
      const r = await call(gw.url, 'POST', '/_bulk/stream?refresh=true', {
        headers: NDJSON,
        body: ndjson([{ create: { _index: 'a', _id: '1' } }, { title: 'one' }, { update: { _index: 'a', _id: '1' } }, { doc: { pages: 3 } }]),
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.headers['content-type']).to.match(/^application\/json/);
      expect(r.json.errors).to.equal(false);
      expect(r.json.items.map((i: Record<string, { result: string }>) => Object.values(i)[0].result)).to.deep.equal(['created', 'updated']);
      const d = await call(gw.url, 'PUT', '/a/_bulk/stream', { headers: NDJSON, body: ndjson([{ delete: { _id: 'missing' } }]) });
      expect(d.status, d.text).to.equal(200);
      expect(d.json).to.deep.include({ errors: false });
      expect(d.json.items[0].delete).to.include({ _index: 'a', _id: 'missing', result: 'not_found', status: 404 });
      const doc = await call(gw.url, 'GET', '/a/_doc/1');
      expect(doc.json._source).to.deep.equal({ title: 'one', pages: 3 });
    });

    it("its writes reach the live streams as _bulk's do", async () => {
      await call(gw.url, 'PUT', '/a/_doc/live?refresh=true', { body: { n: 0 } });
      const s = await openStream(gw.url, '/a/_doc/live?stream=true');
      await s.until((m) => m.length === 1);
      const r = await call(gw.url, 'POST', '/a/_bulk/stream', { headers: NDJSON, body: ndjson([{ index: { _id: 'live' } }, { n: 1 }, { delete: { _id: 'live' } }]) });
      expect(r.status, r.text).to.equal(200);
      await s.until((m) => m.length === 3);
      expect(s.messages.slice(1)).to.deep.equal([{ _type: '_doc', _id: 'live', _source: { n: 1 } }, { _type: '_doc', _id: 'live', _deleted: true }]);
      s.close();
    });

    it('checks batch_size and batch_interval as OpenSearch does', async () => {
      const body = ndjson([{ index: { _index: 'a', _id: '2' } }, { title: 'two' }]);
      const size = await call(gw.url, 'POST', '/_bulk/stream?batch_size=0', { headers: NDJSON, body });
      expect([size.status, size.json.error.reason]).to.deep.equal([400, 'The batch_size value should be non-negative [0].']);
      const interval = await call(gw.url, 'POST', '/_bulk/stream?batch_interval=0s', { headers: NDJSON, body });
      expect([interval.status, interval.json.error.reason]).to.deep.equal([400, 'The batch_interval value should be non-negative [0ms].']);
      const ok = await call(gw.url, 'POST', '/_bulk/stream?batch_size=10&batch_interval=1s', { headers: NDJSON, body });
      expect(ok.status, ok.text).to.equal(200);
    });

    it("a credential scoped to a writes a by it and is refused another index's items", async () => {
      const own = await call(gw.url, 'POST', '/a/_bulk/stream', { auth: onlyA, headers: NDJSON, body: ndjson([{ index: { _id: '3' } }, { title: 'three' }]) });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.items[0].index).to.include({ _index: 'a', status: 201 });
      for (const [path, lines] of [
        ['/_bulk/stream', [{ delete: { _index: 'b', _id: '1' } }]],
        ['/b/_bulk/stream', [{ index: { _id: '2' } }, { owner: 'a' }]],
        ['/a/_bulk/stream', [{ index: { _index: 'b', _id: '2' } }, { owner: 'a' }]],
      ] as const) {
        const r = await call(gw.url, 'POST', path, { auth: onlyA, headers: NDJSON, body: ndjson([...lines]) });
        expect(r.status, `${path} ${r.text}`).to.equal(403);
      }
      const b = await call(gw.url, 'POST', '/b/_search', { body: { query: { match_all: {} } } });
      expect(b.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
    });
  });
}
