/**
 * The aggregation phase is done a time slice at a time (issue 39): an aggregation with many buckets
 * is steps of the phase, so the engine answers others while it runs. On both backends.
 */
import { expect } from 'chai';
import { expectAnsweredThroughout, readsDuring } from '../../../support/answered-meanwhile.js';
import { BACKENDS } from '../../../support/backends.js';
import { call, ndjson } from '../../../support/http.js';

const DOCS = 2000;

for (const backend of BACKENDS) {
  describe(`aggregations with many buckets give others a turn (${backend.name})`, function () {
    this.timeout(180_000);
    let running: Awaited<ReturnType<typeof backend.start>>;
    let url: string;

    before(async () => {
      running = await backend.start();
      url = running.gateway.url;
      const created = await call(url, 'PUT', '/events', { body: { mappings: { properties: { n: { type: 'long' }, user: { type: 'keyword' }, at: { type: 'date' } } } } });
      expect(created.status, created.text).to.equal(200);
      const lines: unknown[] = [];
      for (let i = 0; i < DOCS; i++) {
        lines.push({ index: { _index: 'events', _id: String(i) } }, { n: i, user: `u${i}`, at: new Date(Date.UTC(2024, 0, 1) + (i % 200) * 1000).toISOString() });
      }
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.json.errors, bulk.text.slice(0, 500)).to.equal(false);
      expect((await call(url, 'PUT', '/small/_doc/1?refresh=true', { body: { a: 1 } })).status).to.equal(201);
    });
    after(() => running.stop());

    it('a range aggregation of 60,000 ranges renders its buckets a slice at a time', async () => {
      const ranges = Array.from({ length: 60_000 }, (_, i) => ({ from: i % DOCS, to: (i % DOCS) + 1 + Math.floor(i / DOCS) }));
      const during = await readsDuring(url, '/small/_doc/1', () => call(url, 'POST', '/events/_search', { body: { size: 0, aggs: { r: { range: { field: 'n', ranges } } } } }));
      expect(during.heavy.status, during.heavy.text.slice(0, 300)).to.equal(200);
      const buckets = during.heavy.json.aggregations.r.buckets as Array<{ key: string; doc_count: number }>;
      expect(buckets).to.have.length(60_000);
      // ranges come out sorted by from, then to; [0, 1) holds one document, [0, 30) thirty
      expect(buckets[0]).to.deep.include({ key: '0.0-1.0', doc_count: 1 });
      expect(buckets[29]).to.deep.include({ key: '0.0-30.0', doc_count: 30 });
      expectAnsweredThroughout(during, 'a range aggregation of 60,000 ranges');
    });

    it('terms × date_histogram near search.max_buckets is built a slice at a time', async () => {
      // 300 users × 200 seconds (min_doc_count 0 over the extended bounds): 60,300 buckets
      const body = {
        size: 0,
        aggs: { users: { terms: { field: 'user', size: 300, order: { _key: 'asc' } }, aggs: { t: { date_histogram: { field: 'at', fixed_interval: '1s', min_doc_count: 0, extended_bounds: { min: '2024-01-01T00:00:00Z', max: '2024-01-01T00:03:19Z' } } } } } },
      };
      const during = await readsDuring(url, '/small/_doc/1', () => call(url, 'POST', '/events/_search', { body }));
      expect(during.heavy.status, during.heavy.text.slice(0, 300)).to.equal(200);
      const users = during.heavy.json.aggregations.users.buckets as Array<{ key: string; t: { buckets: Array<{ doc_count: number }> } }>;
      expect(users).to.have.length(300);
      expect(users[0].key).to.equal('u0');
      expect(users[0].t.buckets).to.have.length(200);
      expect(users[0].t.buckets.reduce((n, b) => n + b.doc_count, 0)).to.equal(1);
      expectAnsweredThroughout(during, 'terms × date_histogram of 60,300 buckets');
    });
  });
}
