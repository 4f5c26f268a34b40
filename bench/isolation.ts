/**
 * bench:isolation-loads (a part of bench:isolation) — does one client's hostile load cost everyone else? One gateway child process on
 * the embedded engine holds ~50,000 Debian packages. A steady probe (`GET /`, PROBE_RATE a second for
 * PROBE_MS, open loop, from this process) measures p50/p99 alone, then during each hostile load:
 * pipeline scripts that spin or allocate, a 50 MB `_bulk`, a `(a+)+b` regexp over the keyword field,
 * a 20 MB `match` text and a 20 MB `match_phrase` (one word the documents hold, 3.5 million times),
 * a 10,000-field document (refused by the default field limit, and indexed where the limit was raised),
 * a document through a 1..100000 ngram filter, a credential naming 100,000 index patterns, a pipeline
 * script of a million nested parentheses, failed logins at 30 a second, and SLOW_CLIENTS (12,000)
 * clients sending their bodies a byte at a time from 4 addresses. The goal for each: probe p99 ≤
 * 2 × baseline p99 + 50 ms, no failed probe, the node's RSS up by at most 1 GB. Every hostile request
 * has its own timeout, so the bench always ends; one that runs out is reported as hung. The gateway's
 * longest event-loop block during each load (its metrics' `nodejs_eventloop_lag_max_seconds`, up to
 * the probe's end) says how long one piece of work held everyone else; the CPU column counts that block
 * in the gateway's own CPU time (bench/support/loop-cpu.ts), which a loaded machine does not inflate.
 * The longest block while the load stops (its requests in flight finish, its slow clients vanish at
 * once) is shown after its outcomes.
 * A crowd load is followed by its floor's row: the same crowd and probe against a bare `node:http`
 * server behind the same connection guard (bench/support/crowd-floor.ts), no koa, no gateway.
 * BENCH_LOADS=bulk,match runs only the loads whose name contains one of those words; BENCH_DOCS and
 * BENCH_PROBE_MS shorten a run; BENCH_CPU_PROF=dir profiles the gateway child (`node
 * dist/bench/support/long-blocks.js <profile>` lists where it held the loop longest).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import os from 'node:os';
import { Pool } from 'undici';
import { ADMIN, spawnGateway, tempDir } from '../spec/support/servers.js';
import { registerPipeline } from '../spec/pipelines/support.js';
import { loadCorpus } from './support/corpus.js';
import { rssOf, type Summary } from './support/latency.js';
import { AUTHORIZATION, JSON_HEADERS, LOADS, NDJSON_HEADERS, describeOutcomes, lastGcPause, longestLoopBlockMs, longestLoopCpuMs, metricValues, probe as probeOf, statusOf, timed, type Outcome } from './support/probe.js';
import { fmt } from './support/load.js';
import { slowBodiesOffThread, type SlowBodiesRun } from './support/slow-bodies.js';
import { spawnCrowdFloor } from './support/spawn-floor.js';

const DOCS = Number(process.env.BENCH_DOCS ?? 50_000);
const PROBE_RATE = 20;
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 10_000);
const PROBE_TIMEOUT_MS = 10_000;
/** Slow-body clients (each one socket here and one in the gateway: keep under both processes' `ulimit -n`). */
const SLOW_CLIENTS = Number(process.env.SLOW_CLIENTS ?? 12_000);
const SLOW_ADDRESSES = ['127.0.0.20', '127.0.0.21', '127.0.0.22', '127.0.0.23'];
const RSS_GROWTH_GOAL_MB = 1024;


interface HostileLoad {
  name: string;
  /** Concurrent clients, each sending its request again as soon as it has an answer, while the probe runs. */
  clients: number;
  /** Minimum time between two requests of one client (an open-loop rate), 0 for back to back. */
  intervalMs: number;
  timeoutMs: number;
  send: (pool: Pool, signal: AbortSignal, i: number) => Promise<number>;
  /**
   * A load that is not request after request (raw sockets): runs until `stop` aborts; the probe
   * begins once it is `ready` (its crowd connected), and `done` says what its clients got.
   */
  run?: (stop: AbortSignal) => SlowBodiesRun;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const PROBE = { rate: PROBE_RATE, durationMs: PROBE_MS, timeoutMs: PROBE_TIMEOUT_MS, headers: { authorization: AUTHORIZATION } };
const probe = (pool: Pool) => probeOf(pool, PROBE);

/** The gateway's longest event-loop block since the previous look, in wall-clock and in its own CPU time (ms). */
type LoopBlocks = () => Promise<{ wallMs: number; cpuMs: number }>;

/**
 * Runs `load` for as long as the probe runs, then waits for its requests in flight (each bounded by
 * its timeout). `blocks` is asked when the probe ends, before the load is stopped: the longest
 * blocks while others were measured, apart from what stopping the load costs (12,000 slow clients
 * that all vanish in the same millisecond), which the caller asks for afterwards.
 */
async function during(load: HostileLoad, url: string, probePool: Pool, blocks: LoopBlocks): Promise<{ probe: Summary & { failed: number }; outcomes: Outcome[]; blocks: { wallMs: number; cpuMs: number }; crowd: string }> {
  const pool = new Pool(url, { connections: load.clients, pipelining: 1 });
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const client = async () => {
    while (running) {
      const started = performance.now();
      const i = n++;
      outcomes.push(await timed((signal) => load.send(pool, signal, i), load.timeoutMs));
      const rest = load.intervalMs - (performance.now() - started);
      if (running && rest > 0) await sleep(rest);
    }
  };
  const stop = new AbortController();
  const crowd = load.run?.(stop.signal);
  const clients = crowd ? [crowd.done.then((o) => void outcomes.push(...o))] : Array.from({ length: load.clients }, client);
  const ready = crowd && (await crowd.ready);
  const counted = ['gateway_http_connections_refused_total', 'gateway_http_slow_bodies_cut_total'] as const;
  const countedBefore = crowd && (await metricValues(probePool, { authorization: AUTHORIZATION }, counted));
  const probeStart = performance.now();
  const probeStartUs = process.hrtime.bigint() / 1000n;
  const probed = await probe(probePool);
  // profiled, the probe's window on the monotonic clock the gateway's CPU profile uses
  if (process.env.BENCH_CPU_PROF) console.log(`probe window (monotonic µs): ${probeStartUs} ${process.hrtime.bigint() / 1000n}`);
  const measured = await blocks();
  let crowdSays = '';
  if (ready && countedBefore) {
    const secs = (performance.now() - probeStart) / 1000;
    const [refused, cut] = (await metricValues(probePool, { authorization: AUTHORIZATION }, counted)).map((n, i) => fmt((n - countedBefore[i]!) / secs, 0));
    crowdSays = `; at the probe's start ${ready.held} held, ${ready.unconnected} not connected; while probed ${refused} refused/s, ${cut} cut/s`;
  }
  running = false;
  stop.abort();
  await Promise.all(clients);
  await pool.destroy();
  return { probe: probed, outcomes, blocks: measured, crowd: crowdSays };
}


/**
 * The reference row under a crowd load: the same crowd and probe against a bare `node:http` server
 * held to the same connection limits by the same guard (crowd-floor.ts), in a child process as the
 * gateway is. Its probe p99 against the gateway's goal says whether the goal is within reach of
 * any server on this machine while the crowd's own process shares its cores.
 */
async function floorRow(load: HostileLoad, goal: number, nodeArgs: string[]): Promise<void> {
  const floor = await spawnCrowdFloor(nodeArgs.filter((a) => !a.startsWith('--cpu-prof')));
  const pool = new Pool(floor.url, { connections: 32, pipelining: 1 });
  try {
    const stop = new AbortController();
    const crowd = load.run!(stop.signal);
    const ready = await crowd.ready;
    await longestLoopCpuMs(floor);
    const p = await probeOf(pool, { ...PROBE, headers: {} });
    const cpuMs = await longestLoopCpuMs(floor);
    stop.abort();
    const outcomes = await crowd.done;
    const met = p.p99 <= goal && p.failed === 0;
    const name = 'floor: bare node:http + guard';
    console.log(
      `${name.padEnd(30)} | ${fmt(p.p50).padStart(8)}        | ${fmt(p.p99).padStart(8)}        | ${(met ? 'met' : 'missed').padEnd(6)} | ${String(p.failed).padStart(13)} |       - |             - | ${fmt(cpuMs, 0).padStart(8)} | ` +
        `${describeOutcomes(outcomes)}; at the probe's start ${ready.held} held, ${ready.unconnected} not connected (the same crowd, no koa, no gateway)`,
    );
  } finally {
    await pool.destroy();
    await floor.stop();
  }
}

/** Waits until `GET /` answers within 50 ms again (a previous load's work may still be draining), at most 60 s. */
async function settle(pool: Pool): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const o = await timed((signal) => statusOf(pool, signal, 'GET', '/', undefined, { authorization: AUTHORIZATION }), 5000);
    if (o.status === 200 && o.ms < 50) return;
    await sleep(200);
  }
}

/** A failed login from 127.0.0.3, so the per-address throttle it earns is not the probe's (which comes from 127.0.0.1). */
function failedLogin(url: string, i: number, signal: AbortSignal): Promise<number> {
  const auth = 'Basic ' + Buffer.from(`intruder-${i % 50}:guess-${i}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = http.get(url + '/', { headers: { authorization: auth }, localAddress: '127.0.0.3', signal, agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
}

/** The deep script of each depth, made once: a client building 2 MB a request would hold this process, whose loop the probe shares. */
const deepScripts = new Map<number, Blob>();

/** Registers a pipeline whose script is `depth` parentheses deep (its answer's status). */
async function deepScriptPipeline(url: string, depth: number, i: number, signal: AbortSignal): Promise<number> {
  let script = deepScripts.get(depth);
  if (!script) deepScripts.set(depth, (script = new Blob([`function handleRequest() { return ${'('.repeat(depth)}1${')'.repeat(depth)}; }`], { type: 'application/javascript' })));
  const form = new FormData();
  form.append('pipeline', new Blob([`id: deep-${i}\nroutes: [{ path: /deep-${i}, method: POST }]\nstages:\n  - { id: deep, continueOnError: false, scriptRef: deep.js }\n`], { type: 'application/yaml' }), 'pipeline.yaml');
  form.append('deep.js', script, 'deep.js');
  const res = await fetch(url + '/_pipeline', { method: 'POST', headers: { authorization: AUTHORIZATION }, body: form, signal });
  await res.arrayBuffer();
  return res.status;
}

/** The word the most summaries hold (five letters or more, so 3.5 million of them make ~20 MB). */
function commonWord(docs: Array<Record<string, unknown>>): string {
  const counts = new Map<string, number>();
  for (const d of docs.slice(0, 5000)) {
    for (const w of new Set(String(d.summary ?? '').toLowerCase().match(/[a-z]{5,}/g) ?? [])) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'library';
}

async function ingest(url: string, docs: Array<Record<string, unknown>>): Promise<number> {
  const pool = new Pool(url, { connections: 1 });
  const t0 = performance.now();
  const created = await pool.request({
    method: 'PUT',
    path: '/packages',
    headers: JSON_HEADERS,
    body: JSON.stringify({ mappings: { properties: { name: { type: 'keyword' }, summary: { type: 'text' }, section: { type: 'keyword' }, maintainer: { type: 'keyword' } } } }),
  });
  if (created.statusCode !== 200) throw new Error(`creating the index failed: ${created.statusCode} ${await created.body.text()}`);
  await created.body.dump();
  const CHUNK = 5000;
  for (let start = 0; start < docs.length; start += CHUNK) {
    const lines: string[] = [];
    docs.slice(start, start + CHUNK).forEach((doc, k) => lines.push(JSON.stringify({ index: { _index: 'packages', _id: String(start + k) } }), JSON.stringify(doc)));
    const last = start + CHUNK >= docs.length;
    const res = await pool.request({ method: 'POST', path: `/_bulk${last ? '?refresh=true' : ''}`, headers: NDJSON_HEADERS, body: lines.join('\n') + '\n', headersTimeout: 0, bodyTimeout: 0 });
    const body = (await res.body.json()) as { errors?: boolean };
    if (res.statusCode !== 200 || body.errors) throw new Error(`bulk load failed at ${start}: ${res.statusCode} ${JSON.stringify(body).slice(0, 300)}`);
  }
  await pool.close();
  return performance.now() - t0;
}

/** About `bytes` of `_bulk` body: corpus documents again, under new ids in their own index. */
function bigBulk(docs: Array<Record<string, unknown>>, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const action = JSON.stringify({ index: { _index: 'bulk-sink', _id: `b${i}` } });
    const source = JSON.stringify(docs[i % docs.length]);
    lines.push(action, source);
    size += action.length + source.length + 2;
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const data = await tempDir('bench-isolation-');
  // BENCH_CPU_PROF=dir: the gateway child writes a CPU profile there when it stops (bench/support/long-blocks.ts reads it)
  const cpuProf = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const loopCpu = ['--import', new URL('./support/loop-cpu.js', import.meta.url).href];
  // profiled, the child also logs the stretches of CPU that held its loop, which long-blocks.ts explains
  const logBlocks: Record<string, string> = process.env.BENCH_CPU_PROF ? { LOOP_CPU_LOG_MS: '20' } : {};
  const gw = await spawnGateway({ DATA_DIR: data.dir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, ...logBlocks }, undefined, [...loopCpu, ...cpuProf]);
  const longestCpu = () => longestLoopCpuMs(gw);
  const probePool = new Pool(gw.url, { connections: 32, pipelining: 1 });
  try {
    const docs = await loadCorpus(DOCS);
    const ingestMs = await ingest(gw.url, docs);
    const spin = await registerPipeline(gw.url, 'id: spin\nroutes: [{ path: /spin, method: POST }]\nstages:\n  - { id: spin, continueOnError: false, script: "function handleRequest() { while (true) {} }" }\n', {}, { auth: AUTHORIZATION });
    const bomb = await registerPipeline(
      gw.url,
      'id: bomb\nroutes: [{ path: /bomb, method: POST }]\nstages:\n  - { id: bomb, continueOnError: false, script: "function handleRequest() { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }" }\n',
      {},
      { auth: AUTHORIZATION },
    );
    if (spin.status !== 201 || bomb.status !== 201) throw new Error(`registering the pipelines failed: ${JSON.stringify([spin.json, bomb.json])}`);
    // hostile bodies are encoded once: a client encoding 20 MB per request would hold this process's
    // own event loop (the probe's) for tens of ms, which is not the gateway's doing
    const bulk50 = Buffer.from(bigBulk(docs, 50 * 1024 * 1024));
    const words = Array.from({ length: 4_000_000 }, (_, i) => `w${i % 100_000}`).join(' ');
    const matchText = Buffer.from(JSON.stringify({ query: { match: { summary: words.slice(0, 20 * 1024 * 1024) } } }));
    const wideDoc = Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, i]))));
    const word = commonWord(docs);
    const phraseText = Buffer.from(JSON.stringify({ query: { match_phrase: { summary: `${word} `.repeat(3_500_000) } } }));
    const manyPatterns = Buffer.from(JSON.stringify({ indices: Array.from({ length: 100_000 }, (_, i) => `tenant-${i}-*`), ops: ['read'] }));
    const ngramDoc = Buffer.from(JSON.stringify({ text: 'abcdefghijklmnopqrstuvwxyz'.repeat(40) }));
    // the heavy-but-legal loads' indices: a raised field limit, a 1..100000 ngram filter
    for (const [index, body] of [
      ['wide', { settings: { 'index.mapping.total_fields.limit': 20_000 } }],
      ['ngrams', {
        settings: { 'index.max_ngram_diff': 100_000, analysis: { filter: { grams: { type: 'ngram', min_gram: 1, max_gram: 100_000 } }, analyzer: { grams: { tokenizer: 'keyword', filter: ['grams'] } } } },
        mappings: { properties: { text: { type: 'text', analyzer: 'grams' } } },
      }],
    ] as const) {
      const res = await fetch(`${gw.url}/${index}`, { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`creating ${index} failed: ${res.status} ${await res.text()}`);
    }

    const loads: HostileLoad[] = [
      { name: '2 clients: while(true){} script', clients: 2, intervalMs: 0, timeoutMs: 10_000, send: (p, s) => statusOf(p, s, 'POST', '/spin', '{}', JSON_HEADERS) },
      { name: '2 clients: memory-bomb script', clients: 2, intervalMs: 0, timeoutMs: 10_000, send: (p, s) => statusOf(p, s, 'POST', '/bomb', '{}', JSON_HEADERS) },
      { name: '50 MB _bulk', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (p, s) => statusOf(p, s, 'POST', '/_bulk', bulk50, NDJSON_HEADERS) },
      {
        name: '(a+)+b regexp, 50k keywords',
        clients: 1,
        intervalMs: 0,
        timeoutMs: 30_000,
        send: (p, s) => statusOf(p, s, 'POST', '/packages/_search', JSON.stringify({ query: { regexp: { name: '(a+)+b' } } }), JSON_HEADERS),
      },
      { name: '20 MB match text', clients: 1, intervalMs: 0, timeoutMs: 30_000, send: (p, s) => statusOf(p, s, 'POST', '/packages/_search', matchText, JSON_HEADERS) },
      { name: '20 MB match_phrase', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (p, s) => statusOf(p, s, 'POST', '/packages/_search', phraseText, JSON_HEADERS) },
      { name: '10,000-field document', clients: 1, intervalMs: 0, timeoutMs: 30_000, send: (p, s, i) => statusOf(p, s, 'PUT', `/packages/_doc/wide-${i}`, wideDoc, JSON_HEADERS) },
      { name: '10,000 fields, limit raised', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (p, s, i) => statusOf(p, s, 'PUT', `/wide/_doc/wide-${i}`, wideDoc, JSON_HEADERS) },
      { name: '1..100000 ngram document', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (p, s, i) => statusOf(p, s, 'PUT', `/ngrams/_doc/n-${i}`, ngramDoc, JSON_HEADERS) },
      { name: '100,000-pattern credential', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (p, s) => statusOf(p, s, 'POST', '/_credentials', manyPatterns, JSON_HEADERS) },
      { name: '10^6-deep script pipeline', clients: 1, intervalMs: 0, timeoutMs: 60_000, send: (_p, s, i) => deepScriptPipeline(gw.url, 1_000_000, i, s) },
      { name: '30 failed logins/s', clients: 1, intervalMs: 1000 / 30, timeoutMs: 10_000, send: (_p, s, i) => failedLogin(gw.url, i, s) },
      { name: `${SLOW_CLIENTS} slow-body clients`, clients: 1, intervalMs: 0, timeoutMs: 0, send: async () => 0, run: (stop) => slowBodiesOffThread(gw.url, { clients: SLOW_CLIENTS, addresses: SLOW_ADDRESSES, authorization: AUTHORIZATION }, stop) },
    ];

    console.log(
      `bench:isolation — ${docs.length} documents (ingested in ${fmt(ingestMs / 1000, 1)} s), probe GET / at ${PROBE_RATE}/s for ${PROBE_MS / 1000} s per load, ` +
        `Node ${process.version}, ${os.availableParallelism()} CPUs`,
    );
    await settle(probePool);
    await longestLoopBlockMs(probePool, { authorization: AUTHORIZATION });
    await longestCpu();
    const baseline = await probe(probePool);
    const baselineBlockMs = await longestLoopBlockMs(probePool, { authorization: AUTHORIZATION });
    const baselineCpuMs = await longestCpu();
    const goal = 2 * baseline.p99 + 50;
    console.log(`baseline: probe p50 ${fmt(baseline.p50)} ms, p99 ${fmt(baseline.p99)} ms (${baseline.n} probes, ${baseline.failed} failed), longest event-loop block ${fmt(baselineBlockMs, 0)} ms (${fmt(baselineCpuMs, 0)} ms of CPU); goal under load: p99 ≤ ${fmt(goal)} ms`);
    console.log(`RSS goal: grows by at most ${RSS_GROWTH_GOAL_MB} MB during a load (peak, sampled every 100 ms)`);
    console.log('hostile load                   | probe p50 ms (base) | probe p99 ms (base) | goal   | probes failed | RSS +MB | loop block ms | (CPU ms) | hostile requests');
    for (const load of loads.filter((l) => !LOADS.length || LOADS.some((w) => l.name.toLowerCase().includes(w)))) {
      await settle(probePool);
      const rssBefore = await rssOf(gw.proc.pid!);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => void rssOf(gw.proc.pid!).then((r) => (rssPeak = Math.max(rssPeak, r)), () => undefined), 100);
      await longestLoopBlockMs(probePool, { authorization: AUTHORIZATION });
      await longestCpu();
      const blocks = async () => ({ wallMs: await longestLoopBlockMs(probePool, { authorization: AUTHORIZATION }), cpuMs: await longestCpu() });
      const { probe: p, outcomes, crowd, blocks: { wallMs: loopBlockMs, cpuMs: loopCpuMs } } = await during(load, gw.url, probePool, blocks);
      const gc = lastGcPause();
      clearInterval(sampler);
      const stopping = await blocks();
      const grewMb = (rssPeak - rssBefore) / 1024 ** 2;
      const met = p.p99 <= goal && p.failed === 0 && grewMb <= RSS_GROWTH_GOAL_MB;
      console.log(
        `${load.name.padEnd(30)} | ${fmt(p.p50).padStart(8)} (${fmt(baseline.p50)}) | ${fmt(p.p99).padStart(8)} (${fmt(baseline.p99)}) | ` +
          `${(met ? 'met' : 'missed').padEnd(6)} | ${String(p.failed).padStart(13)} | ${fmt(grewMb, 0).padStart(7)} | ${fmt(loopBlockMs, 0).padStart(13)} | ${fmt(loopCpuMs, 0).padStart(8)} | ${describeOutcomes(outcomes)}${crowd}; ` +
          `once stopped: block ${fmt(stopping.wallMs, 0)} ms (${fmt(stopping.cpuMs, 0)} ms CPU)${gc ? `; longest GC pause during the load ${gc.ms} ms (${gc.kind})` : ''}`,
      );
      if (load.run) await floorRow(load, goal, [...loopCpu, ...cpuProf]);
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
