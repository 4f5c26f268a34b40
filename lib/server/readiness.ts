import { performance } from 'node:perf_hooks';
import { CREDENTIALS_INDEX } from '../auth/index.js';
import type { ChangeBus } from '../changes/index.js';
import { readBody, type Backend } from '../engine/index.js';

/** One dependency's answer to a readiness probe. */
export interface CheckResult {
  ok: boolean;
  took_ms: number;
  /** Why not, when not ok. */
  error?: string;
}

/** The body of `GET /_gateway/ready`. */
export interface ReadyReport {
  status: 'ready' | 'not_ready';
  /** Set while the node drains on shutdown: it answers no probe of its dependencies then. */
  reason?: 'shutting_down';
  checks: {
    engine?: CheckResult;
    /** Present when the node uses Redis (REDIS_URL). */
    redis?: CheckResult;
    system_indices?: CheckResult;
  };
}

export interface ReadinessDeps {
  /** The engine as the gateway's own stores reach it (no interceptor). */
  engine: Backend;
  /** The change bus, when it is Redis (REDIS_URL): its connection state is a check. */
  redisBus?: ChangeBus;
  /** How long each engine call of a probe may take (ms). */
  timeoutMs?: number;
}

/**
 * Whether this node can serve: the engine answers, Redis is connected (when configured) and the
 * gateway's system indices can be read. Concurrent probes share one run of the checks, so a flood
 * of probes costs the engine two cheap calls at a time. Once `shutdown()` is called the node is
 * not ready for good, and `shuttingDown` tells the request path to refuse new requests.
 */
export class Readiness {
  private draining = false;
  private running?: Promise<ReadyReport>;
  private readonly timeoutMs: number;

  constructor(private readonly deps: ReadinessDeps) {
    this.timeoutMs = deps.timeoutMs ?? 2_000;
  }

  get shuttingDown(): boolean {
    return this.draining;
  }

  /** The node is going away: not ready from now on. */
  shutdown(): void {
    this.draining = true;
  }

  check(): Promise<ReadyReport> {
    if (this.draining) return Promise.resolve({ status: 'not_ready', reason: 'shutting_down', checks: {} });
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<ReadyReport> {
    const { engine, redisBus } = this.deps;
    const [engineCheck, systemIndices] = await Promise.all([
      timed(this.timeoutMs, async (signal) => {
        const res = await engine.request({ method: 'GET', path: '/', querystring: '', headers: {}, signal });
        await readBody(res.body);
        if (res.status >= 300) throw new Error(`the engine answered ${res.status} to GET /`);
      }),
      // the credentials index stands for the system indices: a 404 means none was written yet
      timed(this.timeoutMs, async (signal) => {
        const res = await engine.request({ method: 'GET', path: `/${CREDENTIALS_INDEX}/_count`, querystring: '', headers: {}, signal });
        await readBody(res.body);
        if (res.status >= 300 && res.status !== 404) throw new Error(`the engine answered ${res.status} to a read of ${CREDENTIALS_INDEX}`);
      }),
    ]);
    const checks: ReadyReport['checks'] = { engine: engineCheck };
    if (redisBus) {
      const { connected, error } = redisBus.connection();
      checks.redis = connected ? { ok: true, took_ms: 0 } : { ok: false, took_ms: 0, error };
    }
    checks.system_indices = systemIndices;
    const ok = Object.values(checks).every((c) => c.ok);
    return { status: ok ? 'ready' : 'not_ready', checks };
  }
}

/** Runs one check with a deadline: its time, and why it failed. */
async function timed(timeoutMs: number, run: (signal: AbortSignal) => Promise<void>): Promise<CheckResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // the embedded engine does not look at the signal: the race bounds it too
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([run(abort.signal), expired]);
    return { ok: true, took_ms: took() };
  } catch (err) {
    return { ok: false, took_ms: took(), error: (err as Error)?.message ?? String(err) };
  } finally {
    clearTimeout(timer);
  }
}
