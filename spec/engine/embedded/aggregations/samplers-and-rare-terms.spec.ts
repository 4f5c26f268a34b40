import { expect } from 'chai';
import { aggregationsOf, ndjson, startEngine, type TestEngine } from '../support.js';

/** sampler, diversified_sampler and rare_terms. */
describe('embedded engine: sampler, diversified_sampler, rare_terms', () => {
  let es: TestEngine;
  const aggs = (index: string, body: Record<string, unknown>, params = '') => aggregationsOf(es, index, body, params);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/stackoverflow', { mappings: { properties: { author: { type: 'keyword' }, tags: { type: 'keyword' }, title: { type: 'text' } } } });
    const posts = [
      ['alice', ['elasticsearch', 'kibana'], 'elasticsearch elasticsearch elasticsearch cluster'],
      ['alice', ['elasticsearch', 'logstash'], 'elasticsearch elasticsearch index'],
      ['bob', ['elasticsearch', 'java'], 'elasticsearch tuning'],
      ['carol', ['elasticsearch', 'python'], 'client for elasticsearch and more words here'],
      ['dave', ['java'], 'java streams'],
    ];
    const lines: unknown[] = [];
    posts.forEach(([author, tags, title], i) => lines.push({ index: { _index: 'stackoverflow', _id: String(i + 1) } }, { author, tags, title }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/products', { mappings: { properties: { genre: { type: 'keyword' }, product: { type: 'keyword' } } } });
    const genres = ['rock', 'rock', 'rock', 'jazz', 'jazz', 'electronic', 'electronic', 'electronic', 'electronic', 'electronic', 'swing'];
    const genreLines: unknown[] = [];
    genres.forEach((genre, i) => genreLines.push({ index: { _index: 'products', _id: String(i) } }, i === 0 ? { genre, product: 'Product A' } : { genre }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(genreLines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  describe('sampler', () => {
    it('runs its sub-aggregations on the best-scoring shard_size documents', async () => {
      const r = await aggs('stackoverflow', {
        query: { match: { title: 'elasticsearch' } },
        aggs: { sample: { sampler: { shard_size: 2 }, aggs: { authors: { terms: { field: 'author' } } } } },
      }, '?typed_keys');
      expect(r).to.deep.equal({
        'sampler#sample': { doc_count: 2, 'sterms#authors': { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'alice', doc_count: 2 }] } },
      });
      const all = await aggs('stackoverflow', { query: { match: { title: 'elasticsearch' } }, aggs: { sample: { sampler: {} } } });
      expect(all.sample).to.deep.equal({ doc_count: 4 });
    });
  });

  describe('diversified_sampler', () => {
    it('at most max_docs_per_value documents per author among the best-scoring', async () => {
      const r = await aggs('stackoverflow', {
        query: { match: { title: 'elasticsearch' } },
        aggs: { sample: { diversified_sampler: { shard_size: 3, field: 'author' }, aggs: { authors: { terms: { field: 'author' } } } } },
      }, '?typed_keys');
      expect(r['sampler#sample'].doc_count).to.equal(3);
      expect(r['sampler#sample']['sterms#authors'].buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count]))
        .to.deep.equal([['alice', 1], ['bob', 1], ['carol', 1]]);
      const two = await aggs('stackoverflow', { query: { match: { title: 'elasticsearch' } }, aggs: { s: { diversified_sampler: { field: 'author', max_docs_per_value: 2 } } } });
      expect(two.s.doc_count).to.equal(4);
    });

    it('refuses a multi-valued diversifying field', async () => {
      const r = await es.call('POST', '/stackoverflow/_search', { size: 0, aggs: { s: { diversified_sampler: { field: 'tags' } } } });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('Sample diversifying key must be a single valued-field');
    });
  });

  describe('rare_terms', () => {
    it('the reference example: terms in at most max_doc_count documents, least frequent first', async () => {
      expect(await aggs('products', { aggs: { genres: { rare_terms: { field: 'genre' } } } })).to.deep.equal({ genres: { buckets: [{ key: 'swing', doc_count: 1 }] } });
      expect(await aggs('products', { aggs: { genres: { rare_terms: { field: 'genre', max_doc_count: 2 } } } }))
        .to.deep.equal({ genres: { buckets: [{ key: 'swing', doc_count: 1 }, { key: 'jazz', doc_count: 2 }] } });
    });

    it('include/exclude and missing', async () => {
      const r = await aggs('products', { aggs: { genres: { rare_terms: { field: 'genre', max_doc_count: 3, include: ['swing', 'rock'], exclude: ['jazz'] } } } });
      expect(r.genres.buckets).to.deep.equal([{ key: 'swing', doc_count: 1 }, { key: 'rock', doc_count: 3 }]);
      const missing = await aggs('products', { aggs: { products: { rare_terms: { field: 'product', missing: 'N/A' } } } });
      expect(missing.products.buckets).to.deep.equal([{ key: 'Product A', doc_count: 1 }]);
    });
  });
});
