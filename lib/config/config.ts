import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { ConnectionLimits } from '../connections/index.js';
import { heapLimit, type BreakerLimits } from '../breakers/index.js';

/** The only module that reads process.env. Everything else receives a Config. */
export interface Config {
  port: number;
  host: string;
  /** Upstream Elasticsearch/OpenSearch; undefined means the embedded engine. */
  engineUrl?: URL;
  dataDir: string;
  /** ENGINE_CONFIG_DIR: the embedded engine's config directory (analysis files); default `<DATA_DIR>/config`. */
  engineConfigDir?: string;
  /** POINT_IN_TIME_BYTES: what the embedded engine's point-in-time views may hold together; default an eighth of the heap limit. */
  pointInTimeBytes?: number;
  /** API_DIALECT: whose answers the embedded engine gives where Elasticsearch 8 and OpenSearch 2 differ (docs/api-compatibility.md). */
  apiDialect: ApiDialect;
  redisUrl?: string;
  /**
   * REDIS_PING_MS: the change bus PINGs its Redis connections this often and connects again one
   * that has not answered by the next PING (a stalled connection, a partition): the longest a node
   * can go without noticing that it may be missing changes is about twice this.
   */
  redisPingMs: number;
  /** REDIS_SHARDED_PUBSUB=true: the change bus uses SPUBLISH/SSUBSCRIBE (Redis 7), which scales with a cluster. */
  redisShardedPubSub: boolean;
  adminUser?: string;
  /** ADMIN_PASSWORD: at least MIN_ADMIN_PASSWORD_LENGTH characters (a shorter one stops the start). */
  adminPassword?: string;
  /**
   * TRUSTED_PROXIES: the addresses and CIDR ranges (`10.0.0.5`, `172.18.0.0/16`, `::1`) of the
   * reverse proxies in front of the gateway. A request whose direct peer is one of them has its
   * client address read from `X-Forwarded-For` (else `Forwarded`), right to left past the trusted
   * hops; any other request's client address is its peer's. Empty (the default): forwarding
   * headers are never believed.
   */
  trustedProxies: TrustedProxy[];
  /** http.max_content_length, in bytes. */
  maxContentLength: number;
  /** Connection caps and read timeouts (HTTP_*; lib/connections). */
  http: ConnectionLimits;
  /** Circuit breakers (NETWORK_BREAKER_INFLIGHT_REQUESTS_LIMIT, INDICES_BREAKER_REQUEST_LIMIT, INDICES_BREAKER_TOTAL_LIMIT; lib/breakers). */
  breakers: BreakerLimits;
  /** Upstream request timeout (ms) on the proxy path; streams are not subject to it. */
  engineTimeoutMs: number;
  realm: string;
  /**
   * SHUTDOWN_TIMEOUT_MS: on SIGTERM/SIGINT, how long requests in flight may take to finish before
   * the remaining connections are closed (default 10000).
   */
  shutdownTimeoutMs: number;
  /**
   * CORS_ORIGINS: the browser origins allowed to call the gateway (exact `scheme://host[:port]`),
   * or `["*"]` for any; empty (the default): no CORS headers at all.
   */
  corsOrigins: string[];
  streams: StreamConfig;
  pipelines: PipelineConfig;
  auth: AuthConfig;
  cache: CacheConfig;
  analytics: AnalyticsConfig;
  logs: LogsConfig;
  metrics: MetricsConfig;
  /** LOG_LEVEL: the structured log's threshold (fatal, error, warn, info, debug, trace, silent); default info. */
  logLevel: LogLevel;
  /** ACCESS_LOG: one access line per request, at info (default true). */
  accessLog: boolean;
}

export interface MetricsConfig {
  /** METRICS_ENABLED: Prometheus metrics (`GET /_gateway/metrics`); default true (false removes them and their cost). */
  enabled: boolean;
  /** METRICS_PORT: a second server on 127.0.0.1 serving only the metrics, without authentication; default none. */
  port?: number;
}

export interface LogsConfig {
  /** LOGS_ENABLED: record every request in the request logs (`/_logs`); default true (false removes the logs and their API). */
  enabled: boolean;
  /** LOGS_BODIES: keep request and response bodies too (secrets redacted); default false. */
  bodies: boolean;
  /** LOGS_BODY_MAX: bytes of each body kept at most (default 100kb). */
  bodyMaxBytes: number;
  /** LOGS_RETENTION_DAYS: records older than this are purged daily (default 7). */
  retentionDays: number;
  /** LOGS_FLUSH_MS: records waiting are written at least this often, ms (default 1000; a full batch at once). */
  flushMs: number;
  /**
   * Which requests get a record (lib/logs/log-sampling.ts): every error, slow request
   * (LOGS_SLOW_MS, default 500), write and stream; the fast, successful reads all up to
   * LOGS_ALL_PER_SECOND (default 100) of them a second, then one in LOGS_SAMPLE_EVERY (default 100;
   * 1 records every request), recorded with the weight of the requests it stands for.
   */
  sampling: { allPerSecond: number; sampleEvery: number; slowMs: number };
}

export interface AnalyticsConfig {
  /** ANALYTICS_ENABLED: search analytics (recording and its API); default true. */
  enabled: boolean;
  /** ANALYTICS_RETENTION_DAYS: events older than this are purged daily (default 30). */
  retentionDays: number;
  /** ANALYTICS_STREAM_INTERVAL_MS: a live analytics answer is computed again at most this often (default 1000). */
  streamIntervalMs: number;
  /** ANALYTICS_MAX_QUEUED: events waiting to be written at most; more are dropped and counted (default 10000). */
  maxQueued: number;
}

export interface CacheConfig {
  /** CACHE_ENABLED: keep search answers until a change reaches their indices (default true; false removes the cache and its API). */
  enabled: boolean;
  /** CACHE_MAX_BYTES: bytes of answers kept at most per node. */
  maxBytes: number;
  /** CACHE_TTL: how long an answer is kept at most (a safety net: eviction is by change). */
  ttlMs: number;
  /**
   * CACHE_QUIET_MS: after a change, an index's answers are not kept for this long — the engine's
   * refresh interval (default 1500 with ENGINE_URL, where Elasticsearch shows writes at its next
   * refresh; 0 on the embedded engine, where an acknowledged write is visible at once).
   */
  quietMs: number;
}

export interface AuthConfig {
  /** AUTH_MAX_FAILURES_PER_MINUTE: failed logins per username per minute before 429 (0 = no limit). */
  maxFailuresPerUser: number;
  /** AUTH_MAX_FAILURES_PER_IP_PER_MINUTE: failed logins per client address per minute before 429 (0 = no limit). */
  maxFailuresPerIp: number;
  /** AUTH_REMEMBERED_FAILURES: failed Authorization headers remembered (as keyed digests) to answer 401 without scrypt. */
  rememberedFailures: number;
  /** WS_MAX_AUTH_FAILURES: frames failing authentication before a WebSocket is closed (1008). */
  websocketMaxFailures: number;
}

export interface PipelineConfig {
  /** PIPELINE_SCRIPT_TIMEOUT_MS: time a script stage may run (ms). */
  scriptTimeoutMs: number;
  /** PIPELINE_SCRIPT_MEMORY_MB: heap a script stage may use (MB). */
  scriptMemoryMb: number;
}

export interface StreamConfig {
  /** STREAM_MAX_DURATION: a stream ends cleanly after this long (ms or "6h"-style). */
  maxDurationMs: number;
  /** STREAM_HEARTBEAT_MS: whitespace (or an SSE comment) on idle streams. */
  heartbeatMs: number;
  /** STREAM_BUFFER_BYTES: bytes a slow client may leave unread before its stream ends with an error. */
  maxBufferedBytes: number;
  /** STREAM_HISTORY: changes kept per index for resume (memory ring buffer or Redis Stream cap). */
  historyLength: number;
  /** STREAM_HISTORY_BYTES: bytes of changes kept for resume over all indices (in-process bus; "64mb"-style). */
  historyBytes: number;
  /** STREAM_TRACKED_IDS: matching ids a search stream tracks to tell updates and departures. */
  trackedIds: number;
  /**
   * STREAM_MATCHING: `local` (the engine's matcher in the gateway; queries it cannot decide are
   * asked of the engine on the HTTP backend) or `engine` (always ask the engine; HTTP backend).
   */
  matching: 'local' | 'engine';
  /** STREAM_AGG_INTERVAL_MS: a live aggregation is computed again (and pushed) at most this often. */
  aggIntervalMs: number;
  /** STREAM_AGG_CONCURRENCY: live computations (aggregations, declarative UIs) in flight at most on a node. */
  aggConcurrency: number;
  /**
   * After a change, the engine shows it within this long (CACHE_QUIET_MS: Elasticsearch's
   * refresh): a live aggregation is computed once more then. 0 on the embedded engine.
   */
  visibleAfterMs: number;
}

/** LOG_LEVEL's values: pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

export const MIN_ADMIN_PASSWORD_LENGTH = 12;

/** One TRUSTED_PROXIES entry: an address, or a range of them (`prefix` bits). */
export interface TrustedProxy {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function trustedProxies(raw: string | undefined): TrustedProxy[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  return entries.map((entry) => {
    const { address, bits } = cidrParts(entry);
    const version = isIP(address);
    const max = version === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : NaN;
    if (version === 0 || !(prefix >= 0 && prefix <= max)) {
      throw new ConfigError(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range like 10.0.0.0/8`);
    }
    return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
  });
}

/** A CIDR range's address and prefix length (`10.0.0.0/8`); a lone address has no length (a second `/` leaves it none that reads). */
function cidrParts(entry: string): { address: string; bits?: string } {
  const slash = entry.indexOf('/');
  return slash < 0 ? { address: entry } : { address: entry.slice(0, slash), bits: entry.slice(slash + 1) };
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** Sizes like "100mb", "512kb", "1gb" or a plain byte count, as Elasticsearch writes them. */
export function parseByteSize(raw: string, name: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(raw);
  if (!m) throw new ConfigError(`${name} must be a byte size like 100mb, got "${raw}"`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const host = env.HOST?.trim() || '0.0.0.0';
  let engineUrl: URL | undefined;
  if (env.ENGINE_URL) {
    try {
      engineUrl = new URL(env.ENGINE_URL);
    } catch {
      throw new ConfigError(`ENGINE_URL is not a valid URL: "${env.ENGINE_URL}"`);
    }
    if (engineUrl.protocol !== 'http:' && engineUrl.protocol !== 'https:') {
      throw new ConfigError(`ENGINE_URL must be http:// or https://, got "${engineUrl.protocol}"`);
    }
  }
  if (env.REDIS_URL && !/^rediss?(\+sentinel|\+cluster)?:\/\//.test(env.REDIS_URL)) {
    throw new ConfigError(`REDIS_URL must start with redis://, rediss://, redis+sentinel:// or redis+cluster://, got "${env.REDIS_URL}"`);
  }
  const adminUser = env.ADMIN_USER || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if ((adminUser === undefined) !== (adminPassword === undefined)) {
    throw new ConfigError('ADMIN_USER and ADMIN_PASSWORD must be set together (or neither, to generate one)');
  }
  if (env.METRICS_PORT && env.METRICS_ENABLED === 'false') {
    throw new ConfigError('METRICS_PORT serves the metrics: it needs METRICS_ENABLED=true');
  }
  if (adminUser !== undefined && /[:\s]/.test(adminUser)) {
    throw new ConfigError('ADMIN_USER must not contain ":" or whitespace');
  }
  if (adminPassword !== undefined && [...adminPassword].length < MIN_ADMIN_PASSWORD_LENGTH) {
    throw new ConfigError(`ADMIN_PASSWORD must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters long`);
  }
  return {
    port,
    host,
    engineUrl,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    engineConfigDir: env.ENGINE_CONFIG_DIR ? path.resolve(env.ENGINE_CONFIG_DIR) : undefined,
    pointInTimeBytes: env.POINT_IN_TIME_BYTES ? parseByteSize(env.POINT_IN_TIME_BYTES, 'POINT_IN_TIME_BYTES') : undefined,
    apiDialect: apiDialect(env),
    redisUrl: env.REDIS_URL || undefined,
    redisPingMs: integer(env, 'REDIS_PING_MS', 2_000, 50, 600_000),
    redisShardedPubSub: oneOf(env, 'REDIS_SHARDED_PUBSUB', ['true', 'false'] as const, 'false') === 'true',
    adminUser,
    adminPassword,
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    maxContentLength: env.MAX_CONTENT_LENGTH ? parseByteSize(env.MAX_CONTENT_LENGTH, 'MAX_CONTENT_LENGTH') : 100 * 1024 ** 2,
    http: connectionLimits(env),
    breakers: breakerLimits(env),
    engineTimeoutMs: integer(env, 'ENGINE_TIMEOUT_MS', 60_000, 1, 3_600_000),
    realm: 'search-gateway',
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 3_600_000),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    streams: {
      maxDurationMs: env.STREAM_MAX_DURATION ? parseDuration(env.STREAM_MAX_DURATION, 'STREAM_MAX_DURATION') : 6 * 3600_000,
      heartbeatMs: integer(env, 'STREAM_HEARTBEAT_MS', 15_000, 10, 3_600_000),
      maxBufferedBytes: env.STREAM_BUFFER_BYTES ? parseByteSize(env.STREAM_BUFFER_BYTES, 'STREAM_BUFFER_BYTES') : 8 * 1024 ** 2,
      historyLength: integer(env, 'STREAM_HISTORY', 10_000, 1, 10_000_000),
      historyBytes: env.STREAM_HISTORY_BYTES ? parseByteSize(env.STREAM_HISTORY_BYTES, 'STREAM_HISTORY_BYTES') : 64 * 1024 ** 2,
      trackedIds: integer(env, 'STREAM_TRACKED_IDS', 10_000, 0, 1_000_000),
      matching: oneOf(env, 'STREAM_MATCHING', ['local', 'engine'] as const, 'local'),
      aggIntervalMs: integer(env, 'STREAM_AGG_INTERVAL_MS', 250, 10, 3_600_000),
      aggConcurrency: integer(env, 'STREAM_AGG_CONCURRENCY', 2, 1, 1_000),
      visibleAfterMs: integer(env, 'CACHE_QUIET_MS', engineUrl ? 1_500 : 0, 0, 3_600_000),
    },
    pipelines: {
      scriptTimeoutMs: integer(env, 'PIPELINE_SCRIPT_TIMEOUT_MS', 100, 1, 60_000),
      scriptMemoryMb: integer(env, 'PIPELINE_SCRIPT_MEMORY_MB', 32, 1, 1024),
    },
    analytics: {
      enabled: oneOf(env, 'ANALYTICS_ENABLED', ['true', 'false'] as const, 'true') === 'true',
      retentionDays: integer(env, 'ANALYTICS_RETENTION_DAYS', 30, 1, 36_500),
      streamIntervalMs: integer(env, 'ANALYTICS_STREAM_INTERVAL_MS', 1_000, 50, 3_600_000),
      maxQueued: integer(env, 'ANALYTICS_MAX_QUEUED', 10_000, 1, 10_000_000),
    },
    cache: {
      enabled: oneOf(env, 'CACHE_ENABLED', ['true', 'false'] as const, 'true') === 'true',
      maxBytes: env.CACHE_MAX_BYTES ? parseByteSize(env.CACHE_MAX_BYTES, 'CACHE_MAX_BYTES') : 64 * 1024 ** 2,
      ttlMs: env.CACHE_TTL ? parseDuration(env.CACHE_TTL, 'CACHE_TTL') : 10 * 60_000,
      quietMs: integer(env, 'CACHE_QUIET_MS', engineUrl ? 1_500 : 0, 0, 3_600_000),
    },
    metrics: {
      enabled: oneOf(env, 'METRICS_ENABLED', ['true', 'false'] as const, 'true') === 'true',
      port: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    },
    logs: {
      enabled: oneOf(env, 'LOGS_ENABLED', ['true', 'false'] as const, 'true') === 'true',
      bodies: oneOf(env, 'LOGS_BODIES', ['true', 'false'] as const, 'false') === 'true',
      bodyMaxBytes: env.LOGS_BODY_MAX ? parseByteSize(env.LOGS_BODY_MAX, 'LOGS_BODY_MAX') : 100 * 1024,
      retentionDays: integer(env, 'LOGS_RETENTION_DAYS', 7, 1, 36_500),
      flushMs: integer(env, 'LOGS_FLUSH_MS', 1_000, 10, 60_000),
      sampling: {
        allPerSecond: integer(env, 'LOGS_ALL_PER_SECOND', 100, 0, 1_000_000_000),
        sampleEvery: integer(env, 'LOGS_SAMPLE_EVERY', 100, 1, 1_000_000_000),
        slowMs: integer(env, 'LOGS_SLOW_MS', 500, 0, 86_400_000),
      },
    },
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    accessLog: oneOf(env, 'ACCESS_LOG', ['true', 'false'] as const, 'true') === 'true',
    auth: {
      maxFailuresPerUser: integer(env, 'AUTH_MAX_FAILURES_PER_MINUTE', 10, 0, 1_000_000),
      maxFailuresPerIp: integer(env, 'AUTH_MAX_FAILURES_PER_IP_PER_MINUTE', 30, 0, 1_000_000),
      rememberedFailures: integer(env, 'AUTH_REMEMBERED_FAILURES', 10_000, 0, 10_000_000),
      websocketMaxFailures: integer(env, 'WS_MAX_AUTH_FAILURES', 5, 1, 1_000_000),
    },
  };
}

/**
 * `CORS_ORIGINS`: comma-separated origins as browsers send them in `Origin` (`https://app.example.com`,
 * `http://localhost:3000`; a trailing `/` is dropped, an http(s) origin is written as the browser
 * writes it: lower case, no default port), or `*` alone for any origin.
 */
function corsOrigins(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) throw new ConfigError('CORS_ORIGINS is either * (any origin) or a list of origins, not both');
    return ['*'];
  }
  return [...new Set(entries.map((entry) => {
    const bare = entry.replace(/\/$/, '');
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s@]+)$/i.exec(bare);
    if (!m) throw new ConfigError(`CORS_ORIGINS: "${entry}" is not an origin like https://app.example.com (scheme://host[:port], no path)`);
    const scheme = m[1].toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') return `${scheme}://${m[2].toLowerCase()}`;
    try {
      return new URL(bare).origin;
    } catch {
      throw new ConfigError(`CORS_ORIGINS: "${entry}" is not an origin like https://app.example.com (scheme://host[:port], no path)`);
    }
  }))];
}

/** Durations like "6h", "30m", "45s", "500ms" or a plain number of milliseconds. */
export function parseDuration(raw: string, name: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(raw);
  if (!m) throw new ConfigError(`${name} must be a duration like 6h, 30m or 500ms, got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms').toLowerCase() as 'ms'];
  const ms = Math.floor(Number(m[1]) * unit);
  if (ms < 1) throw new ConfigError(`${name} must be positive, got "${raw}"`);
  return ms;
}

/** Configuration of the standalone embedded engine (`npm run engine`). */
export interface EngineServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** ENGINE_CONFIG_DIR: the config directory analysis files are read from; default `<dataDir>/config`. */
  configDir?: string;
  /** "user:password" the standalone engine requires, as a secured cluster would; absent = open. */
  auth?: string;
  maxContentLength: number;
  /** POINT_IN_TIME_BYTES, as for the gateway's embedded engine. */
  pointInTimeBytes?: number;
  /** API_DIALECT, as for the gateway's embedded engine. */
  apiDialect: ApiDialect;
  http: ConnectionLimits;
  breakers: BreakerLimits;
}

/** A breaker limit as Elasticsearch writes it: a share of the heap (`60%`) or a byte size (`2gb`). */
function heapShare(env: Env, name: string, fallbackPercent: number): number {
  const raw = env[name]?.trim();
  const m = raw ? /^(\d+(?:\.\d+)?)%$/.exec(raw) : null;
  if (raw && !m) return parseByteSize(raw, name);
  const percent = m ? Number(m[1]) : fallbackPercent;
  if (percent <= 0 || percent > 100) throw new ConfigError(`${name} must be a share of the heap between 0% and 100%, got "${raw}"`);
  return Math.floor((heapLimit() * percent) / 100);
}

/** The circuit breakers' limits, with Elasticsearch's defaults (shares of V8's heap limit). */
function breakerLimits(env: Env): BreakerLimits {
  return {
    inFlightBytes: heapShare(env, 'NETWORK_BREAKER_INFLIGHT_REQUESTS_LIMIT', 100),
    requestBytes: heapShare(env, 'INDICES_BREAKER_REQUEST_LIMIT', 60),
    totalBytes: heapShare(env, 'INDICES_BREAKER_TOTAL_LIMIT', 95),
    largeBodyBytesPerSecond: env.HTTP_LARGE_BODY_RATE?.trim() ? parseByteSize(env.HTTP_LARGE_BODY_RATE, 'HTTP_LARGE_BODY_RATE') : 50 * 1024 ** 2,
  };
}

/**
 * The default cap on open connections: the process's open-file limit (`ulimit -n`) less 1,024
 * descriptors for everything else (the store's files, upstream connections, logs), so that
 * connections alone can never exhaust it; 10,000 where the limit cannot be read.
 */
function descriptorBudget(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m) return Math.max(256, Number(m[1]) - 1_024);
  } catch {
    // not Linux: the fixed default
  }
  return 10_000;
}

/** HTTP_*: what one client connection may hold, for the gateway and the standalone engine alike. */
function connectionLimits(env: Env): ConnectionLimits {
  const maxConnections = integer(env, 'HTTP_MAX_CONNECTIONS', descriptorBudget(), 1, 10_000_000);
  return {
    maxConnections,
    maxConnectionsPerClient: integer(env, 'HTTP_MAX_CONNECTIONS_PER_CLIENT', Math.min(1_000, maxConnections), 1, 10_000_000),
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 10, 3_600_000),
    bodyTimeoutMs: integer(env, 'HTTP_BODY_TIMEOUT_MS', 10_000, 10, 3_600_000),
    bodyMinBytesPerSecond: env.HTTP_BODY_MIN_RATE ? parseByteSize(env.HTTP_BODY_MIN_RATE, 'HTTP_BODY_MIN_RATE') : 1024,
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 10, 3_600_000),
    acceptBacklog: integer(env, 'HTTP_ACCEPT_BACKLOG', 4_096, 1, 1_000_000),
  };
}

/**
 * Whose answers the embedded engine gives where Elasticsearch 8 and OpenSearch 2 differ (`GET /`,
 * `_cat` column names, node attributes): `auto` (default) answers as OpenSearch 2 to a request whose
 * User-Agent names an OpenSearch client (`opensearch-js/…`, `opensearch-py/…`), as Elasticsearch 8
 * to any other; `elasticsearch` and `opensearch` answer every request as that engine does.
 */
export type ApiDialect = 'auto' | 'elasticsearch' | 'opensearch';

function apiDialect(env: Env): ApiDialect {
  const value = env.API_DIALECT?.trim() || 'auto';
  if (value !== 'auto' && value !== 'elasticsearch' && value !== 'opensearch') {
    throw new ConfigError(`API_DIALECT must be auto, elasticsearch or opensearch, got "${value}"`);
  }
  return value;
}

export function loadEngineServerConfig(env: Env = process.env): EngineServerConfig {
  const auth = env.ENGINE_AUTH || undefined;
  if (auth !== undefined && !auth.includes(':')) throw new ConfigError('ENGINE_AUTH must be "user:password"');
  return {
    port: integer(env, 'ENGINE_PORT', 9200, 0, 65535),
    host: env.ENGINE_HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(env.ENGINE_DATA_DIR || env.DATA_DIR || 'data/engine'),
    configDir: env.ENGINE_CONFIG_DIR ? path.resolve(env.ENGINE_CONFIG_DIR) : undefined,
    auth,
    maxContentLength: env.MAX_CONTENT_LENGTH ? parseByteSize(env.MAX_CONTENT_LENGTH, 'MAX_CONTENT_LENGTH') : 100 * 1024 ** 2,
    pointInTimeBytes: env.POINT_IN_TIME_BYTES ? parseByteSize(env.POINT_IN_TIME_BYTES, 'POINT_IN_TIME_BYTES') : undefined,
    apiDialect: apiDialect(env),
    http: connectionLimits(env),
    breakers: breakerLimits(env),
  };
}
