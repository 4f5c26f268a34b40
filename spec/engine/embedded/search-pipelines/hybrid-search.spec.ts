import { expect } from 'chai';
import { NDJSON } from '../../../support/http.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * OpenSearch's hybrid search on the embedded engine: the `hybrid` query, and the neural plugin's
 * phase-results processors (normalization-processor, score-ranker-processor) that combine its
 * sub-queries' scores when a search runs through a pipeline holding one.
 */
describe('hybrid search on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  // sub-query 1 scores Drive 4 and Heat 1; sub-query 2 scores Moneyball 5 and Heat 2
  const constant = (filter: unknown, boost: number) => ({ constant_score: { filter, boost } });
  const hybrid = (extra: Record<string, unknown> = {}) => ({
    query: {
      hybrid: {
        queries: [
          { bool: { should: [constant({ term: { 'genre.keyword': 'crime' } }, 1), constant({ range: { year: { lte: 1970 } } }, 3)] } },
          { bool: { should: [constant({ term: { 'genre.keyword': 'drama' } }, 5), constant({ term: { 'title.keyword': 'Heat' } }, 2)] } },
        ],
        ...extra,
      },
    },
  });
  const ranked = (r: { json: any }) => (r.json.hits.hits as Array<{ _source: { title: string }; _score: number }>).map((h) => [h._source.title, Number(h._score.toFixed(4))]);

  before(async () => {
    es = await startEngine();
    const docs = [
      { title: 'Moneyball', year: 2011, genre: 'drama' },
      { title: 'Drive', year: 1960, genre: 'crime' },
      { title: 'Heat', year: 1995, genre: 'crime' },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((d, i) => [{ index: { _index: 'movies', _id: String(i + 1) } }, d])), NDJSON);
    expect(r.json.errors, r.text).to.equal(false);
    const norm = { phase_results_processors: [{ 'normalization-processor': { normalization: { technique: 'min_max' }, combination: { technique: 'arithmetic_mean', parameters: { weights: [0.7, 0.3] } } } }] };
    expect((await es.call('PUT', '/_search/pipeline/norm', norm)).json).to.deep.equal({ acknowledged: true });
    const rrf = { phase_results_processors: [{ 'score-ranker-processor': { combination: { technique: 'rrf', rank_constant: 60 } } }] };
    expect((await es.call('PUT', '/_search/pipeline/rrf', rrf)).json).to.deep.equal({ acknowledged: true });
  });
  after(() => es.close());

  it('answers a hybrid query without a pipeline: any sub-query\'s documents, each by its best sub-query score', async () => {
    const r = await es.call('POST', '/movies/_search', hybrid({ pagination_depth: 10 }));
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.total).to.deep.equal({ value: 3, relation: 'eq' });
    expect(ranked(r)).to.deep.equal([['Moneyball', 5], ['Drive', 4], ['Heat', 2]]);
  });

  it('normalizes each sub-query\'s scores (min_max) and combines them by weighted arithmetic mean', async () => {
    const r = await es.call('POST', '/movies/_search?search_pipeline=norm', hybrid());
    expect(r.status, r.text).to.equal(200);
    // Drive 0.7·1 + 0.3·0, Moneyball 0.3·1, Heat 0.001 (min_max's floor) in both
    expect(ranked(r)).to.deep.equal([['Drive', 0.7], ['Moneyball', 0.3], ['Heat', 0.001]]);
    expect(r.json.hits.max_score).to.be.closeTo(0.7, 1e-6);
    expect(r.json.hits.total.value).to.equal(3);
    expect(r.json.hits.hits.some((h: Record<string, unknown>) => 'matched_queries' in h)).to.equal(false);
    const page = await es.call('POST', '/movies/_search?search_pipeline=norm&size=1', { ...hybrid(), from: 1 });
    expect(ranked(page)).to.deep.equal([['Moneyball', 0.3]]);
  });

  it('fuses ranks by reciprocal rank fusion (score-ranker-processor)', async () => {
    const r = await es.call('POST', '/movies/_search?search_pipeline=rrf', hybrid());
    // Heat is second in both sub-queries (2/62); Drive and Moneyball first in one (1/61)
    expect(ranked(r)).to.deep.equal([['Heat', 0.0323], ['Moneyball', 0.0164], ['Drive', 0.0164]]);
  });

  it('explains each hit by its combination when the pipeline holds hybrid_score_explanation and explain is asked', async () => {
    const explained = {
      phase_results_processors: [{ 'normalization-processor': { combination: { parameters: { weights: [0.7, 0.3] } } } }],
      response_processors: [{ hybrid_score_explanation: { tag: 'x', ignore_failure: true } }],
    };
    expect((await es.call('PUT', '/_search/pipeline/explained', explained)).json).to.deep.equal({ acknowledged: true });
    const r = await es.call('POST', '/movies/_search?search_pipeline=explained&explain=true', hybrid());
    expect(r.status, r.text).to.equal(200);
    const drive = r.json.hits.hits[0];
    expect(drive._source.title).to.equal('Drive');
    expect(drive._explanation).to.deep.equal({
      value: drive._score,
      description: 'arithmetic_mean combination of:',
      details: [{ value: 1, description: 'min_max normalization of:', details: [{ value: 4, description: 'score of sub-query 1', details: [] }] }],
    });
    const unexplained = await es.call('POST', '/movies/_search?search_pipeline=explained', hybrid());
    expect(unexplained.json.hits.hits[0]).to.not.have.property('_explanation');
  });

  it('accepts the neural_sparse_two_phase_processor (no search of this engine is a neural_sparse one) and checks its parameters', async () => {
    const ok = await es.call('PUT', '/_search/pipeline/two-phase', { request_processors: [{ neural_sparse_two_phase_processor: { enabled: true, two_phase_parameter: { prune_type: 'max_ratio', prune_ratio: 0.4, expansion_rate: 5, max_window_size: 10000 } } }] });
    expect(ok.json).to.deep.equal({ acknowledged: true });
    const r = await es.call('POST', '/movies/_search?search_pipeline=two-phase', { query: { term: { 'genre.keyword': 'drama' } } });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
    const bad = await es.call('PUT', '/_search/pipeline/two-phase', { request_processors: [{ neural_sparse_two_phase_processor: { two_phase_parameter: { max_window_size: 10 } } }] });
    expect(bad.status).to.equal(400);
  });

  it('leaves a search that is not hybrid alone, and refuses bad processor and query options as OpenSearch', async () => {
    const plain = await es.call('POST', '/movies/_search?search_pipeline=norm', { query: { term: { 'genre.keyword': 'drama' } } });
    expect(plain.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
    const weights = await es.call('PUT', '/_search/pipeline/bad', { phase_results_processors: [{ 'normalization-processor': { combination: { parameters: { weights: [0.5, 0.6] } } } }] });
    expect(weights.status).to.equal(400);
    expect(weights.json.error.reason).to.include('sum of weights for combination must be equal to 1.0');
    const technique = await es.call('PUT', '/_search/pipeline/bad', { phase_results_processors: [{ 'normalization-processor': { normalization: { technique: 'max' } } }] });
    expect(technique.status).to.equal(400);
    expect(technique.json.error.reason).to.include('provided normalization technique [max] is not supported');
    const rank = await es.call('PUT', '/_search/pipeline/bad', { phase_results_processors: [{ 'score-ranker-processor': { combination: { rank_constant: 0 } } }] });
    expect(rank.status).to.equal(400);
    const many = await es.call('POST', '/movies/_search', { query: { hybrid: { queries: Array.from({ length: 6 }, () => ({ match_all: {} })) } } });
    expect(many.status).to.equal(400);
    expect(many.json.error.reason).to.equal('Number of sub-queries exceeds maximum supported by [hybrid] query');
  });
});
