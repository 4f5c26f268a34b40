import { expect } from 'chai';
import { call as gatewayCall } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { startEngine, type TestEngine } from '../support.js';

/** a (seq 0), b (seq 1), a again (seq 2), c (seq 3), b deleted (seq 4): live a@2, c@3. */
async function seed(put: (method: string, path: string, body?: unknown) => Promise<{ status: number }>): Promise<void> {
  expect((await put('PUT', '/seq')).status).to.equal(200);
  expect((await put('PUT', '/seq/_doc/a', { n: 1 })).status).to.equal(201);
  expect((await put('PUT', '/seq/_doc/b', { n: 2 })).status).to.equal(201);
  expect((await put('PUT', '/seq/_doc/a', { n: 3 })).status).to.equal(200);
  expect((await put('PUT', '/seq/_doc/c?refresh=true', { n: 4 })).status).to.equal(201);
  expect((await put('DELETE', '/seq/_doc/b?refresh=true')).status).to.equal(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ids = (json: any): string[] => json.hits.hits.map((h: { _id: string }) => h._id).sort();

describe('embedded engine: term, terms, range and exists on _seq_no', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await seed((m, p, b) => es.call(m, p, b));
  });
  after(() => es.close());

  const search = (query: unknown, extra: Record<string, unknown> = {}) => es.call('POST', '/seq/_search', { query, seq_no_primary_term: true, ...extra });

  it('a term query finds the live document with that sequence number (an overwritten one has moved on)', async () => {
    const r = await search({ term: { _seq_no: 2 } });
    expect(r.status, r.text).to.equal(200);
    expect(ids(r.json)).to.deep.equal(['a']);
    expect(r.json.hits.hits[0]._seq_no).to.equal(2);
    expect(r.json.hits.hits[0]._score).to.equal(1);
    expect(ids((await search({ term: { _seq_no: 0 } })).json)).to.deep.equal([]);
    expect(ids((await search({ terms: { _seq_no: [1, 3] } })).json)).to.deep.equal(['c']);
  });

  it('range queries, exists, a post_filter and _count', async () => {
    expect(ids((await search({ range: { _seq_no: { gte: 2 } } })).json)).to.deep.equal(['a', 'c']);
    expect(ids((await search({ range: { _seq_no: { gt: 2, lte: 10 } } })).json)).to.deep.equal(['c']);
    expect(ids((await search({ exists: { field: '_seq_no' } })).json)).to.deep.equal(['a', 'c']);
    expect(ids((await search({ match_all: {} }, { post_filter: { range: { _seq_no: { lt: 3 } } } })).json)).to.deep.equal(['a']);
    const count = await es.call('POST', '/seq/_count', { query: { bool: { filter: [{ range: { _seq_no: { gte: 0 } } }] } } });
    expect(count.json.count).to.equal(2);
  });

  it('sorts by _seq_no (a long on every document), search_after included', async () => {
    const desc = await es.call('POST', '/seq/_search', { sort: [{ _seq_no: 'desc' }] });
    expect(desc.status, desc.text).to.equal(200);
    expect(desc.json.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort])).to.deep.equal([['c', [3]], ['a', [2]]]);
    const after = await es.call('POST', '/seq/_search', { sort: ['_seq_no'], search_after: [2] });
    expect(after.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['c']);
  });

  it('aggregates on _seq_no as on a long field', async () => {
    const r = await es.call('POST', '/seq/_search', { size: 0, aggs: { top: { max: { field: '_seq_no' } }, each: { terms: { field: '_seq_no' } } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.aggregations.top.value).to.equal(3);
    expect(r.json.aggregations.each.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([[2, 1], [3, 1]]);
  });

  it('the mappings are not changed: _seq_no is no field of the index', async () => {
    const mapping = await es.call('GET', '/seq/_mapping');
    expect(mapping.json.seq.mappings.properties).to.not.have.property('_seq_no');
  });
});

for (const backend of BACKENDS) {
  describe(`queries on _seq_no through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      await seed((method, path, body) => gatewayCall(url, method, path, body === undefined ? {} : { body }));
    });
    after(() => stop());

    it('answers term and range queries on _seq_no', async () => {
      const term = await gatewayCall(url, 'POST', '/seq/_search', { body: { query: { term: { _seq_no: 3 } } } });
      expect(term.status, term.text).to.equal(200);
      expect(ids(term.json)).to.deep.equal(['c']);
      const range = await gatewayCall(url, 'POST', '/seq/_search', { body: { query: { range: { _seq_no: { gte: 2 } } } } });
      expect(ids(range.json)).to.deep.equal(['a', 'c']);
    });
  });
}
