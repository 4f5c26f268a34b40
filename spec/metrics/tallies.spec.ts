import { expect } from 'chai';
import { Counter, Histogram, Registry } from 'prom-client';
import { TallyCounter, TallyHistogram } from '../../lib/metrics/tallies.js';
import { recordId } from '../../lib/logs/record-id.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

describe('request path tallies', () => {
  it('expose the same Prometheus text as prom-client fed the same values', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const counter = new Counter({ name: 'x_requests_total', help: 'requests', labelNames: ['family', 'status'], registers: [theirs] });
    const histogram = new Histogram({ name: 'x_seconds', help: 'latency', labelNames: ['family'], buckets: BUCKETS, registers: [theirs] });
    const plain = new Histogram({ name: 'x_engine_seconds', help: 'engine latency', buckets: BUCKETS, registers: [theirs] });
    const tallyCounter = new TallyCounter('x_requests_total', 'requests', ['family', 'status'], ours);
    const tallyHistogram = new TallyHistogram('x_seconds', 'latency', ['family'], BUCKETS, ours);
    const tallyPlain = new TallyHistogram('x_engine_seconds', 'engine latency', [], BUCKETS, ours).child({});

    const values = [0.0005, 0.001, 0.003, 0.05, 0.5, 2, 7, 0.01];
    values.forEach((v, i) => {
      const family = i % 3 ? 'engine' : 'gateway "api"\\';
      counter.inc({ family, status: 200 + (i % 2) });
      tallyCounter.child({ family, status: 200 + (i % 2) }).inc();
      histogram.observe({ family }, v);
      tallyHistogram.child({ family }).observe(v);
      plain.observe(v);
      tallyPlain.observe(v);
    });
    expect(await ours.metrics()).to.equal(await theirs.metrics());
  });

  it('a histogram with no labels shows its zero buckets before any observation, as prom-client does', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    new Histogram({ name: 'x_seconds', help: 'latency', buckets: BUCKETS, registers: [theirs] });
    new TallyHistogram('x_seconds', 'latency', [], BUCKETS, ours).child({});
    expect(await ours.metrics()).to.equal(await theirs.metrics());
  });
});

describe('request log record ids', () => {
  it('are unique and in creation order, even within a millisecond and should the clock step back', () => {
    const ids = [recordId(1_000), recordId(1_000), recordId(1_000), recordId(999), recordId(1_001), recordId(5_000)];
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
  });
});
