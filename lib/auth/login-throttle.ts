import { entryBoundedCache } from '../breakers/index.js';
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { EsError } from '../errors/index.js';

export interface LoginThrottleOptions {
  /** Failed logins per username per window before further attempts answer 429 (0 = no limit). */
  maxFailuresPerUser: number;
  /** Failed logins from one client address per window, whatever the username (0 = no limit). */
  maxFailuresPerIp: number;
  /** Counts are shared by every node through this Redis; memory (this node only) while it is away. */
  redis?: Redis | Cluster;
  /** The counting window, in seconds (default 60). */
  windowSeconds?: number;
}

/** Why an attempt was refused: whose budget is spent and for how long. */
type Spent = { what: string; msBeforeNext: number };

/**
 * Brute-force throttle for Basic logins, counted per username and per client address over a fixed
 * window (rate-limiter-flexible; cluster-wide through Redis when the deployment has it).
 *
 * Contract: `attempt` reserves one failure in both budgets BEFORE a password is verified, so
 * concurrent guesses cannot outrun the count and a refused attempt costs no scrypt; it throws 429
 * (with Retry-After) once a budget is spent. `succeeded` gives back that one reservation: only
 * failures count, and a success never clears what other attempts spent (the address's count for
 * other usernames stays). A username under attack answers 429 for the rest of the window, to its
 * owner too, as long as the attack goes on; other usernames and addresses are not affected.
 *
 * Refusals seen by this node are remembered here until they expire, so `refuseIfBlocked` answers
 * synchronously: an already-verified (cached) header must not pass a blocked username or address,
 * or the block would turn the cache into a password oracle.
 */
export class LoginThrottle {
  private readonly byUser: RateLimiterAbstract | undefined;
  private readonly byIp: RateLimiterAbstract | undefined;
  /** Budget key → epoch ms until which it is spent, as this node last saw it. */
  private readonly blocked = entryBoundedCache<string, number>(100_000);

  constructor(options: LoginThrottleOptions) {
    const duration = options.windowSeconds ?? 60;
    const limiter = (points: number, keyPrefix: string): RateLimiterAbstract | undefined => {
      if (points <= 0) return undefined;
      const opts = { points, duration, keyPrefix };
      return options.redis
        ? new RateLimiterRedis({ ...opts, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
    };
    this.byUser = limiter(options.maxFailuresPerUser, 'gw:login-fail:user');
    this.byIp = limiter(options.maxFailuresPerIp, 'gw:login-fail:ip');
  }

  /** Throws 429 when this node knows the username's or the address's budget is spent (no I/O). */
  refuseIfBlocked(username: string, ip: string | undefined): void {
    // nothing refused lately (every request of a healthy node): no key to make nor look up
    if (this.blocked.size === 0) return;
    const now = Date.now();
    for (const [key, what] of this.keys(username, ip)) {
      const until = this.blocked.get(key);
      if (until === undefined) continue;
      if (until > now) throw tooManyFailures({ what, msBeforeNext: until - now });
      this.blocked.delete(key);
    }
  }

  /** Reserves one failure for the username and the address; throws 429 when either is spent. */
  async attempt(username: string, ip: string | undefined): Promise<void> {
    this.refuseIfBlocked(username, ip);
    const spent = (await Promise.all([
      this.consume(this.byUser, username, `user [${username}]`, `u:${username}`),
      ip === undefined ? undefined : this.consume(this.byIp, ip, `client address [${ip}]`, `i:${ip}`),
    ])).filter((s): s is Spent => s !== undefined);
    if (spent.length) throw tooManyFailures(spent.reduce((a, b) => (b.msBeforeNext > a.msBeforeNext ? b : a)));
  }

  /** The attempt verified: its reservation is given back (only failures count). */
  async succeeded(username: string, ip: string | undefined): Promise<void> {
    await Promise.all([
      this.byUser?.reward(username, 1),
      ip === undefined ? undefined : this.byIp?.reward(ip, 1),
    ]).catch(() => {}); // a lost refund only makes the count stricter
  }

  private async consume(limiter: RateLimiterAbstract | undefined, key: string, what: string, blockKey: string): Promise<Spent | undefined> {
    if (!limiter) return undefined;
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res = err;
    }
    if (res.consumedPoints <= limiter.points) return undefined;
    this.blocked.set(blockKey, Date.now() + res.msBeforeNext);
    return { what, msBeforeNext: res.msBeforeNext };
  }

  private keys(username: string, ip: string | undefined): Array<[string, string]> {
    const keys: Array<[string, string]> = [[`u:${username}`, `user [${username}]`]];
    if (ip !== undefined) keys.push([`i:${ip}`, `client address [${ip}]`]);
    return keys;
  }
}

function tooManyFailures({ what, msBeforeNext }: Spent): EsError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new EsError(
    429,
    'es_rejected_execution_exception',
    `too many failed authentication attempts for ${what}; retry in ${seconds}s`,
    {},
    { 'Retry-After': String(seconds) },
  );
}
