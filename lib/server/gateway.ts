import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/index.js';
import { openBackend, type Backend } from '../engine/index.js';
import { intercept } from '../engine/index.js';
import { changePublishing, requestValue, wireRequest } from '../interceptors/index.js';
import { AppRegistry } from '../apps/index.js';
import { AppCredentials, Authenticator, Authorizer, CredentialStore, LoginThrottle, RateLimits, ensureAdminCredential, systemIndexGuard } from '../auth/index.js';
import { ChangePublisher, connectRedis, createChangeBus, type ChangeBus } from '../changes/index.js';
import { StreamHub, attachWebSocket } from '../streams/index.js';
import { TypedDocuments, typeFieldHiding } from '../apps/index.js';
import { installRawSubfieldTemplate } from '../apps/index.js';
import { PipelineRegistry, ScriptPool, declarativeStageApi, loadSandbox } from '../pipelines/index.js';
import { createApp } from './app.js';
import { RelevancyStore, RuleStore } from '../rules/index.js';
import { PreferenceStore, SearchCache, searchCacheInterceptor, uncached } from '../cache/index.js';
import { answerClientError } from './client-errors.js';
import { AnalyticsRecorder } from '../analytics/index.js';
import { RequestLog } from '../logs/index.js';
import { GatewayMetrics, engineMetrics, serveMetrics } from '../metrics/index.js';
import { ClientAddresses, createLogger, lineLogger, type Logger } from '../logging/index.js';
import { Readiness } from './readiness.js';
import { finishedOnClose } from './response-finished.js';
import { Parts } from './parts.js';
import { guardConnections, listenWithin, serverOptions } from '../connections/index.js';
import { CircuitBreakers } from '../breakers/index.js';

export interface RunningGateway {
  /** Where this host reaches the gateway (loopback when it is bound to every interface). */
  url: string;
  /** The address it is bound to (`http://0.0.0.0:8000` when bound to every interface). */
  listening: string;
  port: number;
  /** The engine itself, as the gateway's own stores reach it (no interceptor). */
  backend: Backend;
  bus: ChangeBus;
  hub: StreamHub;
  /** The worker threads pipeline scripts run on. */
  scripts: ScriptPool;
  server: http.Server;
  /** METRICS_PORT's server (127.0.0.1, no authentication), when configured. */
  metricsUrl?: string;
  /**
   * Graceful shutdown: not ready from now on, no new connections, new requests on open ones
   * refused (503), every stream ended with its final message; requests in flight may finish
   * within `drainMs`, then the remaining connections are closed, the analytics and request-log
   * queues written, Redis and the engine closed. Idempotent: a second call awaits the first.
   */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** How long requests in flight may take to finish before their connections are closed (ms; default 2000). */
  drainMs?: number;
}

export interface StartOptions {
  /**
   * The structured log (access lines, and the modules' lines unless `log` is given); default: one
   * made from the configuration (LOG_LEVEL), writing to stdout.
   */
  logger?: Logger;
  /** The modules' plain lines (something went wrong beside a request); default: the logger's, at warn. */
  log?: (line: string) => void;
  /** Told the generated admin password, exactly once, on the first start without ADMIN_* configured. */
  onGeneratedAdmin?: (username: string, password: string) => void;
}

export async function startGateway(config: Config, options: StartOptions = {}): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const log = options.log ?? lineLogger(logger);
  // the gateway's own stores reach the engine as it is; every caller acting for a client goes
  // through `backend`, the engine behind the interceptors (DESIGN.md, step 6)
  const parts = new Parts(log);
  const engine = parts.add('engine', await openBackend(config), (e) => e.close());
  const metrics = config.metrics.enabled ? new GatewayMetrics() : undefined;
  const bus = parts.add('change bus', createChangeBus(config, { historyLength: config.streams.historyLength, historyBytes: config.streams.historyBytes, log, onDelivered: metrics?.delivered }), (b) => b.close());
  const publisher = new ChangePublisher(bus, log);
  const cache = config.cache.enabled ? new SearchCache({ maxBytes: config.cache.maxBytes, ttlMs: config.cache.ttlMs }) : undefined;
  // the preferences stored for the fleet go over the configuration's, on every node
  const preferences = cache && parts.add('cache preferences', new PreferenceStore(engine, bus, {
    enable_cache: true, max_duration: Math.max(1, Math.round(config.cache.ttlMs / 1000)), max_size: config.cache.maxBytes / 1024 ** 2, indices: [],
  }, { log, changed: (p) => cache.configure({ maxBytes: Math.max(1, Math.round(p.max_size * 1024 ** 2)), ttlMs: p.max_duration * 1000 }) }), (p) => p.close());
  const cacheLayer = cache && preferences ? [searchCacheInterceptor(cache, bus, { quietMs: config.cache.quietMs, log, preferences: () => preferences.current() })] : [];
  // metrics innermost: they time the engine itself, not what the gateway answers without it (lib/metrics/engine-metrics.ts)
  // the request's value is read at the edge of the Backend (the client's, or one made here for the
  // gateway's own calls) and the wire request serialized from it innermost (lib/interceptors/request-value.ts)
  const withoutHiding = intercept(engine, requestValue(), systemIndexGuard(), ...cacheLayer, changePublishing(publisher), ...(metrics ? [engineMetrics(metrics)] : []), wireRequest());
  // what a client is answered never shows the gateway's type field (lib/apps/type-field-hiding.ts);
  // the gateway's own readers of it (typed documents, the streams' matching) use the engine inside
  const backend = intercept(withoutHiding, typeFieldHiding());
  let relevancy: RelevancyStore | undefined;
  // search analytics go to the engine as it is (system records), in the background
  const analytics = config.analytics.enabled
    ? parts.add('search analytics', new AnalyticsRecorder(engine, { maxQueued: config.analytics.maxQueued, retentionDays: config.analytics.retentionDays, log }), (a) => a.close())
    : undefined;
  // so do request logs; closed after the server: the records of the last requests (and streams) are written
  const logs = config.logs.enabled
    ? parts.add('request logs', new RequestLog(engine, { bodies: config.logs.bodies, bodyMaxBytes: config.logs.bodyMaxBytes, retentionDays: config.logs.retentionDays, flushMs: config.logs.flushMs, sampling: config.logs.sampling, log }), (l) => l.close())
    : undefined;
  try {
    const { credential, generatedPassword } = await ensureAdminCredential(engine, config);
    await installRawSubfieldTemplate(engine, log);
    if (generatedPassword) options.onGeneratedAdmin?.(credential.username, generatedPassword);
    const store = new CredentialStore(engine, { bus, reservedUsernames: [credential.username], log });
    const limiterRedis = config.redisUrl
      ? parts.add('rate limiter Redis', connectRedis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }), (r) => r.disconnect())
      : undefined;
    limiterRedis?.on('error', () => {}); // the limiter falls back to memory while Redis is away
    const throttle = new LoginThrottle({ maxFailuresPerUser: config.auth.maxFailuresPerUser, maxFailuresPerIp: config.auth.maxFailuresPerIp, redis: limiterRedis });
    const authenticator = parts.add('authenticator', new Authenticator(credential, config.realm, { store, bus, log, throttle, rememberedFailures: config.auth.rememberedFailures }), (a) => a.close());
    await authenticator.ready();
    const authorizer = new Authorizer(engine, new RateLimits(limiterRedis), store, bus, Boolean(config.redisUrl));
    const appCredentials = new AppCredentials(store);
    // streams read the engine as it is now, never the search cache (their changes follow the read)
    const streamBackend = uncached(backend);
    const hub = new StreamHub(bus, uncached(withoutHiding), config.streams);
    hub.credentialChanges = authenticator.credentialChanges;
    const typed = new TypedDocuments(withoutHiding);
    const apps = new AppRegistry(engine);
    // what an index took with it when it was deleted through this node: its stored records
    // (once, before the delete is answered) and this node's cache of it
    publisher.onIndexChange(async ({ index, op }) => {
      if (op !== 'delete') return;
      typed.forgetIndices([index]);
      await appCredentials.deleteAll(index);
      await apps.forget(index);
      // the index's own search relevancy settings go with it (`_default` is nobody's index)
      if (relevancy?.get(index)) await relevancy.delete(index);
    });
    // every other node drops its cache of it when the index event reaches it through the bus
    parts.add('index feed', bus.indexChanges().subscribe(({ index, op }) => {
      if (op === 'delete') typed.forgetIndices([index]);
    }), (feed) => feed.unsubscribe());
    await loadSandbox();
    const pipelineRegistry = parts.add('pipeline registry', new PipelineRegistry(engine, bus, log), (r) => r.close());
    await pipelineRegistry.start();
    const scripts = parts.add('script pool', new ScriptPool(), (p) => p.close());
    const rules = parts.add('query rules', new RuleStore(engine, bus, log), (r) => r.close());
    relevancy = parts.add('relevancy settings', new RelevancyStore(engine, bus, log), (r) => r.close());
    await Promise.all([rules.start(), relevancy.start(), preferences?.start()]);
    const pipelines = {
      registry: pipelineRegistry,
      scripts,
      backend,
      authorizer,
      limits: { timeoutMs: config.pipelines.scriptTimeoutMs, memoryMb: config.pipelines.scriptMemoryMb },
      maxContentLength: config.maxContentLength,
      declarative: declarativeStageApi(backend),
      stageRan: metrics?.stageRan,
    };
    metrics?.watch({ streams: hub.tallies, bus, cache, analytics, logs, authentication: authenticator });
    const readiness = new Readiness({ engine, redisBus: config.redisUrl ? bus : undefined });
    const app = createApp({ config, engine, backend, authenticator, authorizer, store, appCredentials, hub, log, logger, pipelines, curation: { rules, relevancy }, cache: cache && preferences && { cache, bus, preferences }, analytics, logs, readiness, metrics, breakers: new CircuitBreakers(config.breakers) }, typed);
    // the client's address as the trusted proxies tell it (TRUSTED_PROXIES), wherever the request path reads it
    const clientAddresses = new ClientAddresses(config.trustedProxies);
    clientAddresses.install(app);
    void analytics?.purge(); // then daily
    void logs?.purge(); // then daily
    const server = http.createServer(serverOptions(config.http), finishedOnClose(app.callback()));
    // connection caps and read timeouts: a crowd of slow clients cannot hold every descriptor
    const guard = parts.add('connection guard', guardConnections(server, config.http, { log, sharedPeer: (address) => clientAddresses.isTrustedPeer(address) }), (c) => c.close());
    metrics?.watch({ connections: guard });
    const websockets = attachWebSocket(server, { hub, backend: streamBackend, typed, authenticator, authorizer, maxPayload: config.maxContentLength, clientAddress: (req) => clientAddresses.of(req),
      maxBufferedBytes: config.streams.maxBufferedBytes, maxAuthFailures: config.auth.websocketMaxFailures, heartbeatMs: config.streams.heartbeatMs });
    // streams stay open for hours (requestTimeout 0: serverOptions); the proxy has its own upstream timeout
    server.on('clientError', answerClientError);
    await listenWithin(server, config.http, config.port, config.host);
    const { port } = server.address() as AddressInfo;
    parts.add('server', server, (s) => s.close());
    const metricsServer = metrics && config.metrics.port !== undefined
      ? parts.add('metrics server', await serveMetrics(metrics, config.metrics.port), (m) => m.close())
      : undefined;
    // `url` is where this host reaches the gateway (an unspecified bind address is reached on
    // loopback); `listening` is what it is bound to, as the startup line tells it
    const bound = server.address() as AddressInfo;
    const unspecified = bound.address === '0.0.0.0' || bound.address === '::';
    const reachHost = unspecified ? (bound.family === 'IPv6' ? '[::1]' : '127.0.0.1') : urlHost(bound.address);
    let closing: Promise<void> | undefined;
    const shutdown = async (drainMs: number) => {
      readiness.shutdown(); // ready answers 503; new requests on open connections too
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve())); // no new connections
      hub.closeAll(); // streams end with their final message
      websockets.close();
      await drain(server, serverClosed, drainMs);
      websockets.terminate();
      await serverClosed;
      await parts.closeAll(); // the rest, last started first
    };
    return {
      url: `http://${reachHost}:${port}`,
      listening: `http://${urlHost(bound.address)}:${port}`,
      port,
      backend: engine,
      bus,
      hub,
      scripts,
      server,
      metricsUrl: metricsServer?.url,
      close(options: CloseOptions = {}) {
        closing ??= shutdown(options.drainMs ?? 2_000);
        return closing;
      },
    };
  } catch (err) {
    await parts.closeAll();
    throw err;
  }
}

/** An address as a URL's host: an IPv6 one in brackets. */
const urlHost = (address: string): string => (address.includes(':') ? `[${address}]` : address);

/**
 * Lets the requests in flight finish, at most `ms`: connections are closed as soon as they fall
 * idle (Node keeps a kept-alive connection open after its last response, even on a closed
 * server), and whatever is still open at the deadline is closed then.
 */
async function drain(server: http.Server, serverClosed: Promise<void>, ms: number): Promise<void> {
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([serverClosed, new Promise<void>((resolve) => (deadline = setTimeout(resolve, ms)))]);
  clearInterval(sweep);
  clearTimeout(deadline);
  server.closeAllConnections();
}
