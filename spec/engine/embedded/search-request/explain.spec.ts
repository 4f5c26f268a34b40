import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// Values are Lucene's BM25 on this corpus (k1 1.2, b 0.75): three docs with `title`, lengths 3, 2, 5.
describe('embedded engine: explain (search `explain: true` and _explain/{id})', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/e', { mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } } });
    await es.call('PUT', '/e/_doc/1', { title: 'quick brown fox', tag: 'a' });
    await es.call('PUT', '/e/_doc/2', { title: 'lazy dog', tag: 'b' });
    await es.call('PUT', '/e/_doc/3?refresh=true', { title: 'the fox and the dog', tag: 'a' });
  });
  after(() => es.close());

  const termTree = (term: string, ord: number, o: { score: number; n: number; idf: number; freq: number; tf: number; dl: number; boost?: number }) => ({
    value: o.score,
    description: `weight(title:${term} in ${ord}) [PerFieldSimilarity], result of:`,
    details: [{
      value: o.score,
      description: `score(freq=${o.freq.toFixed(1)}), computed as boost * idf * tf from:`,
      details: [
        ...(o.boost ? [{ value: o.boost, description: 'boost', details: [] }] : []),
        {
          value: o.idf,
          description: 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
          details: [
            { value: o.n, description: 'n, number of documents containing term', details: [] },
            { value: 3, description: 'N, total number of documents with field', details: [] },
          ],
        },
        {
          value: o.tf,
          description: 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
          details: [
            { value: o.freq, description: 'freq, occurrences of term within document', details: [] },
            { value: 1.2, description: 'k1, term saturation parameter', details: [] },
            { value: 0.75, description: 'b, length normalization parameter', details: [] },
            { value: o.dl, description: 'dl, length of field', details: [] },
            { value: 3.3333333, description: 'avgdl, average length of field', details: [] },
          ],
        },
      ],
    }],
  });

  it('a term: weight(field:term in doc) with score = boost * idf * tf and their inputs', async () => {
    const r = await es.call('POST', '/e/_explain/1', { query: { match: { title: 'fox' } } });
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({
      _index: 'e', _type: '_doc', _id: '1', matched: true,
      explanation: termTree('fox', 0, { score: 0.49005115, n: 2, idf: 0.47000363, freq: 1, tf: 0.47393364, dl: 3, boost: 2.2 }),
    });
  });

  it('a boosted term shows the boost; the hit explanation equals the _explain one and the hit score', async () => {
    const r = await es.call('POST', '/e/_search', { explain: true, query: { match: { title: { query: 'dog', boost: 2 } } } });
    const hit = r.json.hits.hits.find((h: { _id: string }) => h._id === '2');
    expect(hit._explanation.value).to.equal(hit._score);
    // Elasticsearch's LegacyBM25Similarity: the query's boost times k1 + 1
    expect(hit._explanation.details[0].details[0]).to.deep.equal({ value: 4.4, description: 'boost', details: [] });
    expect(hit._shard).to.equal('[e][0]');
    const direct = await es.call('POST', '/e/_explain/2', { query: { match: { title: { query: 'dog', boost: 2 } } } });
    expect(direct.json.explanation).to.deep.equal(hit._explanation);
  });

  it('bool: "sum of:" the matching clauses; filters as "match on required clause"', async () => {
    const r = await es.call('POST', '/e/_explain/3', { query: { bool: { should: [{ match: { title: 'fox' } }, { match: { title: 'dog' } }, { match: { title: 'cat' } }], filter: [{ term: { tag: 'a' } }] } } });
    const e = r.json.explanation;
    expect(e.description).to.equal('sum of:');
    expect(e.details.map((d: { description: string }) => d.description)).to.deep.equal([
      'weight(title:fox in 2) [PerFieldSimilarity], result of:',
      'weight(title:dog in 2) [PerFieldSimilarity], result of:',
      'match on required clause, product of:',
    ]);
    expect(e.value).to.be.closeTo(e.details[0].value + e.details[1].value, 1e-6);
    expect(e.details[2].details[0]).to.deep.equal({ value: 0, description: '# clause', details: [] });
    const s = await es.call('POST', '/e/_search', { query: { bool: { should: [{ match: { title: 'fox' } }, { match: { title: 'dog' } }, { match: { title: 'cat' } }], filter: [{ term: { tag: 'a' } }] } } });
    expect(s.json.hits.hits.find((h: { _id: string }) => h._id === '3')._score).to.equal(e.value);
  });

  it('constant_score, match_all and dis_max read as Lucene prints them', async () => {
    let r = await es.call('POST', '/e/_explain/1', { query: { constant_score: { filter: { term: { tag: 'a' } }, boost: 3 } } });
    expect(r.json.explanation).to.deep.equal({ value: 3, description: '(ConstantScore(tag:a))^3.0', details: [] });
    r = await es.call('POST', '/e/_explain/1', { query: { match_all: {} } });
    expect(r.json.explanation).to.deep.equal({ value: 1, description: '*:*', details: [] });
    r = await es.call('POST', '/e/_explain/3', { query: { dis_max: { tie_breaker: 0.5, queries: [{ match: { title: 'fox' } }, { match: { title: 'dog' } }] } } });
    expect(r.json.explanation.description).to.equal('max plus 0.5 times others of:');
    expect(r.json.explanation.details).to.have.length(2);
    r = await es.call('POST', '/e/_explain/3', { query: { dis_max: { queries: [{ match: { title: 'fox' } }] } } });
    expect(r.json.explanation.description).to.equal('max of:');
  });

  it('a document that does not match: matched false; a missing document: 404', async () => {
    let r = await es.call('POST', '/e/_explain/2', { query: { match: { title: 'fox' } } });
    expect(r.status).to.equal(200);
    expect(r.json.matched).to.equal(false);
    expect(r.json.explanation.value).to.equal(0);
    r = await es.call('POST', '/e/_explain/9', { query: { match_all: {} } });
    expect(r.status).to.equal(404);
    expect(r.json).to.deep.equal({ _index: 'e', _type: '_doc', _id: '9', matched: false });
  });
});
