/**
 * AggregationSteps' contract (issue 39): a pass of the aggregation phase goes on SLICE_MS (or as
 * long as its replay took) from the start of its first new step, so a long first step does not
 * stretch the pass by as much again; kept steps are replayed, never run twice.
 */
import { expect } from 'chai';
import { SLICE_MS } from '../../../../lib/cooperative/index.js';
import { AggregationPaused, AggregationSteps } from '../../../../lib/engine/embedded/search/aggregations/index.js';

/** Work of `ms` milliseconds (the steps' own time, as an aggregation's synchronous work is). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* working */ }
}

describe('aggregation phase in passes (AggregationSteps)', () => {
  const LONG = { name: 'long' };
  const SHORT = { name: 'short' };

  /** A phase of one long step then `shorts` 1 ms steps; the short steps each pass ran. */
  function passes(longMs: number, shorts: number): { perPass: number[]; longRuns: number } {
    const steps = new AggregationSteps();
    const perPass: number[] = [];
    let longRuns = 0;
    for (;;) {
      steps.begin();
      let ran = 0;
      try {
        steps.step(LONG, undefined, () => {
          longRuns++;
          busy(longMs);
        });
        for (let i = 0; i < shorts; i++) steps.step(SHORT, undefined, () => {
          ran++;
          busy(1);
        });
        perPass.push(ran);
        return { perPass, longRuns };
      } catch (e) {
        if (!(e instanceof AggregationPaused)) throw e;
        perPass.push(ran);
      }
    }
  }

  it('a long first step ends its pass: the pass does not go on for as long again', () => {
    const { perPass, longRuns } = passes(4 * SLICE_MS, 30);
    // the long step ran once, alone in its pass (it started the pass's slice and used it up)
    expect(longRuns).to.equal(1);
    expect(perPass[0]).to.be.at.most(1);
    expect(perPass.reduce((a, b) => a + b, 0)).to.equal(30);
  });

  it('a pass that replays kept steps goes on for SLICE_MS of new ones, and every pass moves on', () => {
    const { perPass } = passes(0, 4 * SLICE_MS);
    expect(perPass.length).to.be.at.least(2);
    for (const n of perPass) expect(n).to.be.at.least(1);
    expect(perPass.reduce((a, b) => a + b, 0)).to.equal(4 * SLICE_MS);
  });
});
