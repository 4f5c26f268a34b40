import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch's Index State Management plugin APIs (`_plugins/_ism`) as the embedded engine keeps
 * them: policies put (created, or updated at a named revision), read and deleted; which policy
 * manages an index (add, change_policy, remove), told by explain; retry finding no failed index
 * (no ISM job runs). Policies are shared cluster configuration (manage); the rest acts on the
 * indices named, so a scoped credential manages its own only.
 */
const POLICY = {
  policy: {
    description: 'hot then delete',
    default_state: 'hot',
    states: [
      { name: 'hot', actions: [{ rollover: { min_doc_count: 5 } }], transitions: [{ state_name: 'delete', conditions: { min_index_age: '1d' } }] },
      { name: 'delete', actions: [{ delete: {} }] },
    ],
  },
};

for (const backend of BACKENDS) {
  describe(`OpenSearch Index State Management APIs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: { auth: string };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const index of ['ism-own', 'ism-other']) expect((await call(gw.url, 'PUT', `/${index}`)).status).to.equal(200);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['ism-own'], categories: ['cluster', 'indices', 'docs'], ops: ['read', 'write'] } });
      tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
    });
    after(() => stop());

    it('creates a policy once, updates it only at the revision named, reads, lists and deletes it', async () => {
      const created = await call(gw.url, 'PUT', '/_plugins/_ism/policies/hot-delete', { body: POLICY });
      expect(created.status, created.text).to.equal(201);
      expect(created.json).to.include({ _id: 'hot-delete', _version: 1, _primary_term: 1 });
      expect(created.json.policy.policy).to.include({ policy_id: 'hot-delete', default_state: 'hot', ism_template: null });
      const again = await call(gw.url, 'PUT', '/_plugins/_ism/policies/hot-delete', { body: POLICY });
      expect([again.status, again.json.error?.type]).to.deep.equal([409, 'version_conflict_engine_exception']);
      const { _seq_no: seq, _primary_term: term } = created.json;
      const stale = await call(gw.url, 'PUT', `/_plugins/_ism/policies/hot-delete?if_seq_no=${seq + 100}&if_primary_term=${term}`, { body: POLICY });
      expect(stale.status).to.equal(409);
      const updated = await call(gw.url, 'PUT', `/_plugins/_ism/policies?policyID=hot-delete&if_seq_no=${seq}&if_primary_term=${term}`, { body: POLICY });
      expect([updated.status, updated.json._version], updated.text).to.deep.equal([200, 2]);
      const got = await call(gw.url, 'GET', '/_plugins/_ism/policies/hot-delete');
      expect([got.status, got.json._id, got.json._seq_no, got.json.policy.states.length]).to.deep.equal([200, 'hot-delete', updated.json._seq_no, 2]);
      expect((await call(gw.url, 'HEAD', '/_plugins/_ism/policies/hot-delete')).status).to.equal(200);
      const list = await call(gw.url, 'GET', '/_plugins/_ism/policies');
      expect([list.json.total_policies, list.json.policies.map((p: { _id: string }) => p._id)]).to.deep.equal([1, ['hot-delete']]);
      const deleted = await call(gw.url, 'DELETE', '/_plugins/_ism/policies/hot-delete');
      expect([deleted.status, deleted.json.result]).to.deep.equal([200, 'deleted']);
      expect((await call(gw.url, 'DELETE', '/_plugins/_ism/policies/hot-delete')).status).to.equal(404);
      const missing = await call(gw.url, 'GET', '/_plugins/_ism/policies/hot-delete');
      expect([missing.status, missing.json.error?.reason]).to.deep.equal([404, 'Policy not found']);
    });

    it('refuses a policy whose default state is none of its states', async () => {
      const r = await call(gw.url, 'PUT', '/_plugins/_ism/policies/bad', { body: { policy: { default_state: 'nope', states: [{ name: 'hot', actions: [] }] } } });
      expect([r.status, r.json.error?.type]).to.deep.equal([400, 'illegal_argument_exception']);
    });

    it('adds, explains, changes and removes the policy managing an index; a deleted index is no longer managed', async () => {
      expect((await call(gw.url, 'PUT', '/_plugins/_ism/policies/p1', { body: POLICY })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/_plugins/_ism/policies/p2', { body: POLICY })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/ism-temp')).status).to.equal(200);
      const add = await call(gw.url, 'POST', '/_plugins/_ism/add/ism-temp', { body: { policy_id: 'p1' } });
      expect(add.json).to.deep.equal({ updated_indices: 1, failures: false, failed_indices: [] });
      const twice = await call(gw.url, 'POST', '/_plugins/_ism/add?index=ism-temp', { body: { policy_id: 'p1' } });
      expect([twice.json.updated_indices, twice.json.failed_indices[0]?.index_name]).to.deep.equal([0, 'ism-temp']);
      const noPolicy = await call(gw.url, 'POST', '/_plugins/_ism/add/ism-temp', { body: { policy_id: 'nope' } });
      expect(noPolicy.status).to.equal(404);
      const explained = await call(gw.url, 'GET', '/_plugins/_ism/explain/ism-temp');
      expect(explained.json['ism-temp']).to.include({ policy_id: 'p1', enabled: true, 'index.plugins.index_state_management.policy_id': 'p1' });
      expect(explained.json.total_managed_indices).to.equal(1);
      const changed = await call(gw.url, 'POST', '/_plugins/_ism/change_policy/ism-temp', { body: { policy_id: 'p2', state: 'hot' } });
      expect(changed.json.updated_indices).to.equal(1);
      const all = await call(gw.url, 'POST', '/_plugins/_ism/explain', { body: { filter: { policy_id: 'p2' } } });
      expect([all.json['ism-temp']?.policy_id, all.json.total_managed_indices]).to.deep.equal(['p2', 1]);
      const retry = await call(gw.url, 'POST', '/_plugins/_ism/retry/ism-temp', { body: {} });
      expect(retry.json.failed_indices[0].reason).to.equal('This index is not in failed state.');
      const removed = await call(gw.url, 'POST', '/_plugins/_ism/remove/ism-temp');
      expect(removed.json).to.deep.equal({ updated_indices: 1, failures: false, failed_indices: [] });
      const unmanaged = await call(gw.url, 'GET', '/_plugins/_ism/explain/ism-temp');
      expect(unmanaged.json).to.deep.equal({ 'ism-temp': { 'index.plugins.index_state_management.policy_id': null, 'index.opendistro.index_state_management.policy_id': null, enabled: null }, total_managed_indices: 0 });
      await call(gw.url, 'POST', '/_plugins/_ism/add/ism-temp', { body: { policy_id: 'p1' } });
      expect((await call(gw.url, 'DELETE', '/ism-temp')).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/ism-temp')).status).to.equal(200);
      const again = await call(gw.url, 'GET', '/_plugins/_ism/explain');
      expect(again.json).to.deep.equal({ total_managed_indices: 0 });
    });

    it('a scoped credential manages its own indices only and may not change policies', async () => {
      const own = await call(gw.url, 'POST', '/_plugins/_ism/add/ism-own', { ...tenant, body: { policy_id: 'p1' } });
      expect([own.status, own.json.updated_indices], own.text).to.deep.equal([200, 1]);
      const other = await call(gw.url, 'POST', '/_plugins/_ism/add/ism-other', { ...tenant, body: { policy_id: 'p1' } });
      expect(other.status, other.text).to.equal(403);
      const otherByParam = await call(gw.url, 'POST', '/_plugins/_ism/remove?index=ism-other', tenant);
      expect(otherByParam.status, otherByParam.text).to.equal(403);
      expect((await call(gw.url, 'GET', '/_plugins/_ism/explain/ism-own', tenant)).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_ism/explain', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_plugins/_ism/policies/mine', { ...tenant, body: POLICY })).status).to.equal(403);
    });
  });
}
