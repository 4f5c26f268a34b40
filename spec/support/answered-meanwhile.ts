import { expect } from 'chai';
import { call, type Reply } from './http.js';

/** How reads fared while one heavy request was in flight (`readsDuring`). */
export interface ReadsDuring {
  /** Reads answered before the heavy request was. */
  reads: number;
  /** The longest wait between two answers (or from the start to the first). */
  longestWaitMs: number;
  /** How long the heavy request took. */
  heavyMs: number;
  heavy: Reply;
}

/**
 * Sends `heavy` and, one after another until it is answered, GETs of `readPath` (which must answer
 * 200): what the engine answered others while the heavy request was in flight.
 */
export async function readsDuring(url: string, readPath: string, heavy: () => Promise<Reply>): Promise<ReadsDuring> {
  let done = false;
  const started = performance.now();
  const pending = heavy().finally(() => (done = true));
  let reads = 0;
  let last = started;
  let longestWaitMs = 0;
  while (!done) {
    const r = await call(url, 'GET', readPath);
    expect(r.status).to.equal(200);
    const now = performance.now();
    longestWaitMs = Math.max(longestWaitMs, now - last);
    last = now;
    if (!done) reads++;
  }
  const answer = await pending;
  return { reads, longestWaitMs, heavyMs: performance.now() - started, heavy: answer };
}

/**
 * The reads went on through the heavy request: several answered, none held back for half of it (as
 * one piece of work would hold them for all of it). Half, not less: on a loaded two-core runner a
 * GC pause or a descheduled process held one read a third of a 1.1 s write (400 of 1,120 ms)
 * while the write itself was sliced (40–110 ms waits alone).
 */
export function expectAnsweredThroughout(during: ReadsDuring, what: string): void {
  expect(during.reads, `reads answered during ${what}`).to.be.at.least(3);
  expect(during.longestWaitMs, `longest wait for a read during ${what} (${Math.round(during.heavyMs)} ms)`).to.be.below(during.heavyMs / 2);
}
