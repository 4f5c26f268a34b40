import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch's asynchronous search plugin (`_plugins/_asynchronous_search`) as the embedded engine
 * answers it: a submitted search has finished when answered; with `keep_on_completion` its answer
 * is kept and read back or deleted by id, otherwise the id finds nothing; the stats count each
 * node's searches. A scoped credential submits searches of its own indices only, and cannot
 * reach a kept answer by id (it holds what its submitter read).
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch asynchronous search through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: { auth: string };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const bulk = [
        { index: { _index: 'async-own', _id: '1' } }, { author: 'Harper Lee', year: 1960 },
        { index: { _index: 'async-own', _id: '2' } }, { author: 'Elizabeth Rudnick', year: 1991 },
        { index: { _index: 'async-other', _id: '1' } }, { author: 'Harper Lee', year: 1961 },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n';
      const r = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      expect([r.status, r.json.errors], r.text).to.deep.equal([200, false]);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['async-own'], categories: ['search', 'cluster'], ops: ['read'] } });
      tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
    });
    after(() => stop());

    it('keeps a finished search on completion, reads it back by id, renews and deletes it', async () => {
      const submitted = await call(gw.url, 'POST', '/_plugins/_asynchronous_search?index=async-own&keep_on_completion=true&keep_alive=1h', {
        body: { query: { match: { author: 'Harper' } } },
      });
      expect(submitted.status, submitted.text).to.equal(200);
      const { id, state, start_time_in_millis: started, expiration_time_in_millis: expires, response } = submitted.json;
      expect([state, response.hits.total.value, response.hits.hits[0]._id]).to.deep.equal(['SUCCEEDED', 1, '1']);
      expect(expires - started).to.equal(3_600_000);
      const got = await call(gw.url, 'GET', `/_plugins/_asynchronous_search/${id}?keep_alive=2h`);
      expect([got.status, got.json.id, got.json.state, got.json.response.hits.total.value], got.text).to.deep.equal([200, id, 'STORE_RESIDENT', 1]);
      expect(got.json.expiration_time_in_millis - started).to.equal(7_200_000);
      const deleted = await call(gw.url, 'DELETE', `/_plugins/_asynchronous_search/${id}`);
      expect([deleted.status, deleted.json]).to.deep.equal([200, { acknowledged: true }]);
      const gone = await call(gw.url, 'GET', `/_plugins/_asynchronous_search/${id}`);
      expect([gone.status, gone.json.error?.type]).to.deep.equal([404, 'resource_not_found_exception']);
    });

    it('keeps nothing without keep_on_completion, and refuses a keep-alive past 5d', async () => {
      const submitted = await call(gw.url, 'POST', '/_plugins/_asynchronous_search', { body: { query: { match_all: {} } } });
      expect([submitted.status, submitted.json.state, submitted.json.response.hits.total.value], submitted.text).to.deep.equal([200, 'SUCCEEDED', 3]);
      expect((await call(gw.url, 'GET', `/_plugins/_asynchronous_search/${submitted.json.id}`)).status).to.equal(404);
      const tooLong = await call(gw.url, 'POST', '/_plugins/_asynchronous_search?keep_alive=6d', { body: {} });
      expect([tooLong.status, tooLong.json.error?.type]).to.deep.equal([400, 'illegal_argument_exception']);
    });

    it('counts the searches of each node', async () => {
      const stats = await call(gw.url, 'GET', '/_plugins/_asynchronous_search/stats');
      expect(stats.status, stats.text).to.equal(200);
      const [node] = Object.values(stats.json.nodes) as Array<{ asynchronous_search_stats: Record<string, number> }>;
      expect(node.asynchronous_search_stats).to.include({ running_current: 0, cancelled: 0 });
      expect(node.asynchronous_search_stats.submitted).to.be.at.least(2);
      expect(node.asynchronous_search_stats.persisted).to.be.at.least(1);
    });

    it('a scoped credential searches its own indices only and reaches no kept answer by id', async () => {
      const own = await call(gw.url, 'POST', '/_plugins/_asynchronous_search?index=async-own&keep_on_completion=true', { ...tenant, body: { query: { match_all: {} } } });
      expect([own.status, own.json.response?.hits.total.value], own.text).to.deep.equal([200, 2]);
      const other = await call(gw.url, 'POST', '/_plugins/_asynchronous_search?index=async-other', { ...tenant, body: {} });
      expect(other.status, other.text).to.equal(403);
      const every = await call(gw.url, 'POST', '/_plugins/_asynchronous_search', { ...tenant, body: {} });
      expect(every.status, every.text).to.equal(403);
      expect((await call(gw.url, 'GET', `/_plugins/_asynchronous_search/${own.json.id}`, tenant)).status).to.equal(403);
      expect((await call(gw.url, 'DELETE', `/_plugins/_asynchronous_search/${own.json.id}`, tenant)).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_plugins/_asynchronous_search/stats', tenant)).status).to.equal(200);
    });
  });
}
