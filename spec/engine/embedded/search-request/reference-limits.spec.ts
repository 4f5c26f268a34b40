import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** Limits and refusals worded as Elasticsearch words them; closed indices in multi-index reads. */
describe('embedded engine: closed indices with ignore_unavailable, pre_filter_shard_size, empty filters, _analyze token limit', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/open-one', { settings: { 'index.analyze.max_token_count': 3 } });
    await es.call('PUT', '/open-one/_doc/1?refresh=true', { k: 'x' });
    await es.call('PUT', '/closed-one', {});
    await es.call('PUT', '/closed-one/_doc/1?refresh=true', { k: 'y' });
    expect((await es.call('POST', '/closed-one/_close')).status).to.equal(200);
  });
  after(() => es.close());

  it('a closed index among the targets: index_closed_exception, or left out with ignore_unavailable', async () => {
    let r = await es.call('POST', '/open-one,closed-one/_search', {});
    expect([r.status, r.json.error.type]).to.deep.equal([400, 'index_closed_exception']);
    r = await es.call('POST', '/open-one,closed-one/_search?ignore_unavailable=true', {});
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal(['open-one']);
    r = await es.call('POST', '/open-one,closed-one/_count?ignore_unavailable=true', {});
    expect([r.status, r.json.count]).to.deep.equal([200, 1]);
    r = await es.call('POST', '/_msearch', '{"index":["open-one","closed-one"],"ignore_unavailable":true}\n{}\n', { 'content-type': 'application/x-ndjson' });
    expect(r.json.responses[0].hits.total.value, r.text).to.equal(1);
  });

  it('pre_filter_shard_size and max_concurrent_shard_requests below 1 are refused', async () => {
    let r = await es.call('POST', '/open-one/_search?pre_filter_shard_size=0', {});
    expect([r.status, r.json.error.type, r.json.error.reason]).to.deep.equal([400, 'illegal_argument_exception', 'preFilterShardSize must be >= 1']);
    r = await es.call('POST', '/open-one/_search?max_concurrent_shard_requests=0', {});
    expect([r.status, r.json.error.reason]).to.deep.equal([400, 'maxConcurrentShardRequests must be >= 1']);
    r = await es.call('POST', '/open-one/_search?pre_filter_shard_size=1', {});
    expect(r.status).to.equal(200);
  });

  it('a filters aggregation without filters is refused', async () => {
    for (const filters of [[], {}]) {
      const r = await es.call('POST', '/open-one/_search', { size: 0, aggs: { f: { filters: { filters } } } });
      expect([r.status, r.json.error.type, r.json.error.reason]).to.deep.equal([400, 'illegal_argument_exception', '[filters] cannot be empty.']);
    }
  });

  it('_analyze stops at index.analyze.max_token_count', async () => {
    let r = await es.call('POST', '/open-one/_analyze', { tokenizer: 'standard', text: 'a b c' });
    expect(r.json.tokens).to.have.length(3);
    r = await es.call('POST', '/open-one/_analyze', { tokenizer: 'standard', text: 'a b c d' });
    expect([r.status, r.json.error.type, r.json.error.reason]).to.deep.equal([500, 'illegal_state_exception',
      'The number of tokens produced by calling _analyze has exceeded the allowed maximum of [3]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.']);
    r = await es.call('POST', '/open-one/_analyze', { tokenizer: 'standard', text: 'a b c d', explain: true });
    expect(r.status).to.equal(500);
    r = await es.call('POST', '/_analyze', { tokenizer: 'standard', text: 'a b c d' });
    expect(r.json.tokens).to.have.length(4);
  });

  it('include_defaults lists the store and analyze defaults', async () => {
    const r = await es.call('GET', '/closed-one/_settings/index.store*,index.analyze*?include_defaults=true&flat_settings=true&expand_wildcards=all');
    expect(r.json['closed-one'].defaults).to.deep.equal({
      'index.analyze.max_token_count': '10000', 'index.store.preload': [], 'index.store.stats_refresh_interval': '10s', 'index.store.type': '',
    });
  });

  it("OpenSearch's phase_took and cancel_after_time_interval", async () => {
    let r = await es.call('POST', '/open-one/_search?phase_took=true&cancel_after_time_interval=1s', {});
    expect(r.status, r.text).to.equal(200);
    expect(Object.keys(r.json.phase_took).sort()).to.deep.equal(['can_match', 'dfs_pre_query', 'dfs_query', 'expand', 'fetch', 'query']);
    expect(r.json.phase_took.query).to.equal(r.json.took);
    r = await es.call('POST', '/open-one/_search', {});
    expect(r.json).to.not.have.property('phase_took');
    r = await es.call('POST', '/open-one/_search?cancel_after_time_interval=soon', {});
    expect(r.status).to.equal(400);
  });
});
