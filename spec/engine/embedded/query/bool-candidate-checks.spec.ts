import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * A numeric range among the required clauses of a bool is checked on the other clauses' documents
 * instead of run over the index: results and scores must be those of running it (here forced by
 * wrapping the same range in constant_score, which is never checked that way).
 */
describe('embedded engine: bool with ranges checked per candidate', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/bc', { mappings: { properties: { t: { type: 'text' }, n: { type: 'long' }, d: { type: 'date' }, ok: { type: 'boolean' } } } });
    const lines: unknown[] = [];
    const words = ['red fox', 'lazy dog', 'red dog', 'quick red fox jumps', 'brown fox'];
    for (let i = 0; i < 60; i++) {
      lines.push({ index: { _id: String(i) } }, { t: words[i % words.length], n: i, d: `2020-01-${String((i % 28) + 1).padStart(2, '0')}`, ok: i % 2 === 0, ...(i % 7 === 0 ? { n: [i, i + 100] } : {}) });
    }
    await es.call('POST', '/bc/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  const hits = async (query: unknown) => {
    const r = await es.call('POST', '/bc/_search', { size: 100, query });
    expect(r.status, r.text).to.equal(200);
    return r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);
  };

  const ranges = [
    { n: { gte: 10, lt: 40 } },
    { n: { gt: 105 } },
    { d: { gte: '2020-01-05', lte: '2020-01-20' } },
    { ok: { gte: true } },
    { unmapped: { gte: 1 } },
  ];

  for (const range of ranges) {
    it(`matches running the range itself: ${JSON.stringify(range)}`, async () => {
      const checked = await hits({ bool: { must: [{ match: { t: 'red fox' } }, { range: { ...range } }], filter: [{ range: { n: { gte: 2 } } }] } });
      const run = await hits({ bool: { must: [{ match: { t: 'red fox' } }, { constant_score: { filter: { range: { ...range } }, boost: 1 } }], filter: [{ constant_score: { filter: { range: { n: { gte: 2 } } } } }] } });
      expect(checked).to.deep.equal(run);
    });
  }

  it('a boosted range in must adds its boost; in filter nothing', async () => {
    const base = await hits({ bool: { must: [{ match: { t: 'lazy' } }] } });
    const boosted = await hits({ bool: { must: [{ match: { t: 'lazy' } }, { range: { n: { gte: 0, boost: 2.5 } } }] } });
    const filtered = await hits({ bool: { must: [{ match: { t: 'lazy' } }], filter: [{ range: { n: { gte: 0 } } }] } });
    expect(base.length).to.be.greaterThan(0);
    expect(boosted.map(([id, s]: [string, number]) => [id, Math.round((s - 2.5) * 1e4)])).to.deep.equal(base.map(([id, s]: [string, number]) => [id, Math.round(s * 1e4)]));
    expect(filtered).to.deep.equal(base);
  });

  it('ranges alone still run over the index (each clause on any value of a multi-valued field)', async () => {
    const r = await hits({ bool: { filter: [{ range: { n: { gte: 50 } } }, { range: { n: { lt: 55 } } }] } });
    const expected: string[] = [];
    for (let i = 0; i < 60; i++) {
      const values = i % 7 === 0 ? [i, i + 100] : [i];
      if (values.some((v) => v >= 50) && values.some((v) => v < 55)) expected.push(String(i));
    }
    expect(r.map(([id]: [string]) => id).sort()).to.deep.equal(expected.sort());
  });
});
