import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { basic, call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * OpenSearch's Observability plugin's saved objects (`_plugins/_observability/object`): documents
 * of its `.opensearch-observability` index, created, read by id, listed, updated and deleted as the
 * plugin does; a cluster-level `manage` right, the objects being every tenant's.
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch observability objects (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => ({ gateway: gw, stop } = await backend.start()));
    after(() => stop());

    const panel = (name: string) => ({ name, visualizations: [], timeRange: { from: 'now-1h', to: 'now' }, queryFilter: { query: '', language: 'ppl' } });

    it('creates, reads, lists, updates and deletes an object; the first typed member is the object', async () => {
      const created = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'p1', operationalPanel: panel('one'), savedQuery: { name: 'q' } } });
      expect([created.status, created.json], created.text).to.deep.equal([200, { objectId: 'p1' }]);
      const again = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'p1', operationalPanel: panel('one') } });
      expect(again.status).to.equal(409);
      const generated = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { savedQuery: { name: 'errors', query: 'source = logs' } } });
      expect(generated.json.objectId).to.be.a('string').and.not.equal('p1');

      const one = await call(gw.url, 'GET', '/_plugins/_observability/object/p1');
      expect(one.status, one.text).to.equal(200);
      expect(one.json).to.include({ startIndex: 0, totalHits: 1, totalHitRelation: 'eq' });
      const [item] = one.json.observabilityObjectList;
      expect(item).to.include({ objectId: 'p1', tenant: '' });
      expect(item.operationalPanel).to.deep.equal(panel('one'));
      expect(item).to.not.have.property('savedQuery');
      expect(item.createdTimeMs).to.be.a('number');

      await call(gw.url, 'POST', '/_refresh');
      const queries = await call(gw.url, 'GET', '/_plugins/_observability/object?objectType=savedQuery');
      expect(queries.json.totalHits).to.equal(1);
      expect(queries.json.observabilityObjectList[0].savedQuery).to.deep.equal({ name: 'errors', query: 'source = logs' });
      const all = await call(gw.url, 'GET', '/_plugins/_observability/object?maxItems=1');
      expect([all.json.totalHits, all.json.observabilityObjectList.length]).to.deep.equal([2, 1]);
      const bad = await call(gw.url, 'GET', '/_plugins/_observability/object?objectType=nope');
      expect(bad.status).to.equal(400);

      const updated = await call(gw.url, 'PUT', '/_plugins/_observability/object/p1', { body: { operationalPanel: panel('two') } });
      expect([updated.status, updated.json]).to.deep.equal([200, { objectId: 'p1' }]);
      const after = await call(gw.url, 'GET', '/_plugins/_observability/object/p1');
      expect(after.json.observabilityObjectList[0].operationalPanel.name).to.equal('two');
      expect(after.json.observabilityObjectList[0].createdTimeMs).to.equal(item.createdTimeMs);

      const deleted = await call(gw.url, 'DELETE', `/_plugins/_observability/object?objectIdList=p1,${generated.json.objectId}`);
      expect([deleted.status, deleted.json]).to.deep.equal([200, { deleteResponseList: { p1: 'OK', [generated.json.objectId]: 'OK' } }]);
      const gone = await call(gw.url, 'GET', '/_plugins/_observability/object/p1');
      expect([gone.status, gone.json.error?.type]).to.deep.equal([404, 'status_exception']);
      const missing = await call(gw.url, 'DELETE', '/_plugins/_observability/object/p1');
      expect(missing.status).to.equal(404);
      const updateMissing = await call(gw.url, 'PUT', '/_plugins/_observability/object/p1', { body: { operationalPanel: panel('x') } });
      expect(updateMissing.status).to.equal(404);
      const untyped = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'p2', other: {} } });
      expect(untyped.status).to.equal(400);
    });

    it('answers the plugin\'s metrics as text: every object request counted in request_total', async () => {
      const before = await call(gw.url, 'GET', '/_plugins/_observability/_local/stats');
      expect([before.status, before.headers['content-type']], before.text).to.deep.equal([200, 'text/plain; charset=UTF-8']);
      const first = JSON.parse(before.text);
      expect(Object.keys(first.exception)).to.include.members(['opensearch_status', 'version_conflict_engine', 'illegal_argument', 'internal_server_error']);
      expect(first).to.include.keys('request_count', 'success_count', 'failed_request_count_user_error', 'failed_request_count_system_error');
      await call(gw.url, 'GET', '/_plugins/_observability/object/none');
      await call(gw.url, 'GET', '/_plugins/_observability/object');
      const after = JSON.parse((await call(gw.url, 'GET', '/_plugins/_observability/_local/stats')).text);
      expect(after.request_total - first.request_total).to.equal(2);
    });

    it('refuses a scoped credential: the objects are every tenant\'s', async () => {
      await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'p3', operationalPanel: panel('secret') } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['own-*'], categories: ['cluster', 'indices', 'docs'], ops: ['read', 'write'] } });
      const tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
      for (const [method, path] of [['GET', '/_plugins/_observability/object/p3'], ['GET', '/_plugins/_observability/object'], ['POST', '/_plugins/_observability/object'], ['DELETE', '/_plugins/_observability/object/p3']] as const) {
        const r = await call(gw.url, method, path, { ...tenant, body: method === 'POST' ? { operationalPanel: panel('mine') } : undefined });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
    });
  });
}
