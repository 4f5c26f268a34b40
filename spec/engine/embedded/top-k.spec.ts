import { expect } from 'chai';
import { TopK } from '../../../lib/engine/embedded/search/sort/index.js';

/** The top-k collector's final sort, run as work that pauses (a by-query operation keeps every match). */
describe('embedded engine: TopK sorted in runs', () => {
  const compare = (a: { k: number; i: number }, b: { k: number; i: number }) => a.k - b.k || a.i - b.i;

  for (const n of [0, 1, 4096, 4097, 20_000, 70_001]) {
    it(`${n} items: the same order as one sort, with a pause offered between runs`, () => {
      const top = new TopK(Number.MAX_SAFE_INTEGER, compare);
      // many ties on k: the order of equal keys is the tie-breaker's
      for (let i = 0; i < n; i++) top.push({ k: (i * 7919) % 1000, i });
      const work = top.sortedInRuns(() => true);
      let pauses = 0;
      let step = work.next();
      while (!step.done) {
        pauses++;
        step = work.next();
      }
      expect(step.value).to.deep.equal(top.sorted());
      // past one run, the work pauses where it is told to (none for a run sorted in one piece)
      if (n > 4096) expect(pauses).to.be.greaterThan(Math.floor(n / 4096));
      else expect(pauses).to.equal(0);
    });
  }

  it('k below the items: the k best, sorted', () => {
    const top = new TopK(5000, compare);
    for (let i = 0; i < 30_000; i++) top.push({ k: 30_000 - i, i });
    const work = top.sortedInRuns(() => false);
    let step = work.next();
    while (!step.done) step = work.next();
    expect(step.value.map((x) => x.k)).to.deep.equal(Array.from({ length: 5000 }, (_, j) => j + 1));
  });

  it('admits a probe exactly when pushing it would keep it (one probe reused for every candidate)', () => {
    const top = new TopK(3, compare);
    const probe = { k: 0, i: 0 };
    const kept: Array<{ k: number; i: number }> = [];
    for (let i = 0; i < 200; i++) {
      probe.k = (i * 37) % 50;
      probe.i = i;
      const before = top.sorted();
      const admitted = top.admits(probe);
      top.push({ ...probe });
      // admitted: the item is among the kept now; refused: the kept items did not change
      if (admitted) expect(top.sorted()).to.deep.include({ k: probe.k, i });
      else expect(top.sorted()).to.deep.equal(before);
      if (admitted) kept.push({ k: probe.k, i });
    }
    expect(top.sorted().map((x) => x.k)).to.deep.equal([0, 0, 0]);
    expect(kept.length).to.be.greaterThan(3);
    expect(new TopK(0, compare).admits(probe)).to.equal(false);
  });
});
