import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const OPENSEARCH_CLIENT = { 'user-agent': 'opensearch-js/2.13.0 (linux 6.1.0-x64; Node.js v20.18.0)' };

/** Through the gateway, on both backends: an OpenSearch client gets OpenSearch 2's answers where the engines differ. */
for (const backend of BACKENDS) {
  describe(`gateway (${backend.name}): OpenSearch 2 answers to OpenSearch clients`, () => {
    let gateway: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway, stop } = await backend.start());
    });
    after(() => stop());

    it('GET / and _cat/nodes by the client, Elasticsearch 8 to the others', async () => {
      const os = await call(gateway.url, 'GET', '/', { headers: OPENSEARCH_CLIENT });
      expect(os.json.version.distribution, os.text).to.equal('opensearch');
      expect((await call(gateway.url, 'GET', '/_cat/nodes?format=json&h=cluster_manager', { headers: OPENSEARCH_CLIENT })).json).to.deep.equal([{ cluster_manager: '*' }]);
      const es = await call(gateway.url, 'GET', '/');
      expect(es.json.version.number).to.equal('8.15.0');
      expect(es.headers['x-elastic-product']).to.equal('Elasticsearch');
      expect((await call(gateway.url, 'GET', '/_cat/nodes?format=json&h=master')).json).to.deep.equal([{ master: '*' }]);
    });

    it("shard stores (and search shards' and cluster state's node), recovery sizes, _upgrade, segments and the _cat/indices and _cat/shards columns as OpenSearch 2.19 writes them; Elasticsearch 8.15's to the others", async () => {
      expect((await call(gateway.url, 'PUT', '/osd-one/_doc/1?refresh=true', { body: { t: 'x' } })).status).to.equal(201);
      const get = (path: string, headers: Record<string, string> = {}) => call(gateway.url, path.startsWith('POST ') ? 'POST' : 'GET', path.replace(/^POST /, ''), { headers });
      // OpenSearch's DiscoveryNode: name, ids, address and attributes, no roles or versions
      const osStore = (await get('/osd-one/_shard_stores?status=all', OPENSEARCH_CLIENT)).json.indices['osd-one'].shards['0'].stores[0];
      const osNode = Object.values(osStore).find((v) => typeof v === 'object') as Record<string, unknown>;
      expect(Object.keys(osNode)).to.deep.equal(['name', 'ephemeral_id', 'transport_address', 'attributes']);
      expect(osNode.attributes).to.deep.equal({ shard_indexing_pressure_enabled: 'true' });
      const esStore = (await get('/osd-one/_shard_stores?status=all')).json.indices['osd-one'].shards['0'].stores[0];
      const esNode = Object.values(esStore).find((v) => typeof v === 'object') as Record<string, unknown>;
      expect(esNode).to.include.keys('roles', 'version', 'external_id');
      // the cluster manager under its OpenSearch name too
      const state = (await get('/_cluster/state/_all', OPENSEARCH_CLIENT)).json;
      expect(state.cluster_manager_node).to.be.a('string').and.equal(state.master_node);
      expect((await get('/_cluster/state/cluster_manager_node', OPENSEARCH_CLIENT)).json).to.have.keys('cluster_name', 'cluster_uuid', 'cluster_manager_node');
      expect((await get('/_cluster/state/_all')).json).to.not.have.property('cluster_manager_node');
      expect((await get('/_cluster/state/cluster_manager_node')).status).to.equal(400);
      // the same node in _search_shards and the cluster state
      for (const path of ['/osd-one/_search_shards', '/_cluster/state/nodes']) {
        const [os] = Object.values((await get(path, OPENSEARCH_CLIENT)).json.nodes) as Array<Record<string, unknown>>;
        expect(Object.keys(os), path).to.deep.equal(['name', 'ephemeral_id', 'transport_address', 'attributes']);
        const [es] = Object.values((await get(path)).json.nodes) as Array<Record<string, unknown>>;
        expect(es, path).to.include.keys('roles', 'external_id');
      }

      expect((await get('POST /osd-one/_upgrade', OPENSEARCH_CLIENT)).json.upgraded_indices['osd-one']).to.deep.equal({ upgrade_version: '2.19.0', oldest_lucene_segment_version: '9.12.1' });
      expect((await get('POST /osd-one/_upgrade')).json.upgraded_indices['osd-one']).to.deep.equal({ upgrade_version: '8.15.0', oldest_lucene_segment_version: '9.11.1' });
      // OpenSearch's recovery sizes have no snapshot-based part
      expect(Object.keys((await get('/osd-one/_recovery', OPENSEARCH_CLIENT)).json['osd-one'].shards[0].index.size)).to.deep.equal(['total_in_bytes', 'reused_in_bytes', 'recovered_in_bytes', 'percent']);
      expect((await get('/osd-one/_recovery')).json['osd-one'].shards[0].index.size).to.have.property('recovered_from_snapshot_in_bytes');
      expect((await get('/osd-one/_segments', OPENSEARCH_CLIENT)).json.indices['osd-one'].shards['0'][0].segments._0.version).to.equal('9.12.1');
      expect((await get('/_cat/segments/osd-one?h=version', OPENSEARCH_CLIENT)).text.trim()).to.equal('9.12.1');
      expect((await get('/_cat/segments/osd-one?h=version')).text.trim()).to.equal('9.11.1');

      const header = async (path: string, headers: Record<string, string> = {}) => (await get(path, headers)).text.split('\n')[0].trim().split(/\s+/);
      expect(await header('/_cat/indices/osd-one?v', OPENSEARCH_CLIENT)).to.deep.equal(['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size']);
      expect(await header('/_cat/indices/osd-one?v')).to.include('dataset.size');
      expect(await header('/_cat/shards/osd-one?v', OPENSEARCH_CLIENT)).to.deep.equal(['index', 'shard', 'prirep', 'state', 'docs', 'store', 'ip', 'node']);
      expect(await header('/_cat/shards/osd-one?v')).to.include('dataset');
      expect(Object.keys((await get('/_list/indices/osd-one?format=json')).json.indices[0])).to.not.include('dataset.size');
    });

    it("the node in _nodes, node stats, _tasks by node, _cat/nodes and hot threads as an OpenSearch 2 node (its roles, attributes, version and build), tasks as OpenSearch's TaskInfo; Elasticsearch 8.15's to the others", async () => {
      const osRoles = ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'];
      const os = (path: string) => call(gateway.url, 'GET', path, { headers: OPENSEARCH_CLIENT });
      const [info] = Object.values((await os('/_nodes/settings')).json.nodes) as Array<Record<string, any>>;
      expect(info.roles).to.deep.equal(osRoles);
      expect(info.attributes).to.deep.equal({ shard_indexing_pressure_enabled: 'true' });
      expect(info.settings.node.roles).to.deep.equal(osRoles);
      expect([info.version, info.build_type]).to.deep.equal(['2.19.0', 'tar']);
      for (const key of ['transport_version', 'index_version', 'component_versions', 'build_flavor']) expect(info, key).to.not.have.property(key);
      const osDefaults = (await os('/_cluster/settings?include_defaults=true&flat_settings=true')).json.defaults;
      expect([osDefaults['node.roles'], osDefaults['node.attr.shard_indexing_pressure_enabled'], osDefaults['search.cancel_after_time_interval']]).to.deep.equal([osRoles, 'true', '-1']);
      const esDefaults = (await call(gateway.url, 'GET', '/_cluster/settings?include_defaults=true&flat_settings=true')).json.defaults;
      expect(esDefaults['node.roles']).to.include('master');
      expect(esDefaults).to.not.have.property('search.cancel_after_time_interval');
      const [stats] = Object.values((await os('/_nodes/stats/jvm')).json.nodes) as Array<Record<string, any>>;
      expect(stats.roles).to.deep.equal(osRoles);
      const [byNode] = Object.values((await os('/_tasks?group_by=nodes')).json.nodes) as Array<Record<string, any>>;
      expect([byNode.roles, byNode.attributes]).to.deep.equal([osRoles, { shard_indexing_pressure_enabled: 'true' }]);
      expect((await os('/_cat/nodes?format=json&h=node.role,version')).json).to.deep.equal([{ 'node.role': 'dimr', version: '2.19.0' }]);
      expect((await os('/_nodes/hot_threads')).text).to.match(/^::: \{[^}]*\}(\{[^}]*\}){5}\{dimr\}\{shard_indexing_pressure_enabled=true\}/);
      const [esInfo] = Object.values((await call(gateway.url, 'GET', '/_nodes')).json.nodes) as Array<Record<string, any>>;
      expect(esInfo.roles).to.include.members(['master', 'ml', 'data_hot']);
      expect([esInfo.version, esInfo.build_flavor, esInfo.attributes['xpack.installed']]).to.deep.equal(['8.15.0', 'default', 'true']);
      const [esByNode] = Object.values((await call(gateway.url, 'GET', '/_tasks')).json.nodes) as Array<Record<string, any>>;
      expect(esByNode.roles).to.include('master');
      // OpenSearch's TaskInfo writes `cancelled` for every task, right after `cancellable`; Elasticsearch's for cancellable ones only
      const [listed] = (await os('/_tasks?group_by=none&actions=cluster:monitor/tasks/lists')).json.tasks as Array<Record<string, unknown>>;
      expect(Object.keys(listed).slice(Object.keys(listed).indexOf('cancellable'), Object.keys(listed).indexOf('cancellable') + 2)).to.deep.equal(['cancellable', 'cancelled']);
      expect([listed.cancellable, listed.cancelled]).to.deep.equal([false, false]);
      const [esListed] = (await call(gateway.url, 'GET', '/_tasks?group_by=none&actions=cluster:monitor/tasks/lists')).json.tasks as Array<Record<string, unknown>>;
      expect(esListed).to.not.have.property('cancelled');
    });

    it("include_defaults lists OpenSearch's index.store.hybrid.mmap.extensions to its clients only; an index's own value wins", async () => {
      expect((await call(gateway.url, 'PUT', '/osd-store', { body: { settings: { 'index.store.hybrid.mmap.extensions': ['nvd', 'vec'] } } })).status).to.equal(200);
      expect((await call(gateway.url, 'PUT', '/osd-plain')).status).to.equal(200);
      const os = await call(gateway.url, 'GET', '/osd-plain,osd-store/_settings?include_defaults=true&flat_settings=true', { headers: OPENSEARCH_CLIENT });
      expect(os.json['osd-plain'].defaults['index.store.hybrid.mmap.extensions']).to.deep.equal(['nvd', 'dvd', 'tim', 'tip', 'dim', 'kdd', 'kdi', 'cfs', 'doc']);
      expect(os.json['osd-store'].settings['index.store.hybrid.mmap.extensions']).to.deep.equal(['nvd', 'vec']);
      expect(os.json['osd-store'].defaults).to.not.have.property('index.store.hybrid.mmap.extensions');
      const es = await call(gateway.url, 'GET', '/osd-plain/_settings?include_defaults=true&flat_settings=true');
      expect(es.json['osd-plain'].defaults).to.not.have.property('index.store.hybrid.mmap.extensions');
      expect(es.json['osd-plain'].defaults['index.store.type']).to.equal('');
    });
  });
}
