import { expect } from 'chai';

/**
 * Runs `work` while a 5 ms interval timer ticks; every wait the timer had between ticks, and how
 * long the work took.
 */
export async function gapsDuring<T>(work: () => Promise<T>): Promise<{ result: T; gaps: number[]; elapsed: number }> {
  const started = performance.now();
  let last = started;
  const gaps: number[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    gaps.push(performance.now() - last);
    return { result, gaps, elapsed: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The event loop kept turning: the timer ticked throughout (on average every 40 ms at worst, where
 * one blocking call would let it tick once), and at most `longWaits` waits passed 100 ms — a
 * garbage collection of a heap this size, or one copy that cannot be split, on a shared machine.
 */
export function expectLoopKeptTurning({ gaps, elapsed }: { gaps: number[]; elapsed: number }, minTicks: number, longWaits = 2): void {
  const long = gaps.filter((gap) => gap >= 100).map((gap) => gap.toFixed(0));
  expect(gaps.length - 1, `ticks in ${elapsed.toFixed(0)} ms`).to.be.above(Math.max(minTicks, elapsed / 40));
  expect(long.length, `waits of 100 ms or more: ${long.join(', ')} ms`).to.be.at.most(longWaits);
}
