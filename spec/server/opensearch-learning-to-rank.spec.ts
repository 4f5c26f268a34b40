import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch's Learning to Rank plugin APIs (`/_ltr`, `/_plugins/_ltr/stats`) as the embedded
 * engine keeps them: feature stores made, listed, told and dropped; features, feature sets and
 * models put (PUT creates once, POST replaces; a model never), read, listed by prefix and deleted;
 * features added to a set from the body or the store, a model made from a set. The stores are
 * shared cluster configuration: a scoped credential is refused them, reading too.
 */
const feature = (field: string) => ({ params: ['keywords'], template: { match: { [field]: '{{keywords}}' } } });

for (const backend of BACKENDS) {
  describe(`OpenSearch Learning to Rank APIs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: { auth: string };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['ltr-own'], categories: ['cluster', 'indices', 'search'], ops: ['read', 'write', 'delete'] } });
      tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
    });
    after(() => stop());

    it('makes, lists, tells and drops feature stores', async () => {
      const made = await call(gw.url, 'PUT', '/_ltr');
      expect([made.status, made.json], made.text).to.deep.equal([200, { acknowledged: true, shards_acknowledged: true, index: '.ltrstore' }]);
      expect((await call(gw.url, 'PUT', '/_ltr')).json.error?.type).to.equal('resource_already_exists_exception');
      expect((await call(gw.url, 'PUT', '/_ltr/mine')).json.index).to.equal('.ltrstore_mine');
      const listed = await call(gw.url, 'GET', '/_ltr');
      expect(Object.keys(listed.json.stores)).to.deep.equal(['_default_', 'mine']);
      expect(listed.json.stores.mine).to.deep.include({ index: '.ltrstore_mine', counts: { feature: 0, featureset: 0, model: 0 } });
      expect((await call(gw.url, 'GET', '/_ltr/mine')).json).to.deep.equal({ exists: true });
      expect((await call(gw.url, 'DELETE', '/_ltr/mine')).json).to.deep.equal({ acknowledged: true });
      const gone = await call(gw.url, 'GET', '/_ltr/mine');
      expect([gone.status, gone.json]).to.deep.equal([404, { exists: false }]);
      expect((await call(gw.url, 'DELETE', '/_ltr/mine')).status).to.equal(404);
    });

    it('creates elements once, replaces them with POST, lists them by prefix and deletes them', async () => {
      const created = await call(gw.url, 'PUT', '/_ltr/_feature/title_match', { body: { feature: feature('title') } });
      expect([created.status, created.json._id, created.json.result], created.text).to.deep.equal([201, 'feature-title_match', 'created']);
      expect((await call(gw.url, 'PUT', '/_ltr/_feature/title_match', { body: { feature: feature('title') } })).status).to.equal(409);
      const replaced = await call(gw.url, 'POST', '/_ltr/_feature/title_match', { body: { feature: feature('description') } });
      expect([replaced.status, replaced.json._version]).to.deep.equal([200, 2]);
      const got = await call(gw.url, 'GET', '/_ltr/_feature/title_match');
      expect(got.json._source).to.deep.equal({ name: 'title_match', type: 'feature', feature: { name: 'title_match', params: ['keywords'], template_language: 'mustache', template: { match: { description: '{{keywords}}' } } } });
      await call(gw.url, 'PUT', '/_ltr/_feature/other', { body: { feature: feature('body') } });
      const listed = await call(gw.url, 'GET', '/_ltr/_feature?prefix=title');
      expect([listed.json.hits.total.value, listed.json.hits.hits.map((h: { _id: string }) => h._id)]).to.deep.equal([1, ['feature-title_match']]);
      const noTemplate = await call(gw.url, 'PUT', '/_ltr/_feature/bad', { body: { feature: { params: ['keywords'] } } });
      expect(noTemplate.status).to.equal(400);
      expect((await call(gw.url, 'DELETE', '/_ltr/_feature/other')).json.result).to.equal('deleted');
      expect((await call(gw.url, 'GET', '/_ltr/_feature/other')).status).to.equal(404);
    });

    it('adds features to a set (from the body or the store), makes a model from it once', async () => {
      const added = await call(gw.url, 'POST', '/_ltr/_featureset/set1/_addfeatures', { body: { features: [{ name: 'f1', ...feature('title') }] } });
      expect([added.status, added.json.result], added.text).to.deep.equal([201, 'created']);
      const fromStore = await call(gw.url, 'POST', '/_ltr/_featureset/set1/_addfeatures/title_*');
      expect(fromStore.status, fromStore.text).to.equal(200);
      const set = await call(gw.url, 'GET', '/_ltr/_featureset/set1');
      expect(set.json._source.featureset.features.map((f: { name: string }) => f.name)).to.deep.equal(['f1', 'title_match']);
      const twice = await call(gw.url, 'POST', '/_ltr/_featureset/set1/_addfeatures', { body: { features: [{ name: 'f1', ...feature('body') }] } });
      expect(twice.status).to.equal(400);
      const merged = await call(gw.url, 'POST', '/_ltr/_featureset/set1/_addfeatures?merge=true', { body: { features: [{ name: 'f1', ...feature('body') }] } });
      expect(merged.status, merged.text).to.equal(200);
      const model = { model: { name: 'm1', model: { type: 'model/linear', definition: { f1: 1.5, title_match: 0.5 } } } };
      const made = await call(gw.url, 'POST', '/_ltr/_featureset/set1/_createmodel', { body: model });
      expect([made.status, made.json._id], made.text).to.deep.equal([201, 'model-m1']);
      expect((await call(gw.url, 'POST', '/_ltr/_featureset/set1/_createmodel', { body: model })).status).to.equal(405);
      const got = await call(gw.url, 'GET', '/_ltr/_model/m1');
      expect(got.json._source.model.feature_set.features).to.have.length(2);
      expect((await call(gw.url, 'POST', '/_ltr/_model/m1', { body: { model: {} } })).status).to.equal(400);
      const badType = await call(gw.url, 'PUT', '/_ltr/_model/m2', { body: { model: { feature_set: { name: 's', features: [] }, model: { type: 'model/nope', definition: {} } } } });
      expect(badType.status).to.equal(400);
    });

    it('answers the cache stats, clears a store\'s cache and tells the plugin\'s stats', async () => {
      const cache = await call(gw.url, 'GET', '/_ltr/_cachestats');
      expect([cache.status, cache.json.all.total]).to.deep.equal([200, { ram: 0, count: 0 }]);
      expect((await call(gw.url, 'POST', '/_ltr/_clearcache')).json).to.deep.equal({ acknowledged: true });
      expect((await call(gw.url, 'POST', '/_ltr/missing/_clearcache')).status).to.equal(404);
      const stats = await call(gw.url, 'GET', '/_plugins/_ltr/stats');
      expect([stats.status, stats.json.status, stats.json.stores['.ltrstore'].feature_count]).to.deep.equal([200, 'green', 1]);
      const one = await call(gw.url, 'GET', '/_plugins/_ltr/_all/stats/cache');
      const [node] = Object.values(one.json.nodes) as Array<Record<string, unknown>>;
      expect([Object.keys(node), one.json.status]).to.deep.equal([['cache'], undefined]);
      expect((await call(gw.url, 'GET', '/_plugins/_ltr/stats/nope')).status).to.equal(400);
    });

    it('refuses the stores to a scoped credential, reading too; its stats are a cluster read', async () => {
      expect((await call(gw.url, 'GET', '/_ltr', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_ltr/_feature/title_match', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_ltr/_feature/x', { ...tenant, body: { feature: feature('title') } })).status).to.equal(403);
      expect((await call(gw.url, 'POST', '/_ltr/_featureset/set1/_addfeatures/title_*', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'DELETE', '/_ltr', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_ltr/_cachestats', tenant)).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_ltr/stats', tenant)).status).to.equal(200);
    });
  });
}
