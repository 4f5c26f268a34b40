import { createRequire } from 'node:module';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

/**
 * ioredis, loaded by the first connection: a quarter of a second of CPU that a gateway without
 * REDIS_URL (and every spawned test gateway without one) would otherwise pay at start.
 */
let ioredis: typeof import('ioredis') | undefined;
const loadIoredis = (): typeof import('ioredis') => (ioredis ??= createRequire(import.meta.url)('ioredis') as typeof import('ioredis'));

/** A connection to the deployment's Redis: one server, a Sentinel-managed master, or a cluster. */
export type RedisConnection = Redis | Cluster;

/**
 * Where Redis is, from REDIS_URL:
 *   redis://[user:password@]host:port[/db], rediss://…  one server (TLS with rediss)
 *   redis+sentinel://[user:password@]host:port[,host:port…]/<master name>[/db]
 *        the master Sentinel names: after a failover the connections reach the new master
 *   redis+cluster://[user:password@]host:port[,host:port…]   a Redis Cluster (any of its nodes)
 * The user and password are those of the data nodes (Sentinel itself: SENTINEL_PASSWORD is not
 * supported here; use ACLs that let the same user in).
 */
export type RedisTarget =
  | { kind: 'server'; url: string }
  | { kind: 'sentinel'; sentinels: Array<{ host: string; port: number }>; name: string; db?: number; username?: string; password?: string; tls: boolean }
  | { kind: 'cluster'; nodes: Array<{ host: string; port: number }>; username?: string; password?: string; tls: boolean };

const SCHEME = /^(rediss?)(\+sentinel|\+cluster)?:\/\//;
/** What follows a sentinel or cluster URL's credentials: the host list, then (sentinel) the master's name and the database. */
const HOSTS_NAME_DB = /^([^/]*)(?:\/([^/]*)(?:\/([^/]*))?)?/;

/** Reads REDIS_URL; throws an Error naming what is wrong. */
export function parseRedisUrl(url: string): RedisTarget {
  const m = SCHEME.exec(url);
  if (!m) throw new Error(`REDIS_URL must start with redis://, rediss://, redis+sentinel:// or redis+cluster://, got "${url}"`);
  if (!m[2]) return { kind: 'server', url };
  const tls = m[1] === 'rediss';
  const rest = url.slice(m[0].length);
  const at = rest.lastIndexOf('@');
  const credentials = at >= 0 ? rest.slice(0, at) : '';
  const [, hostList, masterName, database] = HOSTS_NAME_DB.exec(at >= 0 ? rest.slice(at + 1) : rest)!;
  const path = [masterName, database];
  const colon = credentials.indexOf(':');
  const username = credentials ? decodeURIComponent(colon >= 0 ? credentials.slice(0, colon) : credentials) || undefined : undefined;
  const password = colon >= 0 ? decodeURIComponent(credentials.slice(colon + 1)) : undefined;
  const hosts = hostList.split(',').filter(Boolean).map((h) => {
    const i = h.lastIndexOf(':');
    const host = i > 0 ? h.slice(0, i) : h;
    const port = i > 0 ? Number(h.slice(i + 1)) : m[2] === '+sentinel' ? 26379 : 6379;
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`REDIS_URL names an invalid host [${h}]`);
    return { host: host.replace(/^\[|\]$/g, ''), port };
  });
  if (hosts.length === 0) throw new Error(`REDIS_URL names no host: "${url}"`);
  if (m[2] === '+cluster') return { kind: 'cluster', nodes: hosts, username, password, tls };
  const name = path[0] ? decodeURIComponent(path[0]) : '';
  if (!name) throw new Error('a redis+sentinel:// REDIS_URL names the master after the hosts: redis+sentinel://host:26379/mymaster');
  const db = path[1] ? Number(path[1]) : undefined;
  if (db !== undefined && !Number.isInteger(db)) throw new Error(`REDIS_URL names an invalid database [${path[1]}]`);
  return { kind: 'sentinel', sentinels: hosts, name, db, username, password, tls };
}

/** Opens a connection to the target with the given options (ioredis reconnects on its own). */
export function connectRedis(url: string, options: RedisOptions): RedisConnection {
  const target = parseRedisUrl(url);
  const { Cluster, Redis } = loadIoredis();
  if (target.kind === 'server') return new Redis(url, options);
  const auth = { username: target.username, password: target.password, ...(target.tls ? { tls: {} } : {}) };
  if (target.kind === 'sentinel') {
    return new Redis({ ...options, ...auth, sentinels: target.sentinels, name: target.name, db: target.db });
  }
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...options, ...auth },
    clusterRetryStrategy: options.retryStrategy as ClusterOptions['clusterRetryStrategy'],
    enableOfflineQueue: options.enableOfflineQueue,
    // SSUBSCRIBE goes to the node that owns each channel's slot
    shardedSubscribers: true,
  };
  return new Cluster(target.nodes, clusterOptions);
}

/** Whether a connection goes to a Redis Cluster. */
export function isCluster(connection: RedisConnection): connection is Cluster {
  return connection instanceof loadIoredis().Cluster;
}
