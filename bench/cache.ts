/**
 * bench:cache — the search cache (lib/cache), in one run:
 *
 * 1. search as you type: BENCH_DOCS Debian packages indexed through a gateway on its embedded
 *    engine; 200 distinct prefixes (the first 2–5 characters of package names, seeded) ranked in a
 *    seeded order, and a sequence of BENCH_REQUESTS searches drawn from them by Zipf (s = 1), each a
 *    `multi_match` of type `bool_prefix` on name and summary, size 10. The same sequence runs at
 *    concurrency 8 through a gateway with the cache off, then through one with the cache on, on the
 *    same data directory (one after the other: one process owns it). Requests/s, p50/p99, the
 *    gateway's CPU time per request, the hit ratio from `/_cache/stats`; goal: speedup ≥ 5×.
 * 2. the cost of a hit: the most requested search, sent again and again by one client, to the
 *    gateway with the cache on (every answer a hit), next to bench:proxy's reference proxy and the
 *    engine itself answering the same request (a standalone engine holding the same documents),
 *    in alternating rounds. p50/p99 and CPU per request of the serving process alone (from
 *    /proc/<pid>/stat); goal: hit p50 < 0.3 ms.
 * 3. staleness across two nodes: a standalone engine, a redis-server of its own, gateways A and B
 *    (CACHE_ENABLED=true, CACHE_QUIET_MS=0). Each round: B's cache holds the count of marker
 *    documents, a search stream on B is open on the index, A writes one more marker (refresh=true)
 *    while B is read in a tight loop, from just before the write is sent until B counts the new
 *    marker, its stream has delivered the write and 3 reads more were sent. The staleness window
 *    runs from A's acknowledgement to the last stale answer B gives to a read sent after it (a stale
 *    answer to a read sent while the write is in flight is allowed); a stale answer to a read sent
 *    after B's stream delivered the change is a correctness failure (must be 0).
 *
 * The servers are child processes; the clients live in this process. Everything started is
 * stopped at the end, on failure and on SIGINT/SIGTERM too. The gateways run with the defaults
 * (request logs, access lines, metrics, cache on) unless BENCH_GATEWAY_ENV says otherwise; each
 * ratio is printed beside its goal, and the command exits 1 when one is missed (so one command
 * says where the product stands).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { call } from '../spec/support/http.js';
import { spawnEngine, spawnGateway, spawnServer, tempDir, type ChildServer } from '../spec/support/servers.js';
import { openStream } from '../spec/support/stream-client.js';
import { bulkIndex, loadCorpus } from './support/corpus.js';
import { cpuMicros, CLOCK_TICKS_PER_SECOND } from './support/cpu.js';
import { seededRandom, summarize, type Summary } from './support/latency.js';
import { DEBIAN_INDEX } from './support/live-search-mix.js';
import { redisServerAvailable, startBenchRedis } from './support/redis-server.js';
import { cleanUp, owned, runBench, started as startedServer } from './support/teardown.js';
import { dropOutput } from './support/dropped-output.js';
import { ms, printTable as printRows, type Row } from './support/table.js';

const DOCS = Number(process.env.BENCH_DOCS ?? Infinity);
const PREFIXES = 200;
const ZIPF_S = 1;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** The start of the sequence, sent before each measured run (JIT, engine pages); the cache is emptied after it. */
const WARMUP_REQUESTS = Math.min(500, REQUESTS);
const HIT_ROUND_MS = Number(process.env.BENCH_HIT_ROUND_MS ?? 2000);
const HIT_ROUNDS = 3;
const STALENESS_ROUNDS = Number(process.env.BENCH_STALENESS_ROUNDS ?? 100);
/** Reads of B after its stream delivered the change, in every round. */
const READS_AFTER_DELIVERY = 3;

const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' };
const AUTH = 'Basic ' + Buffer.from(`${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}`).toString('base64');
const JSON_HEADERS = { 'content-type': 'application/json' };
const INDEX = 'debian';
const SEARCH_PATH = `/${INDEX}/_search`;

/** A started server, its output read and dropped: this process runs the clients that measure it (dropped-output.ts). */
const started = async (server: Promise<ChildServer>): Promise<ChildServer> => dropOutput(await startedServer(server));

/** spawnServer awaits `<what> listening on <url>`; its type names only gateway and engine, the reference prints `reference`. */
const spawnReference = (upstream: string) =>
  spawnServer('bench/support/reference-proxy.js', { UPSTREAM_URL: upstream, PORT: '0', REFERENCE_AUTH: `${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}` }, 'reference' as 'engine');
/** The machine's round-trip floor: a bare Node HTTP server answering the bytes of `file`; it prints `fixed`. */
const spawnFixedAnswer = (file: string) => spawnServer('bench/support/fixed-answer.js', { ANSWER_FILE: file, PORT: '0' }, 'fixed' as 'engine');

// ---- the table ----

const rows: Row[] = [];
const verdicts: string[] = [];
/** The goals this run missed: printed last, and the command exits 1 (one command says where the product stands). */
const missed: string[] = [];
const goal = (met: boolean, what: string) => {
  if (!met) missed.push(what);
  return met;
};
const progress = (line: string) => console.error(`[bench:cache] ${line}`);

const printTable = () => printRows(rows, verdicts);

// ---- the search-as-you-type mix ----

interface Mix {
  prefixes: string[];
  /** Search bodies, by rank (0 is the most requested). */
  bodies: string[];
  /** Ranks, in the order they are sent. */
  sequence: Uint16Array;
}

const prefixSearch = (prefix: string) => JSON.stringify({ size: 10, query: { multi_match: { query: prefix, type: 'bool_prefix', fields: ['name^3', 'summary'] } } });

/** 200 distinct prefixes people type (lower-case letters and digits), ranked in a seeded order, and a Zipf-distributed sequence of them. */
function searchAsYouType(docs: ReadonlyArray<Record<string, unknown>>, seed = 14): Mix {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const prefixes: string[] = [];
  for (let attempts = 0; prefixes.length < PREFIXES; attempts++) {
    if (attempts > PREFIXES * 1000) throw new Error(`only ${prefixes.length} distinct prefixes in ${docs.length} packages`);
    const name = String(docs[Math.floor(random() * docs.length)].name ?? '').toLowerCase();
    const prefix = name.slice(0, 2 + Math.floor(random() * 4));
    if (prefix.length < 2 || !/^[a-z0-9]+$/.test(prefix) || seen.has(prefix)) continue;
    seen.add(prefix);
    prefixes.push(prefix);
  }
  const cumulative = new Float64Array(PREFIXES);
  let total = 0;
  for (let k = 0; k < PREFIXES; k++) cumulative[k] = total += 1 / (k + 1) ** ZIPF_S;
  const sequence = new Uint16Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i++) {
    const r = random() * total;
    let lo = 0;
    let hi = PREFIXES - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    sequence[i] = lo;
  }
  return { prefixes, bodies: prefixes.map(prefixSearch), sequence };
}

interface SequenceRun {
  s: Summary;
  rps: number;
  cpuMicrosPerRequest: number;
  errors: number;
  /** Answers that carried `x-request-cache: true`. */
  cached: number;
}

/** Sends `sequence` in order through `concurrency` keep-alive connections, each sending as soon as it has its answer. */
async function runSequence(server: ChildServer, mix: Mix, sequence: ArrayLike<number>, concurrency: number): Promise<SequenceRun> {
  const pool = new Pool(server.url, { connections: concurrency, pipelining: 1 });
  const release = owned(() => pool.close());
  const headers = { ...JSON_HEADERS, authorization: AUTH };
  const latencies = new Float64Array(sequence.length);
  let next = 0;
  let errors = 0;
  let cached = 0;
  const worker = async () => {
    for (let i = next++; i < sequence.length; i = next++) {
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: 'POST', path: SEARCH_PATH, headers, body: mix.bodies[sequence[i]] });
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
        if (res.headers['x-request-cache'] === 'true') cached++;
      } catch {
        errors++;
      }
      latencies[i] = performance.now() - t0;
    }
  };
  const pid = server.proc.pid!;
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(pid) - cpu0;
  await release();
  return { s: summarize(latencies), rps: sequence.length / seconds, cpuMicrosPerRequest: cpu / sequence.length, errors, cached };
}

interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: Record<'change' | 'evict' | 'size' | 'ttl', number>;
  hit_ratio: number;
}

async function cacheStats(gateway: ChildServer): Promise<CacheStats> {
  const r = await call<CacheStats>(gateway.url, 'GET', '/_cache/stats', { auth: AUTH });
  if (r.status !== 200) throw new Error(`/_cache/stats answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json;
}

/** What a search-as-you-type answer shows the user: the total and the names, in order. */
async function shown(url: string, body: string, auth: string | null = AUTH): Promise<{ view: string; cached: boolean }> {
  const r = await call<{ hits: { total: unknown; hits: Array<{ _source: { name: string } }> } }>(url, 'POST', SEARCH_PATH, { auth, body, headers: JSON_HEADERS });
  if (r.status !== 200) throw new Error(`search on ${url} answered ${r.status}: ${r.text.slice(0, 300)}`);
  return { view: JSON.stringify([r.json.hits.total, r.json.hits.hits.map((h) => h._source.name)]), cached: r.headers['x-request-cache'] === 'true' };
}

/** Creates the Debian index through `url` and loads `docs` into it. */
async function loadDebian(url: string, docs: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const created = await call(url, 'PUT', `/${INDEX}`, { auth: AUTH, body: DEBIAN_INDEX });
  if (created.status !== 200) throw new Error(`create index on ${url}: ${created.status} ${created.text.slice(0, 300)}`);
  await bulkIndex(url, AUTH, INDEX, docs);
  const refreshed = await call(url, 'POST', `/${INDEX}/_refresh`, { auth: AUTH });
  if (refreshed.status !== 200) throw new Error(`refresh on ${url}: ${refreshed.status}`);
}

/** BENCH_GATEWAY_ENV: more settings for every gateway, `K=V,K=V` (e.g. `LOGS_ENABLED=false,ACCESS_LOG=false`: the cache without what every request costs besides). */
const EXTRA_ENV: Record<string, string> = Object.fromEntries((process.env.BENCH_GATEWAY_ENV ?? '').split(',').filter((kv) => kv.includes('=')).map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1).trim()]));
const gatewayEnv = (dataDir: string, cache: boolean) => ({ ...ADMIN, DATA_DIR: dataDir, CACHE_ENABLED: String(cache), CACHE_QUIET_MS: '0', ...EXTRA_ENV });

/** Parts 1 and 2; the gateway with the cache on is left running for part 2 and returned. */
async function searchAsYouTypeMix(docs: ReadonlyArray<Record<string, unknown>>, mix: Mix, dataDir: string): Promise<ChildServer> {
  const sent = new Uint16Array(PREFIXES);
  for (const k of mix.sequence) sent[k]++;
  const distinct = sent.filter((n) => n > 0).length;
  const byLength = [2, 3, 4, 5].map((l) => `${l}: ${mix.prefixes.filter((p) => p.length === l).length}`).join(', ');
  progress(`mix: ${PREFIXES} prefixes (by length ${byLength}), ${REQUESTS} requests reach ${distinct} of them; the top one "${mix.prefixes[0]}" ${sent[0]} times`);

  // cache off: loads the documents, then measures
  const off = await started(spawnGateway(gatewayEnv(dataDir, false)));
  let t0 = performance.now();
  await loadDebian(off.url, docs);
  progress(`${docs.length} packages indexed through the gateway in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const uncached = await Promise.all(mix.bodies.map((b) => shown(off.url, b)));
  if (uncached.some((u) => u.cached)) throw new Error('the gateway started with CACHE_ENABLED=false answered from a cache');
  await runSequence(off, mix, mix.sequence.subarray(0, WARMUP_REQUESTS), CONCURRENCY);
  t0 = performance.now();
  const offRun = await runSequence(off, mix, mix.sequence, CONCURRENCY);
  progress(`cache off: ${offRun.rps.toFixed(0)} req/s in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await off.stop();

  // cache on, same data directory
  const on = await started(spawnGateway(gatewayEnv(dataDir, true)));
  await runSequence(on, mix, mix.sequence.subarray(0, WARMUP_REQUESTS), CONCURRENCY);
  const evicted = await call(on.url, 'POST', '/_cache/evict', { auth: AUTH });
  if (evicted.status !== 200) throw new Error(`/_cache/evict answered ${evicted.status}`);
  const before = await cacheStats(on);
  if (before.entries !== 0) throw new Error(`the cache holds ${before.entries} entries after /_cache/evict`);
  const onRun = await runSequence(on, mix, mix.sequence, CONCURRENCY);
  const after = await cacheStats(on);
  progress(`cache on: ${onRun.rps.toFixed(0)} req/s`);
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;

  // every answer the cache gives is the one the engine gave (the prefixes the sequence missed are cached first)
  await Promise.all(mix.bodies.map((b) => shown(on.url, b)));
  const fromCache = await Promise.all(mix.bodies.map((b) => shown(on.url, b)));
  const differ = fromCache.filter((c, k) => c.view !== uncached[k].view).length;
  const served = fromCache.filter((c) => c.cached).length;

  const errors = (r: SequenceRun) => (r.errors ? `; ${r.errors} ERRORS` : '');
  rows.push({ part: 'search as you type', what: `cache off, concurrency ${CONCURRENCY}`, s: offRun.s, rps: offRun.rps, cpuMicrosPerRequest: offRun.cpuMicrosPerRequest, note: `the reference${errors(offRun)}` });
  rows.push({
    part: 'search as you type', what: `cache on, concurrency ${CONCURRENCY}`, s: onRun.s, rps: onRun.rps, cpuMicrosPerRequest: onRun.cpuMicrosPerRequest,
    note: `hit ratio ${(hits / (hits + misses)).toFixed(3)} (/_cache/stats: ${hits} hits, ${misses} misses; ${after.entries} entries, ${(after.bytes / 1024).toFixed(0)} KiB); ` +
      `${onRun.cached} answers marked x-request-cache${errors(onRun)}`,
  });
  const speedup = onRun.rps / offRun.rps;
  verdicts.push(
    `search as you type: speedup ${speedup.toFixed(1)}× in req/s (p50 ${(offRun.s.p50 / onRun.s.p50).toFixed(1)}×, p99 ${(offRun.s.p99 / onRun.s.p99).toFixed(1)}×, CPU per request ${(offRun.cpuMicrosPerRequest / onRun.cpuMicrosPerRequest).toFixed(1)}×) — goal ≥ 5×: ${goal(speedup >= 5, `search as you type: speedup ${speedup.toFixed(1)}× < 5×`) ? 'met' : 'MISSED'}`,
  );
  verdicts.push(`search as you type: answers from the cache equal to the uncached ones: ${PREFIXES - differ} of ${PREFIXES} (${served} served as hits)${goal(!differ && served === PREFIXES, `search as you type: ${differ} answers from the cache differ, ${PREFIXES - served} not served as hits`) ? '' : ' — MISMATCH'}`);
  return on;
}

// ---- the cost of a hit ----

interface HitTarget {
  name: string;
  server: ChildServer;
  auth: string | null;
  samples: number[];
  ms: number;
  cpuMicros: number;
  /** Answers not marked x-request-cache (counted on the gateway only). */
  uncached: number;
}

async function costOfAHit(docs: ReadonlyArray<Record<string, unknown>>, mix: Mix, gateway: ChildServer, dataDir: string): Promise<void> {
  const engine = await started(spawnEngine(path.join(dataDir, 'engine')));
  const reference = await started(spawnReference(engine.url));
  await loadDebian(engine.url, docs);
  const body = mix.bodies[0];
  const expected = await shown(gateway.url, body);
  const direct = await shown(engine.url, body, null);
  const viaReference = await shown(reference.url, body);
  if (direct.view !== expected.view || viaReference.view !== expected.view) throw new Error(`the engine's answer differs from the gateway's for "${mix.prefixes[0]}"`);
  if (!(await shown(gateway.url, body)).cached) throw new Error(`the gateway does not answer "${mix.prefixes[0]}" from its cache`);
  const answerFile = path.join(dataDir, 'hit-answer.json');
  writeFileSync(answerFile, (await call(gateway.url, 'POST', SEARCH_PATH, { auth: AUTH, body, headers: JSON_HEADERS })).text);
  const floor = await started(spawnFixedAnswer(answerFile));

  const targets: HitTarget[] = [
    { name: 'floor: bare Node HTTP server, fixed answer', server: floor, auth: AUTH, samples: [], ms: 0, cpuMicros: 0, uncached: 0 },
    { name: 'engine direct', server: engine, auth: null, samples: [], ms: 0, cpuMicros: 0, uncached: 0 },
    { name: 'reference proxy → engine', server: reference, auth: AUTH, samples: [], ms: 0, cpuMicros: 0, uncached: 0 },
    { name: 'gateway, cache hit', server: gateway, auth: AUTH, samples: [], ms: 0, cpuMicros: 0, uncached: 0 },
  ];
  /** One client, one request at a time, for `durationMs` and at least `minRequests`. */
  const measure = async (target: HitTarget, durationMs: number, minRequests: number, record: boolean) => {
    const pool = new Pool(target.server.url, { connections: 1, pipelining: 1 });
    const release = owned(() => pool.close());
    const headers: Record<string, string> = { ...JSON_HEADERS, ...(target.auth ? { authorization: target.auth } : {}) };
    const pid = target.server.proc.pid!;
    const cpu0 = cpuMicros(pid);
    const begun = performance.now();
    const deadline = begun + durationMs;
    let n = 0;
    while (performance.now() < deadline || n < minRequests) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: SEARCH_PATH, headers, body });
      await res.body.dump();
      const took = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${target.name} answered ${res.statusCode}`);
      n++;
      if (!record) continue;
      target.samples.push(took);
      if (target.server === gateway && res.headers['x-request-cache'] !== 'true') target.uncached++;
    }
    if (record) {
      target.cpuMicros += cpuMicros(pid) - cpu0;
      target.ms += performance.now() - begun;
    }
    await release();
    return n;
  };
  // the servers' JIT warms by invocations: a slow target needs as many as a fast one
  for (const target of targets) await measure(target, 500, 300, false);
  for (let round = 0; round < HIT_ROUNDS; round++) {
    for (const target of round % 2 ? [...targets].reverse() : targets) await measure(target, HIT_ROUND_MS, 0, true);
  }
  for (const t of targets) {
    rows.push({
      part: 'cost of a hit', what: `${t.name}, one client`, s: summarize(t.samples), rps: (t.samples.length * 1000) / t.ms, cpuMicrosPerRequest: t.cpuMicros / t.samples.length,
      note: t.server === gateway ? `${t.uncached} answers not from the cache` : t.server === engine ? 'runs the search' : t.server === floor ? "the same answer's bytes: this machine's round trip" : 'CPU: the proxy process alone (engine not counted)',
    });
  }
  const [bare, , ref, hit] = targets.map((t) => ({ s: summarize(t.samples), cpu: t.cpuMicros / t.samples.length }));
  verdicts.push(
    `cost of a hit ("${mix.prefixes[0]}"): p50 ${ms(hit.s.p50)} ms, p99 ${ms(hit.s.p99)} ms, CPU ${hit.cpu.toFixed(0)} µs/request ` +
      `(reference proxy → engine: p50 ${ms(ref.s.p50)} ms, CPU ${ref.cpu.toFixed(0)} µs/request of its own, ×${(hit.cpu / ref.cpu).toFixed(2)}; ` +
      `this machine's floor, a bare Node server answering the same bytes: p50 ${ms(bare.s.p50)} ms, so the gateway adds ${ms(hit.s.p50 - bare.s.p50)} ms) — ` +
      `goal p50 < 0.3 ms: ${goal(hit.s.p50 < 0.3, `cost of a hit: p50 ${ms(hit.s.p50)} ms ≥ 0.3 ms`) ? 'met' : 'MISSED'}; ` +
      `goal ≤ 1.5× the floor's p50: ×${(hit.s.p50 / bare.s.p50).toFixed(2)} ${goal(hit.s.p50 <= 1.5 * bare.s.p50, `cost of a hit: p50 ×${(hit.s.p50 / bare.s.p50).toFixed(2)} the floor's > 1.5×`) ? 'met' : 'MISSED'}`,
  );
}

// ---- staleness across two nodes ----

interface Read {
  sentAt: number;
  receivedAt: number;
  count: number;
  cached: boolean;
}

async function staleness(dataDir: string): Promise<void> {
  const redis = await startBenchRedis();
  owned(() => redis.stop());
  const engine = await started(spawnEngine(path.join(dataDir, 'engine')));
  const env = { ...ADMIN, ENGINE_URL: engine.url, REDIS_URL: redis.url, CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0', ...EXTRA_ENV };
  const [a, b] = await Promise.all([started(spawnGateway({ ...env, DATA_DIR: path.join(dataDir, 'a') })), started(spawnGateway({ ...env, DATA_DIR: path.join(dataDir, 'b') }))]);
  const index = 'staleness';
  const created = await call(a.url, 'PUT', `/${index}`, { auth: AUTH, body: {} });
  if (created.status !== 200) throw new Error(`create index: ${created.status} ${created.text.slice(0, 300)}`);

  const writer = new Pool(a.url, { connections: 1, pipelining: 1 });
  const reader = new Pool(b.url, { connections: 1, pipelining: 1 });
  owned(() => Promise.all([writer.close(), reader.close()]));
  const headers = { ...JSON_HEADERS, authorization: AUTH };
  const countBody = JSON.stringify({ size: 0, track_total_hits: true, query: { match_all: {} } });
  const read = async (): Promise<Read> => {
    const sentAt = performance.now();
    const res = await reader.request({ method: 'POST', path: `/${index}/_search`, headers, body: countBody });
    const text = await res.body.text();
    const receivedAt = performance.now();
    if (res.statusCode !== 200) throw new Error(`read on B answered ${res.statusCode}: ${text.slice(0, 300)}`);
    const count = (JSON.parse(text) as { hits: { total: { value: number } } }).hits.total.value;
    return { sentAt, receivedAt, count, cached: res.headers['x-request-cache'] === 'true' };
  };

  const stream = await openStream(b.url, `/${index}/_search?stream=true`, { method: 'POST', body: { query: { match_all: {} } }, auth: AUTH });
  owned(() => stream.close());
  if (stream.status !== 200) throw new Error(`the search stream on B answered ${stream.status}: ${stream.raw().slice(0, 300)}`);
  await stream.until((m) => m.length >= 1);

  const windows: number[] = [];
  const deliveries: number[] = [];
  const acks: number[] = [];
  const tally = { reads: 0, warm: 0, inFlight: 0, staleInFlight: 0, staleAfterAck: 0, staleFromCache: 0, afterDelivery: 0, staleAfterDelivery: 0 };
  for (let round = 1; round <= STALENESS_ROUNDS; round++) {
    // B holds the current count in its cache
    for (let tries = 0; ; tries++) {
      const r = await read();
      tally.warm++;
      if (r.count === round - 1 && r.cached) break;
      if (tries > 1000) throw new Error(`round ${round}: B does not cache the count (${r.count}, cached ${r.cached})`);
    }
    let deliveredAt = NaN;
    const delivered = stream.until((m) => m.some((msg: { _id?: string }) => msg?._id === `m${round}`), 10_000).then(() => void (deliveredAt = performance.now()));
    delivered.catch(() => undefined);

    // B is read from before the write is sent until it counts the write, its stream delivered it and READS_AFTER_DELIVERY more
    let ackAt = NaN;
    const seen: Read[] = [];
    const begun = performance.now();
    const reading = (async () => {
      for (let fresh = false, afterDelivery = 0; !(ackAt <= performance.now() && fresh && afterDelivery >= READS_AFTER_DELIVERY); ) {
        if (performance.now() - begun > 10_000) throw new Error(`round ${round}: A's write unanswered, B still stale or its stream silent after 10 s`);
        const r = await read();
        seen.push(r);
        if (r.count === round) fresh = true;
        else if (r.count !== round - 1) throw new Error(`round ${round}: B counts ${r.count} markers`);
        if (r.sentAt > deliveredAt) afterDelivery++; // false while NaN
      }
    })();
    reading.catch(() => undefined); // awaited below, after the write
    const t0 = performance.now();
    const res = await writer.request({ method: 'PUT', path: `/${index}/_doc/m${round}?refresh=true`, headers, body: JSON.stringify({ round }) });
    const answer = await res.body.text();
    ackAt = performance.now();
    if (res.statusCode >= 300) throw new Error(`write on A answered ${res.statusCode}: ${answer.slice(0, 300)}`);
    acks.push(ackAt - t0);
    await reading;
    await delivered;

    let lastStale = NaN;
    for (const r of seen) {
      tally.reads++;
      const stale = r.count === round - 1;
      if (r.sentAt < ackAt) {
        tally.inFlight++;
        if (stale) tally.staleInFlight++;
        continue;
      }
      if (r.sentAt > deliveredAt) tally.afterDelivery++;
      if (!stale) continue;
      tally.staleAfterAck++;
      if (r.cached) tally.staleFromCache++;
      if (r.sentAt > deliveredAt) tally.staleAfterDelivery++;
      lastStale = r.receivedAt;
    }
    windows.push(Number.isNaN(lastStale) ? 0 : lastStale - ackAt);
    deliveries.push(deliveredAt - ackAt);
  }

  rows.push({ part: 'staleness', what: 'write on A, refresh=true: ack', s: summarize(acks) });
  rows.push({
    part: 'staleness', what: "A's ack → last stale answer on B", s: summarize(windows),
    note: `${STALENESS_ROUNDS} rounds (0 when no read sent after the ack was stale); ${tally.staleAfterAck} stale answers to reads sent after the ack (${tally.staleFromCache} from B's cache)`,
  });
  rows.push({ part: 'staleness', what: "A's ack → B's search stream delivers the write", s: summarize(deliveries), note: 'negative: delivered before A acknowledged' });
  const window = summarize(windows);
  verdicts.push(
    `staleness window across two nodes (A's ack → last stale answer on B): p50 ${ms(window.p50)} ms, p99 ${ms(window.p99)} ms, max ${ms(window.max)} ms ` +
      `(reads of B: ${tally.reads}; ${tally.inFlight} sent while A's write was in flight, ${tally.staleInFlight} of them stale (allowed); ${tally.warm} more to warm B's cache)`,
  );
  verdicts.push(
    `STALE ANSWERS AFTER B's STREAM DELIVERED THE CHANGE: ${tally.staleAfterDelivery} of ${tally.afterDelivery} reads sent after delivery — must be 0: ${goal(tally.staleAfterDelivery === 0, `staleness: ${tally.staleAfterDelivery} stale answers after delivery`) ? 'OK' : 'FAILED'}`,
  );
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const docs = await loadCorpus(DOCS);
  const mix = searchAsYouType(docs);
  console.log(
    `bench:cache — Node ${process.version}, ${os.availableParallelism()} CPUs, CLK_TCK ${CLOCK_TICKS_PER_SECOND}, ${docs.length} Debian packages; ` +
      `${PREFIXES} prefixes, Zipf s=${ZIPF_S}, ${REQUESTS} requests at concurrency ${CONCURRENCY} (after ${WARMUP_REQUESTS} to warm up); ` +
      `gateways ${Object.keys(EXTRA_ENV).length ? `with ${Object.entries(EXTRA_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}` : 'with the default settings'}; load average at start ${load()}`,
  );
  const data = await tempDir('bench-cache-');
  owned(() => data.remove());

  const gateway = await searchAsYouTypeMix(docs, mix, path.join(data.dir, 'gateway'));
  await costOfAHit(docs, mix, gateway, path.join(data.dir, 'reference'));
  progress('cost of a hit: done');
  await cleanUp(); // the servers of parts 1 and 2 and their data

  if (!redisServerAvailable()) verdicts.push('staleness: skipped, redis-server is not installed (apt-get install -y redis-server)');
  else {
    const twoNodes = await tempDir('bench-cache-two-nodes-');
    owned(() => twoNodes.remove());
    await staleness(twoNodes.dir);
  }

  console.log('');
  printTable();
  console.log('');
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; load average at end ${load()}`);
  // every goal, with the defaults: the command exits 1 when one is missed
  if (missed.length) {
    console.log(`goals missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else console.log('every goal met');
}

runBench(main, () => {
  if (rows.length) printTable();
});
