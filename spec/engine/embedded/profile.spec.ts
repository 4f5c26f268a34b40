import { expect } from 'chai';
import { call as gatewayCall } from '../../support/http.js';
import { BACKENDS } from '../../support/backends.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

const MAPPINGS = { mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'integer' }, body: { type: 'text' } } } };
const bulk = ndjson([
  { index: { _index: 'prof', _id: '1' } }, { tag: 'a', n: 1, body: 'quick brown fox' },
  { index: { _index: 'prof', _id: '2' } }, { tag: 'a', n: 2, body: 'lazy dog' },
  { index: { _index: 'prof', _id: '3' } }, { tag: 'b', n: 3, body: 'quick dog' },
]);

const QUERY_TIMERS = ['create_weight', 'build_scorer', 'next_doc', 'advance', 'match', 'score', 'shallow_advance', 'compute_max_score', 'set_min_competitive_score', 'count_weight'];

describe('embedded engine: search profiling (profile: true)', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/prof', MAPPINGS)).status).to.equal(200);
    expect((await es.call('POST', '/_bulk?refresh=true', bulk, { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
  });
  after(() => es.close());

  it('answers no profile unless asked', async () => {
    const r = await es.call('POST', '/prof/_search', { query: { match_all: {} } });
    expect(r.json).to.not.have.property('profile');
  });

  it('one shard entry with the reference shape: id, node, index, the query tree by Lucene class, rewrite time, collectors, fetch', async () => {
    const nodeId = Object.keys((await es.call('GET', '/_nodes')).json.nodes)[0];
    const r = await es.call('POST', '/prof/_search', {
      profile: true,
      query: { bool: { must: [{ match: { body: 'quick dog' } }], filter: [{ term: { tag: 'a' } }], should: [{ range: { n: { gte: 2 } } }] } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.total.value).to.equal(2);
    const shard = r.json.profile.shards[0];
    expect(r.json.profile.shards).to.have.length(1);
    expect(shard).to.include({ id: `[${nodeId}][prof][0]`, node_id: nodeId, shard_id: 0, index: 'prof', cluster: '(local)' });
    const [root] = shard.searches[0].query;
    expect(root.type).to.equal('BooleanQuery');
    // the clauses as the engine's Lucene printer (`_validate/query`) orders them
    expect(root.description).to.equal('+(body:quick body:dog) #tag:a n:[2 TO *]');
    expect(root.children.map((c: { type: string }) => c.type)).to.deep.equal(['BooleanQuery', 'IndexOrDocValuesQuery', 'TermQuery']);
    expect(root.children[0].children.map((c: { description: string }) => c.description)).to.deep.equal(['body:quick', 'body:dog']);
    for (const t of QUERY_TIMERS) {
      expect(root.breakdown).to.have.property(t).that.is.a('number');
      expect(root.breakdown).to.have.property(`${t}_count`).that.is.a('number');
    }
    expect(root.breakdown.create_weight_count).to.equal(1);
    expect(root.breakdown.score_count).to.equal(2);
    // the filter clause is not scored
    expect(root.children[2].breakdown.score_count).to.equal(0);
    expect(root.time_in_nanos).to.be.greaterThan(0);
    expect(shard.searches[0].rewrite_time).to.be.a('number');
    expect(shard.searches[0].collector[0]).to.include({ name: 'QueryPhaseCollector', reason: 'search_query_phase' });
    expect(shard.searches[0].collector[0].children[0]).to.include({ name: 'SimpleTopScoreDocCollector', reason: 'search_top_hits' });
    expect(shard.aggregations).to.deep.equal([]);
    expect(shard.fetch).to.include({ type: 'fetch', description: '' });
    expect(shard.fetch.breakdown.load_stored_fields_count).to.equal(2);
  });

  it('a boost wraps the query in a BoostQuery; match_all is MatchAllDocsQuery; constant_score is ConstantScoreQuery', async () => {
    const boosted = await es.call('POST', '/prof/_search', { profile: true, query: { term: { tag: { value: 'a', boost: 2 } } } });
    const [root] = boosted.json.profile.shards[0].searches[0].query;
    expect(root).to.include({ type: 'BoostQuery', description: '(tag:a)^2.0' });
    expect(root.children[0]).to.include({ type: 'TermQuery', description: 'tag:a' });
    const all = await es.call('POST', '/prof/_search', { profile: true, query: { constant_score: { filter: { match_all: {} } } } });
    const [cs] = all.json.profile.shards[0].searches[0].query;
    expect(cs.type).to.equal('ConstantScoreQuery');
    expect(cs.children[0].type).to.equal('MatchAllDocsQuery');
  });

  it('aggregations by aggregator class, described by name, with the breakdown keys and debug, sub-aggregations as children', async () => {
    const r = await es.call('POST', '/prof/_search', {
      profile: true, size: 0,
      aggs: { tags: { terms: { field: 'tag', collect_mode: 'breadth_first' }, aggs: { top: { max: { field: 'n' } } } }, ns: { terms: { field: 'n' } } },
    });
    expect(r.status, r.text).to.equal(200);
    const shard = r.json.profile.shards[0];
    expect(shard).to.not.have.property('fetch');
    const [tags, ns] = shard.aggregations;
    expect(tags).to.include({ type: 'GlobalOrdinalsStringTermsAggregator', description: 'tags' });
    expect(tags.breakdown.collect_count).to.equal(3);
    for (const k of ['initialize', 'build_leaf_collector', 'collect', 'post_collection', 'build_aggregation', 'reduce']) {
      expect(tags.breakdown).to.have.property(k).that.is.a('number');
      expect(tags.breakdown).to.have.property(`${k}_count`).that.is.a('number');
    }
    expect(tags.breakdown.collect).to.be.greaterThan(0);
    expect(tags.debug).to.deep.include({ deferred_aggregators: ['top'], result_strategy: 'terms', segments_with_single_valued_ords: 1 });
    expect(tags.children[0]).to.include({ type: 'MaxAggregator', description: 'top' });
    expect(ns).to.include({ type: 'NumericTermsAggregator', description: 'ns' });
    expect(ns.debug.total_buckets).to.equal(3);
    expect(shard.searches[0].collector[0].children.map((c: { name: string }) => c.name)).to.deep.equal(['TotalHitCountCollector', 'AggregatorCollector: [tags, ns]']);
  });

  it('histogram and date_histogram aggregators: debug total_buckets, the buckets their documents fell in', async () => {
    // n 1, 2, 3 by 2: buckets 0 and 2; a date per document, two of them in the same month
    await es.call('PUT', '/prof-days/_doc/1?refresh=true', { n: 1, day: '2016-01-01' });
    await es.call('PUT', '/prof-days/_doc/2?refresh=true', { n: 2, day: '2016-01-02' });
    await es.call('PUT', '/prof-days/_doc/3?refresh=true', { n: 3, day: '2016-03-01' });
    const r = await es.call('POST', '/prof-days/_search', {
      profile: true, size: 0, aggs: { histo: { histogram: { field: 'n', interval: 2 } }, months: { date_histogram: { field: 'day', calendar_interval: 'month' } } },
    });
    expect(r.status, r.text).to.equal(200);
    const [histo, months] = r.json.profile.shards[0].aggregations;
    expect(histo).to.deep.include({ type: 'NumericHistogramAggregator', description: 'histo', debug: { total_buckets: 2 } });
    expect(months).to.deep.include({ type: 'DateHistogramAggregator', description: 'months', debug: { total_buckets: 2 } });
    // the empty month between is a bucket of the answer, not one collected
    expect(r.json.aggregations.months.buckets).to.have.length(3);
  });

  it('a top-level filters aggregation without an "other" bucket is run filter by filter (FilterByFilterAggregator); below another, or with one, FiltersAggregator', async () => {
    await es.call('POST', '/_bulk?refresh=true', ndjson([
      { index: { _index: 'prof-weighted', _id: '1' } }, { _doc_count: 10, tag: 'a' },
      { index: { _index: 'prof-weighted', _id: '2' } }, { tag: 'b' },
    ]), { 'content-type': 'application/x-ndjson' });
    const filters = { filters: { a: { term: { tag: 'a' } }, b: { term: { tag: 'b' } } } };
    const r = await es.call('POST', '/prof/_search', {
      profile: true, size: 0,
      aggs: { f: { filters }, other: { filters: { ...filters, other_bucket: true } }, tags: { terms: { field: 'tag' }, aggs: { inner: { filters } } } },
    });
    expect(r.status, r.text).to.equal(200);
    const [f, other, tags] = r.json.profile.shards[0].aggregations;
    expect(f).to.deep.include({
      type: 'FilterByFilterAggregator', description: 'f',
      debug: { segments_with_doc_count_field: 0, segments_with_deleted_docs: 0, segments_counted: 1, segments_collected: 0 },
    });
    expect(other).to.include({ type: 'FiltersAggregator', description: 'other' });
    expect(tags.children[0]).to.include({ type: 'FiltersAggregator', description: 'inner' });
    // documents with a _doc_count are collected one by one, not counted
    const w = await es.call('POST', '/prof-weighted/_search', { profile: true, size: 0, aggs: { f: { filters } } });
    expect(w.json.aggregations.f.buckets.a.doc_count).to.equal(10);
    expect(w.json.profile.shards[0].aggregations[0].debug).to.include({ segments_with_doc_count_field: 1, segments_counted: 0, segments_collected: 1 });
  });

  it('a top-level terms aggregation on a keyword of few terms, with nothing below it, runs as filters (StringTermsAggregatorFromFilters) unless search.aggs.rewrite_to_filter_by_filter is false', async () => {
    const profiled = async (aggs: Record<string, unknown>) => {
      const r = await es.call('POST', '/prof/_search', { profile: true, size: 0, aggs });
      expect(r.status, r.text).to.equal(200);
      return r.json.profile.shards[0].aggregations[0];
    };
    const plain = await profiled({ tags: { terms: { field: 'tag' } } });
    expect(plain).to.deep.include({
      type: 'StringTermsAggregatorFromFilters', description: 'tags',
      debug: { delegate: 'FilterByFilterAggregator', delegate_debug: { segments_with_doc_count_field: 0, segments_with_deleted_docs: 0, segments_counted: 1, segments_collected: 0 } },
    });
    // a sub-aggregation, `missing`, or a numeric field keep the ordinary aggregators
    expect((await profiled({ tags: { terms: { field: 'tag' }, aggs: { top: { max: { field: 'n' } } } } })).type).to.equal('GlobalOrdinalsStringTermsAggregator');
    expect((await profiled({ tags: { terms: { field: 'tag', missing: 'z' } } })).type).to.equal('GlobalOrdinalsStringTermsAggregator');
    expect((await profiled({ ns: { terms: { field: 'n' } } })).type).to.equal('NumericTermsAggregator');
    expect((await es.call('PUT', '/_cluster/settings', { persistent: { 'search.aggs.rewrite_to_filter_by_filter': false } })).status).to.equal(200);
    try {
      expect((await profiled({ tags: { terms: { field: 'tag' } } })).type).to.equal('GlobalOrdinalsStringTermsAggregator');
    } finally {
      await es.call('PUT', '/_cluster/settings', { persistent: { 'search.aggs.rewrite_to_filter_by_filter': null } });
    }
    expect((await profiled({ tags: { terms: { field: 'tag' } } })).type).to.equal('StringTermsAggregatorFromFilters');
  });

  it('fetch: one child per fetch sub-phase that ran, in Elasticsearch\'s order, StoredFieldsPhase last; stored_fields _none_ runs none', async () => {
    const fetchOf = async (body: Record<string, unknown>) => {
      const r = await es.call('POST', '/prof/_search', { profile: true, query: { term: { tag: 'b' } }, ...body });
      expect(r.status, r.text).to.equal(200);
      return r.json.profile.shards[0].fetch;
    };
    const types = (f: { children?: Array<{ type: string }> }) => (f.children ?? []).map((c) => c.type);
    const plain = await fetchOf({});
    expect(types(plain)).to.deep.equal(['FetchSourcePhase', 'StoredFieldsPhase']);
    expect(plain.debug).to.deep.equal({ stored_fields: ['_id', '_routing', '_source'] });
    expect(plain.breakdown.next_reader).to.be.greaterThan(0);
    expect(plain.children[0].breakdown.next_reader).to.be.greaterThan(0);
    expect(plain.children[0].debug).to.deep.equal({ fast_path: 1 });
    const fields = await fetchOf({ _source: false, fields: ['tag'] });
    expect(types(fields)).to.deep.equal(['FetchFieldsPhase', 'StoredFieldsPhase']);
    expect(fields.debug.stored_fields).to.deep.equal(['_id', '_routing', '_source']);
    expect(types(await fetchOf({ version: true, seq_no_primary_term: true, docvalue_fields: ['n'], highlight: { fields: { body: {} } } })))
      .to.deep.equal(['FetchDocValuesPhase', 'FetchSourcePhase', 'FetchVersionPhase', 'SeqNoPrimaryTermPhase', 'HighlightPhase', 'StoredFieldsPhase']);
    const none = await fetchOf({ stored_fields: '_none_' });
    expect(none.debug).to.deep.equal({ stored_fields: [] });
    expect(none).to.not.have.property('children');
    expect(none.breakdown.load_source_count).to.equal(0);
  });

  it('profiles each search of an _msearch that asks', async () => {
    const body = ndjson([{ index: 'prof' }, { profile: true, query: { match_all: {} } }, { index: 'prof' }, { query: { match_all: {} } }]);
    const r = await es.call('POST', '/_msearch', body, { 'content-type': 'application/x-ndjson' });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.responses[0].profile.shards[0].searches[0].query[0].type).to.equal('MatchAllDocsQuery');
    expect(r.json.responses[1]).to.not.have.property('profile');
  });
});

for (const backend of BACKENDS) {
  describe(`search profiling through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await gatewayCall(url, 'PUT', '/prof', { body: MAPPINGS })).status).to.equal(200);
      const r = await gatewayCall(url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    it('answers the profile of a search and of its aggregations', async () => {
      const r = await gatewayCall(url, 'POST', '/prof/_search', { body: { profile: true, query: { term: { tag: 'a' } }, aggs: { m: { max: { field: 'n' } } } } });
      expect(r.status, r.text).to.equal(200);
      const shard = r.json.profile.shards[0];
      expect(shard.index).to.equal('prof');
      expect(shard.searches[0].query[0]).to.include({ type: 'TermQuery', description: 'tag:a' });
      expect(shard.aggregations[0]).to.include({ type: 'MaxAggregator', description: 'm' });
    });
  });
}
