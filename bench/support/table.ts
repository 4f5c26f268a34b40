import type { Summary } from './latency.js';

/** One measured line of a benchmark's table: latency summary, and what else was measured. */
export interface Row {
  part: string;
  what: string;
  s: Summary;
  rps?: number;
  cpuMicrosPerRequest?: number;
  note?: string;
}

export const ms = (v: number) => (!Number.isFinite(v) ? 'n/a' : v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
export const num = (v: number | undefined, digits = 0) => (v === undefined || !Number.isFinite(v) ? '' : v.toFixed(digits));

/** The rows as an aligned table (numbers right-aligned), then the verdicts. */
export function printTable(rows: readonly Row[], verdicts: readonly string[], cpuHeader = 'CPU µs/req'): void {
  const header = ['part', 'measure', 'samples', 'req/s', 'p50 ms', 'p99 ms', 'max ms', cpuHeader, 'notes'];
  const body = rows.map((r) => [r.part, r.what, String(r.s.n), num(r.rps), ms(r.s.p50), ms(r.s.p99), ms(r.s.max), num(r.cpuMicrosPerRequest), r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 7 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const b of body) console.log(line(b));
  if (verdicts.length) {
    console.log('');
    for (const v of verdicts) console.log(v);
  }
}
