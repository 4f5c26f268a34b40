import { Pool } from 'undici';
import { ADMIN, type ChildServer } from '../../spec/support/servers.js';
import { summarize, type Summary } from './latency.js';
import { fmt } from './load.js';

export const AUTHORIZATION = 'Basic ' + Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64');
export const JSON_HEADERS = { 'content-type': 'application/json', authorization: AUTHORIZATION };
export const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson', authorization: AUTHORIZATION };
/** BENCH_LOADS: a comma list of words; only the loads whose name contains one of them run (default: all). */
export const LOADS = (process.env.BENCH_LOADS ?? '').split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);

/**
 * The isolation benches' shared parts (bench:isolation, bench:bounds): a hostile request's
 * outcome, timed under its own timeout, and the steady `GET /` probe whose latency is measured
 * alone and then during each hostile load.
 */
export interface Outcome {
  /**
   * `held`: a connection still open and unanswered when the load stopped (a slow body the server admitted, or one
   * waiting in its accept queue);
   * `connecting`: one whose connection was not made yet (its SYN unanswered: the accept queue full).
   */
  status: number | 'hung' | 'error' | 'held' | 'connecting';
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `send` under a timeout of its own: its status, or `hung` when the timeout went off first. */
export async function timed(send: (signal: AbortSignal) => Promise<number>, timeoutMs: number): Promise<Outcome> {
  const t0 = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const status = await send(signal);
    return { status, ms: performance.now() - t0 };
  } catch {
    return { status: signal.aborted ? 'hung' : 'error', ms: performance.now() - t0 };
  }
}

export async function statusOf(
  pool: Pool, signal: AbortSignal, method: 'GET' | 'POST' | 'PUT', path: string, body: string | Buffer | undefined, headers: Record<string, string>,
): Promise<number> {
  const res = await pool.request({ method, path, body, headers, signal, headersTimeout: 0, bodyTimeout: 0 });
  await res.body.dump();
  return res.statusCode;
}

export interface ProbeOptions {
  /** Probes a second. */
  rate: number;
  durationMs: number;
  /** A probe that gets no answer in time counts as this long, and as failed. */
  timeoutMs: number;
  headers: Record<string, string>;
  /**
   * Past `durationMs`, probing goes on (at most `maxMs` in all) until this says the load's effect
   * has ended: work a load left running (background tasks, what they publish) is the load's.
   */
  until?: () => boolean;
  maxMs?: number;
}

/** `GET /` at `rate` a second for `durationMs` (and as `until` asks), open loop: its latencies and how many failed. */
export async function probe(pool: Pool, o: ProbeOptions): Promise<Summary & { failed: number; ms: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  const planned = (o.durationMs / 1000) * o.rate;
  const most = ((o.maxMs ?? o.durationMs) / 1000) * o.rate;
  for (let i = 0; i < planned || (o.until !== undefined && !o.until() && i < most); i++) {
    const wait = start + (i * 1000) / o.rate - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      timed((signal) => statusOf(pool, signal, 'GET', '/', undefined, o.headers), o.timeoutMs).then((r) => {
        if (r.status !== 200) failed++;
        latencies.push(r.ms);
      }),
    );
  }
  await Promise.all(inFlight);
  return { ...summarize(latencies), failed, ms: performance.now() - start };
}

/**
 * The gateway's longest event-loop block since the previous call (ms): prom-client's
 * `nodejs_eventloop_lag_max_seconds` of `GET /_gateway/metrics`, whose histogram each scrape resets.
 * Called once before a load (to reset) and once after it (to read).
 */
export async function longestLoopBlockMs(pool: Pool, headers: Record<string, string>): Promise<number> {
  const [seconds] = await metricValues(pool, headers, ['gateway_nodejs_eventloop_lag_max_seconds']);
  return seconds! * 1000;
}

/** The values of the gateway's metrics named (first sample of each, unlabelled), NaN for one it does not show. */
export async function metricValues(pool: Pool, headers: Record<string, string>, names: readonly string[]): Promise<number[]> {
  const res = await pool.request({ method: 'GET', path: '/_gateway/metrics', headers });
  const lines = (await res.body.text()).split('\n');
  return names.map((name) => {
    const line = lines.find((l) => l.startsWith(name + ' '));
    return line ? Number(line.split(' ')[1]) : NaN;
  });
}

let lastGc: { ms: number; kind: string } | undefined;
/** The longest GC pause the last `longestLoopCpuMs` call was told of (the same stretch), and its kind. */
export function lastGcPause(): { ms: number; kind: string } | undefined {
  return lastGc;
}

/**
 * The gateway child's longest event-loop block in its main thread's CPU time since the previous
 * call (support/loop-cpu.ts, preloaded): asked by SIGUSR2, read from its output.
 */
export async function longestLoopCpuMs(gw: ChildServer): Promise<number> {
  const seen = (gw.output().match(/loop-cpu-max \d+/g) ?? []).length;
  gw.proc.kill('SIGUSR2');
  const deadline = performance.now() + 10_000;
  for (;;) {
    const lines = gw.output().match(/loop-cpu-max \d+( gc-max \d+ \w+)?/g) ?? [];
    if (lines.length > seen) {
      const words = lines[lines.length - 1].split(' ');
      lastGc = words[3] === undefined ? undefined : { ms: Number(words[3]), kind: words[4] };
      return Number(words[1]);
    }
    if (performance.now() > deadline) return NaN;
    await sleep(20);
  }
}

export function describeOutcomes(outcomes: Outcome[]): string {
  const byStatus = new Map<string, number>();
  for (const o of outcomes) byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1);
  const times = summarize(outcomes.map((o) => o.ms));
  return `${outcomes.length} sent: ${[...byStatus].map(([s, k]) => `${s}×${k}`).join(' ')}; p50 ${fmt(times.p50, 0)} ms, max ${fmt(times.max, 0)} ms`;
}
