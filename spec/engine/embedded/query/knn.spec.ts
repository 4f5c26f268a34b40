import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** A float score as the engine prints it: the shortest decimal that reads back as the same float. */
function f(x: number): number {
  const want = Math.fround(x);
  for (let p = 1; p < 10; p++) if (Math.fround(Number(want.toPrecision(p))) === want) return Number(want.toPrecision(p));
  return want;
}

/** kNN search (ES 8.15 "kNN search": the `knn` option and query; OpenSearch 2 "k-NN query"), exact. */
describe('embedded engine: kNN search', () => {
  let es: TestEngine;
  afterEach(() => es.close());

  async function search(index: string, body: Record<string, unknown>): Promise<{ status: number; json: any }> {
    const r = await es.call('POST', `/${index}/_search`, body);
    return { status: r.status, json: r.json };
  }
  const scored = (json: any): Array<[string, number]> => json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);

  describe('Elasticsearch', () => {
    beforeEach(async () => {
      es = await startEngine();
      await es.call('PUT', '/v', {
        mappings: {
          properties: {
            l2: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' },
            cos: { type: 'dense_vector', dims: 2 },
            dot: { type: 'dense_vector', dims: 2, similarity: 'dot_product' },
            mip: { type: 'dense_vector', dims: 2, similarity: 'max_inner_product' },
            t: { type: 'text' }, n: { type: 'integer' },
          },
        },
      });
      await es.call('PUT', '/v/_doc/a', { l2: [0, 0], cos: [1, 0], dot: [1, 0], mip: [2, 0], t: 'red', n: 1 });
      await es.call('PUT', '/v/_doc/b', { l2: [1, 1], cos: [0, 1], dot: [0, 1], mip: [-1, 0], t: 'blue', n: 2 });
      await es.call('PUT', '/v/_doc/c?refresh=true', { l2: [3, 4], cos: [1, 1], dot: [0.6, 0.8], mip: [0, 1], t: 'red blue', n: 3 });
    });

    it('scores each similarity as ES converts it, the k nearest first', async () => {
      const knn = (field: string, v: number[], k = 3) => search('v', { knn: { field, query_vector: v, k, num_candidates: 10 } });
      // l2_norm: 1 / (1 + d²)
      expect(scored((await knn('l2', [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)], ['c', f(1 / 26)]]);
      // cosine: (1 + cos) / 2
      expect(scored((await knn('cos', [1, 0], 2)).json)).to.deep.equal([['a', 1], ['c', f((1 + Math.SQRT1_2) / 2)]]);
      // dot_product: (1 + dot) / 2
      expect(scored((await knn('dot', [0, 1])).json)).to.deep.equal([['b', 1], ['c', f(0.9)], ['a', 0.5]]);
      // max_inner_product: dot + 1, or 1 / (1 - dot) when negative
      expect(scored((await knn('mip', [1, 0])).json)).to.deep.equal([['a', 3], ['c', 1], ['b', 0.5]]);
    });

    it('validates k and num_candidates in ES words', async () => {
      const reason = async (knn: Record<string, unknown>) => (await search('v', { knn: { field: 'l2', query_vector: [0, 0], ...knn } })).json.error?.reason;
      expect(await reason({ k: 5, num_candidates: 2 })).to.equal('[num_candidates] cannot be less than [k]');
      expect(await reason({ k: 0, num_candidates: 2 })).to.equal('[k] must be greater than 0');
      expect(await reason({ k: 5, num_candidates: 10001 })).to.equal('[num_candidates] cannot exceed [10000]');
      expect(await reason({ k: 1, num_candidates: 1, query_vector: [1, 2, 3] })).to.equal('The query vector has a different number of dimensions [3] than the document vectors [2].');
      expect(await reason({ field: 't', k: 1, num_candidates: 1 })).to.equal('[knn] queries are only supported on [dense_vector] fields');
    });

    it('filters before choosing the k nearest, applies the similarity threshold and boost, and sums with the query', async () => {
      const r = await search('v', { knn: { field: 'l2', query_vector: [0, 0], k: 1, num_candidates: 5, filter: { term: { t: 'blue' } } } });
      expect(scored(r.json)).to.deep.equal([['b', f(1 / 3)]]);
      const near = await search('v', { knn: { field: 'l2', query_vector: [0, 0], k: 3, num_candidates: 5, similarity: 1.5 } });
      expect(scored(near.json).map(([id]) => id)).to.deep.equal(['a', 'b']);
      const both = await search('v', {
        query: { match: { t: { query: 'red', boost: 0 } } },
        knn: { field: 'l2', query_vector: [0, 0], k: 1, num_candidates: 5, boost: 2 },
      });
      // a: the query (0) plus the knn (2 × 1); c: the query alone
      expect(scored(both.json)).to.deep.equal([['a', 2], ['c', 0]]);
      const two = await search('v', { knn: [
        { field: 'l2', query_vector: [0, 0], k: 1, num_candidates: 5 },
        { field: 'cos', query_vector: [0, 1], k: 1, num_candidates: 5 },
      ] });
      expect(scored(two.json)).to.deep.equal([['a', 1], ['b', 1]]);
      expect(two.json.hits.total).to.deep.equal({ value: 2, relation: 'eq' });
    });

    it('serves the knn query inside `query` (k and num_candidates optional)', async () => {
      const r = await search('v', { query: { bool: { must: [{ knn: { field: 'l2', query_vector: [0, 0], k: 2 } }], filter: [{ range: { n: { gte: 2 } } }] } } });
      expect(scored(r.json)).to.deep.equal([['b', f(1 / 3)]]);
      const all = await search('v', { query: { knn: { field: 'l2', query_vector: [0, 0] } } });
      expect(all.json.hits.total.value).to.equal(3);
    });

    it('the knn option over several indices keeps the global k nearest (the knn query keeps k per index)', async () => {
      await es.call('PUT', '/w', { mappings: { properties: { l2: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' }, t: { type: 'text' } } } });
      await es.call('PUT', '/w/_doc/d', { l2: [0.5, 0], t: 'red' });
      await es.call('PUT', '/w/_doc/e?refresh=true', { l2: [9, 9], t: 'green' });
      const option = await search('v,w', { knn: { field: 'l2', query_vector: [0, 0], k: 2, num_candidates: 10 } });
      expect(option.json.hits.total.value).to.equal(2);
      expect(scored(option.json)).to.deep.equal([['a', 1], ['d', f(1 / 1.25)]]);
      // combined with a query: the query's own matches stay, the kNN part adds only the global k
      const mixed = await search('v,w', { query: { match: { t: 'green' } }, knn: { field: 'l2', query_vector: [0, 0], k: 2, num_candidates: 10 }, size: 10 });
      expect(mixed.json.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['a', 'd', 'e']);
      const query = await search('v,w', { query: { knn: { field: 'l2', query_vector: [0, 0], k: 2 } } });
      expect(query.json.hits.total.value).to.equal(4);
    });

    it('serves the deprecated kNN search API (/{index}/_knn_search): k hits of num_candidates per index, filtered, with a warning', async () => {
      const r = await es.call('POST', '/v/_knn_search', { knn: { field: 'l2', query_vector: [0, 0], k: 2, num_candidates: 3 }, _source: ['n'] });
      expect(r.status).to.equal(200);
      expect(r.headers.warning).to.contain('The kNN search API has been replaced by the `knn` option in the search API.');
      expect(r.json.hits.total).to.deep.equal({ value: 3, relation: 'eq' });
      expect(r.json.hits.hits.map((h: { _id: string; _score: number; _source: unknown }) => [h._id, h._score, h._source])).to.deep.equal([['a', 1, { n: 1 }], ['b', f(1 / 3), { n: 2 }]]);
      const filtered = await es.call('GET', '/v/_knn_search', { knn: { field: 'l2', query_vector: [0, 0], k: 5, num_candidates: 5 }, filter: { range: { n: { gte: 2 } } } });
      expect(filtered.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['b', 'c']);
      const reason = async (body: Record<string, unknown>) => (await es.call('POST', '/v/_knn_search', body)).json.error.reason;
      expect(await reason({})).to.equal('missing required [knn] section in search body');
      expect(await reason({ knn: { field: 'l2', query_vector: [0, 0], k: 3, num_candidates: 2 } })).to.equal('[num_candidates] cannot be less than [k]');
      expect(await reason({ knn: { field: 'l2', query_vector: [0, 0], k: 0, num_candidates: 2 } })).to.equal('[k] must be greater than 0');
      expect(await reason({ knn: { field: 'l2', query_vector: [0, 0], k: 1, num_candidates: 10001 } })).to.equal('[num_candidates] cannot exceed [10000]');
      expect(await reason({ knn: { field: 'l2', query_vector: [0, 0], k: 1, num_candidates: 1 }, size: 3 })).to.equal('[1:2] [knn-search] unknown field [size]');
    });

    it('scores exactly in script_score with the vector functions (cosineSimilarity, dotProduct, l1norm, l2norm)', async () => {
      const script = (source: string, q: number[]) => search('v', { query: { script_score: { query: { match_all: {} }, script: { source, params: { q } } } } });
      expect(scored((await script("cosineSimilarity(params.q, 'cos') + 1.0", [1, 0])).json)).to.deep.equal([['a', 2], ['c', f(1 + Math.SQRT1_2)], ['b', 1]]);
      expect(scored((await script("dotProduct(params.q, 'mip') + 2", [1, 0])).json)).to.deep.equal([['a', 4], ['c', 2], ['b', 1]]);
      expect(scored((await script("1 / (1 + l2norm(params.q, 'l2'))", [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / (1 + Math.SQRT2))], ['c', f(1 / 6)]]);
      expect(scored((await script("l1norm(params.q, 'l2')", [0, 0])).json)).to.deep.equal([['c', 7], ['b', 2], ['a', 0]]);
      const wrong = await script("l1norm(params.q, 'l2')", [0, 0, 0]);
      expect(wrong.status).to.equal(400);
      expect(JSON.stringify(wrong.json)).to.contain('The query vector has a different number of dimensions [3] than the document vectors [2].');
    });

    it("reads a vector field's doc values in scripts: doc['field'] for the vector functions, vectorValue, magnitude", async () => {
      const script = (source: string, q: number[]) => search('v', { query: { script_score: { query: { match_all: {} }, script: { source, params: { q } } } } });
      expect(scored((await script("cosineSimilarity(params.q, doc['cos']) + 1.0", [1, 0])).json)).to.deep.equal([['a', 2], ['c', f(1 + Math.SQRT1_2)], ['b', 1]]);
      expect(scored((await script("doc['cos'].size() + doc['cos'].vectorValue[1] + doc['cos'].magnitude", [1, 0])).json))
        .to.deep.equal([['c', f(2 + Math.SQRT2)], ['b', 3], ['a', 2]]);
      await es.call('PUT', '/v/_doc/d?refresh=true', { t: 'none' });
      const missing = await script("cosineSimilarity(params.q, doc['cos'])", [1, 0]);
      expect(missing.status).to.equal(400);
      expect(JSON.stringify(missing.json)).to.contain("A document doesn't have a value for a vector field!");
    });

    it('finds the same vectors after a restart', async () => {
      const dataDir = es.dataDir;
      await es.close(false);
      es = await startEngine({ dataDir });
      const r = await search('v', { knn: { field: 'l2', query_vector: [3, 4], k: 1, num_candidates: 2 } });
      expect(scored(r.json)).to.deep.equal([['c', 1]]);
    });
  });

  describe('OpenSearch', () => {
    beforeEach(async () => {
      es = await startEngine({ apiDialect: 'opensearch' });
      const created = await es.call('PUT', '/o', {
        settings: { index: { knn: true } },
        mappings: {
          properties: {
            l2: { type: 'knn_vector', dimension: 2, method: { name: 'hnsw', space_type: 'l2', engine: 'lucene' } },
            cos: { type: 'knn_vector', dimension: 2, method: { name: 'hnsw', space_type: 'cosinesimil', engine: 'faiss' } },
            ip: { type: 'knn_vector', dimension: 2, space_type: 'innerproduct' },
            y: { type: 'integer' },
          },
        },
      });
      expect(created.status).to.equal(200);
      await es.call('PUT', '/o/_doc/a', { l2: [0, 0], cos: [1, 0], ip: [2, 0], y: 1 });
      await es.call('PUT', '/o/_doc/b?refresh=true', { l2: [1, 1], cos: [0, 1], ip: [-1, 0], y: 2 });
    });

    it('scores per space type as OpenSearch does', async () => {
      const knn = (field: string, vector: number[], extra: Record<string, unknown> = { k: 2 }) => search('o', { query: { knn: { [field]: { vector, ...extra } } } });
      expect(scored((await knn('l2', [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)]]);
      // cosinesimil: (2 − (1 − cos)) / 2
      expect(scored((await knn('cos', [1, 0])).json)).to.deep.equal([['a', 1], ['b', 0.5]]);
      expect(scored((await knn('ip', [1, 0])).json)).to.deep.equal([['a', 3], ['b', 0.5]]);
      expect(scored((await knn('l2', [0, 0], { min_score: 0.5 })).json)).to.deep.equal([['a', 1]]);
      expect(scored((await knn('l2', [0, 0], { max_distance: 2 })).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)]]);
      expect(scored((await knn('l2', [0, 0], { k: 1, filter: { term: { y: 2 } } })).json)).to.deep.equal([['b', f(1 / 3)]]);
    });

    it('refuses what OpenSearch refuses', async () => {
      expect((await es.call('PUT', '/o/_doc/c', { l2: [1, 2, 3] })).json.error.reason).to.equal('Vector dimension mismatch. Expected: 2, Given: 3');
      expect((await es.call('PUT', '/bad', { mappings: { properties: { v: { type: 'knn_vector' } } } })).json.error.reason).to.equal('Failed to parse mapping: Dimension value missing for vector: v');
      expect((await search('o', { query: { knn: { nope: { vector: [0, 0], k: 1 } } } })).status).to.equal(400);
      expect((await search('o', { query: { knn: { nope: { vector: [0, 0], k: 1, ignore_unmapped: true } } } })).json.hits.total.value).to.equal(0);
      expect((await search('o', { query: { knn: { l2: { vector: [0, 0] } } } })).json.error.reason).to.equal('[knn] requires exactly one of k, distance or score to be set');
    });

    it('scores exactly with the k-NN score script (lang knn, knn_score) per space type; a document without a vector scores 0', async () => {
      await es.call('PUT', '/o/_doc/c?refresh=true', { y: 3 });
      const knnScore = (field: string, space: string, value: unknown, query: Record<string, unknown> = { match_all: {} }) => search('o', {
        query: { script_score: { query, script: { lang: 'knn', source: 'knn_score', params: { field, query_value: value, space_type: space } } } },
      });
      expect(scored((await knnScore('l2', 'l2', [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)], ['c', 0]]);
      expect(scored((await knnScore('l2', 'l1', [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)], ['c', 0]]);
      expect(scored((await knnScore('l2', 'linf', [0, 0])).json)).to.deep.equal([['a', 1], ['b', 0.5], ['c', 0]]);
      // cosinesimil: 1 + cos; innerproduct: ip + 1, or 1 / (1 − ip) when negative
      expect(scored((await knnScore('cos', 'cosinesimil', [1, 0])).json)).to.deep.equal([['a', 2], ['b', 1], ['c', 0]]);
      expect(scored((await knnScore('ip', 'innerproduct', [1, 0])).json)).to.deep.equal([['a', 3], ['b', 0.5], ['c', 0]]);
      // hamming bits over a whole-number field: 1 / (1 + differing bits)
      expect(scored((await knnScore('y', 'hammingbit', 1)).json)).to.deep.equal([['a', 1], ['c', 0.5], ['b', f(1 / 3)]]);
      // the query filters first, the script scores what is left
      expect(scored((await knnScore('l2', 'l2', [0, 0], { term: { y: 2 } })).json)).to.deep.equal([['b', f(1 / 3)]]);
      const inFunctionScore = await search('o', { query: { function_score: { query: { term: { y: 1 } }, functions: [{
        script_score: { script: { lang: 'knn', source: 'knn_score', params: { field: 'l2', query_value: [1, 1], space_type: 'l2' } } },
      }], boost_mode: 'replace' } } });
      expect(scored(inFunctionScore.json)).to.deep.equal([['a', f(1 / 3)]]);
    });

    it("refuses the k-NN score script's bad parameters in OpenSearch's words", async () => {
      const reason = async (params: Record<string, unknown>, source = 'knn_score') => {
        const r = await search('o', { query: { script_score: { query: { match_all: {} }, script: { lang: 'knn', source, params } } } });
        expect(r.status).to.equal(400);
        return r.json.error.root_cause[0].reason as string;
      };
      expect(await reason({ query_value: [0, 0], space_type: 'l2' })).to.equal('Missing parameter [field]');
      expect(await reason({ field: 'l2', query_value: [0, 0] })).to.equal('Missing parameter [space_type]');
      expect(await reason({ field: 'l2', space_type: 'l2' })).to.equal('Missing parameter [query_value]');
      expect(await reason({ field: 'l2', query_value: [0, 0], space_type: 'nope' })).to.equal('Invalid space type. Please refer to the available space types.');
      expect(await reason({ field: 'y', query_value: [0, 0], space_type: 'cosinesimil' })).to.equal('Incompatible field_type for cosine space. The field type must be knn_vector.');
      expect(await reason({ field: 'l2', query_value: [0, 0, 0], space_type: 'l2' })).to.equal("Object's length=3 does not match the expected length=2.");
      expect(await reason({ field: 'cos', query_value: [0, 0], space_type: 'cosinesimil' })).to.equal('zero vector is not supported when space type is [cosinesimil]');
      expect(await reason({ field: 'l2', query_value: [0, 0], space_type: 'l2' }, 'other')).to.equal('Unknown script name other');
    });

    it('over nested vectors keeps the k documents whose nearest object is nearest, filters on the documents, expands on request', async () => {
      await es.call('PUT', '/n', { settings: { index: { knn: true } }, mappings: { properties: {
        nested_field: { type: 'nested', properties: { my_vector: { type: 'knn_vector', dimension: 3, space_type: 'l2' }, color: { type: 'keyword' } } },
      } } });
      await es.call('PUT', '/n/_doc/1', { parking: false, nested_field: [{ my_vector: [1, 1, 1], color: 'blue' }, { my_vector: [2, 2, 2], color: 'yellow' }, { my_vector: [3, 3, 3], color: 'white' }] });
      await es.call('PUT', '/n/_doc/2', { parking: true, nested_field: [{ my_vector: [10, 10, 10], color: 'red' }, { my_vector: [20, 20, 20], color: 'green' }] });
      await es.call('PUT', '/n/_doc/3?refresh=true', { parking: true, nested_field: [{ my_vector: [100, 100, 100] }] });
      const nestedKnn = (knn: Record<string, unknown>, extra: Record<string, unknown> = {}) => search('n', { query: { nested: {
        path: 'nested_field', query: { knn: { 'nested_field.my_vector': { vector: [1, 1, 1], ...knn } } }, inner_hits: { _source: false }, ...extra,
      } } });
      const innerOffsets = (json: any) => json.hits.hits.map((h: any) => h.inner_hits.nested_field.hits.hits.map((i: any) => i._nested.offset));
      // the three nearest objects are all document 1's: k = 2 still finds two documents, each by its nearest object
      const two = await nestedKnn({ k: 2 });
      expect(scored(two.json)).to.deep.equal([['1', 1], ['2', f(1 / 244)]]);
      expect(innerOffsets(two.json)).to.deep.equal([[0], [0]]);
      const expanded = await nestedKnn({ k: 1, expand_nested_docs: true }, { score_mode: 'max' });
      expect(scored(expanded.json)).to.deep.equal([['1', 1]]);
      expect(innerOffsets(expanded.json)).to.deep.equal([[0, 1, 2]]);
      // a filter reads the documents; a nested query of the same path reads the objects
      expect(scored((await nestedKnn({ k: 3, filter: { term: { parking: true } } })).json)).to.deep.equal([['2', f(1 / 244)], ['3', f(1 / (1 + 3 * 99 * 99))]]);
      const byColor = await nestedKnn({ k: 3, filter: { nested: { path: 'nested_field', query: { term: { 'nested_field.color': 'white' } } } } });
      expect(scored(byColor.json)).to.deep.equal([['1', f(1 / 13)]]);
    });

    it('keeps binary vectors (data_type binary, a bit a dimension) and finds them by hamming distance', async () => {
      expect((await es.call('PUT', '/b12', { mappings: { properties: { v: { type: 'knn_vector', dimension: 12, data_type: 'binary' } } } })).json.error.reason)
        .to.equal('Failed to parse mapping: Dimension should be multiply of 8 for binary vector data type');
      expect((await es.call('PUT', '/bl2', { mappings: { properties: { v: { type: 'knn_vector', dimension: 16, data_type: 'binary', space_type: 'l2' } } } })).status).to.equal(400);
      await es.call('PUT', '/b', { settings: { index: { knn: true } }, mappings: { properties: {
        v: { type: 'knn_vector', dimension: 16, data_type: 'binary', space_type: 'hamming', method: { name: 'hnsw', engine: 'faiss' } },
      } } });
      await es.call('PUT', '/b/_doc/1', { v: [7, 8] });
      await es.call('PUT', '/b/_doc/2?refresh=true', { v: [10, -11] });
      expect((await es.call('PUT', '/b/_doc/3', { v: [1, 2, 3] })).json.error.reason).to.equal('Vector dimension mismatch. Expected: 2, Given: 3');
      // [9, 10] against [7, 8]: 3 + 1 bits differ; against [10, -11]: 2 + 8
      expect(scored((await search('b', { query: { knn: { v: { vector: [9, 10], k: 2 } } } })).json)).to.deep.equal([['1', 0.2], ['2', f(1 / 11)]]);
      const script = await search('b', { query: { script_score: { query: { match_all: {} }, script: { lang: 'knn', source: 'knn_score', params: { field: 'v', query_value: [9, 10], space_type: 'hamming' } } } } });
      expect(scored(script.json)).to.deep.equal([['1', 0.2], ['2', f(1 / 11)]]);
    });

    it("serves the k-NN painless extensions over doc['field']: l2Squared, l1Norm, lInfNorm, innerProduct, cosineSimilarity", async () => {
      const script = (source: string, q: number[]) => search('o', { query: { script_score: { query: { match_all: {} }, script: { source, params: { q } } } } });
      expect(scored((await script("1 / (1 + l2Squared(params.q, doc['l2']))", [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)]]);
      expect(scored((await script("1 / (1 + l1Norm(params.q, doc['l2']))", [0, 0])).json)).to.deep.equal([['a', 1], ['b', f(1 / 3)]]);
      expect(scored((await script("1 / (1 + lInfNorm(params.q, doc['l2']))", [0, 0])).json)).to.deep.equal([['a', 1], ['b', 0.5]]);
      expect(scored((await script("float x = innerProduct(params.q, doc['ip']); return x >= 0 ? x + 1 : 1 / (1 - x);", [1, 0])).json))
        .to.deep.equal([['a', 3], ['b', 0.5]]);
      expect(scored((await script("1.0 + cosineSimilarity(params.q, doc['cos'])", [1, 0])).json)).to.deep.equal([['a', 2], ['b', 1]]);
      // the third argument stands for the query vector's squared magnitude (KNNScoringUtil.cosinesimilOptimized)
      expect(scored((await script("1.0 + cosineSimilarity(params.q, doc['cos'], 4.0)", [2, 0])).json)).to.deep.equal([['a', 2], ['b', 1]]);
      const wrongDims = await script("l2Squared(params.q, doc['l2'])", [0, 0, 0]);
      expect(JSON.stringify(wrongDims.json)).to.contain('query vector dimension mismatch. Expected: 2, Given: 3');
      await es.call('PUT', '/o/_doc/c?refresh=true', { y: 3 });
      const missing = await script("1 / (1 + l2Squared(params.q, doc['l2']))", [0, 0]);
      expect(missing.status).to.equal(400);
      expect(JSON.stringify(missing.json)).to.contain("One of the document doesn't have a value for field 'l2'. This can be avoided by checking if a document has a value for the field or not by doc['l2'].size() == 0 ? 0 : {your script}");
      expect(scored((await script("doc['l2'].size() == 0 ? 0 : 1 / (1 + l2Squared(params.q, doc['l2']))", [0, 0])).json))
        .to.deep.equal([['a', 1], ['b', f(1 / 3)], ['c', 0]]);
    });
  });
});
