import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { basic, call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * ML Commons' model groups (`_plugins/_ml/model_groups`): documents of the plugin's
 * `.plugins-ml-model-group` system index, registered, read, updated, searched and deleted as the
 * plugin does with model access control off; names unique; a cluster-level `manage` right, the
 * groups being every tenant's, and the index reachable through the plugin's API only.
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch ML model groups (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => ({ gateway: gw, stop } = await backend.start()));
    after(() => stop());

    it('registers, reads, updates, searches and deletes a group', async () => {
      const created = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'NLP_Group', description: 'Model group for NLP models.' } });
      expect(created.status, created.text).to.equal(200);
      expect(created.json.status).to.equal('CREATED');
      const id = created.json.model_group_id as string;
      expect(id).to.be.a('string').and.not.empty;

      const one = await call(gw.url, 'GET', `/_plugins/_ml/model_groups/${id}`);
      expect(one.status, one.text).to.equal(200);
      expect(one.json).to.include({ name: 'NLP_Group', description: 'Model group for NLP models.', latest_version: 0 });
      expect(one.json.created_time).to.be.a('number').and.equal(one.json.last_updated_time);

      const updated = await call(gw.url, 'PUT', `/_plugins/_ml/model_groups/${id}`, { body: { name: 'NLP', description: 'renamed' } });
      expect([updated.status, updated.json], updated.text).to.deep.equal([200, { status: 'Updated' }]);
      const after = await call(gw.url, 'GET', `/_plugins/_ml/model_groups/${id}`);
      expect(after.json).to.include({ name: 'NLP', description: 'renamed', created_time: one.json.created_time });

      await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'other' } });
      await call(gw.url, 'POST', '/_refresh');
      const found = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_search', { body: { query: { match: { name: 'NLP' } } } });
      expect(found.status, found.text).to.equal(200);
      expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([id]);

      const deleted = await call(gw.url, 'DELETE', `/_plugins/_ml/model_groups/${id}`);
      expect([deleted.status, deleted.json.result, deleted.json._id], deleted.text).to.deep.equal([200, 'deleted', id]);
      const gone = await call(gw.url, 'GET', `/_plugins/_ml/model_groups/${id}`);
      expect([gone.status, gone.json.error?.type]).to.deep.equal([404, 'status_exception']);
      expect((await call(gw.url, 'DELETE', `/_plugins/_ml/model_groups/${id}`)).status).to.equal(404);
    });

    it('refuses a taken name, a missing name and access control fields (model access control is off)', async () => {
      const first = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'taken' } });
      const again = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'taken' } });
      expect([again.status, again.json.error?.reason], again.text).to.deep.equal([400, `The name you provided is already being used by a model group with ID: ${first.json.model_group_id}.`]);
      const second = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'second' } });
      const rename = await call(gw.url, 'PUT', `/_plugins/_ml/model_groups/${second.json.model_group_id}`, { body: { name: 'taken' } });
      expect(rename.status, rename.text).to.equal(400);
      expect((await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { description: 'no name' } })).status).to.equal(400);
      const restricted = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'r', access_mode: 'restricted', backend_roles: ['IT'] } });
      expect([restricted.status, restricted.json.error?.type], restricted.text).to.deep.equal([400, 'illegal_argument_exception']);
    });

    it('refuses a scoped credential, and no REST request reaches the plugin\'s index', async () => {
      const created = await call(gw.url, 'POST', '/_plugins/_ml/model_groups/_register', { body: { name: 'secret-group' } });
      const id = created.json.model_group_id as string;
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['own-*'], categories: ['cluster', 'indices', 'docs'], ops: ['read', 'write'] } });
      const tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
      for (const [method, path] of [['GET', `/_plugins/_ml/model_groups/${id}`], ['POST', '/_plugins/_ml/model_groups/_search'], ['POST', '/_plugins/_ml/model_groups/_register'], ['DELETE', `/_plugins/_ml/model_groups/${id}`]] as const) {
        const r = await call(gw.url, method, path, { ...tenant, body: method === 'POST' ? { name: 'mine' } : undefined });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
      await call(gw.url, 'POST', '/_refresh');
      for (const path of ['/.plugins-ml-model-group/_search', `/.plugins-ml-model-group/_doc/${id}`]) {
        const r = await call(gw.url, 'GET', path);
        expect(r.text, path).to.not.include('secret-group');
        expect(r.status, path).to.be.oneOf([403, 404]);
      }
      const all = await call(gw.url, 'GET', '/_search?q=name:secret-group&expand_wildcards=all');
      expect(all.text).to.not.include('secret-group');
    });
  });
}
