import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch 2 plugins' own APIs: the notifications plugin's `_plugins/_notifications/features`
 * (a cluster read: no channel type, as no notification is sent) and the k-NN plugin's `_plugins/_knn/stats` (cluster and node stats; they
 * name every tenant's cached indices, so a cluster-level `manage` right) and
 * `_plugins/_knn/warmup/{index}` (a read of the indices it names).
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch plugin APIs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: { auth: string };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const index of ['vec-a', 'vec-b']) {
        const r = await call(gw.url, 'PUT', `/${index}`, { body: { settings: { number_of_shards: 2 }, mappings: { properties: { v: { type: 'dense_vector', dims: 2 } } } } });
        expect(r.status, r.text).to.equal(200);
      }
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['vec-a'], categories: ['cluster', 'indices', 'docs'], ops: ['read', 'write'] } });
      tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
    });
    after(() => stop());

    it('lists no notification channel type, to any credential with cluster read', async () => {
      const r = await call(gw.url, 'GET', '/_plugins/_notifications/features', tenant);
      expect([r.status, r.json], r.text).to.deep.equal([200, { allowed_config_type_list: [], plugin_features: {} }]);
    });

    it('lists no notification channel, to any credential with cluster read', async () => {
      const r = await call(gw.url, 'GET', '/_plugins/_notifications/channels', tenant);
      expect([r.status, r.json], r.text).to.deep.equal([200, { start_index: 0, total_hits: 0, total_hit_relation: 'eq', channel_list: [] }]);
    });

    it('answers the k-NN stats: cluster ones beside the node\'s, all or the named ones; an unknown stat is 400', async () => {
      const all = await call(gw.url, 'GET', '/_plugins/_knn/stats');
      expect(all.status, all.text).to.equal(200);
      expect(all.json).to.include({ circuit_breaker_triggered: false, model_index_status: null });
      expect(all.json._nodes).to.deep.equal({ total: 1, successful: 1, failed: 0 });
      const [node] = Object.values(all.json.nodes) as Array<Record<string, unknown>>;
      expect(node).to.include({ hit_count: 0, graph_memory_usage: 0, lucene_initialized: true });
      const one = await call(gw.url, 'GET', '/_plugins/_knn/_all/stats/hit_count');
      expect(Object.values(one.json.nodes)).to.deep.equal([{ hit_count: 0 }]);
      expect(one.json).to.not.have.property('circuit_breaker_triggered');
      const unknown = await call(gw.url, 'GET', '/_plugins/_knn/stats/nope');
      expect([unknown.status, unknown.json.error.type]).to.deep.equal([400, 'illegal_argument_exception']);
    });

    it('warms the indices named: every shard answered, a missing index 404', async () => {
      const r = await call(gw.url, 'GET', '/_plugins/_knn/warmup/vec-a,vec-b');
      expect([r.status, r.json]).to.deep.equal([200, { _shards: { total: 4, successful: 4, failed: 0 } }]);
      const missing = await call(gw.url, 'GET', '/_plugins/_knn/warmup/nope');
      expect(missing.status).to.equal(404);
    });

    it('answers the SQL plugin\'s metrics as text, SQL\'s and PPL\'s, at zero, by GET or POST, on the legacy paths too', async () => {
      for (const [method, path] of [['GET', '/_plugins/_sql/stats'], ['POST', '/_plugins/_sql/stats'], ['POST', '/_plugins/_ppl/stats'], ['GET', '/_opendistro/_sql/stats']]) {
        const r = await call(gw.url, method, path, tenant);
        expect([r.status, String(r.headers['content-type'])], `${method} ${path} ${r.text}`).to.deep.equal([200, 'text/plain; charset=UTF-8']);
        expect(JSON.parse(r.text)).to.include({ request_total: 0, failed_request_count_cb: 0, circuit_breaker: 0, ppl_request_total: 0 });
      }
    });

    it('updates the cluster settings of the SQL plugin\'s namespaces through _plugins/_query/settings, dropping any other key', async () => {
      const put = await call(gw.url, 'PUT', '/_plugins/_query/settings', {
        body: { transient: { plugins: { sql: { enabled: false } }, 'plugins.ppl.enabled': true, 'cluster.routing.allocation.enable': 'none' }, persistent: { 'opendistro.query.size_limit': 100 } },
      });
      expect([put.status, put.json], put.text).to.deep.equal([200, {
        acknowledged: true,
        persistent: { opendistro: { query: { size_limit: '100' } } },
        transient: { plugins: { sql: { enabled: 'false' }, ppl: { enabled: 'true' } } },
      }]);
      const got = await call(gw.url, 'GET', '/_cluster/settings?flat_settings=true');
      expect(got.json).to.deep.equal({ persistent: { 'opendistro.query.size_limit': '100' }, transient: { 'plugins.ppl.enabled': 'true', 'plugins.sql.enabled': 'false' } });
      const reset = await call(gw.url, 'PUT', '/_opendistro/_sql/settings', { body: { transient: { 'plugins.sql.*': null, 'plugins.ppl.enabled': null, 'cluster.*': null }, persistent: { 'opendistro.query.size_limit': null } } });
      expect(reset.status, reset.text).to.equal(200);
      const after = await call(gw.url, 'GET', '/_cluster/settings');
      expect(after.json).to.deep.equal({ persistent: {}, transient: {} });
    });

    it('a scoped credential warms its own indices only (a wildcard narrowed to them) and may not read the stats', async () => {
      const own = await call(gw.url, 'GET', '/_plugins/_knn/warmup/vec-a', tenant);
      expect([own.status, own.json._shards?.total], own.text).to.deep.equal([200, 2]);
      const other = await call(gw.url, 'GET', '/_plugins/_knn/warmup/vec-b', tenant);
      expect(other.status, other.text).to.equal(403);
      const wildcard = await call(gw.url, 'GET', '/_plugins/_knn/warmup/vec-*', tenant);
      expect([wildcard.status, wildcard.json._shards?.total], wildcard.text).to.deep.equal([200, 2]);
      const stats = await call(gw.url, 'GET', '/_plugins/_knn/stats', tenant);
      expect(stats.status, stats.text).to.equal(403);
    });
  });
}
