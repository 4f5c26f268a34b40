import { expect } from 'chai';
import { SLICE_MS, TimeSlice } from '../../lib/cooperative/index.js';
import { gapsDuring } from './support/loop-turns.js';

/** A loop over `items` that pauses between them, each item ~`itemWork` additions of CPU. */
async function sliced(items: number, itemWork: number): Promise<number> {
  const slice = new TimeSlice();
  let sum = 0;
  for (let i = 0; i < items; i++) {
    await slice.pause();
    for (let k = 0; k < itemWork; k++) sum += k % 7;
    await Promise.resolve();
  }
  return sum;
}

describe('TimeSlice: works paused at once share one slice of each turn of the loop', function () {
  this.timeout(60_000);

  it('a dozen works side by side hold the loop about one slice a turn, not a slice each', async () => {
    const one = await sliced(2_000, 2_000);
    const run = await gapsDuring(() => Promise.all(Array.from({ length: 12 }, () => sliced(20_000, 2_000))));
    expect(run.result).to.deep.equal(Array.from({ length: 12 }, () => one * 10));
    // one slice each would hold a turn 12 × SLICE_MS (120 ms); shared, a turn is about one slice
    const longest = Math.max(...run.gaps);
    expect(longest, `the longest wait of the loop: ${longest.toFixed(0)} ms`).to.be.below(6 * SLICE_MS);
  });
});
