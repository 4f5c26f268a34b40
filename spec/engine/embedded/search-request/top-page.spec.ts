import { expect } from 'chai';
import fc from 'fast-check';
import { startEngine, type TestEngine } from '../support.js';

/**
 * The page of a search is its first `from + size` hits in the request's order, whatever `size`:
 * in score order, ties by index, then by the document's place in it (the collector keeps a heap of
 * `from + size`, TopK). Checked against the same search's whole ordered list (a heap too large to
 * fill), over generated indices whose documents share few distinct scores (many ties), searched
 * one or two indices at once, with and without a rescore.
 */
describe('embedded engine: a search page is the head of its whole order', function () {
  this.timeout(120_000);
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('size and from over scores with many ties, one index or two, rescored or not', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ w: fc.integer({ min: 0, max: 3 }), index: fc.integer({ min: 0, max: 1 }) }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 5 }),
        fc.boolean(),
        fc.boolean(),
        async (docs, size, from, twoIndices, rescored) => {
          const names = [`top-page-${round}-a`, `top-page-${round}-b`];
          round++;
          for (const name of names) expect((await es.call('PUT', `/${name}`, { mappings: { properties: { w: { type: 'integer' } } } })).status).to.equal(200);
          const lines = docs.flatMap((d, i) => [{ index: { _index: names[d.index], _id: String(i) } }, { w: d.w }]);
          expect((await es.call('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n')).status).to.equal(200);
          // a score per distinct w: constant_score clauses, so that documents of one w tie
          const query = { bool: { should: [1, 2, 3].map((w) => ({ constant_score: { filter: { term: { w } }, boost: w } })) } };
          const body = (page: { size: number; from: number }) => ({
            ...page, query, ...(rescored ? { rescore: { window_size: 4, query: { rescore_query: { term: { w: 2 } }, query_weight: 1, rescore_query_weight: 5 } } } : {}),
          });
          const target = twoIndices ? names.join(',') : names[0];
          const whole = await es.call('POST', `/${target}/_search`, body({ size: 100, from: 0 }));
          const page = await es.call('POST', `/${target}/_search`, body({ size, from }));
          expect(page.status, page.text).to.equal(200);
          const ids = (r: typeof page) => r.json.hits.hits.map((h: { _index: string; _id: string }) => `${h._index}/${h._id}`);
          expect(ids(page)).to.deep.equal(ids(whole).slice(from, from + size));
          for (const name of names) await es.call('DELETE', `/${name}`);
        },
      ),
      { numRuns: 40, seed: 20261130 },
    );
  });
});
