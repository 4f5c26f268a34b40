/**
 * `npm run soak:fleet`: the fleet spec's set-up (spec/support/fleet.ts) for longer — more faults,
 * more clients — printing what the spec asserts and the figures it does not: time from each
 * fault to resumed delivery (p50/p99 over every client and fault of a kind), changes replayed on
 * resume, resets announced. Settings: SOAK_MINUTES (keep running rounds of the three faults until
 * this long after the first fault, 10; 0: only SOAK_ROUNDS), SOAK_ROUNDS (rounds at least, 1), SOAK_NODES (3),
 * SOAK_CLIENTS (clients of each kind and transport, 3), SOAK_WRITE_MS (ms between writes, 20).
 * Exits 1 when a client lost or doubled a change, or a gap went unannounced.
 */
import { runFleet, type Fault } from '../spec/support/fleet.js';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const rounds = int('SOAK_ROUNDS', 1);
const minutes = int('SOAK_MINUTES', 10);
const faults: Fault[] = [];
for (let i = 0; i < rounds; i++) faults.push('kill-node', 'restart-redis', 'pause-redis');

const started = performance.now();
const report = await runFleet({
  nodes: int('SOAK_NODES', 3),
  faults,
  faultsForMs: minutes > 0 ? minutes * 60_000 : undefined,
  writeEveryMs: int('SOAK_WRITE_MS', 20),
  documents: 8,
  clientsPerKind: int('SOAK_CLIENTS', 3),
  settleMs: 1_000,
  recoverMs: 60_000,
  log: (line) => console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s  ${line}`),
});

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ran = (kind: Fault) => report.faults.filter((f) => f === kind).length;
console.log(`\nfleet soak: ${report.writes} writes, ${report.clients.length} clients, ${report.faults.length} faults (kill-node ${ran('kill-node')}, restart-redis ${ran('restart-redis')}, pause-redis ${ran('pause-redis')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log('\ntime from fault to resumed delivery (ms; every client, every fault of the kind):');
console.log('  fault            n     p50     p99     max');
for (const kind of ['kill-node', 'restart-redis', 'pause-redis'] as const) {
  const ms = report.resumeLatencies.filter((l) => l.fault === kind).map((l) => l.ms);
  console.log(`  ${kind.padEnd(14)} ${String(ms.length).padStart(3)} ${pct(ms, 50).toFixed(0).padStart(7)} ${pct(ms, 99).toFixed(0).padStart(7)} ${Math.max(...ms).toFixed(0).padStart(7)}`);
}
const sum = (f: (c: (typeof report.clients)[number]) => number) => report.clients.reduce((n, c) => n + f(c), 0);
console.log(`\nreconnects ${sum((c) => c.reconnects)}, changes replayed on resume ${sum((c) => c.replayed)}, resets announced ${sum((c) => c.resets)}`);
console.log(`lost (views unlike a fresh read) ${report.clients.filter((c) => !c.matches).length}, duplicates ${sum((c) => c.duplicates)}, unannounced gaps ${sum((c) => c.silentGaps)}, gaps announced after later changes ${sum((c) => c.lateResets)}, faults not recovered from ${report.unrecovered.length}`);
for (const c of report.clients.filter((x) => !x.matches || x.duplicates || x.silentGaps)) console.log(`  ${c.name}: ${JSON.stringify(c).slice(0, 600)}`);
const ok = report.clients.every((c) => c.matches && c.duplicates === 0 && c.silentGaps === 0) && report.unrecovered.length === 0;
console.log(ok ? '\nOK' : '\nFAILED');
process.exit(ok ? 0 : 1);
