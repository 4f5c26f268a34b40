import { expect } from 'chai';
import { fieldsMentionedBy } from '../../../lib/engine/embedded/search/scripts/index.js';
import { runAtOnce, WorkBudget } from '../../../lib/engine/embedded/search/work-budget.js';
import { startEngine, type TestEngine } from './support.js';

/** Which runtime fields a search computes: those its request names, not every one (issue 39: a large request computed them all). */
describe('embedded engine: the fields a search request mentions', () => {
  it('a value held in two places of the parsed request is walked once: it does not make every field count as read', () => {
    const shared = { field: 'n', from: 1, to: 2 };
    const request = { aggs: { r: { range: { ranges: [shared] } } }, parsed: { ranges: [shared, shared] } };
    const reads = runAtOnce(fieldsMentionedBy(request, undefined, WorkBudget.unbounded));
    expect(reads('n')).to.equal(true);
    expect(reads('heavy')).to.equal(false);
  });

  describe('a range aggregation over an index with a runtime field in its mappings', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine();
      // computing it fails (no such field): a search that computes it fails
      const created = await es.call('PUT', '/rt', { mappings: { runtime: { broken: { type: 'long', script: "emit(doc['nope'].value)" } }, properties: { n: { type: 'long' } } } });
      expect(created.status, created.text).to.equal(200);
      for (let i = 0; i < 3; i++) await es.call('PUT', `/rt/_doc/${i}?refresh=true`, { n: i });
    });
    after(() => es.close());

    it('does not compute it (the request does not name it), whatever its number of ranges', async () => {
      for (const n of [3, 20_000]) {
        const r = await es.call('POST', '/rt/_search', { size: 0, aggs: { r: { range: { field: 'n', ranges: Array.from({ length: n }, (_, i) => ({ from: i, to: i + 1 })) } } } });
        expect(r.status, r.text.slice(0, 300)).to.equal(200);
        expect(r.json.aggregations.r.buckets.slice(0, 3).map((b: { doc_count: number }) => b.doc_count)).to.deep.equal([1, 1, 1]);
      }
      const named = await es.call('POST', '/rt/_search', { size: 0, aggs: { b: { max: { field: 'broken' } } } });
      expect(named.status, 'a search that names it computes it').to.not.equal(200);
    });
  });
});
