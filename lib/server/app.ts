import Koa from 'koa';
import { dispatch } from './dispatch.js';
import type { Config } from '../config/index.js';
import type { Backend, InterceptedBackend } from '../engine/index.js';
import { credentialRoutes, type AppCredentials, type Authenticator, type Authorizer, type CredentialStore } from '../auth/index.js';
import { accountApi, authInfoApi, authenticateApi, dashboardsInfoApi, securityConfigApis, securityHealthApi, whoAmIApi } from '../auth/index.js';
import { appRoutes, registeredAppGreeting, TypedDocuments } from '../apps/index.js';
import { httpStreams, type StreamHub } from '../streams/index.js';
import { declarativeRoutes } from '../declarative/index.js';
import { pipelineApi, pipelineRoutes, type PipelineRouterOptions } from '../pipelines/index.js';
import { esResponse } from './es-response.js';
import { requestContext, type Logger } from '../logging/index.js';
import { health } from './health.js';
import { consoleAssets } from '../console/index.js';
import type { Readiness } from './readiness.js';
import { authenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { classify } from './classify.js';
import { cors } from './cors.js';
import { CredentialOrigins } from './credential-origins.js';
import { canonicalRequest } from './request-target.js';
import { mediaTypes } from './media-types.js';
import type { GatewayState } from './state.js';
import { issueIndexCredentials } from './index-credentials.js';
import { proxy } from './proxy.js';
import { inFlightRequests } from './in-flight-requests.js';
import type { CircuitBreakers } from '../breakers/index.js';
import { carriesSearchText, curatedSearch, relevancyRoutes, ruleRoutes, type Curation } from '../rules/index.js';
import { cacheRoutes, uncached, type PreferenceStore, type SearchCache } from '../cache/index.js';
import type { ChangeBus } from '../changes/index.js';
import { analyticsRoutes, carriesSearchQuery, declarativeRecording, plainSearchRecording, type AnalyticsRecorder } from '../analytics/index.js';
import type { RequestLog } from '../logs/index.js';
import { metricsRoutes, requestMetrics, type GatewayMetrics } from '../metrics/index.js';

export interface GatewayParts {
  config: Config;
  /** The engine as the gateway's own stores (system indices) reach it. */
  engine: Backend;
  /** The engine behind the interceptors: what every caller acting for a client uses. */
  backend: InterceptedBackend;
  authenticator: Authenticator;
  authorizer: Authorizer;
  store: CredentialStore;
  appCredentials: AppCredentials;
  hub: StreamHub;
  log: (line: string) => void;
  /** The structured log: access lines go there (ACCESS_LOG); absent = none (X-Request-Id is answered all the same). */
  logger?: Logger;
  /** Registered pipelines and what their stages use; absent = no pipeline support. */
  pipelines?: PipelineRouterOptions;
  /** Query rules and search relevancy settings; absent = searches are not curated. */
  curation?: Curation;
  /** The search cache and the bus it tells other nodes on; absent = no cache (`/_cache/…` then goes to the engine). */
  cache?: { cache: SearchCache; bus: ChangeBus; preferences: PreferenceStore };
  /** Search analytics; absent = nothing is recorded (`/_analytics/…` then goes to the engine). */
  analytics?: AnalyticsRecorder;
  /** The request logs; absent = nothing is recorded (`/_logs`, `/_log/{id}` then go to the engine). */
  logs?: RequestLog;
  /** Prometheus metrics; absent = none (`/_gateway/metrics` then goes to the engine). */
  metrics?: GatewayMetrics;
  /** `/_gateway/health` and `/_gateway/ready`, and refusing new requests on shutdown; absent = neither. */
  readiness?: Readiness;
  /** The circuit breakers request bodies are counted against; absent = none. */
  breakers?: CircuitBreakers;
}

/** The request path, in order: README.md, "The request's way through", describes each step. */
/**
 * `PUT /{index}` and `GET /{index}` name an index the gateway answers for in part (a new index's
 * credential pair, a registered app's greeting): never `_all`, which the table's `{index}` also takes.
 */
const namesAnIndex = (_: unknown, ctx: Koa.Context): boolean => !(ctx.state as GatewayState).gatewayRequest.pathParams.index?.startsWith('_');

export function createApp(parts: GatewayParts, typed = new TypedDocuments(parts.backend)): Koa<GatewayState> {
  const { config, engine, backend, authenticator, authorizer, store, appCredentials, hub, log, pipelines, curation, cache, analytics, logs } = parts;
  const app = new Koa<GatewayState>({ proxy: false });
  app.silent = true;
  // the request's id (X-Request-Id), its X-Opaque-Id echoed, and once the response is over its access
  // line and its request log record (one listener for both)
  app.use(requestContext({ logger: parts.logger, accessLog: config.accessLog, ends: logs ? [logs.end] : [] }));
  app.use(esResponse(log));
  // request bodies counted against network.breaker.inflight_requests while they are read and held
  if (parts.breakers) app.use(inFlightRequests(parts.breakers));
  // the request target read once, in the one reading every later step and the engine act on
  app.use(canonicalRequest());
  // a v9 client's `compatible-with=9` asks the engine for 8 and is answered in kind
  app.use(mediaTypes());
  // probes carry no credentials: answered before anything else (and new requests refused on shutdown)
  if (parts.readiness) app.use(health(parts.readiness));
  // the console's static files hold no data: answered before authentication (its calls authenticate)
  app.use(consoleAssets());
  // LOGS_BODIES: the request log taps each body before the first step that reads it
  const bodyTaps = logs?.bodyTaps();
  if (bodyTaps) app.use(bodyTaps);
  // browsers' preflights carry no credentials: answered before authentication, from CORS_ORIGINS and
  // the origins stored credentials' referers allow; an actual request, by its own credential's
  const browsers = cors(config.corsOrigins, new CredentialOrigins(store, hub.bus, log));
  app.use(browsers.beforeAuthentication);
  app.use(authenticate(authenticator));
  app.use(browsers.afterAuthentication);
  app.use(classify(config.maxContentLength, backend.kind === 'embedded', engine));
  // every classified request counted and timed, by what the classification says it is
  if (parts.metrics) app.use(requestMetrics(parts.metrics));
  // a route a pipeline claims runs its stages instead (its `authorization` stage is its access check)
  if (pipelines) app.use(pipelineRoutes(pipelines));
  app.use(authorize(authorizer, config.maxContentLength));
  const apps = appRoutes(engine, backend, typed, appCredentials, config.maxContentLength);
  app.use(dispatch({
    stream: [{ handler: httpStreams(hub, uncached(backend), typed, config.maxContentLength) }],
    declarative: [{ route: 'declarative', handler: declarativeRoutes(backend, config.maxContentLength, curation, analytics && declarativeRecording(analytics), undefined, analytics && engine, { hub, engine: uncached(backend) }) }],
    credentials: [{ handler: credentialRoutes(store, { maxContentLength: config.maxContentLength }) }],
    pipelines: pipelines ? [{ handler: pipelineApi(pipelines) }] : [],
    apps: [{ handler: apps }],
    app: [{ handler: apps }],
    gateway: [
      ...(curation
        ? [
            { route: 'rules', handler: ruleRoutes(curation.rules, config.maxContentLength) },
            { route: 'searchrelevancy', handler: relevancyRoutes(curation.relevancy, config.maxContentLength) },
          ]
        : []),
      ...(cache ? [{ route: 'cache', handler: cacheRoutes(cache.cache, cache.bus, cache.preferences) }] : []),
      ...(logs ? [{ route: 'logs', handler: logs.routes() }] : []),
      ...(parts.metrics ? [{ route: 'gateway.metrics', handler: metricsRoutes(parts.metrics) }] : []),
      { route: 'security.authenticate', handler: authenticateApi() },
      // OpenSearch's Security plugin's endpoints about the caller, and its configuration API as the gateway's model answers it
      { route: 'security.authinfo', handler: authInfoApi() },
      { route: 'security.whoami', handler: whoAmIApi() },
      { route: 'security.health', handler: securityHealthApi() },
      { route: 'security.dashboardsinfo', handler: dashboardsInfoApi() },
      { route: 'security.account', handler: accountApi({ store, maxContentLength: config.maxContentLength, passwordMatches: (username, password, ip) => authenticator.passwordMatches(username, password, ip) }) },
      ...Object.entries(securityConfigApis({ flushCredentialCache: () => authenticator.flush(), maxContentLength: config.maxContentLength }))
        .map(([route, handler]) => ({ route, handler })),
      ...(analytics
        ? [{ route: 'analytics', handler: analyticsRoutes(engine, analytics, {
            streamIntervalMs: config.analytics.streamIntervalMs,
            streams: config.streams,
            ruleUsage: curation && (() => curation.rules.list().map((r) => ({ id: r.id, usage: curation.rules.usageOf(r.id) }))),
          }) }]
        : []),
    ],
    engine: [
      // a search that says what was typed is recorded once answered, whoever answers it
      ...(analytics ? [{ claims: carriesSearchQuery, handler: plainSearchRecording(analytics) }] : []),
      ...(curation ? [{ claims: carriesSearchText, handler: curatedSearch(backend, curation, config.maxContentLength) }] : []),
      { route: 'indices.create', claims: namesAnIndex, handler: issueIndexCredentials(backend, appCredentials, config.maxContentLength) },
      { route: 'indices.get', claims: namesAnIndex, handler: registeredAppGreeting(engine) },
    ],
  }, proxy(backend, config.maxContentLength)));
  return app;
}
