import { expect } from 'chai';
import pLimit from 'p-limit';
import { Subject, firstValueFrom, filter } from 'rxjs';
import { coalescedRuns, type Run } from '../../lib/streams/coalesced-runs.js';

/** A computation the test finishes by hand. */
function manualWork() {
  const pending: Array<(v: number) => void> = [];
  let started = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const work = () =>
    new Promise<number>((resolve) => {
      started++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      pending.push((v) => {
        inFlight--;
        resolve(v);
      });
    });
  return {
    work,
    get started() {
      return started;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    /** Finishes the oldest run in flight with `value`. */
    finish(value: number) {
      pending.shift()!(value);
    },
    /** Resolves once `n` runs have started. */
    async startedAtLeast(n: number) {
      while (started < n) await new Promise((r) => setImmediate(r));
    },
  };
}

/** Resolves once `n` runs wait for room under `limit` (a run is scheduled on a timer, then queued). */
async function queued(limit: { pendingCount: number }, n: number) {
  while (limit.pendingCount < n) await new Promise((r) => setTimeout(r, 1));
}

describe('coalescedRuns', () => {
  it('the first trigger runs at once; triggers during a run make exactly one more run, with the last trigger', async () => {
    const triggers = new Subject<string>();
    const w = manualWork();
    const runs: Array<Run<string, number>> = [];
    const sub = triggers.pipe(coalescedRuns(w.work, { intervalMs: 0, settleMs: 0 })).subscribe((r) => runs.push(r));
    triggers.next('a');
    await w.startedAtLeast(1);
    for (const t of ['b', 'c', 'd']) triggers.next(t);
    w.finish(1);
    await w.startedAtLeast(2);
    expect(runs).to.deep.equal([{ run: 1, value: 1, trigger: 'a' }]);
    w.finish(2);
    await new Promise((r) => setImmediate(r));
    expect(runs).to.deep.equal([{ run: 1, value: 1, trigger: 'a' }, { run: 2, value: 2, trigger: 'd' }]);
    expect(w.started).to.equal(2); // b, c and d made one run, not three
    sub.unsubscribe();
  });

  it('never starts two runs of one pipeline at once, nor more than the shared limit across pipelines', async () => {
    const limit = pLimit(1);
    const w = manualWork();
    const a = new Subject<number>();
    const b = new Subject<number>();
    const done: number[] = [];
    const subs = [a, b].map((t) => t.pipe(coalescedRuns(w.work, { intervalMs: 0, settleMs: 0, limit })).subscribe((r) => done.push(r.value)));
    a.next(1);
    b.next(1);
    await w.startedAtLeast(1);
    await new Promise((r) => setImmediate(r));
    expect(w.started).to.equal(1); // b waits for a's slot
    w.finish(10);
    await w.startedAtLeast(2);
    w.finish(20);
    await new Promise((r) => setImmediate(r));
    expect(done).to.deep.equal([10, 20]);
    expect(w.maxInFlight).to.equal(1);
    subs.forEach((s) => s.unsubscribe());
  });

  it('a run waiting for room under the limit covers the triggers that come while it waits: one run, with the last of them', async () => {
    const limit = pLimit(1);
    const w = manualWork();
    const a = new Subject<string>();
    const b = new Subject<string>();
    const runsOfB: Array<Run<string, number>> = [];
    const subs = [
      a.pipe(coalescedRuns(w.work, { intervalMs: 0, settleMs: 0, limit })).subscribe(),
      b.pipe(coalescedRuns(w.work, { intervalMs: 0, settleMs: 0, limit })).subscribe((r) => runsOfB.push(r)),
    ];
    a.next('a1');
    await w.startedAtLeast(1); // a holds the only slot
    b.next('b1');
    await queued(limit, 1); // b's run waits for it
    b.next('b2');
    b.next('b3'); // while b waits: its run, when it starts, reads the answer after them
    w.finish(1);
    await w.startedAtLeast(2);
    w.finish(2);
    await new Promise((r) => setImmediate(r));
    // b1..b3 made one run, which read the answer after b3 (it was queued, not started, at b2 and b3)
    expect(runsOfB).to.deep.equal([{ run: 1, value: 2, trigger: 'b3' }]);
    subs.forEach((s) => s.unsubscribe());
  });

  it('a run still waiting for the limit when its pipeline is unsubscribed computes nothing', async () => {
    const limit = pLimit(1);
    const wa = manualWork();
    const wb = manualWork();
    const a = new Subject<number>();
    const b = new Subject<number>();
    const subA = a.pipe(coalescedRuns(wa.work, { intervalMs: 0, settleMs: 0, limit })).subscribe();
    const subB = b.pipe(coalescedRuns(wb.work, { intervalMs: 0, settleMs: 0, limit })).subscribe();
    a.next(1);
    await wa.startedAtLeast(1);
    b.next(1);
    await queued(limit, 1);
    subB.unsubscribe(); // its client left while its run waited
    a.next(2);
    wa.finish(1);
    // the slot goes to whichever run waited first: b's, which gives it up without computing, then a's
    while (wa.started < 2 && wb.started === 0) await new Promise((r) => setImmediate(r));
    expect(wb.started).to.equal(0);
    wa.finish(2);
    subA.unsubscribe();
  });

  it('a run that fails errors the output; unsubscribing drops a run in flight', async () => {
    const triggers = new Subject<number>();
    const failed = firstValueFrom(
      triggers.pipe(coalescedRuns(() => Promise.reject(new Error('engine down')), { intervalMs: 0, settleMs: 0 }), filter(() => false)),
    ).catch((err: Error) => err.message);
    triggers.next(1);
    expect(await failed).to.equal('engine down');

    const w = manualWork();
    const got: number[] = [];
    const t2 = new Subject<number>();
    const sub = t2.pipe(coalescedRuns(w.work, { intervalMs: 0, settleMs: 0 })).subscribe((r) => got.push(r.value));
    t2.next(1);
    await w.startedAtLeast(1);
    sub.unsubscribe();
    w.finish(5);
    await new Promise((r) => setImmediate(r));
    expect(got).to.deep.equal([]);
  });
});
