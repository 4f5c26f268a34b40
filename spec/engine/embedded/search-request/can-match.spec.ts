import { expect } from 'chai';
import { call as gatewayCall } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { startEngine, type TestEngine } from '../support.js';

/**
 * `_shards.skipped`: Elasticsearch's can-match phase, run when a search spans more shards than
 * `pre_filter_shard_size`, skips each shard whose query rewrites to match_none (a range outside
 * the values the shard holds), keeps one when all would be skipped, and skips none when an
 * aggregation must see every document. The reference's three indices, one date each.
 */
const MAPPING = { settings: { number_of_shards: 1 }, mappings: { properties: { created_at: { type: 'date', format: 'yyyy-MM-dd' }, mostly_unmapped: { type: 'keyword' } } } };
const DOCS: Array<[string, Record<string, unknown>]> = [
  ['pf_1', { created_at: '2016-01-01' }], ['pf_2', { created_at: '2017-01-01' }], ['pf_3', { created_at: '2018-01-01', mostly_unmapped: 'foo' }],
];
const IN_2016_2017 = { range: { created_at: { gte: '2016-02-01', lt: '2018-02-01' } } };

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function setUp(call: Call): Promise<void> {
  for (const [index, doc] of DOCS) {
    expect((await call('PUT', `/${index}`, MAPPING)).status).to.equal(200);
    expect((await call('PUT', `/${index}/_doc/1?refresh=true`, doc)).status).to.equal(201);
  }
}

async function shards(call: Call, params: string, body: Record<string, unknown>) {
  const r = await call('POST', `/pf_*/_search${params}`, { size: 0, ...body });
  expect(r.status, r.text).to.equal(200);
  return { skipped: r.json._shards.skipped, successful: r.json._shards.successful, total: r.json.hits.total.value, aggregations: r.json.aggregations };
}

describe('embedded engine: the can-match phase (_shards.skipped)', () => {
  let es: TestEngine;
  const call: Call = (method, path, body) => es.call(method, path, body);
  before(async () => {
    es = await startEngine();
    await setUp(call);
  });
  after(() => es.close());

  it('runs only past pre_filter_shard_size (128 by default) and for a query that can match nothing', async () => {
    expect(await shards(call, '', { query: IN_2016_2017 })).to.deep.include({ skipped: 0, successful: 3, total: 2 });
    expect(await shards(call, '?pre_filter_shard_size=1', {})).to.deep.include({ skipped: 0, total: 3 });
    expect(await shards(call, '?pre_filter_shard_size=3', { query: IN_2016_2017 })).to.deep.include({ skipped: 0 });
  });

  it('skips the shards whose values lie outside the range, and keeps one when every shard would be skipped', async () => {
    expect(await shards(call, '?pre_filter_shard_size=1', { query: IN_2016_2017 })).to.deep.include({ skipped: 1, successful: 3, total: 2 });
    expect(await shards(call, '?pre_filter_shard_size=1', { query: { range: { created_at: { gte: '2019-02-01', lt: '2020-02-01' } } } }))
      .to.deep.include({ skipped: 2, total: 0 });
    expect(await shards(call, '?pre_filter_shard_size=1', { query: { bool: { filter: [IN_2016_2017, { term: { unmapped_anywhere: 'foo' } }] } } }))
      .to.deep.include({ skipped: 2, total: 0 });
  });

  it('skips nothing for a global aggregation or terms with min_doc_count 0', async () => {
    const global = await shards(call, '?pre_filter_shard_size=1', { query: IN_2016_2017, aggs: { some_agg: { global: {} } } });
    expect(global).to.deep.include({ skipped: 0, total: 2 });
    expect(global.aggregations.some_agg.doc_count).to.equal(3);
    const all = await shards(call, '?pre_filter_shard_size=1', { query: IN_2016_2017, aggs: { idx: { terms: { field: '_index', min_doc_count: 0 } } } });
    expect([all.skipped, all.aggregations.idx.buckets.length]).to.deep.equal([0, 3]);
    const some = await shards(call, '?pre_filter_shard_size=1', { query: IN_2016_2017, aggs: { idx: { terms: { field: '_index' } } } });
    expect([some.skipped, some.aggregations.idx.buckets.length]).to.deep.equal([1, 2]);
  });
});

for (const backend of BACKENDS) {
  describe(`the can-match phase through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let call: Call;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      call = (method, path, body) => gatewayCall(started.gateway.url, method, path, { body });
      await setUp(call);
    });
    after(() => stop());

    it('answers the skipped shards', async () => {
      expect(await shards(call, '?pre_filter_shard_size=1', { query: IN_2016_2017 })).to.deep.include({ skipped: 1, successful: 3, total: 2 });
    });
  });
}
