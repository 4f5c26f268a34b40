import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A closed-loop load: `concurrency` clients on keep-alive connections, each sending as soon as it has its answer. */
export async function runLoad(origin: string, spec: LoadSpec, options: { concurrency: number; durationMs: number }): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: options.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: spec.method, path: spec.path, body: spec.body, headers: spec.headers });
        await res.body.dump();
        if (res.statusCode >= 400) { errors++; if (process.env.BENCH_DEBUG && errors < 3) console.error(`answered ${res.statusCode} to ${spec.method} ${spec.path}`); }
      } catch (err) {
        errors++;
        if (process.env.BENCH_DEBUG && errors < 3) console.error(`failed: ${(err as Error).message}`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
