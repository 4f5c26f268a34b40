import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { openStream } from '../support/stream-client.js';
import type { TestGateway } from '../support/servers.js';

/**
 * A query that fails on a document written (a script reading a value the document lacks)
 * is that search's error, the one a plain search answers then (search_phase_execution_exception,
 * the script's failure as its shard failure and root cause); the other searches of the index go on.
 */
for (const backend of BACKENDS) {
  describe(`a live search failing on a written document (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop?.());

    it('ends that search with the error and leaves the other searches of the index live', async () => {
      const index = 'failing-script';
      expect((await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { n: { type: 'keyword' }, tag: { type: 'keyword' } } } } })).status).to.equal(200);
      const failing = { query: { script: { script: { source: "doc['n'].value.length() > params.v", params: { v: 1 } } } } };
      const plain = { query: { term: { tag: 'a' } } };
      const a = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: failing });
      const b = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: plain });
      try {
        await Promise.all([a.live, b.live]);
        expect((await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { tag: 'a' } })).status).to.equal(201);
        const searched = await call(gw.url, 'POST', `/${index}/_search`, { body: failing });
        expect(searched.status).to.equal(400);
        const ended = await a.until((m) => m.some((x) => x.error !== undefined), 20_000);
        const error = ended.find((x) => x.error !== undefined);
        expect(error.error.root_cause[0].type).to.equal('script_exception');
        // what the search answers: the shard failed (Elasticsearch runs script queries at search time)
        expect(error).to.deep.equal(searched.json);
        expect((await call(gw.url, 'PUT', `/${index}/_doc/2?refresh=true`, { body: { tag: 'a' } })).status).to.equal(201);
        const pushed = await b.until((m) => m.some((x) => x._id === '2'), 20_000);
        expect(pushed.filter((x) => x.error !== undefined)).to.deep.equal([]);
        expect(pushed.filter((x) => x._id !== undefined).map((x) => x._id)).to.deep.equal(['1', '2']);
      } finally {
        a.close();
        b.close();
        await call(gw.url, 'DELETE', `/${index}`);
      }
    });
  });
}
