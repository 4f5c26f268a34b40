import { expect } from 'chai';
import { threadCpuMs } from '../../../lib/cooperative/thread-clock.js';

/**
 * Milliseconds of CPU the main thread has used (Linux, 10 ms ticks), else the process's (every
 * thread). The main thread's own time is what blocks the loop: the process's also counts the GC's
 * helper threads, which on a loaded machine run on while the main thread waits for a core.
 */
function cpuMs(): number {
  const thread = threadCpuMs();
  if (thread !== undefined) return thread;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `work` while a 5 ms interval timer ticks; every wait the timer had between ticks, and how
 * long the work took. A wait is the smaller of the wall time and the main thread's CPU time that
 * passed: on a loaded machine (parallel spec workers, other builds) the process may be descheduled
 * for a while, which is no blocking call of its own; a synchronous run uses CPU all the time it blocks.
 */
export async function gapsDuring<T>(work: () => Promise<T>): Promise<{ result: T; gaps: number[]; elapsed: number }> {
  const started = { wall: performance.now(), cpu: cpuMs() };
  let last = started;
  const gaps: number[] = [];
  const since = (from: { wall: number; cpu: number }) => {
    const now = { wall: performance.now(), cpu: cpuMs() };
    return { now, ms: Math.min(now.wall - from.wall, now.cpu - from.cpu) };
  };
  const timer = setInterval(() => {
    const { now, ms } = since(last);
    gaps.push(ms);
    last = now;
  }, 5);
  try {
    const result = await work();
    gaps.push(since(last).ms);
    return { result, gaps, elapsed: since(started).ms };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The event loop kept turning: the timer ticked throughout (on average every 40 ms at worst, where
 * one blocking call would let it tick once), and at most `longWaits` waits passed 100 ms — a
 * garbage collection of a heap this size, or one copy that cannot be split, on a shared machine.
 * `minTicks` asks for that many ticks of a run long enough to have them: a run on a fast, quiet
 * machine may finish in a few 10 ms slices, where a 5 ms timer ticks about once every 20 ms.
 */
export function expectLoopKeptTurning({ gaps, elapsed }: { gaps: number[]; elapsed: number }, minTicks: number, longWaits = 2): void {
  const long = gaps.filter((gap) => gap >= 100).map((gap) => gap.toFixed(0));
  expect(gaps.length - 1, `ticks in ${elapsed.toFixed(0)} ms`).to.be.above(Math.max(Math.min(minTicks, elapsed / 20), elapsed / 40));
  expect(long.length, `waits of 100 ms or more: ${long.join(', ')} ms`).to.be.at.most(longWaits);
}
