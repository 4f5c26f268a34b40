/** Latency samples in milliseconds, summarised by nearest-rank percentiles. */
export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(samples: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN, mean: sum / sorted.length };
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

/** CPU time (user + system) a process has used, in seconds, from /proc/<pid>/stat (Linux). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export { seededRandom } from '../../spec/support/seeded-random.js';

/**
 * Says whether process `pid` has gone quiet: it used under `share` of a core over the last
 * `windowMs` (sampled from /proc/<pid>/stat every `windowMs`). `stop()` ends the sampling.
 */
export function quietWatch(pid: number, windowMs = 500, share = 0.1): { quiet: () => boolean; stop: () => void } {
  let quiet = false;
  let last: number | undefined;
  const timer = setInterval(() => {
    void cpuSecondsOf(pid).then((cpu) => {
      if (last !== undefined) quiet = (cpu - last) * 1000 < windowMs * share;
      last = cpu;
    }, () => (quiet = true));
  }, windowMs);
  return { quiet: () => quiet, stop: () => clearInterval(timer) };
}
