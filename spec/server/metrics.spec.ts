import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { startTestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';
import { within } from '../support/within.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, the samples only (`# HELP` and `# TYPE` lines skipped). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` that carry every label given. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}

const scrape = async (gw: TestGateway, auth?: string | null) => {
  const res = await call(gw.url, 'GET', '/_gateway/metrics', { auth });
  expect(res.status, res.text).to.equal(200);
  expect(String(res.headers['content-type'])).to.match(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.text);
};

for (const backend of BACKENDS) {
  describe(`metrics (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ METRICS_PORT: '0', CACHE_QUIET_MS: '0' }));
      const put = await call(gw.url, 'PUT', '/metered/_doc/1?refresh=true', { body: { title: 'Dune', genre: 'sf' } });
      expect(put.status).to.equal(201);
    });
    after(() => stop());

    it('counts a known mix of requests: searches, 404s, a stream, a cache hit, a failed login', async () => {
      const N = 5;
      const M = 3;
      const before = await scrape(gw);
      for (let i = 0; i < N; i++) {
        const res = await call(gw.url, 'POST', '/metered/_search', { body: { query: { match: { genre: 'sf' } } } });
        expect(res.status).to.equal(200);
      }
      for (let i = 0; i < M; i++) expect((await call(gw.url, 'GET', `/metered/_doc/missing-${i}`)).status).to.equal(404);
      expect((await call(gw.url, 'GET', '/metered/_search', { auth: basic('nobody', 'wrong') })).status).to.equal(401);

      const stream = await openStream(gw.url, '/metered/_doc/1?stream=true');
      expect(stream.status).to.equal(200);
      await stream.until((m) => m.length >= 1);
      const open = await scrape(gw);
      expect(total(open, 'gateway_streams_open', { kind: 'document', transport: 'json' })).to.equal(1);
      stream.close();
      // the stream's request is counted once it is over
      let after: Sample[] = [];
      await within(5000, async () => {
        after = await scrape(gw);
        return total(after, 'gateway_streams_open') === 0 && total(after, 'gateway_requests_total', { family: 'stream' }) > total(before, 'gateway_requests_total', { family: 'stream' });
      });

      const delta = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);
      expect(delta('gateway_requests_total', { family: 'engine', category: 'search', status: '200' })).to.equal(N);
      expect(delta('gateway_requests_total', { family: 'engine', category: 'docs', status: '404' })).to.equal(M);
      expect(delta('gateway_requests_total', { family: 'stream', status: '200' })).to.equal(1);
      // the scrapes before this one (their own request is counted once answered)
      expect(delta('gateway_requests_total', { family: 'gateway', category: 'cluster', status: '200' })).to.be.at.least(2);
      expect(delta('gateway_request_duration_seconds_count', { family: 'engine', category: 'search' })).to.equal(N);
      expect(delta('gateway_request_duration_seconds_count', { family: 'engine', category: 'docs' })).to.equal(M);
      // a stream is counted, never timed: its duration is its lifetime
      expect(delta('gateway_request_duration_seconds_count', { family: 'stream' })).to.equal(0);
      // the first search asked the engine; the others were cache hits
      expect(delta('gateway_cache_misses_total')).to.equal(1);
      expect(delta('gateway_cache_hits_total')).to.equal(N - 1);
      expect(total(after, 'gateway_cache_bytes')).to.be.greaterThan(0);
      // engine calls: the search that missed, the 404s, the stream's initial read (cache hits excluded)
      expect(delta('gateway_engine_request_duration_seconds_count')).to.be.at.least(1 + M + 1);
      expect(delta('gateway_engine_request_duration_seconds_count')).to.be.below(N + M + 1);
      expect(delta('gateway_auth_failures_total', { reason: 'invalid' })).to.equal(1);
      expect(delta('gateway_stream_pushes_total', { kind: 'document', transport: 'json' })).to.be.at.least(1);
      expect(delta('gateway_stream_drops_total')).to.equal(0);
      // the Node.js process, from prom-client's default metrics, in the gateway's own registry
      expect(after.some((s) => s.name === 'gateway_nodejs_eventloop_lag_seconds')).to.equal(true);
      expect(total(after, 'gateway_process_resident_memory_bytes')).to.be.greaterThan(0);
      expect(after.some((s) => s.name === 'gateway_analytics_queue_depth')).to.equal(true);
      expect(after.some((s) => s.name === 'gateway_request_logs_queue_depth')).to.equal(true);
    });

    it('times bus deliveries to this node\'s streams', async () => {
      const before = await scrape(gw);
      const stream = await openStream(gw.url, '/metered/_doc/2?streamonly=true');
      try {
        await within(5000, async () => (await scrape(gw)).some((s) => s.name === 'gateway_bus_subscriptions' && s.value > 0));
        expect((await call(gw.url, 'PUT', '/metered/_doc/2', { body: { title: 'Ubik' } })).status).to.equal(201);
        await stream.until((m) => m.length >= 1);
      } finally {
        stream.close();
      }
      const after = await scrape(gw);
      expect(total(after, 'gateway_bus_delivery_lag_seconds_count') - total(before, 'gateway_bus_delivery_lag_seconds_count')).to.be.at.least(1);
    });

    it('is for the admin and credentials with the cluster category (read); 401 without credentials', async () => {
      const searcher = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['metered'], categories: ['search', 'docs'], ops: ['read'] } });
      expect(searcher.status, searcher.text).to.equal(201);
      const refused = await call(gw.url, 'GET', '/_gateway/metrics', { auth: basic(searcher.json.credential.username, searcher.json.password) });
      expect(refused.status, refused.text).to.equal(403);
      expect(refused.json.error.type).to.equal('security_exception');
      const monitor = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['metered'], categories: ['cluster'], ops: ['read'] } });
      expect(monitor.status, monitor.text).to.equal(201);
      await scrape(gw, basic(monitor.json.credential.username, monitor.json.password));
      expect((await call(gw.url, 'GET', '/_gateway/metrics', { auth: null })).status).to.equal(401);
      expect((await call(gw.url, 'POST', '/_gateway/metrics')).status).to.equal(405);
    });

    it('METRICS_PORT serves the metrics on 127.0.0.1 without authentication', async () => {
      expect(gw.metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${gw.metricsUrl}/metrics`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      const samples = parseMetrics(await res.text());
      expect(total(samples, 'gateway_requests_total')).to.be.greaterThan(0);
      expect((await fetch(`${gw.metricsUrl}/metrics`, { method: 'POST' })).status).to.equal(405);
    });
  });
}

describe('metrics switched off (METRICS_ENABLED=false)', function () {
  this.timeout(60_000);
  it('has no metrics route: the request goes on to the engine', async () => {
    const gw = await startTestGateway({ METRICS_ENABLED: 'false' });
    try {
      const res = await call(gw.url, 'GET', '/_gateway/metrics');
      expect(res.status).not.to.equal(200);
      expect(gw.metricsUrl).to.equal(undefined);
    } finally {
      await gw.close();
    }
  });
});
