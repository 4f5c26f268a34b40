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
