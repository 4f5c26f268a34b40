import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// Elasticsearch (7.x and 8.x: SimilarityProviders.createBM25Similarity) and OpenSearch 2 both score
// with LegacyBM25Similarity (the (k1 + 1) factor Lucene 8 dropped is kept: every BM25 weight times
// 2.2), so every dialect scores alike.
describe('embedded engine: BM25 as Elasticsearch and OpenSearch 2 score it (LegacyBM25Similarity)', () => {
  const engines: Record<string, TestEngine> = {};

  before(async () => {
    engines.opensearch = await startEngine({ apiDialect: 'opensearch' });
    engines.auto = await startEngine({ apiDialect: 'auto' });
    for (const es of Object.values(engines)) {
      await es.call('PUT', '/movies', { mappings: { properties: { title: { type: 'text' }, genre: { type: 'keyword' } } } });
      await es.call('PUT', '/movies/_doc/1?refresh=true', { title: 'Beauty and the Beast', genre: 'animation' });
    }
  });
  after(async () => {
    for (const es of Object.values(engines)) await es.close();
  });

  const search = async (es: TestEngine, query: unknown, extra: Record<string, unknown> = {}) =>
    (await es.call('POST', '/movies/_search', { query, ...extra })).json.hits;

  it('scores a match query with the (k1 + 1) factor, in every dialect', async () => {
    const match = { match: { title: 'Beauty and the Beast' } };
    expect((await search(engines.opensearch, match)).max_score).to.equal(1.1507283);
    expect((await search(engines.auto, match)).max_score).to.equal(1.1507283);
    // the _explain: the sum of four terms of 0.2876821, each with the boost 2.2
    const r = await engines.opensearch.call('POST', '/movies/_explain/1', { query: match });
    expect(r.json.explanation).to.include({ value: 1.1507283, description: 'sum of:' });
    const term = r.json.explanation.details[0].details[0];
    expect(term.value).to.equal(0.2876821);
    expect(term.details[0]).to.deep.equal({ value: 2.2, description: 'boost', details: [] });
  });

  it('takes the query boost times 2.2 in float, phrases and explanations alike', async () => {
    const hits = await search(engines.opensearch, { match_phrase: { title: { query: 'the beast', boost: 2 } } }, { explain: true });
    const auto = await search(engines.auto, { match_phrase: { title: { query: 'the beast', boost: 2 } } }, { explain: true });
    expect(hits.hits[0]._score).to.equal(auto.hits[0]._score);
    expect(hits.hits[0]._explanation.value).to.equal(hits.hits[0]._score);
    const boostNode = hits.hits[0]._explanation.details[0].details[0];
    expect(boostNode).to.deep.equal({ value: 4.4, description: 'boost', details: [] });
  });

  it('leaves constant scores and filters alone', async () => {
    expect((await search(engines.opensearch, { constant_score: { filter: { match: { title: 'beast' } }, boost: 1.6 } })).max_score).to.equal(1.6);
    expect((await search(engines.opensearch, { bool: { filter: { match: { title: 'beast' } } } })).max_score).to.equal(0);
    expect((await search(engines.opensearch, { terms: { genre: ['animation'] } })).max_score).to.equal(1);
  });
});
