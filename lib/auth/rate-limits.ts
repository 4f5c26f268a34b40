import type { Cluster, Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { EsError } from '../errors/index.js';

export interface RateLimit {
  /** Requests per second for the credential, across every node. */
  per_second?: number;
  /** Requests per hour from one client address for the credential. */
  per_ip_per_hour?: number;
}

/**
 * Per-credential rate limits, counted cluster-wide through Redis when the deployment has it
 * (rate-limiter-flexible), in memory otherwise. Limiters are built per distinct limit value.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis?: Redis | Cluster) {}

  private limiter(points: number, duration: number): RateLimiterAbstract {
    const key = `${points}/${duration}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      const opts = { points, duration, keyPrefix: `gw:rl:${key}` };
      limiter = this.redis
        ? new RateLimiterRedis({ ...opts, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  /** Throws 429 (with Retry-After) when the credential or its client address is over its limit. */
  async consume(username: string, ip: string, limit: RateLimit | undefined): Promise<void> {
    if (!limit) return;
    try {
      if (limit.per_second) await this.limiter(limit.per_second, 1).consume(username);
      if (limit.per_ip_per_hour) await this.limiter(limit.per_ip_per_hour, 3600).consume(`${username}|${ip}`);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new EsError(429, 'es_rejected_execution_exception', `rate limit of user [${username}] exceeded; retry in ${seconds}s`, {}, { 'Retry-After': String(seconds) });
    }
  }
}
