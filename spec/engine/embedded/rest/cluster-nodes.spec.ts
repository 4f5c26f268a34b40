import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { basic, call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';
import { startEngine, type TestEngine } from '../support.js';

/** The single node's entry of a `_nodes` answer, and its id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function theNode(body: any): { id: string; node: any } {
  const ids = Object.keys(body.nodes);
  expect(ids).to.have.length(1);
  return { id: ids[0], node: body.nodes[ids[0]] };
}

describe('embedded engine REST: cluster settings, cluster stats, nodes, search shards', () => {
  let es: TestEngine;
  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('PUT/GET _cluster/settings: persistent and transient, flat or nested, null resets, defaults on request', async () => {
    expect((await es.call('GET', '/_cluster/settings')).json).to.deep.equal({ persistent: {}, transient: {} });
    let r = await es.call('PUT', '/_cluster/settings?flat_settings=true', { persistent: { 'cluster.routing.allocation.enable': 'none' } });
    expect(r.json).to.deep.equal({ acknowledged: true, persistent: { 'cluster.routing.allocation.enable': 'none' }, transient: {} });
    r = await es.call('PUT', '/_cluster/settings', { transient: { indices: { recovery: { max_bytes_per_sec: '50mb' } } }, persistent: { 'search.max_buckets': 1000 } });
    // the answer shows what was set, nested unless flat_settings; values are strings as in ES
    expect(r.json).to.deep.equal({ acknowledged: true, persistent: { search: { max_buckets: '1000' } }, transient: { indices: { recovery: { max_bytes_per_sec: '50mb' } } } });
    expect((await es.call('GET', '/_cluster/settings?flat_settings=true')).json).to.deep.equal({
      persistent: { 'cluster.routing.allocation.enable': 'none', 'search.max_buckets': '1000' },
      transient: { 'indices.recovery.max_bytes_per_sec': '50mb' },
    });
    expect((await es.call('GET', '/_cluster/settings')).json.persistent).to.deep.equal({ cluster: { routing: { allocation: { enable: 'none' } } }, search: { max_buckets: '1000' } });

    r = await es.call('PUT', '/_cluster/settings?flat_settings=true', { persistent: { 'cluster.routing.allocation.enable': null } });
    expect(r.json).to.deep.equal({ acknowledged: true, persistent: {}, transient: {} });
    await es.call('PUT', '/_cluster/settings', { transient: { 'indices.recovery.*': null } });
    expect((await es.call('GET', '/_cluster/settings?flat_settings=true')).json).to.deep.equal({ persistent: { 'search.max_buckets': '1000' }, transient: {} });

    const defaults = (await es.call('GET', '/_cluster/settings?include_defaults=true&flat_settings=true')).json.defaults;
    expect(defaults).to.include({ 'cluster.routing.allocation.enable': 'all', 'node.attr.xpack.installed': 'true' });
    expect(defaults).not.to.have.property('search.max_buckets'); // set, so not a default
    expect((await es.call('GET', '/_cluster/settings?include_defaults=true')).json.defaults.node.attr.xpack.installed).to.equal('true');

    // OpenSearch's bundled plugins' settings are kept (the stories set them before their ML steps)
    const plugins = await es.call('PUT', '/_cluster/settings', { persistent: { plugins: { ml_commons: { only_run_on_ml_node: false } }, 'knn.memory.circuit_breaker.limit': '60%' } });
    expect(plugins.json, plugins.text).to.deep.equal({ acknowledged: true, persistent: { plugins: { ml_commons: { only_run_on_ml_node: 'false' } }, knn: { memory: { circuit_breaker: { limit: '60%' } } } }, transient: {} });
    await es.call('PUT', '/_cluster/settings', { persistent: { 'plugins.*': null, 'knn.*': null } });
    const unknown = await es.call('PUT', '/_cluster/settings', { persistent: { 'no.such.setting': 1 } });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error).to.include({ type: 'illegal_argument_exception', reason: 'persistent setting [no.such.setting], not recognized' });
    expect((await es.call('PUT', '/_cluster/settings', {})).status).to.equal(400);
  });

  it('persistent cluster settings survive a restart; transient ones do not', async () => {
    await es.call('PUT', '/_cluster/settings', { persistent: { 'action.auto_create_index': 'false' }, transient: { 'logger.org.elasticsearch': 'DEBUG' } });
    const dir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir: dir });
    expect((await es.call('GET', '/_cluster/settings?flat_settings')).json).to.deep.equal({ persistent: { 'action.auto_create_index': 'false' }, transient: {} });
    await es.call('PUT', '/_cluster/settings', { persistent: { 'action.auto_create_index': null } });
    await es.close(false);
    es = await startEngine({ dataDir: dir });
    expect((await es.call('GET', '/_cluster/settings')).json).to.deep.equal({ persistent: {}, transient: {} });
  });

  it('GET _cluster/stats: indices and the node, in the reference\'s shape', async () => {
    let r = (await es.call('GET', '/_cluster/stats')).json;
    expect(r.timestamp).to.be.a('number');
    expect(r.cluster_name).to.be.a('string');
    expect(r.cluster_uuid).to.be.a('string');
    expect(r.status).to.equal('green');
    expect(r.indices).to.include.keys('count', 'docs', 'store', 'fielddata', 'query_cache', 'completion', 'segments', 'mappings');
    expect(r.nodes.count).to.include({ total: 1, master: 1, data: 1, ingest: 1, coordinating_only: 0 });
    expect(r.nodes.os.mem.total_in_bytes).to.be.greaterThan(0);
    expect(r.nodes.os.mem.free_in_bytes).to.be.greaterThan(0);
    expect(r.nodes.os.mem.used_in_bytes).to.be.greaterThan(0);
    expect(r.nodes.os.mem.used_percent).to.be.within(0, 100);
    expect(r.nodes).to.include.keys('process', 'jvm', 'fs', 'plugins', 'network_types', 'discovery_types', 'packaging_types');
    expect(r.nodes.versions).to.deep.equal(['8.15.0']);
    expect(r.nodes.fs.total_in_bytes).to.be.greaterThan(0);
    expect(r.indices.mappings.field_types).to.deep.equal([]);

    await es.call('PUT', '/sensor', {
      settings: { number_of_replicas: 0 },
      mappings: {
        runtime: { message_from_source: { type: 'keyword' }, bad_map: { type: 'double' }, 'message.text': { type: 'keyword' } },
        properties: { message: { type: 'keyword', fields: { text: { type: 'text' } } }, bad_map: { type: 'long' } },
      },
    });
    await es.call('PUT', '/sensor/_doc/1?refresh=true', { message: 'hi', bad_map: 1 });
    r = (await es.call('GET', '/_cluster/stats')).json;
    expect(r.indices.count).to.equal(1);
    expect(r.indices.docs).to.deep.equal({ count: 1, deleted: 0 });
    expect(r.indices.shards).to.include({ total: 1, primaries: 1 });
    expect(r.indices.mappings.field_types).to.deep.equal([
      { name: 'keyword', count: 1, index_count: 1 }, { name: 'long', count: 1, index_count: 1 }, { name: 'text', count: 1, index_count: 1 },
    ]);
    expect(r.indices.mappings.runtime_field_types.map((t: { name: string; count: number; scriptless_count: number; shadowed_count: number }) =>
      [t.name, t.count, t.scriptless_count, t.shadowed_count])).to.deep.equal([['double', 1, 1, 1], ['keyword', 2, 2, 1]]);
    expect(r.indices.mappings.total_field_count).to.be.greaterThan(0);
  });

  it('GET _cluster/stats/{metric}[/{index_metric}]/nodes/{node_id} (OpenSearch 2.18): only the sections asked for', async () => {
    await es.call('PUT', '/sensor/_doc/1?refresh=true', { message: 'hi' });
    let r = await es.call('GET', '/_cluster/stats/fs,jvm/nodes/_all');
    expect(r.status, r.text).to.equal(200);
    expect(r.json).not.to.have.property('indices');
    expect(Object.keys(r.json.nodes).sort()).to.deep.equal(['count', 'fs', 'jvm', 'versions']);
    expect(r.json).to.include.keys('_nodes', 'cluster_name', 'cluster_uuid', 'timestamp', 'status');

    r = await es.call('GET', '/_cluster/stats/indices/analysis,mappings/nodes/_all');
    expect(r.status, r.text).to.equal(200);
    expect(Object.keys(r.json.indices).sort()).to.deep.equal(['analysis', 'count', 'mappings']);
    expect(r.json.indices.count).to.equal(1);
    expect(Object.keys(r.json.nodes).sort()).to.deep.equal(['count', 'versions']);

    r = await es.call('GET', '/_cluster/stats/_all/nodes/_local');
    expect(r.json.indices).to.include.keys('docs', 'store', 'mappings');
    expect(r.json.nodes).to.include.keys('os', 'process', 'jvm', 'fs');

    const bad = await es.call('GET', '/_cluster/stats/jvn/nodes/_all');
    expect(bad.status).to.equal(400);
    expect(bad.json.error).to.include({ type: 'illegal_argument_exception', reason: 'request [/_cluster/stats/jvn/nodes/_all] contains unrecognized metric: [jvn] -> did you mean [jvm]?' });
    const notIndices = await es.call('GET', '/_cluster/stats/jvm/docs/nodes/_all');
    expect(notIndices.status).to.equal(400);
    expect(notIndices.json.error.reason).to.equal('request [/_cluster/stats/jvm/docs/nodes/_all] contains index metrics [docs] but indices stats not requested');
    expect((await es.call('GET', '/_cluster/stats/indices/doc/nodes/_all')).status).to.equal(400);
  });

  it('POST _nodes[/{node_id}]/reload_secure_settings: each selected node answers with its name (an empty keystore without password: another password is refused)', async () => {
    const all = await es.call('POST', '/_nodes/reload_secure_settings');
    expect(all.status, all.text).to.equal(200);
    expect(all.json._nodes).to.deep.equal({ total: 1, successful: 1, failed: 0 });
    const [id] = Object.keys(all.json.nodes);
    expect(all.json.nodes[id]).to.deep.equal({ name: (await es.call('GET', '/_nodes')).json.nodes[id].name });
    // the node's keystore has no password: another one fails to decrypt it, reported in the node's answer
    const wrong = (await es.call('POST', '/_nodes/_all/reload_secure_settings', { secure_settings_password: 'pw' })).json;
    expect(wrong._nodes.successful).to.equal(1);
    expect(wrong.nodes[id].reload_exception).to.deep.equal({ type: 'security_exception', reason: 'Provided keystore password was incorrect' });
    expect((await es.call('POST', '/_nodes/_local/reload_secure_settings', { secure_settings_password: '' })).json.nodes[id]).to.not.have.property('reload_exception');
    expect((await es.call('POST', '/_nodes/no-such-node/reload_secure_settings')).json._nodes).to.deep.equal({ total: 0, successful: 0, failed: 0 });
    expect((await es.call('POST', '/_nodes/reload_secure_settings', { password: 'pw' })).status).to.equal(400);
    expect((await es.call('GET', '/_nodes/reload_secure_settings')).status).to.equal(200); // GET is nodes info for a node or metric so named
  });

  it('GET _nodes[/{node_id}][/{metric}]: the node, its sorted roles, and only the metrics asked for', async () => {
    const all = (await es.call('GET', '/_nodes')).json;
    expect(all._nodes).to.deep.equal({ total: 1, successful: 1, failed: 0 });
    expect(all.cluster_name).to.be.a('string');
    const { id, node } = theNode(all);
    expect(node).to.include({ ip: '127.0.0.1', host: '127.0.0.1', version: '8.15.0', build_flavor: 'default', build_type: 'tar', transport_address: '127.0.0.1:9300' });
    expect(node.roles).to.deep.equal(['data', 'data_cold', 'data_content', 'data_frozen', 'data_hot', 'data_warm', 'ingest', 'master', 'ml', 'remote_cluster_client', 'transform']);
    expect(node).to.include.keys('settings', 'os', 'process', 'jvm', 'thread_pool', 'transport', 'http', 'plugins', 'modules', 'ingest', 'aggregations', 'total_indexing_buffer');
    expect(node.process.id).to.equal(process.pid);

    const header = ['attributes', 'build_flavor', 'build_hash', 'build_type', 'host', 'ip', 'name', 'roles', 'transport_address', 'version'];
    const sections = ['aggregations', 'http', 'ingest', 'jvm', 'modules', 'os', 'plugins', 'process', 'settings', 'thread_pool', 'total_indexing_buffer', 'transport'];
    for (const [metric, present] of [['settings', ['settings']], ['os', ['os']], ['jvm', ['jvm']], ['plugins', ['modules', 'plugins']], ['indices', ['total_indexing_buffer']], ['settings,os', ['os', 'settings']], ['_none', []]] as const) {
      const { node: n } = theNode((await es.call('GET', `/_nodes/_master/${metric}`)).json);
      expect(n, metric).to.include.keys(...header);
      expect(sections.filter((s) => s in n), metric).to.deep.equal([...present]);
    }
    // a single part that is all metrics is metrics; otherwise node ids
    expect(Object.keys(theNode((await es.call('GET', '/_nodes/jvm,os')).json).node)).to.include.members(['jvm', 'os']).and.not.include('settings');
    expect(theNode((await es.call('GET', `/_nodes/${id}`)).json).node).to.include.keys('settings', 'jvm');
    expect(theNode((await es.call('GET', `/_nodes/${node.name}`)).json).id).to.equal(id);
    expect((await es.call('GET', '/_nodes/no-such-node')).json).to.deep.equal({ _nodes: { total: 0, successful: 0, failed: 0 }, cluster_name: all.cluster_name, nodes: {} });
    expect(theNode((await es.call('GET', '/_nodes/_local/settings?flat_settings=true')).json).node.settings['node.name']).to.equal(node.name);
  });

  it('GET _nodes/stats[/{metric}[/{index_metric}]]: live figures and the indices\' stats, filtered', async () => {
    let { node } = theNode((await es.call('GET', '/_nodes/stats')).json);
    for (const s of ['docs', 'store', 'indexing', 'get', 'search', 'merges', 'refresh', 'flush', 'warmer', 'query_cache', 'fielddata', 'completion', 'segments', 'translog', 'recovery']) {
      expect(node.indices, s).to.have.property(s);
    }
    expect(node.indices.shard_stats.total_count).to.equal(0);
    expect(node.indices.mappings).to.deep.equal({ total_count: 0, total_estimated_overhead_in_bytes: 0 });
    expect(node.os.mem.total_in_bytes).to.be.greaterThan(0);
    expect(node.jvm.mem.heap_used_in_bytes).to.be.greaterThan(0);
    expect(node.fs.total.total_in_bytes).to.be.greaterThan(0);
    expect(node.process.cpu).to.have.property('percent');

    await es.call('PUT', '/index1', { settings: { number_of_shards: 5, number_of_replicas: 0 } });
    await es.call('PUT', '/index2', { settings: { number_of_shards: 3, number_of_replicas: 1 } });
    await es.call('PUT', '/index1/_doc/1', { a: 1 });
    ({ node } = theNode((await es.call('GET', '/_nodes/stats/_all')).json));
    expect(node.indices.shard_stats.total_count).to.equal(8);
    expect(node.indices.docs.count).to.equal(1);
    expect(node.indices.indexing.index_total).to.equal(1);

    ({ node } = theNode((await es.call('GET', '/_nodes/stats/indices/docs')).json));
    expect(Object.keys(node.indices)).to.deep.equal(['docs']);
    expect(node).not.to.have.property('os');
    ({ node } = theNode((await es.call('GET', '/_nodes/stats/indices/store,get,merge')).json));
    expect(Object.keys(node.indices).sort()).to.deep.equal(['get', 'merges', 'store']);
    ({ node } = theNode((await es.call('GET', '/_nodes/_local/stats/os,jvm')).json));
    expect(node).to.include.keys('os', 'jvm').and.not.have.property('indices');
    ({ node } = theNode((await es.call('GET', '/_nodes/stats/indices?level=indices')).json));
    expect(node.indices.indices.index1.docs.count).to.equal(1);

    const bad = await es.call('GET', '/_nodes/stats/nope');
    expect(bad.status).to.equal(400);
    expect(bad.json.error.reason).to.equal('request [/_nodes/stats/nope] contains unrecognized metric: [nope]');
  });

  it('_cluster/allocation/explain?include_disk_info: the cluster info of the node\'s data path disk and the started primaries\' sizes and paths', async () => {
    await es.call('PUT', '/test', { settings: { 'index.number_of_shards': 2, 'index.number_of_replicas': 1 } });
    await es.call('PUT', '/test/_doc/1?refresh=true', { a: 1 });
    const r = await es.call('GET', '/_cluster/allocation/explain?include_disk_info=true');
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.include({ index: 'test', shard: 0, primary: false, current_state: 'unassigned' });
    const info = r.json.cluster_info;
    const [nodeId] = Object.keys(info.nodes);
    const disk = info.nodes[nodeId].least_available;
    expect(disk).to.deep.equal(info.nodes[nodeId].most_available);
    expect(disk.total_bytes).to.be.above(0);
    expect(disk.used_bytes + disk.free_bytes).to.equal(disk.total_bytes);
    expect(disk.free_disk_percent + disk.used_disk_percent).to.be.closeTo(100, 1e-9);
    expect(Object.keys(info.shard_sizes)).to.deep.equal(['[test][0][p]_bytes', '[test][1][p]_bytes']);
    expect(Object.keys(info.shard_data_set_sizes)).to.deep.equal(['[test][0]_bytes', '[test][1]_bytes']);
    expect(Object.keys(info.shard_paths)[0]).to.match(new RegExp(`^\\[test\\]\\[0\\], node\\[${nodeId}\\], \\[P\\], s\\[STARTED\\], a\\[id=`));
    expect(Object.values(info.shard_paths)[0]).to.equal(disk.path);
    expect(info.reserved_sizes).to.deep.equal([]);
    // without the parameter, none
    const plain = await es.call('GET', '/_cluster/allocation/explain');
    expect(plain.json.cluster_info).to.equal(undefined);
  });

  it('_search_shards: the node, the indices with the aliases they were reached by, the shards', async () => {
    await es.call('PUT', '/test_1');
    let r = (await es.call('GET', '/test_1/_search_shards?routing=foo')).json;
    expect(r.shards[0][0].index).to.equal('test_1');
    expect(Object.keys(r.nodes)).to.deep.equal([r.shards[0][0].node]);

    await es.call('PUT', '/test_index', {
      settings: { index: { number_of_shards: 1 } },
      mappings: { properties: { field: { type: 'text' } } },
      aliases: {
        test_alias_no_filter: {},
        test_alias_filter_1: { filter: { term: { field: 'value1' } } },
        test_alias_filter_2: { filter: { term: { field: 'value2' } } },
      },
    });
    r = (await es.call('GET', '/test_alias_no_filter/_search_shards')).json;
    expect(r.shards).to.have.length(1);
    expect(r.shards[0][0].index).to.equal('test_index');
    expect(r.indices.test_index).to.deep.equal({ aliases: ['test_alias_no_filter'] });

    r = (await es.call('GET', '/test_alias_filter_1/_search_shards')).json;
    expect(r.indices.test_index.aliases).to.deep.equal(['test_alias_filter_1']);
    expect(r.indices.test_index.filter.term.field.value).to.equal('value1');

    r = (await es.call('GET', '/test_alias_filter_1,test_alias_filter_2/_search_shards')).json;
    expect(r.indices.test_index.aliases).to.deep.equal(['test_alias_filter_1', 'test_alias_filter_2']);
    expect(r.indices.test_index.filter.bool.should).to.have.length(2);

    r = (await es.call('GET', '/test*/_search_shards')).json;
    expect(r.shards.filter((s: Array<{ index: string }>) => s[0].index === 'test_index')).to.have.length(1);
    expect(r.indices.test_index).to.deep.equal({ aliases: ['test_alias_filter_1', 'test_alias_filter_2', 'test_alias_no_filter'] });

    r = (await es.call('POST', '/test_alias_filter_1,test_alias_no_filter/_search_shards')).json;
    expect(r.indices.test_index).to.deep.equal({ aliases: ['test_alias_filter_1', 'test_alias_no_filter'] });

    r = (await es.call('GET', '/_search_shards')).json;
    expect(r.shards).to.have.length(2);
    expect(r.shards[0][0]).to.include({ state: 'STARTED', primary: true, relocating_node: null });
    expect((await es.call('GET', '/missing/_search_shards')).status).to.equal(404);
  });
});

for (const backend of BACKENDS) {
  describe(`operations APIs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    let scoped: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const app = await call(gw.url, 'PUT', '/_apps/shop');
      const rw = app.json.credentials.read_write;
      scoped = basic(rw.username, rw.password);
      await call(gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'hat' } });
      await call(gw.url, 'PUT', '/other/_doc/1?refresh=true', { body: { name: 'cap' } });
    });
    after(() => stop?.());

    it('the admin reaches the cat, cluster and node APIs', async () => {
      for (const p of ['/_cat', '/_cat/health', '/_cat/nodes?v', '/_cat/shards', '/_cat/allocation', '/_cat/master', '/_cat/nodeattrs', '/_cat/thread_pool', '/_cat/templates', '/_cat/segments', '/_cat/recovery', '/_cat/tasks', '/_cat/plugins', '/_cat/fielddata', '/_cat/pending_tasks', '/_cat/repositories']) {
        const r = await call(gw.url, 'GET', p);
        expect(r.status, `${p}: ${r.text}`).to.equal(200);
        expect(String(r.headers['content-type'])).to.match(/^text\/plain/);
      }
      expect((await call(gw.url, 'GET', '/_cat/shards/shop?format=json&h=index,prirep,state')).json).to.deep.include({ index: 'shop', prirep: 'p', state: 'STARTED' });
      for (const p of ['/_nodes', '/_nodes/stats', '/_cluster/stats', '/_cluster/stats/jvm/nodes/_all', '/_cluster/stats/indices/docs/nodes/_all', '/_cluster/settings', '/shop/_search_shards']) {
        const r = await call(gw.url, 'GET', p);
        expect(r.status, `${p}: ${r.text}`).to.equal(200);
      }
      const reload = await call(gw.url, 'POST', '/_nodes/reload_secure_settings');
      expect(reload.status, reload.text).to.equal(200);
      expect(reload.json._nodes.successful).to.equal(1);
      const put = await call(gw.url, 'PUT', '/_cluster/settings', { body: { transient: { 'cluster.routing.allocation.enable': 'all' } } });
      expect(put.status, put.text).to.equal(200);
      expect(put.json.acknowledged).to.equal(true);
    });

    it('a scoped credential is refused the cluster-level ones, and sees only its indices in the index-level ones', async () => {
      for (const [method, p] of [
        ['GET', '/_cat'], ['GET', '/_cat/health'], ['GET', '/_cat/nodes'], ['GET', '/_cat/master'], ['GET', '/_cat/nodeattrs'],
        ['GET', '/_cat/allocation'], ['GET', '/_cat/thread_pool'], ['GET', '/_cat/templates'], ['GET', '/_cat/tasks'],
        ['GET', '/_nodes'], ['GET', '/_nodes/stats'], ['GET', '/_cluster/stats'], ['GET', '/_cluster/settings'], ['PUT', '/_cluster/settings'],
        ['GET', '/_cluster/stats/indices/docs/nodes/_all'], ['GET', '/_cluster/stats/fs/nodes/_local'],
        ['POST', '/_nodes/reload_secure_settings'], ['POST', '/_nodes/_all/reload_secure_settings'],
      ] as const) {
        const r = await call(gw.url, method, p, { auth: scoped, body: method === 'PUT' ? { persistent: { 'cluster.routing.allocation.enable': 'none' } } : undefined });
        expect(r.status, `${method} ${p}: ${r.text}`).to.equal(403);
        expect(r.json.error.type).to.equal('security_exception');
      }
      const lister = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['indices', 'search'], ops: ['read'] } });
      expect(lister.status, lister.text).to.equal(201);
      const indexReader = basic(lister.json.credential.username, lister.json.password);
      const shards = await call(gw.url, 'GET', '/_cat/shards?format=json&h=index', { auth: indexReader });
      expect(shards.status, shards.text).to.equal(200);
      expect(shards.json.map((s: { index: string }) => s.index)).to.satisfy((xs: string[]) => xs.length > 0 && xs.every((x) => x === 'shop'));
      expect((await call(gw.url, 'GET', '/_cat/shards/other', { auth: indexReader })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/shop/_search_shards', { auth: indexReader })).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/other/_search_shards', { auth: indexReader })).status).to.equal(403);
      // templates span every tenant's indices: not for a credential scoped to some
      expect((await call(gw.url, 'GET', '/_cat/templates', { auth: indexReader })).status).to.equal(403);

      // a credential allowed cluster reads gets them, and still no settings change
      const monitor = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['cluster'], ops: ['read'] } });
      expect(monitor.status, monitor.text).to.equal(201);
      const monitorAuth = basic(monitor.json.credential.username, monitor.json.password);
      for (const p of ['/_cat/health', '/_cat/nodes', '/_nodes/stats', '/_cluster/settings']) {
        expect((await call(gw.url, 'GET', p, { auth: monitorAuth })).status, p).to.equal(200);
      }
      const change = await call(gw.url, 'PUT', '/_cluster/settings', { auth: monitorAuth, body: { persistent: { 'cluster.routing.allocation.enable': 'none' } } });
      expect(change.status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_cluster/settings?flat_settings=true')).json.persistent).not.to.have.property('cluster.routing.allocation.enable');
    });
  });
}
