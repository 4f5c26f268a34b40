import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ChangeBusStats, ChangeEvent } from '../changes/index.js';
import type { SearchCacheStats } from '../cache/index.js';
import type { BatchWriterStats } from '../analytics/index.js';
import type { RequestLogStats } from '../logs/index.js';
import type { AuthenticationStats } from '../auth/index.js';
import type { StageOutcome } from '../pipelines/index.js';
import type { StreamTally } from '../streams/index.js';
import { authorizationDisagreements } from './authorization-disagreements.js';
import { TallyCounter, TallyHistogram } from './tallies.js';

/** What the gateway already counts, read when Prometheus scrapes (nothing on the request path). */
export interface MetricSources {
  streams?: { stats(): StreamTally[] };
  bus?: { stats(): ChangeBusStats; readonly reconnects?: number };
  cache?: { stats(): SearchCacheStats };
  analytics?: { stats(): BatchWriterStats };
  logs?: { stats(): RequestLogStats };
  authentication?: { stats(): AuthenticationStats };
  connections?: { stats(): { open: number; refused: number; slowBodiesCut: number } };
}

/** Request latencies: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One gateway's metrics, in a registry of its own (never prom-client's global one: a process may
 * run several gateways, as the tests do). What the request path records is a few label lookups
 * and additions; what other parts already count (streams, bus, cache, background writers,
 * authentication) is read from their `stats()` at scrape time. The request path's own metrics
 * (requests, their latency, the engine's latency) are tallies (`tallies.ts`): bound once per
 * label set, an addition per request.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: TallyCounter<'family' | 'category' | 'status'>;
  readonly requestSeconds: TallyHistogram<'family' | 'category'>;
  /** The engine's latency (no labels: one child, bound here). */
  readonly engineSeconds: { observe(seconds: number): void };
  readonly engineErrors: Counter<'kind'>;
  private readonly busLag: Histogram;
  private readonly stageSeconds: Histogram<'pipeline' | 'stage'>;
  private readonly stageFailures: Counter<'pipeline' | 'stage'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
    this.requests = new TallyCounter('gateway_requests_total', 'HTTP requests answered, by route family, category and status', ['family', 'category', 'status'], this.registry);
    this.requestSeconds = new TallyHistogram(
      'gateway_request_duration_seconds', 'HTTP request latency from classification to the answer (streams excluded: their lifetime is no latency)',
      ['family', 'category'], LATENCY_BUCKETS, this.registry,
    );
    this.engineSeconds = new TallyHistogram(
      'gateway_engine_request_duration_seconds', 'Engine calls made for clients, until the engine\'s answer head (cache hits excluded)', [], LATENCY_BUCKETS, this.registry,
    ).child({});
    this.engineErrors = new Counter({ name: 'gateway_engine_errors_total', help: 'Engine calls that failed (no answer: unreachable, timed out) or answered 5xx', labelNames: ['kind'], registers });
    this.busLag = new Histogram({
      name: 'gateway_bus_delivery_lag_seconds', help: 'From a change\'s acknowledgement (its time) to its delivery to this node\'s streams',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5], registers,
    });
    this.stageSeconds = new Histogram({ name: 'gateway_pipeline_stage_duration_seconds', help: 'Pipeline stage run time', labelNames: ['pipeline', 'stage'], buckets: LATENCY_BUCKETS, registers });
    this.stageFailures = new Counter({ name: 'gateway_pipeline_stage_failures_total', help: 'Pipeline stages that failed', labelNames: ['pipeline', 'stage'], registers });
    this.registry.registerMetric(authorizationDisagreements);
  }

  /** A change reached this node's subscribers (ChangeBusOptions.onDelivered). */
  readonly delivered = (event: ChangeEvent): void => {
    this.busLag.observe(Math.max(0, Date.now() - event.time) / 1000);
  };

  /** A pipeline stage ran (disabled and skipped stages are not counted). */
  readonly stageRan = (pipeline: string, outcome: StageOutcome): void => {
    if (outcome.outcome !== 'ok' && outcome.outcome !== 'failed') return;
    this.stageSeconds.observe({ pipeline, stage: outcome.stage }, outcome.ms / 1000);
    if (outcome.outcome === 'failed') this.stageFailures.inc({ pipeline, stage: outcome.stage });
  };

  /** The Prometheus text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Registers the metrics read from `sources` at scrape time. */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    /** A counter whose value is a running total kept elsewhere. */
    const total = <L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Array<[Partial<Record<L, string>>, number]> | undefined) =>
      new Counter<L>({ name, help, labelNames, registers, collect() {
        const values = read();
        if (!values) return;
        this.reset();
        for (const [labels, n] of values) this.inc(labels, n);
      } });
    const level = <L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Array<[Partial<Record<L, string>>, number]> | undefined) =>
      new Gauge<L>({ name, help, labelNames, registers, collect() {
        const values = read();
        if (!values) return;
        this.reset();
        for (const [labels, n] of values) this.set(labels, n);
      } });
    const { streams, bus, cache, analytics, logs, authentication, connections } = sources;

    if (connections) {
      level('gateway_http_connections_open', 'Client connections open on this node (those the connection caps admitted)', [], () => [[{}, connections.stats().open]]);
      total('gateway_http_connections_refused_total', 'Client connections answered 503 or 429 and closed at once (HTTP_MAX_CONNECTIONS, HTTP_MAX_CONNECTIONS_PER_CLIENT)', [], () => [[{}, connections.stats().refused]]);
      total('gateway_http_slow_bodies_cut_total', 'Requests answered 408 because their body came slower than HTTP_BODY_MIN_RATE', [], () => [[{}, connections.stats().slowBodiesCut]]);
    }

    if (streams) {
      const by = (field: 'open' | 'pushed' | 'dropped') => () =>
        streams.stats().map((t): [Record<'kind' | 'transport', string>, number] => [{ kind: t.kind, transport: t.transport }, t[field]]);
      level('gateway_streams_open', 'Live streams open on this node, by kind and transport', ['kind', 'transport'], by('open'));
      total('gateway_stream_pushes_total', 'Stream messages pushed to clients (initial messages included)', ['kind', 'transport'], by('pushed'));
      total('gateway_stream_drops_total', 'Streams ended because their client left too many bytes unread', ['kind', 'transport'], by('dropped'));
    }
    if (bus) {
      level('gateway_bus_subscriptions', 'Change subscriptions (one per stream and listener) on this node', [], () => [[{}, bus.stats().subscriptions]]);
      level('gateway_bus_channels', 'Index channels this node is subscribed to', [], () => [[{}, bus.stats().channels]]);
      total('gateway_bus_reconnects_total', 'Redis connections of the change bus re-established', [], () => [[{}, bus.reconnects ?? 0]]);
    }
    if (cache) {
      total('gateway_cache_hits_total', 'Search answers served from the cache', [], () => [[{}, cache.stats().hits]]);
      total('gateway_cache_misses_total', 'Cacheable searches the cache did not hold', [], () => [[{}, cache.stats().misses]]);
      total('gateway_cache_evictions_total', 'Cached answers dropped, by cause', ['cause'], () => Object.entries(cache.stats().evictions).map(([cause, n]) => [{ cause }, n]));
      level('gateway_cache_bytes', 'Bytes the cached answers hold', [], () => [[{}, cache.stats().bytes]]);
      level('gateway_cache_max_bytes', 'Bytes the cache may hold', [], () => [[{}, cache.stats().max_bytes]]);
      level('gateway_cache_entries', 'Answers in the cache', [], () => [[{}, cache.stats().entries]]);
    }
    for (const [prefix, what, writer] of [['gateway_analytics', 'analytics events', analytics], ['gateway_request_logs', 'request log records', logs]] as const) {
      if (!writer) continue;
      level(`${prefix}_queue_depth`, `Queued ${what} waiting to be written`, [], () => [[{}, writer.stats().queued]]);
      total(`${prefix}_written_total`, `${what} written`, [], () => [[{}, writer.stats().written]]);
      total(`${prefix}_dropped_total`, `${what} dropped: the queue was full`, [], () => [[{}, writer.stats().dropped]]);
      total(`${prefix}_failed_total`, `${what} the engine refused or did not take`, [], () => [[{}, writer.stats().failed]]);
    }
    if (logs) total('gateway_request_logs_sampled_out_total', 'Requests left unrecorded by the request logs\' sampling rule (fast, successful reads on a busy node)', [], () => [[{}, logs.stats().sampled_out]]);
    if (authentication) {
      total('gateway_auth_failures_total', 'Failed authentications (HTTP and WebSocket frames), by reason', ['reason'], () => {
        const s = authentication.stats();
        return [[{ reason: 'missing' }, s.missing], [{ reason: 'invalid' }, s.invalid], [{ reason: 'expired' }, s.expired]];
      });
      total('gateway_auth_throttled_total', 'Authentications refused with 429: too many failed logins', [], () => [[{}, authentication.stats().throttled]]);
      level('gateway_auth_cached_headers', 'Verified Authorization headers this node remembers (emptied by DELETE /_plugins/_security/api/cache)', [], () => [[{}, authentication.stats().cached]]);
    }
  }
}
