import { expect } from 'chai';
import fc from 'fast-check';
import { LogSampling } from '../../lib/logs/index.js';

const read = (tookMs = 1, status = 200) => ({ status, tookMs, operation: 'read', stream: false });

describe('request logs: the sampling rule', () => {
  it('records every request of a second up to its budget, then one in N of the fast, successful reads', () => {
    const rule = new LogSampling({ allPerSecond: 3, sampleEvery: 4, slowMs: 500 });
    const kept = Array.from({ length: 12 }, (_, i) => rule.keeps(read(), 1000 + i));
    // 3 within the budget, then the 1st, 5th and 9th of the 9 past it
    expect(kept).to.deep.equal([true, true, true, true, false, false, false, true, false, false, false, true]);
    expect(rule.sampledOut).to.equal(6);
    // a new second has a budget of its own
    expect([0, 1, 2].map((i) => rule.keeps(read(), 2000 + i))).to.deep.equal([true, true, true]);
  });

  it('past the budget, keeps every error, slow request, non-read and stream', () => {
    const rule = new LogSampling({ allPerSecond: 0, sampleEvery: 1000, slowMs: 500 });
    expect(rule.keeps(read(), 0)).to.equal(true); // the first of the sampled
    expect(rule.keeps(read(), 1)).to.equal(false);
    expect(rule.keeps(read(1, 404), 2)).to.equal(true);
    expect(rule.keeps(read(1, 500), 3)).to.equal(true);
    expect(rule.keeps(read(500), 4)).to.equal(true);
    expect(rule.keeps({ status: 201, tookMs: 1, operation: 'write', stream: false }, 5)).to.equal(true);
    expect(rule.keeps({ status: 200, tookMs: 1, operation: 'delete', stream: false }, 6)).to.equal(true);
    expect(rule.keeps({ status: 200, tookMs: 1, operation: 'read', stream: true }, 7)).to.equal(true);
    expect(rule.sampledOut).to.equal(1);
  });

  it('spends the budget on reads only: errors and writes never leave a read unrecorded', () => {
    const rule = new LogSampling({ allPerSecond: 2, sampleEvery: 1000, slowMs: 500 });
    for (let i = 0; i < 50; i++) expect(rule.keeps({ status: 201, tookMs: 1, operation: 'write', stream: false }, 100)).to.equal(true);
    for (let i = 0; i < 50; i++) expect(rule.keeps(read(1, 404), 100)).to.equal(true);
    expect([rule.keeps(read(), 100), rule.keeps(read(), 100), rule.keeps(read(), 100), rule.keeps(read(), 100)]).to.deep.equal([true, true, true, false]);
  });

  it('whatever the traffic: what it must keep is kept, and kept + sampled out = every request', () => {
    const request = fc.record({
      status: fc.constantFrom(200, 201, 304, 400, 404, 500),
      tookMs: fc.nat(2000),
      operation: fc.constantFrom('read', 'write', 'delete', 'monitor'),
      stream: fc.boolean(),
      gapMs: fc.nat(400),
    });
    fc.assert(fc.property(fc.array(request, { maxLength: 300 }), fc.nat(20), fc.integer({ min: 1, max: 20 }), (requests, allPerSecond, sampleEvery) => {
      const rule = new LogSampling({ allPerSecond, sampleEvery, slowMs: 500 });
      let now = 0;
      let kept = 0;
      const perSecond = new Map<number, number>();
      for (const r of requests) {
        now += r.gapMs;
        const keeps = rule.keeps(r, now);
        const must = r.status >= 400 || r.tookMs >= 500 || r.operation !== 'read' || r.stream;
        if (must) expect(keeps).to.equal(true);
        const second = Math.floor(now / 1000);
        if (!must) {
          // within its budget, a second records every read
          if ((perSecond.get(second) ?? 0) < allPerSecond) expect(keeps).to.equal(true);
          perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
        }
        if (keeps) kept++;
      }
      expect(kept + rule.sampledOut).to.equal(requests.length);
    }));
  });

  it('weighs each record by the requests it stands for: the weights count every request, at most sampleEvery - 1 too many', () => {
    const rule = new LogSampling({ allPerSecond: 2, sampleEvery: 5, slowMs: 500 });
    // 2 within the budget (1 each), then reads 3–14 past it: the 1st, 6th and 11th kept for 5 each
    const weights = Array.from({ length: 14 }, (_, i) => rule.weigh(read(), 1000 + i));
    expect(weights).to.deep.equal([1, 1, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0]);
    expect(rule.weigh(read(1, 500), 1020)).to.equal(1); // what the rule always keeps stands for itself
    const request = fc.record({ status: fc.constantFrom(200, 404), tookMs: fc.nat(1000), operation: fc.constantFrom('read', 'write'), stream: fc.boolean(), gapMs: fc.nat(400) });
    fc.assert(fc.property(fc.array(request, { maxLength: 300 }), fc.nat(20), fc.integer({ min: 1, max: 20 }), (requests, allPerSecond, sampleEvery) => {
      const sampling = new LogSampling({ allPerSecond, sampleEvery, slowMs: 500 });
      let now = 0;
      let total = 0;
      for (const r of requests) total += sampling.weigh(r, (now += r.gapMs));
      expect(total - requests.length).to.be.within(0, sampleEvery - 1);
    }));
  });
});
