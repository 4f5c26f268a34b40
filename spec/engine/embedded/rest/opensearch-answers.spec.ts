import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

const OPENSEARCH_CLIENT = { 'user-agent': 'opensearch-js/2.13.0 (linux 6.1.0-x64; Node.js v20.18.0)' };
const ES_CLIENT = { 'user-agent': 'elasticsearch-js/8.15.0 (linux 6.1.0-x64; Node.js v20.18.0)' };

/**
 * Where Elasticsearch 8 and OpenSearch 2 answer the same request differently (`GET /`, `_cat`
 * column names, node attributes), the engine answers an OpenSearch client as OpenSearch 2 does
 * (API_DIALECT=auto), every request as one of them with API_DIALECT=elasticsearch|opensearch.
 */
describe('embedded engine: OpenSearch 2 answers where the two engines differ', () => {
  describe('auto (default): by the client', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine();
    });
    after(() => es.close());

    it('an unknown _tasks group_by is refused in each engine\'s words', async () => {
      const os = await es.call('GET', '/_tasks?group_by=node', undefined, OPENSEARCH_CLIENT);
      expect([os.status, os.json.error.type, os.json.error.reason]).to.deep.equal([400, 'illegal_argument_exception', '[group_by] must be one of [nodes], [parents] or [none] but was [node]']);
      const r = await es.call('GET', '/_tasks?group_by=node', undefined, ES_CLIENT);
      expect([r.status, r.json.error.reason]).to.deep.equal([400, 'No enum constant org.elasticsearch.rest.action.admin.cluster.RestListTasksAction.GroupBy.NODE']);
    });

    it('GET / names OpenSearch 2 to its clients, Elasticsearch 8 to any other', async () => {
      const os = await es.call('GET', '/', undefined, OPENSEARCH_CLIENT);
      expect(os.json.version).to.include({ distribution: 'opensearch', number: '2.19.0' });
      expect(os.json.tagline).to.equal('The OpenSearch Project: https://opensearch.org/');
      for (const headers of [ES_CLIENT, {}]) {
        const r = await es.call('GET', '/', undefined, headers);
        expect(r.json.version.number).to.equal('8.15.0');
        expect(r.json.version).to.not.have.property('distribution');
        expect(r.json.tagline).to.equal('You Know, for Search');
      }
    });

    it('_cat/nodes: the cluster manager column (master an alias of it), _cat/health: discovered_cluster_manager', async () => {
      expect((await es.call('GET', '/_cat/nodes?format=json&h=cluster_manager,name', undefined, OPENSEARCH_CLIENT)).json[0]).to.have.property('cluster_manager', '*');
      expect((await es.call('GET', '/_cat/nodes?format=json&h=master', undefined, OPENSEARCH_CLIENT)).json).to.deep.equal([{ master: '*' }]);
      const esNodes = (await es.call('GET', '/_cat/nodes?format=json', undefined, ES_CLIENT)).json[0];
      expect(esNodes).to.have.property('master', '*');
      expect(esNodes).to.not.have.property('cluster_manager');
      const health = (await es.call('GET', '/_cat/health?format=json', undefined, OPENSEARCH_CLIENT)).json[0];
      expect(health).to.include({ 'node.total': '1', 'node.data': '1', discovered_cluster_manager: 'true' });
      expect((await es.call('GET', '/_cat/health?format=json', undefined, ES_CLIENT)).json[0]).to.not.have.property('discovered_cluster_manager');
      const text = await es.call('GET', '/_cat/health?v=true&h=status,discovered_cluster_manager', undefined, OPENSEARCH_CLIENT);
      expect(text.text.split('\n').map((l) => l.trim().split(/\s+/))).to.deep.equal([['status', 'discovered_cluster_manager'], ['green', 'true'], ['']]);
    });

    it("node stats: OpenSearch's metrics, answered as a default node with none of them in use", async () => {
      const r = await es.call('GET', '/_nodes/stats/shard_indexing_pressure,search_backpressure,caches,indices/request_cache', undefined, OPENSEARCH_CLIENT);
      expect(r.status, r.text).to.equal(200);
      const node = Object.values(r.json.nodes as Record<string, Record<string, any>>)[0];
      expect(node.shard_indexing_pressure).to.include({ enabled: false, enforced: false });
      expect(node.search_backpressure.mode).to.equal('monitor_only');
      expect(node.caches.request_cache.item_count).to.equal(0);
      expect(node.indices).to.have.property('request_cache');
      expect(node).to.not.have.property('jvm');
      const es8 = await es.call('GET', '/_nodes/stats/shard_indexing_pressure', undefined, ES_CLIENT);
      expect(es8.status).to.equal(400);
      expect(es8.json.error.reason).to.equal('request [/_nodes/stats/shard_indexing_pressure] contains unrecognized metric: [shard_indexing_pressure] -> did you mean [indexing_pressure]?');
    });

    it("_cat/nodeattrs: an OpenSearch node's attributes, not X-Pack's", async () => {
      expect((await es.call('GET', '/_cat/nodeattrs?format=json&h=attr,value', undefined, OPENSEARCH_CLIENT)).json)
        .to.deep.equal([{ attr: 'shard_indexing_pressure_enabled', value: 'true' }]);
      const attrs = (await es.call('GET', '/_cat/nodeattrs?format=json&h=attr', undefined, ES_CLIENT)).json.map((r: { attr: string }) => r.attr);
      expect(attrs).to.include('xpack.installed');
    });
  });

  describe('_cat/segment_replication (OpenSearch only, served to every client)', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine();
      expect((await es.call('PUT', '/books', {})).status).to.equal(200);
    });
    after(() => es.close());

    it('lists no replica copying segments on the one node, and 404s an index that does not exist', async () => {
      expect((await es.call('GET', '/_cat/segment_replication?format=json')).json).to.deep.equal([]);
      const r = await es.call('GET', '/_cat/segment_replication/books?format=json&detailed=true');
      expect(r.status, r.text).to.equal(200);
      expect(r.json).to.deep.equal([]);
      const help = await es.call('GET', '/_cat/segment_replication?help=true');
      expect(help.text.split('\n')[0].split('|')[0].trim()).to.equal('shardId');
      const missing = await es.call('GET', '/_cat/segment_replication/nope?format=json');
      expect(missing.status).to.equal(404);
      expect(missing.json.error.type).to.equal('index_not_found_exception');
    });
  });

  describe('API_DIALECT=opensearch: every request', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine({ apiDialect: 'opensearch' });
    });
    after(() => es.close());

    it('answers any client as OpenSearch 2', async () => {
      for (const headers of [{ 'user-agent': 'axios/1.7.7' }, ES_CLIENT]) {
        expect((await es.call('GET', '/', undefined, headers)).json.version.distribution).to.equal('opensearch');
        expect((await es.call('GET', '/_cat/nodes?format=json&h=cluster_manager', undefined, headers)).json).to.deep.equal([{ cluster_manager: '*' }]);
      }
    });
  });

  describe('API_DIALECT=elasticsearch: every request', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine({ apiDialect: 'elasticsearch' });
    });
    after(() => es.close());

    it('answers even an OpenSearch client as Elasticsearch 8', async () => {
      expect((await es.call('GET', '/', undefined, OPENSEARCH_CLIENT)).json.version.number).to.equal('8.15.0');
      expect((await es.call('GET', '/_cat/nodes?format=json&h=master', undefined, OPENSEARCH_CLIENT)).json).to.deep.equal([{ master: '*' }]);
    });
  });
});
