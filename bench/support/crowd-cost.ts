/**
 * `node dist/bench/support/crowd-cost.js [gateway|floor] [clients] [seconds]`: what bench:isolation's
 * crowd of slow-body clients (bench/support/slow-bodies.ts, 12,000 by default, from 4 addresses)
 * costs a server in its own CPU time, which a machine loaded by others does not inflate as it does
 * latency: the server's CPU over `seconds` (20) once the crowd is connected, the connections it
 * refused and cut in that time, their CPU each, its longest event-loop block in CPU time
 * (bench/support/loop-cpu.ts, preloaded), and the crowd's own CPU (this process: the crowd's
 * worker). `gateway` is the gateway on the embedded engine; `floor` a bare `node:http` server held
 * to the same limits by the same connection guard (bench/support/crowd-floor.ts) — what refusing,
 * holding and cutting costs with no app behind it. BENCH_NODE_ARGS are the server's Node flags. While measured, `GET /` is probed 20 times a second
 * (its p50/p99, which a loaded machine skews). BENCH_CPU_PROF=dir profiles the server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, spawnGateway, tempDir, type ChildServer } from '../../spec/support/servers.js';
import { cpuMicros } from './cpu.js';
import { AUTHORIZATION, JSON_HEADERS, lastGcPause, longestLoopCpuMs, metricValues, probe } from './probe.js';
import { fmt } from './load.js';
import { slowBodiesOffThread } from './slow-bodies.js';
import { spawnCrowdFloor } from './spawn-floor.js';
import { Pool } from 'undici';

const [target = 'gateway', clientsArg, secondsArg] = process.argv.slice(2);
const CLIENTS = Number(clientsArg ?? 12_000);
const SECONDS = Number(secondsArg ?? 20);
const ADDRESSES = ['127.0.0.20', '127.0.0.21', '127.0.0.22', '127.0.0.23'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const nodeArgs = [
  // BENCH_NODE_ARGS: the server's own Node flags (e.g. the young generation's size: --max-semi-space-size=4)
  ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  '--import', new URL('./loop-cpu.js', import.meta.url).href,
  ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
];

// profiled, the server also logs the stretches of CPU that held its loop (long-blocks.ts explains them with the profile)
const logBlocks: Record<string, string> = process.env.BENCH_CPU_PROF ? { LOOP_CPU_LOG_MS: '20' } : {};

/** Connections refused and cut so far. */
async function countsOf(server: ChildServer, pool: Pool | undefined): Promise<[number, number]> {
  if (pool) {
    const [refused, cut] = await metricValues(pool, { authorization: AUTHORIZATION }, ['gateway_http_connections_refused_total', 'gateway_http_slow_bodies_cut_total']);
    return [refused!, cut!];
  }
  const seen = (server.output().match(/floor-stats/g) ?? []).length;
  server.proc.kill('SIGUSR2');
  for (;;) {
    const lines = server.output().match(/floor-stats \d+ \d+ \d+/g) ?? [];
    if (lines.length > seen) {
      const [, , refused, cut] = lines[lines.length - 1]!.split(' ').map(Number);
      return [refused!, cut!];
    }
    await sleep(20);
  }
}

async function main(): Promise<void> {
  const data = await tempDir('bench-crowd-cost-');
  const server = target === 'floor'
    ? await spawnCrowdFloor(nodeArgs, logBlocks)
    : await spawnGateway({ DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', ...logBlocks }, undefined, nodeArgs);
  const pool = target === 'floor' ? undefined : new Pool(server.url, { connections: 2 });
  try {
    if (pool) {
      const res = await pool.request({ method: 'PUT', path: '/packages', headers: JSON_HEADERS, body: '{}' });
      await res.body.dump();
    }
    const stop = new AbortController();
    const crowd = slowBodiesOffThread(server.url, { clients: CLIENTS, addresses: ADDRESSES, authorization: AUTHORIZATION }, stop.signal);
    const ready = await crowd.ready;
    // past the first cuts (10 s after the first bodies began), the crowd's steady state: held ones cut, refused ones back
    await sleep(11_000);
    await longestLoopCpuMs(server);
    const [refused0, cut0] = await countsOf(server, pool);
    const cpu0 = cpuMicros(server.proc.pid!);
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    const from = process.hrtime.bigint() / 1000n;
    const probePool = new Pool(server.url, { connections: 32 });
    const probed = await probe(probePool, { rate: 20, durationMs: SECONDS * 1000, timeoutMs: 10_000, headers: { authorization: AUTHORIZATION } });
    await probePool.close();
    const to = process.hrtime.bigint() / 1000n;
    const secs = (performance.now() - t0) / 1000;
    const cpu = (cpuMicros(server.proc.pid!) - cpu0) / 1000;
    const own = process.cpuUsage(own0);
    const [refused1, cut1] = await countsOf(server, pool);
    const block = await longestLoopCpuMs(server);
    const gc = lastGcPause();
    const refused = refused1 - refused0;
    const cut = cut1 - cut0;
    console.log(
      `${target}, ${CLIENTS} slow-body clients (${ready.held} held, ${ready.unconnected} unconnected at the start), ${secs.toFixed(1)} s: ` +
        `server CPU ${cpu.toFixed(0)} ms (${(cpu / secs / 1000).toFixed(2)} cores); ${(refused / secs).toFixed(0)} refused/s, ${(cut / secs).toFixed(0)} cut/s; ` +
        `${((cpu * 1000) / Math.max(1, refused + cut)).toFixed(0)} µs of CPU per refused or cut connection; longest loop block ${block} ms of CPU${gc ? ` (longest GC pause ${gc.ms} ms, ${gc.kind})` : ''}; ` +
        `probe p50 ${fmt(probed.p50)} ms, p99 ${fmt(probed.p99)} ms, ${probed.failed} failed; ` +
        `the crowd's process ${((own.user + own.system) / 1000).toFixed(0)} ms (${((own.user + own.system) / 1e6 / secs).toFixed(2)} cores)`,
    );
    if (process.env.BENCH_CPU_PROF) {
      const blocks = path.join(process.env.BENCH_CPU_PROF, 'loop-cpu-blocks.txt');
      // the profile's directory is made when the server exits, after this
      await mkdir(process.env.BENCH_CPU_PROF, { recursive: true });
      await writeFile(blocks, server.output().split('\n').filter((l) => l.startsWith('loop-cpu-block ')).join('\n') + '\n');
      console.log(`measured window (self-time.js's third argument): ${from}-${to}; the loop's longest stretches: long-blocks.js <profile> 20 ${blocks}`);
    }
    stop.abort();
    await crowd.done;
  } finally {
    await pool?.close();
    await server.stop();
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
