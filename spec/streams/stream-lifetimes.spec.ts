import { expect } from 'chai';
import { StreamLifetimes } from '../../lib/streams/stream-lifetimes.js';

/** A stream as StreamLifetimes sees it: how it ended, when, and its release. */
function stream(lifetimes: StreamLifetimes, ends: Array<{ name: string; why: string; at: number }>, name: string) {
  const opened = performance.now();
  let ended: (why: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (ended = resolve));
  const release = lifetimes.add((why) => {
    ends.push({ name, why, at: performance.now() - opened });
    release();
    ended(why);
  });
  return { release, done };
}

describe('StreamLifetimes: one timer for every stream\'s maximum duration', () => {
  it('ends each stream at its own deadline, in the order they opened, and lets them go', async () => {
    const lifetimes = new StreamLifetimes(80);
    const ends: Array<{ name: string; why: string; at: number }> = [];
    const a = stream(lifetimes, ends, 'a');
    const b = stream(lifetimes, ends, 'b');
    const gone = stream(lifetimes, ends, 'gone');
    gone.release(); // its client left: it never expires
    const c = stream(lifetimes, ends, 'c');
    expect(lifetimes.size).to.equal(3);
    expect(await Promise.all([a.done, b.done, c.done])).to.deep.equal(['time', 'time', 'time']);
    expect(ends.map((e) => e.name)).to.deep.equal(['a', 'b', 'c']);
    for (const e of ends) expect(e.at).to.be.at.least(79); // never before its deadline
    expect(lifetimes.size).to.equal(0);
  });

  it('a stream opened later outlives the ones before it by as long (the timer is set again for it)', async () => {
    const lifetimes = new StreamLifetimes(80);
    const ends: Array<{ name: string; why: string; at: number }> = [];
    const early = stream(lifetimes, ends, 'early');
    // staggered openings: the second stream's deadline comes 40 ms after the first's
    await new Promise((resolve) => setTimeout(resolve, 40));
    const late = stream(lifetimes, ends, 'late');
    await early.done;
    expect(ends.map((e) => e.name)).to.deep.equal(['early']); // the later stream is still open
    expect(lifetimes.size).to.equal(1);
    await late.done;
    expect(ends[1]).to.include({ name: 'late', why: 'time' });
    expect(ends[1].at).to.be.at.least(79);
  });

  it('a stream opened after the first ones expired gets a full duration of its own', async () => {
    const lifetimes = new StreamLifetimes(60);
    const ends: Array<{ name: string; why: string; at: number }> = [];
    await stream(lifetimes, ends, 'first').done;
    const later = stream(lifetimes, ends, 'later');
    expect(await later.done).to.equal('time');
    expect(ends[1].name).to.equal('later');
    expect(ends[1].at).to.be.at.least(59);
  });

  it('endAll ends every open stream at once (shutdown)', async () => {
    const lifetimes = new StreamLifetimes(3_600_000);
    const ends: Array<{ name: string; why: string; at: number }> = [];
    const d = stream(lifetimes, ends, 'd');
    const e = stream(lifetimes, ends, 'e');
    lifetimes.endAll();
    expect(await Promise.all([d.done, e.done])).to.deep.equal(['shutdown', 'shutdown']);
    expect(lifetimes.size).to.equal(0);
  });
});
