import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

const PLEASE_CHECK = 'please check that any required plugins are installed, or check the breaking changes documentation for removed settings';

describe('embedded engine: unknown index settings are refused as Elasticsearch does', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/known', { settings: { number_of_replicas: 0 } })).status).to.equal(200);
  });
  after(() => es.close());

  function expectUnknown(r: { status: number; json: any }, reason: string): void {
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.equal(reason);
    expect(r.json.error.root_cause[0].reason).to.equal(reason);
  }

  it('creating an index with an unknown setting → 400, the `index.` prefix added, nothing created', async () => {
    for (const settings of [{ foo: 1 }, { index: { foo: 1 } }, { 'index.foo': 'x' }]) {
      expectUnknown(await es.call('PUT', '/nope', { settings }), `unknown setting [index.foo] ${PLEASE_CHECK}`);
    }
    expect((await es.call('HEAD', '/nope')).status).to.equal(404);
  });

  it('the first unknown key in sorted order is named; a close registered key is suggested', async () => {
    expectUnknown(await es.call('PUT', '/nope', { settings: { zzz: 1, 'index.bar': 2, number_of_shards: 1 } }), `unknown setting [index.bar] ${PLEASE_CHECK}`);
    expectUnknown(await es.call('PUT', '/nope', { settings: { number_of_shard: 1 } }), 'unknown setting [index.number_of_shard] did you mean [index.number_of_shards]?');
  });

  it('updating settings with an unknown one → 400, the known ones in the same request not applied', async () => {
    expectUnknown(await es.call('PUT', '/known/_settings', { index: { foo: 1, number_of_replicas: 2 } }), `unknown setting [index.foo] ${PLEASE_CHECK}`);
    expectUnknown(await es.call('PUT', '/known/_settings', { settings: { 'index.foo': null } }), `unknown setting [index.foo] ${PLEASE_CHECK}`);
    const flat = await es.call('GET', '/known/_settings?flat_settings=true');
    expect(flat.json.known.settings['index.number_of_replicas']).to.equal('0');
  });

  it('index templates (composable, component, legacy) with unknown settings → 400 invalid_index_template_exception listing each', async () => {
    const cause = (name: string) => `index_template [${name}] invalid, cause [Validation Failed: 1: unknown setting [index.bar] ${PLEASE_CHECK};2: unknown setting [index.foo] ${PLEASE_CHECK};]`;
    const settings = { foo: 1, index: { bar: 2, number_of_shards: 1 } };
    for (const [path, body] of [
      ['/_index_template/t1', { index_patterns: ['t1-*'], template: { settings } }],
      ['/_component_template/t1', { template: { settings } }],
      ['/_template/t1', { index_patterns: ['t1-*'], settings }],
    ] as const) {
      const r = await es.call('PUT', path, body);
      expect(r.status, path).to.equal(400);
      expect(r.json.error.type).to.equal('invalid_index_template_exception');
      expect(r.json.error.reason).to.equal(cause('t1'));
      expect((await es.call('GET', path)).status).to.equal(404);
    }
    expect((await es.call('PUT', '/_index_template/t2', { index_patterns: ['t2-*'], template: { settings: { number_of_shards: 1, 'index.lifecycle.name': 'p' } } })).status).to.equal(200);
  });

  it('accepts the settings Elasticsearch 8 and OpenSearch 2 register, with or without `index.`', async () => {
    const settings = {
      number_of_shards: 2, 'index.number_of_replicas': 0, refresh_interval: '5s', max_result_window: 500, hidden: false,
      analysis: { analyzer: { mine: { type: 'custom', tokenizer: 'standard', filter: ['lowercase'] } } },
      similarity: { my_bm25: { type: 'BM25', b: 0.5 } },
      mapping: { total_fields: { limit: 2000 }, ignore_malformed: true },
      routing: { allocation: { include: { _tier_preference: 'data_hot' }, require: { box: 'a' } } },
      blocks: { read_only_allow_delete: false }, lifecycle: { name: 'p', rollover_alias: 'r' },
      highlight: { max_analyzed_offset: 100 }, knn: true, 'knn.algo_param.ef_search': 100,
      query: { default_field: ['title'] }, sort: { field: 'n', order: 'desc' }, codec: 'best_compression',
      store: { type: 'fs' }, translog: { durability: 'async' }, requests: { cache: { enable: true } },
      'search.slowlog.threshold.query.warn': '10s', default_pipeline: '_none', 'search.default_pipeline': '_none',
      'plugins.index_state_management.rollover_alias': 'x',
    };
    const r = await es.call('PUT', '/many', { settings, mappings: { properties: { n: { type: 'long' } } } });
    expect(r.status, JSON.stringify(r.json)).to.equal(200);
    const u = await es.call('PUT', '/many/_settings', { index: { refresh_interval: '1s', 'routing.allocation.exclude._name': 'n1', 'knn.algo_param.ef_search': 50 } });
    expect(u.status, JSON.stringify(u.json)).to.equal(200);
    expect((await es.call('PUT', '/many/_settings', { 'index.routing.allocation.*': null })).status).to.equal(200);
  });
});
