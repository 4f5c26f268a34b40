/**
 * bench:bounds — the script, aggregation and task loads of issue 39 ("every unit of work is
 * bounded"), in bench:isolation's manner (kept in its own file so the two grow apart without
 * conflicts). One gateway child process on the embedded engine holds BENCH_DOCS (20,000) Debian
 * packages, each with a date `at` (over one day), a number `n` and a runtime field `heavy_rt` of
 * HEAVY's cost. A steady probe (`GET /`,
 * PROBE_RATE a second for PROBE_MS) measures p50/p99 alone, then during each hostile load. The
 * goal for each: probe p99 ≤ 2 × baseline p99 + 50 ms, and no hostile request hung (each has its
 * own timeout), no failed probe, the node's RSS up by at most 1 GB. The hostile requests' own statuses
 * and times are shown: a bounded one answers (an error, or timed_out with partial results) instead
 * of running on. The CPU column is the gateway's longest event-loop block during the load in its main
 * thread's own CPU time (bench/support/loop-cpu.ts), which other processes loading the machine do
 * not inflate. BENCH_LOADS=painless,range runs only the loads whose name contains one of those
 * words; BENCH_CPU_PROF=dir profiles the gateway child (`node dist/bench/support/long-blocks.js
 * <profile>` lists where it held the loop longest).
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { ADMIN, spawnGateway, tempDir, type ChildServer } from '../spec/support/servers.js';
import { loadCorpus } from './support/corpus.js';
import { quietWatch, rssOf, type Summary } from './support/latency.js';
import { fmt } from './support/load.js';
import { JSON_HEADERS, LOADS, NDJSON_HEADERS, describeOutcomes, lastGcPause, longestLoopCpuMs, probe as probeOf, statusOf, timed, type Outcome } from './support/probe.js';

const DOCS = Number(process.env.BENCH_DOCS ?? 20_000);
const PROBE_RATE = 20;
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 10_000);
const PROBE_TIMEOUT_MS = 10_000;
const RSS_GROWTH_GOAL_MB = 1024;


interface HostileLoad {
  name: string;
  clients: number;
  timeoutMs: number;
  /** The request's method, path and body. */
  request: (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown };
  /**
   * The load's work goes on after its requests are answered (tasks in the background, and the
   * changes they publish once done): once the clients stop, its tasks are cancelled and the probe
   * goes on until the gateway is quiet, so what it left running is counted in its own row.
   */
  background?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const PROBE = { rate: PROBE_RATE, durationMs: PROBE_MS, timeoutMs: PROBE_TIMEOUT_MS, headers: JSON_HEADERS };
const probe = (pool: Pool) => probeOf(pool, PROBE);

async function during(load: HostileLoad, gw: ChildServer, probePool: Pool): Promise<{ probe: Summary & { failed: number; ms: number }; outcomes: Outcome[] }> {
  const url = gw.url;
  const pool = new Pool(url, { connections: load.clients, pipelining: 1 });
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const client = async () => {
    while (running) {
      const r = load.request(n++);
      const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      outcomes.push(await timed((signal) => statusOf(pool, signal, r.method, r.path, body, JSON_HEADERS), load.timeoutMs));
    }
  };
  const clients = Array.from({ length: load.clients }, client);
  const stopClients = async () => {
    running = false;
    await Promise.all(clients);
    await pool.destroy();
  };
  if (!load.background) {
    const probed = await probe(probePool);
    await stopClients();
    return { probe: probed, outcomes };
  }
  // the clients stop at the end of the window; the probe goes on while what they started ends
  let ended = false;
  const watch = quietWatch(gw.proc.pid!);
  const aftermath = sleep(PROBE_MS).then(async () => {
    await stopClients();
    await cancelTasks(probePool);
    while (!watch.quiet()) await sleep(100);
    ended = true;
  });
  const probed = await probeOf(probePool, { ...PROBE, until: () => ended, maxMs: 180_000 });
  await aftermath;
  watch.stop();
  return { probe: probed, outcomes };
}

/** By-query tasks still queued or running are cancelled, and waited for. */
async function cancelTasks(pool: Pool): Promise<void> {
  const res = await pool.request({ method: 'POST', path: '/_tasks/_cancel?actions=*byquery&wait_for_completion=true', headers: JSON_HEADERS, headersTimeout: 120_000 });
  await res.body.dump();
}


async function settle(pool: Pool): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const o = await timed((signal) => statusOf(pool, signal, 'GET', '/', undefined, JSON_HEADERS), 5000);
    if (o.status === 200 && o.ms < 50) return;
    await sleep(200);
  }
}

async function ingest(url: string, docs: Array<Record<string, unknown>>): Promise<void> {
  const pool = new Pool(url, { connections: 1 });
  const created = await pool.request({
    method: 'PUT', path: '/packages', headers: JSON_HEADERS,
    body: JSON.stringify({ mappings: { properties: { name: { type: 'keyword' }, summary: { type: 'text' }, section: { type: 'keyword' }, maintainer: { type: 'keyword' }, at: { type: 'date' }, n: { type: 'long' } } } }),
  });
  if (created.statusCode !== 200) throw new Error(`creating the index failed: ${created.statusCode} ${await created.body.text()}`);
  await created.body.dump();
  // a runtime field of the mappings, as heavy as HEAVY per document
  const runtime = await pool.request({ method: 'PUT', path: '/packages/_mapping', headers: JSON_HEADERS, body: JSON.stringify({ runtime: { heavy_rt: { type: 'long', script: HEAVY.replace(/return (.*);$/, 'emit($1);') } } }) });
  if (runtime.statusCode !== 200) throw new Error(`adding the runtime field failed: ${runtime.statusCode} ${await runtime.body.text()}`);
  await runtime.body.dump();
  const day = Date.UTC(2024, 0, 1);
  for (let start = 0; start < docs.length; start += 5000) {
    const lines: string[] = [];
    docs.slice(start, start + 5000).forEach((doc, k) => {
      const i = start + k;
      lines.push(JSON.stringify({ index: { _index: 'packages', _id: String(i) } }), JSON.stringify({ ...doc, at: new Date(day + ((i * 7919) % 86_400) * 1000).toISOString(), n: i }));
    });
    const last = start + 5000 >= docs.length;
    const res = await pool.request({ method: 'POST', path: `/_bulk${last ? '?refresh=true' : ''}`, headers: NDJSON_HEADERS, body: lines.join('\n') + '\n', headersTimeout: 0, bodyTimeout: 0 });
    const body = (await res.body.json()) as { errors?: boolean };
    if (res.statusCode !== 200 || body.errors) throw new Error(`bulk load failed at ${start}: ${res.statusCode}`);
  }
  await pool.close();
}

const execute = (source: string) => ({ method: 'POST' as const, path: '/_scripts/painless/_execute', body: { script: { source } } });
const search = (body: Record<string, unknown>) => ({ method: 'POST' as const, path: '/packages/_search', body });
/** Per document ~300,000 steps of Painless. */
const HEAVY = 'long s = 0; for (int i = 0; i < 300000; i++) { s += i % 7 } return 1 + s % 3;';

const LOADS_ALL: HostileLoad[] = [
  { name: 'painless: loop × function that loops', clients: 2, timeoutMs: 30_000, request: () => execute('long f(){long s=0;for(int i=0;i<999999;i++){s++}return s;} long t=0; for(int k=0;k<999999;k++){t+=f();} return t;') },
  { name: 'painless: nCopies(1e6) nested forEach', clients: 2, timeoutMs: 30_000, request: () => execute('long[] t = new long[1]; Collections.nCopies(1000000, 1).forEach(x -> { Collections.nCopies(1000000, 1).forEach(y -> { t[0]++ }) }); return t[0];') },
  { name: 'painless: distinct() on 1e5 items', clients: 2, timeoutMs: 30_000, request: () => execute('List l = new ArrayList(); for (int i = 0; i < 100000; i++) { l.add(i) } return l.stream().distinct().count();') },
  { name: 'painless: 100 × 60 MB strings', clients: 2, timeoutMs: 30_000, request: () => execute('List l = new ArrayList(); for (int i = 0; i < 100; i++) { l.add("x".repeat(60000000)) } return l.size();') },
  {
    name: 'scripted_metric: long[1e6] per doc', clients: 1, timeoutMs: 60_000,
    request: () => search({ size: 0, aggs: { m: { scripted_metric: { init_script: 'state.k = new ArrayList()', map_script: 'state.k.add(new long[1000000])', combine_script: 'state.k.size()', reduce_script: 'states.size()' } } } }),
  },
  { name: 'script_fields: 60 MB per hit', clients: 1, timeoutMs: 60_000, request: () => search({ size: 100, script_fields: { big: { script: '"x".repeat(60000000)' } } }) },
  { name: 'script_score, timeout 1s', clients: 2, timeoutMs: 60_000, request: () => search({ timeout: '1s', query: { script_score: { query: { match_all: {} }, script: { source: HEAVY } } } }) },
  { name: 'function_score script', clients: 2, timeoutMs: 60_000, request: () => search({ query: { function_score: { functions: [{ script_score: { script: { source: HEAVY } } }] } } }) },
  { name: '_script sort', clients: 2, timeoutMs: 60_000, request: () => search({ sort: { _script: { type: 'number', script: HEAVY, order: 'asc' } } }) },
  { name: 'terms script', clients: 2, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { t: { terms: { script: HEAVY } } } }) },
  { name: 'runtime field', clients: 2, timeoutMs: 60_000, request: () => search({ runtime_mappings: { r: { type: 'long', script: `${HEAVY.replace(/return (.*);$/, 'emit($1);')}` } }, query: { range: { r: { gte: 2 } } } }) },
  { name: 'runtime field of the mappings, sort', clients: 2, timeoutMs: 60_000, request: () => search({ sort: [{ heavy_rt: 'asc' }] }) },
  {
    name: 'bucket_script, 20,000 buckets', clients: 2, timeoutMs: 60_000,
    request: () => search({ size: 0, aggs: { h: { histogram: { field: 'n', interval: 1 }, aggs: { m: { max: { field: 'n' } }, b: { bucket_script: { buckets_path: { x: 'm' }, script: HEAVY.replace(/return (.*);$/, 'return params.x + $1;') } } } } } }),
  },
  { name: 'terms 5000 × date_histogram 288', clients: 1, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { t: { terms: { field: 'name', size: 5000 }, aggs: { h: { date_histogram: { field: 'at', fixed_interval: '5m', min_doc_count: 0, extended_bounds: { min: '2024-01-01T00:00:00Z', max: '2024-01-01T23:59:59Z' } } } } } } }) },
  { name: 'auto_date_histogram buckets 1e9', clients: 1, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { h: { auto_date_histogram: { field: 'at', buckets: 1_000_000_000 } } } }) },
  { name: 'adjacency_matrix 1,000 filters', clients: 1, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { m: { adjacency_matrix: { filters: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`f${i}`, { range: { n: { gte: i * 20, lt: i * 20 + 40 } } }])) } } } }) },
  { name: 'range 100k ranges', clients: 1, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { r: { range: { field: 'n', ranges: Array.from({ length: 100_000 }, (_, i) => ({ from: i, to: i + 1 })) } } } }) },
  { name: 'range 60k ranges', clients: 1, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { r: { range: { field: 'n', ranges: Array.from({ length: 60_000 }, (_, i) => ({ from: i, to: i + 1 })) } } } }) },
  { name: 'terms include regex 150 KB', clients: 2, timeoutMs: 60_000, request: () => search({ size: 0, aggs: { t: { terms: { field: 'name', include: Array.from({ length: 15_000 }, (_, i) => `p${i}x.*`).join('|').slice(0, 150_000) } } } }) },
  { name: '_update_by_query in background', clients: 4, timeoutMs: 60_000, background: true, request: () => ({ method: 'POST', path: '/packages/_update_by_query?wait_for_completion=false&conflicts=proceed', body: { script: { source: 'ctx._source.n += 1' } } }) },
  { name: '_update_by_query slices=10000', clients: 2, timeoutMs: 60_000, request: () => ({ method: 'POST', path: '/packages/_update_by_query?slices=10000&conflicts=proceed', body: { query: { match_none: {} } } }) },
];

async function main(): Promise<void> {
  const data = await tempDir('bench-bounds-');
  const cpuProf = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const loopCpu = ['--import', new URL('./support/loop-cpu.js', import.meta.url).href];
  // with a profile, the stretches that held the loop 20 ms of CPU or more are logged to explain it
  const logBlocks: Record<string, string> = process.env.BENCH_CPU_PROF ? { LOOP_CPU_LOG_MS: '20' } : {};
  const gw = await spawnGateway({ DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, ...logBlocks }, undefined, [...loopCpu, ...cpuProf]);
  const probePool = new Pool(gw.url, { connections: 32, pipelining: 1 });
  try {
    const t0 = performance.now();
    await ingest(gw.url, await loadCorpus(DOCS));
    console.log(`bench:bounds — ${DOCS} documents (ingested in ${fmt((performance.now() - t0) / 1000, 1)} s), probe GET / at ${PROBE_RATE}/s for ${PROBE_MS / 1000} s per load, Node ${process.version}, ${os.availableParallelism()} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    await settle(probePool);
    await longestLoopCpuMs(gw);
    const baseline = await probe(probePool);
    const baselineCpuMs = await longestLoopCpuMs(gw);
    const goal = 2 * baseline.p99 + 50;
    console.log(`baseline: probe p50 ${fmt(baseline.p50)} ms, p99 ${fmt(baseline.p99)} ms (${baseline.n} probes, ${baseline.failed} failed), longest event-loop block ${fmt(baselineCpuMs, 0)} ms of CPU; goal under load: p99 ≤ ${fmt(goal)} ms, no failed probe, RSS +≤ ${RSS_GROWTH_GOAL_MB} MB, nothing hung`);
    console.log('hostile load                          | probe p50 ms | probe p99 ms | goal   | failed | RSS +MB | CPU ms | hostile requests');
    for (const load of LOADS_ALL.filter((l) => !LOADS.length || LOADS.some((w) => l.name.toLowerCase().includes(w)))) {
      await settle(probePool);
      const rssBefore = await rssOf(gw.proc.pid!);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => void rssOf(gw.proc.pid!).then((r) => (rssPeak = Math.max(rssPeak, r)), () => undefined), 100);
      await longestLoopCpuMs(gw);
      const { probe: p, outcomes } = await during(load, gw, probePool);
      clearInterval(sampler);
      const cpuMs = await longestLoopCpuMs(gw);
      const gc = lastGcPause();
      const grewMb = (rssPeak - rssBefore) / 1024 ** 2;
      const met = p.p99 <= goal && p.failed === 0 && grewMb <= RSS_GROWTH_GOAL_MB && !outcomes.some((o) => o.status === 'hung');
      console.log(
        `${load.name.padEnd(37)} | ${fmt(p.p50).padStart(12)} | ${fmt(p.p99).padStart(12)} | ${(met ? 'met' : 'missed').padEnd(6)} | ${String(p.failed).padStart(6)} | ` +
          `${fmt(grewMb, 0).padStart(7)} | ${fmt(cpuMs, 0).padStart(6)} | ${describeOutcomes(outcomes)}${load.background ? `; probed ${fmt(p.ms / 1000, 1)} s, until the gateway was quiet` : ''}${gc ? `; longest GC pause ${gc.ms} ms (${gc.kind})` : ''}`,
      );
      // Background work a load left queued or running would weigh on the next load (a load's
      // measure must be its own): it is cancelled, and the next load starts once it has ended.
      await cancelTasks(probePool);
    }
  } finally {
    await probePool.destroy();
    await gw.stop();
    if (process.env.BENCH_CPU_PROF) {
      const blocks = gw.output().split('\n').filter((l) => l.startsWith('loop-cpu-block '));
      await writeFile(path.join(process.env.BENCH_CPU_PROF, 'loop-cpu-blocks.txt'), blocks.join('\n') + '\n');
      console.log(`profile in ${process.env.BENCH_CPU_PROF}: node dist/bench/support/long-blocks.js <its main thread's .cpuprofile> 20 ${path.join(process.env.BENCH_CPU_PROF, 'loop-cpu-blocks.txt')}`);
    }
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
