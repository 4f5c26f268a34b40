/**
 * bench:analytics — search analytics (lib/analytics), in one run:
 *
 * 1. what recording costs a search: a standalone engine holding BENCH_DOCS Debian packages (loaded
 *    through a gateway) and two gateways in front of it (ENGINE_URL), one with ANALYTICS_ENABLED=false,
 *    one with analytics on; both with CACHE_ENABLED=false, so that every search measured runs. The
 *    same declarative search-as-you-type requests go to both: a `search` component on name (×3) and
 *    summary whose value is what a user has typed so far of a real package name (2 to 6 keystrokes a
 *    session, one distinct user a session: keystroke merging works as it does in use and never joins
 *    two sessions), reacting to a `term` facet on section (a section selected in one session of four),
 *    with `settings: {recordAnalytics: true, userId}` in every request. One client, one request at a
 *    time, in ROUNDS short alternating rounds (off/on, then on/off, …: the machine's other work
 *    drifts), each round a new slice of the sequence sent to both; after each of its rounds the
 *    recording gateway's queue is drained, so its writes land in its own rounds (and in its CPU time,
 *    the engine's too). p50/p99, CPU per request of each gateway process (the engine's, apart); goal:
 *    ≤ 5 % added p50. Then the same at concurrency 8 for throughput (no goal).
 * 2. 100,000 events recorded: a fresh standalone engine and a gateway with analytics on; BENCH_EVENTS
 *    search events through the events API (`PUT /debian/_analytics/search`) at concurrency 16, their
 *    queries drawn by Zipf (s = 1) from 5,000 package names and name prefixes (broad prefixes tending
 *    to rank first), ~5 % misspelt with 0 hits, 300 users on three platforms. Each carries its own
 *    `query_id`, as a client reporting its own searches does: without one, a user's repeated query
 *    within 30 s would merge into one record. The time to send them, the time until
 *    `/_analytics/stats` counts every one written or dropped, then `GET /_analytics/summary` and
 *    `/_analytics/popular-searches` over them (p50 of 10 calls), their answers checked against what
 *    was sent. With the default ANALYTICS_MAX_QUEUED (10,000); when some
 *    are dropped, again on a fresh engine with a queue that holds them all.
 *
 * The servers are child processes; the clients live in this process. Everything started is
 * stopped at the end, on failure and on SIGINT/SIGTERM too.
 */
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { call } from '../spec/support/http.js';
import { spawnEngine, spawnGateway, tempDir, type ChildServer } from '../spec/support/servers.js';
import { bulkIndex, loadCorpus } from './support/corpus.js';
import { cpuMicros, CLOCK_TICKS_PER_SECOND } from './support/cpu.js';
import { seededRandom, summarize, type Summary } from './support/latency.js';
import { DEBIAN_INDEX } from './support/live-search-mix.js';
import { cleanUp, owned, runBench, started } from './support/teardown.js';
import { ms, printTable as printRows, type Row } from './support/table.js';

const DOCS = Number(process.env.BENCH_DOCS ?? Infinity);
/** Short alternating rounds: other work on the machine drifts, and both gateways see the same drift. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
/** Requests per gateway in each one-client round. */
const ROUND_REQUESTS = Number(process.env.BENCH_ROUND_REQUESTS ?? 300);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP_REQUESTS ?? 500);
const THROUGHPUT_CONCURRENCY = 8;
const THROUGHPUT_ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 4);
/** Requests per gateway in each concurrency-8 round. */
const THROUGHPUT_ROUND_REQUESTS = Number(process.env.BENCH_THROUGHPUT_ROUND_REQUESTS ?? 750);
const ADDED_P50_GOAL_PERCENT = 5;

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const EVENT_CONCURRENCY = 16;
const EVENT_QUERIES = 5000;
const ZIPF_S = 1;
const ZERO_HIT_SHARE = 0.05;
const USERS = 300;
const PLATFORMS: Array<[string, number]> = [['web', 0.6], ['android', 0.25], ['ios', 0.15]];
const DEFAULT_MAX_QUEUED = 10_000;
const QUERY_CALLS = 10;

const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' };
const AUTH = 'Basic ' + Buffer.from(`${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}`).toString('base64');
const JSON_HEADERS = { 'content-type': 'application/json' };
const INDEX = 'debian';

// ---- the table ----

const rows: Row[] = [];
const verdicts: string[] = [];
const progress = (line: string) => console.error(`[bench:analytics] ${line}`);
const signed = (v: number, digits = 1) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;

const printTable = () => printRows(rows, verdicts, 'gateway CPU µs/req');

// ---- the gateways' analytics ----

interface RecorderStats {
  queued: number;
  written: number;
  dropped: number;
  failed: number;
}

async function recorderStats(gateway: ChildServer): Promise<RecorderStats> {
  const r = await call<RecorderStats>(gateway.url, 'GET', '/_analytics/stats', { auth: AUTH });
  if (r.status !== 200) throw new Error(`/_analytics/stats answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json;
}

/**
 * Waits until the recorder has accounted for `events` events (written, dropped or failed) and holds
 * none; its last stats. Polled every 100 ms: the recorder writes at least every second.
 */
async function drained(gateway: ChildServer, events: number, timeoutMs = 120_000): Promise<RecorderStats> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const s = await recorderStats(gateway);
    if (s.queued === 0 && s.written + s.dropped + s.failed >= events) return s;
    if (performance.now() > deadline) throw new Error(`the recorder accounts for ${s.written + s.dropped + s.failed} of ${events} events after ${timeoutMs / 1000} s: ${JSON.stringify(s)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates the Debian index through `url` and loads `docs` into it. */
async function loadDebian(url: string, docs: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const created = await call(url, 'PUT', `/${INDEX}`, { auth: AUTH, body: DEBIAN_INDEX });
  if (created.status !== 200) throw new Error(`create index on ${url}: ${created.status} ${created.text.slice(0, 300)}`);
  await bulkIndex(url, AUTH, INDEX, docs);
  const refreshed = await call(url, 'POST', `/${INDEX}/_refresh`, { auth: AUTH });
  if (refreshed.status !== 200) throw new Error(`refresh on ${url}: ${refreshed.status}`);
}

/** A package name people type into a search box as it is (lower-case). */
const TYPEABLE = /^[a-z0-9][a-z0-9.+-]{2,}$/;
const typeableNames = (docs: ReadonlyArray<Record<string, unknown>>) => docs.map((d) => String(d.name ?? '').toLowerCase()).filter((n) => TYPEABLE.test(n));

// ---- part 1: what recording costs a search ----

/** What a search-as-you-type UI sends on one keystroke of one user. */
function keystroke(text: string, user: string, section: string | undefined): string {
  return JSON.stringify({
    query: [
      { id: 'box', type: 'search', index: INDEX, dataField: [{ field: 'name', weight: 3 }, 'summary'], value: text, size: 10, react: { and: ['section'] } },
      { id: 'section', type: 'term', index: INDEX, dataField: 'section', aggregationSize: 20, ...(section === undefined ? {} : { value: [section] }) },
    ],
    settings: { recordAnalytics: true, userId: user },
  });
}

/** Sessions of users typing package names, one request a keystroke from the 2nd character, in order; `count` requests. */
function typingSessions(docs: ReadonlyArray<Record<string, unknown>>, count: number, seed = 15): { bodies: string[]; sessions: number; selected: number } {
  const random = seededRandom(seed);
  const typeable = docs.filter((d) => TYPEABLE.test(String(d.name ?? '').toLowerCase()));
  const bodies: string[] = [];
  let sessions = 0;
  let selected = 0;
  while (bodies.length < count) {
    const doc = typeable[Math.floor(random() * typeable.length)];
    const name = String(doc.name).toLowerCase();
    const section = random() < 0.25 ? String(doc.section) : undefined;
    if (section !== undefined) selected++;
    const user = `typist-${++sessions}`;
    const last = Math.min(name.length, 2 + Math.floor(random() * 5));
    for (let n = 2; n <= last && bodies.length < count; n++) bodies.push(keystroke(name.slice(0, n), user, section));
  }
  return { bodies, sessions, selected };
}

interface Target {
  name: 'off' | 'on';
  gateway: ChildServer;
  /** Requests sent, warm-up included. */
  requests: number;
  /** Answers carrying X-Search-Id. */
  withSearchId: number;
}

interface Sent {
  latencies: Float64Array;
  seconds: number;
  /** CPU time of the gateway and of the engine from the first request sent to the end of `settled`, µs. */
  cpu: number;
  engineCpu: number;
}

/**
 * Sends `bodies` in order through `concurrency` keep-alive connections, each sending as soon as it
 * has its answer; then awaits `settled` (the recording gateway's writes of what was sent) before
 * reading the processes' CPU time, so that a run pays for its own recording.
 */
async function send(target: Target, engine: ChildServer, bodies: readonly string[], concurrency: number, settled?: () => Promise<unknown>): Promise<Sent> {
  const pool = new Pool(target.gateway.url, { connections: concurrency, pipelining: 1 });
  const release = owned(() => pool.close());
  const headers = { ...JSON_HEADERS, authorization: AUTH };
  const latencies = new Float64Array(bodies.length);
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    for (let i = next++; i < bodies.length && !failure; i = next++) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: '/_declarative', headers, body: bodies[i] });
      const text = await res.body.text();
      latencies[i] = performance.now() - t0;
      if (res.statusCode !== 200 || text.includes('"error":')) failure ??= new Error(`gateway ${target.name} answered ${res.statusCode}: ${text.slice(0, 300)}`);
      if (res.headers['x-search-id'] !== undefined) target.withSearchId++;
    }
  };
  const pid = target.gateway.proc.pid!;
  const cpu0 = cpuMicros(pid);
  const engineCpu0 = cpuMicros(engine.proc.pid!);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  target.requests += bodies.length;
  if (!failure) await settled?.();
  const cpu = cpuMicros(pid) - cpu0;
  const engineCpu = cpuMicros(engine.proc.pid!) - engineCpu0;
  await release();
  if (failure) throw failure;
  return { latencies, seconds, cpu, engineCpu };
}

/** Runs of one gateway, pooled. */
interface Measured {
  s: Summary;
  rps: number;
  cpu: number;
  engineCpu: number;
}
function pooled(runs: readonly Sent[]): Measured {
  const n = runs.reduce((sum, r) => sum + r.latencies.length, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  return {
    s: summarize(Float64Array.from(runs.flatMap((r) => [...r.latencies]))),
    rps: n / seconds,
    cpu: runs.reduce((sum, r) => sum + r.cpu, 0) / n,
    engineCpu: runs.reduce((sum, r) => sum + r.engineCpu, 0) / n,
  };
}

async function recordingCost(docs: ReadonlyArray<Record<string, unknown>>, dataDir: string): Promise<void> {
  const engine = await started(spawnEngine(path.join(dataDir, 'engine')));
  const env = (name: string, analytics: boolean) => ({
    ...ADMIN, ENGINE_URL: engine.url, DATA_DIR: path.join(dataDir, name), CACHE_ENABLED: 'false', ANALYTICS_ENABLED: String(analytics),
  });
  const [off, on] = await Promise.all([started(spawnGateway(env('off', false))), started(spawnGateway(env('on', true)))]);
  let t0 = performance.now();
  await loadDebian(off.url, docs);
  progress(`${docs.length} packages indexed through a gateway into the standalone engine in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const total = WARMUP_REQUESTS + ROUNDS * ROUND_REQUESTS + THROUGHPUT_ROUNDS * THROUGHPUT_ROUND_REQUESTS;
  const { bodies, sessions, selected } = typingSessions(docs, total);
  progress(`${total} keystrokes of ${sessions} typing sessions (a section selected in ${selected}); warm-up ${WARMUP_REQUESTS} each`);
  const targets: Record<'off' | 'on', Target> = { off: { name: 'off', gateway: off, requests: 0, withSearchId: 0 }, on: { name: 'on', gateway: on, requests: 0, withSearchId: 0 } };
  let at = 0;
  const slice = (n: number) => bodies.slice(at, (at += n));
  // the recording gateway's writes of a round are done before the next round starts
  const settle = () => drained(on, targets.on.requests);

  const warmup = slice(WARMUP_REQUESTS);
  for (const t of [targets.off, targets.on]) await send(t, engine, warmup, 1);
  await settle();
  /** `rounds` rounds, each a new slice of the sequence sent to both gateways, in alternating order. */
  const alternating = async (rounds: number, requests: number, concurrency: number): Promise<Record<'off' | 'on', Measured>> => {
    const t1 = performance.now();
    const runs: Record<'off' | 'on', Sent[]> = { off: [], on: [] };
    for (let round = 0; round < rounds; round++) {
      const part = slice(requests);
      for (const t of round % 2 ? [targets.on, targets.off] : [targets.off, targets.on]) {
        runs[t.name].push(await send(t, engine, part, concurrency, t === targets.on ? settle : undefined));
      }
    }
    const measured = { off: pooled(runs.off), on: pooled(runs.on) };
    progress(`concurrency ${concurrency}: ${rounds} rounds of ${requests} requests a gateway in ${((performance.now() - t1) / 1000).toFixed(1)} s; ` +
      `off ${measured.off.rps.toFixed(0)} req/s, on ${measured.on.rps.toFixed(0)} req/s`);
    return measured;
  };
  const { off: offL, on: onL } = await alternating(ROUNDS, ROUND_REQUESTS, 1);
  const { off: offC, on: onC } = await alternating(THROUGHPUT_ROUNDS, THROUGHPUT_ROUND_REQUESTS, THROUGHPUT_CONCURRENCY);
  const stats = await settle();
  const added = ((onL.s.p50 - offL.s.p50) / offL.s.p50) * 100;
  const part = 'recording cost';
  rows.push({
    part, what: 'analytics off, one client', s: offL.s, rps: offL.rps, cpuMicrosPerRequest: offL.cpu,
    note: `the reference; engine CPU ${offL.engineCpu.toFixed(0)} µs/req; ${targets.off.withSearchId} answers with X-Search-Id`,
  });
  rows.push({
    part, what: 'recordAnalytics, one client', s: onL.s, rps: onL.rps, cpuMicrosPerRequest: onL.cpu,
    note: `p50 ${signed(added)} % (goal ≤ ${ADDED_P50_GOAL_PERCENT} %), p99 ${signed(((onL.s.p99 - offL.s.p99) / offL.s.p99) * 100)} %, gateway CPU ${signed(onL.cpu - offL.cpu, 0)} µs/req; ` +
      `engine CPU ${onL.engineCpu.toFixed(0)} µs/req (its _bulk writes included)`,
  });
  rows.push({
    part, what: `analytics off, concurrency ${THROUGHPUT_CONCURRENCY}`, s: offC.s, rps: offC.rps, cpuMicrosPerRequest: offC.cpu,
    note: `the reference; engine CPU ${offC.engineCpu.toFixed(0)} µs/req`,
  });
  rows.push({
    part, what: `recordAnalytics, concurrency ${THROUGHPUT_CONCURRENCY}`, s: onC.s, rps: onC.rps, cpuMicrosPerRequest: onC.cpu,
    note: `req/s ${signed(((onC.rps - offC.rps) / offC.rps) * 100)} %; engine CPU ${onC.engineCpu.toFixed(0)} µs/req (its _bulk writes included)`,
  });
  verdicts.push(
    `recording cost (one standalone engine, two gateways in front of it, CACHE_ENABLED=false; ${ROUNDS} alternating rounds of ${ROUND_REQUESTS} declarative keystrokes, one client): ` +
      `p50 ${ms(offL.s.p50)} → ${ms(onL.s.p50)} ms, ${signed(added)} % — goal ≤ ${ADDED_P50_GOAL_PERCENT} % added p50: ${added <= ADDED_P50_GOAL_PERCENT ? 'met' : 'MISSED'}`,
  );
  verdicts.push(
    `recording cost at concurrency ${THROUGHPUT_CONCURRENCY} (${THROUGHPUT_ROUNDS} alternating rounds of ${THROUGHPUT_ROUND_REQUESTS}): ${offC.rps.toFixed(0)} → ${onC.rps.toFixed(0)} req/s, ` +
      `${signed(((onC.rps - offC.rps) / offC.rps) * 100)} %; CPU per request: gateway ${signed(onC.cpu - offC.cpu, 0)} µs, engine ${signed(onC.engineCpu - offC.engineCpu, 0)} µs (no goal)`,
  );
  const sent = targets.on.requests;
  const accounted = stats.written + stats.dropped + stats.failed;
  verdicts.push(
    `recording cost: the recording gateway answered ${targets.on.withSearchId} of ${sent} requests with X-Search-Id, the other ${targets.off.withSearchId}; ` +
      `/_analytics/stats ${JSON.stringify(stats)}${accounted === sent && targets.on.withSearchId === sent && targets.off.withSearchId === 0 ? '' : ' — MISMATCH'}`,
  );
  await cleanUp();
}

// ---- part 2: 100,000 events recorded ----

interface EventMix {
  /** Queries by rank (0 is the most frequent), with the packages whose name starts with them. */
  queries: Array<{ text: string; hits: number }>;
  sections: string[];
}

/**
 * 5,000 distinct queries: package names and their prefixes (3 characters and more), ranked in a
 * seeded order weighted by 1 + log2(packages matched): broad prefixes (`lib`, `pyth`) tend to rank
 * above one package's full name, as they do in a real search log, without taking every top place.
 */
function eventMix(docs: ReadonlyArray<Record<string, unknown>>, seed = 16): EventMix {
  const random = seededRandom(seed);
  const names = typeableNames(docs).sort();
  const startingWith = (prefix: string) => {
    const first = (p: string) => {
      let lo = 0;
      let hi = names.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (names[mid] < p) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return first(prefix + '\uffff') - first(prefix);
  };
  const seen = new Set<string>();
  const queries: EventMix['queries'] = [];
  for (let attempts = 0; queries.length < EVENT_QUERIES; attempts++) {
    if (attempts > EVENT_QUERIES * 100) throw new Error(`only ${queries.length} distinct queries in ${names.length} package names`);
    const name = names[Math.floor(random() * names.length)];
    const text = random() < 0.5 ? name : name.slice(0, 3 + Math.floor(random() * (name.length - 2)));
    if (seen.has(text)) continue;
    seen.add(text);
    queries.push({ text, hits: startingWith(text) });
  }
  // weighted random order (Efraimidis–Spirakis): sorted by u^(1/w), the largest first
  const keyed = queries.map((q) => ({ q, key: random() ** (1 / (1 + Math.log2(q.hits))) }));
  keyed.sort((a, b) => b.key - a.key);
  const sections = [...new Set(docs.map((d) => String(d.section ?? '')).filter(Boolean))].sort();
  return { queries: keyed.map((k) => k.q), sections };
}

/** One search event a client reports, the i-th; what the analytics should count of it. */
interface SentEvent {
  body: string;
  query: string;
  user: string;
  zeroHits: boolean;
}

function eventsToSend(mix: EventMix, count: number, tag: string, seed = 17): SentEvent[] {
  const random = seededRandom(seed);
  const cumulative = new Float64Array(mix.queries.length);
  let total = 0;
  for (let k = 0; k < mix.queries.length; k++) cumulative[k] = total += 1 / (k + 1) ** ZIPF_S;
  const rank = () => {
    const r = random() * total;
    let lo = 0;
    let hi = mix.queries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const platform = () => {
    let r = random();
    return PLATFORMS.find(([, share]) => (r -= share) < 0)?.[0] ?? PLATFORMS[0][0];
  };
  const out: SentEvent[] = [];
  for (let i = 0; i < count; i++) {
    const q = mix.queries[rank()];
    // a typo (two letters swapped, a stray one at the end), reported with no hits
    const misspelt = random() < ZERO_HIT_SHARE;
    const query = misspelt ? `${q.text[1]}${q.text[0]}${q.text.slice(2)}${q.text.at(-1)}q` : q.text;
    const user = `user-${1 + Math.floor(random() * USERS)}`;
    const filters = random() < 0.15 ? { section: mix.sections[Math.floor(random() * mix.sections.length)] } : undefined;
    out.push({
      body: JSON.stringify({ query, query_id: `${tag}-${i}`, user_id: user, hits: misspelt ? 0 : q.hits, ...(filters ? { filters } : {}), custom_events: { platform: platform() } }),
      query,
      user,
      zeroHits: misspelt,
    });
  }
  return out;
}

interface Summaries {
  total_searches: number;
  total_no_results_searches: number;
  no_results_rate: number;
  total_users: number;
  total_clicks: number;
  avg_click_rate: number;
  compare_timeframe: { total_searches: number };
}
interface PopularSearches {
  popular_searches: Array<{ key: string; count: number }>;
}

/** `calls` GETs of `path`, one at a time; their latencies and the last answer. */
async function timedGets<T>(gateway: ChildServer, path: string, calls: number): Promise<{ s: Summary; answer: T }> {
  const latencies: number[] = [];
  let answer: T | undefined;
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const r = await call<T>(gateway.url, 'GET', path, { auth: AUTH });
    latencies.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
    answer = r.json;
  }
  return { s: summarize(latencies), answer: answer! };
}

async function eventsRecorded(mix: EventMix, dataDir: string, maxQueued: number): Promise<{ dropped: number }> {
  const engine = await started(spawnEngine(path.join(dataDir, 'engine')));
  const gateway = await started(spawnGateway({
    ...ADMIN, ENGINE_URL: engine.url, DATA_DIR: path.join(dataDir, 'gateway'), CACHE_ENABLED: 'false', ANALYTICS_MAX_QUEUED: String(maxQueued),
  }));
  const tag = `q${maxQueued}`;
  const events = eventsToSend(mix, EVENTS, tag);
  const part = `${EVENTS / 1000}k events, max queued ${maxQueued}`;

  // a few to create the analytics index and warm up, not counted
  const warm = eventsToSend(mix, 200, `${tag}-warm`, 99);
  for (const e of warm) {
    const r = await call(gateway.url, 'PUT', `/${INDEX}/_analytics/search`, { auth: AUTH, body: e.body });
    if (r.status !== 201) throw new Error(`the events API answered ${r.status}: ${r.text.slice(0, 300)}`);
  }
  const warmed = await drained(gateway, warm.length);
  const from = Math.floor(Date.now() / 1000);
  // the warm-up's events are removed, so that every answer counts the measured ones only
  const removed = await call(engine.url, 'POST', '/.gateway-analytics/_delete_by_query?refresh=true', { auth: null, body: { query: { match_all: {} } } });
  if (removed.status !== 200 || removed.json.deleted !== warmed.written) throw new Error(`removing the warm-up events: ${removed.status} ${removed.text.slice(0, 300)}`);

  const pool = new Pool(gateway.url, { connections: EVENT_CONCURRENCY, pipelining: 1 });
  const release = owned(() => pool.close());
  const headers = { ...JSON_HEADERS, authorization: AUTH };
  const latencies = new Float64Array(events.length);
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    for (let i = next++; i < events.length && !failure; i = next++) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'PUT', path: `/${INDEX}/_analytics/search`, headers, body: events[i].body });
      const text = await res.body.text();
      latencies[i] = performance.now() - t0;
      if (res.statusCode !== 201) failure ??= new Error(`the events API answered ${res.statusCode}: ${text.slice(0, 300)}`);
    }
  };
  const gatewayCpu0 = cpuMicros(gateway.proc.pid!);
  const engineCpu0 = cpuMicros(engine.proc.pid!);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: EVENT_CONCURRENCY }, worker));
  const sendSeconds = (performance.now() - t0) / 1000;
  const gatewayCpuSent = cpuMicros(gateway.proc.pid!) - gatewayCpu0;
  await release();
  if (failure) throw failure;
  const stats = await drained(gateway, warmed.written + warmed.dropped + warmed.failed + events.length);
  const drainSeconds = (performance.now() - t0) / 1000;
  const gatewayCpu = cpuMicros(gateway.proc.pid!) - gatewayCpu0;
  const engineCpu = cpuMicros(engine.proc.pid!) - engineCpu0;
  const written = stats.written - warmed.written;
  const dropped = stats.dropped - warmed.dropped;
  const failed = stats.failed - warmed.failed;
  progress(`${part}: sent in ${sendSeconds.toFixed(1)} s, all accounted for after ${drainSeconds.toFixed(1)} s: written ${written}, dropped ${dropped}, failed ${failed}`);
  rows.push({
    part, what: `PUT /${INDEX}/_analytics/search, concurrency ${EVENT_CONCURRENCY}`, s: summarize(latencies), rps: events.length / sendSeconds, cpuMicrosPerRequest: gatewayCpuSent / events.length,
    note: `sent in ${sendSeconds.toFixed(1)} s; written ${written}, dropped ${dropped}, failed ${failed} (all accounted for ${drainSeconds.toFixed(1)} s after the first); ` +
      `to the end of the writes: gateway CPU ${(gatewayCpu / events.length).toFixed(0)} µs/event, engine CPU ${(engineCpu / events.length).toFixed(0)} µs/event`,
  });

  const range = `from_timestamp=${from}&to_timestamp=${Math.ceil(Date.now() / 1000)}`;
  const summary = await timedGets<Summaries>(gateway, `/_analytics/summary?${range}`, QUERY_CALLS);
  const popular = await timedGets<PopularSearches>(gateway, `/_analytics/popular-searches?${range}`, QUERY_CALLS);

  // what the answers should say: exact when nothing was dropped
  const users = new Set(events.map((e) => e.user)).size;
  const zeroHits = events.filter((e) => e.zeroHits).length;
  const byQuery = new Map<string, number>();
  for (const e of events) byQuery.set(e.query, (byQuery.get(e.query) ?? 0) + 1);
  const expectedTop = [...byQuery].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 100);
  const sum = summary.answer;
  const top = popular.answer.popular_searches;
  const exact = dropped === 0 && failed === 0;
  const topMatches = exact ? top.length === expectedTop.length && top.every((b, k) => b.count === expectedTop[k][1] && (b.key === expectedTop[k][0] || b.count === byQuery.get(b.key))) : undefined;
  rows.push({
    part, what: 'GET /_analytics/summary', s: summary.s,
    note: `total_searches ${sum.total_searches} (written ${written}), no results ${sum.total_no_results_searches} (${sum.no_results_rate} %; sent ${zeroHits}), users ${sum.total_users} (sent ${users}), ` +
      `clicks ${sum.total_clicks}; previous period ${sum.compare_timeframe.total_searches}`,
  });
  rows.push({
    part, what: 'GET /_analytics/popular-searches', s: popular.s,
    note: `${top.length} buckets; top ${top.slice(0, 3).map((b) => `"${b.key}" ${b.count}`).join(', ')}; 100th ${top.at(-1)?.count ?? 'n/a'}` +
      (exact ? ` (sent: ${expectedTop.slice(0, 3).map(([k, c]) => `"${k}" ${c}`).join(', ')}; 100th ${expectedTop.at(-1)?.[1]})` : ''),
  });
  const checks = [`total_searches ${sum.total_searches} = written ${written}: ${sum.total_searches === written ? 'OK' : 'MISMATCH'}`];
  if (exact) {
    checks.push(`no-result searches ${sum.total_no_results_searches} = sent ${zeroHits}: ${sum.total_no_results_searches === zeroHits ? 'OK' : 'MISMATCH'}`);
    checks.push(`users ${sum.total_users} = sent ${users}: ${sum.total_users === users ? 'OK' : 'MISMATCH'}`);
    checks.push(`popular-searches' 100 counts = the sent ones: ${topMatches ? 'OK' : 'MISMATCH'}`);
  }
  verdicts.push(
    `${part}: ${(events.length / sendSeconds).toFixed(0)} events/s recorded, dropped ${dropped} of ${events.length}${dropped ? ' (the queue was full: the writer fell behind)' : ''}; ` +
      `summary p50 ${ms(summary.s.p50)} ms, popular-searches p50 ${ms(popular.s.p50)} ms over ${written} events; ${checks.join('; ')}`,
  );
  await cleanUp();
  return { dropped };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const docs = await loadCorpus(DOCS);
  console.log(
    `bench:analytics — Node ${process.version}, ${os.availableParallelism()} CPUs, CLK_TCK ${CLOCK_TICKS_PER_SECOND}, ${docs.length} Debian packages; ` +
      `every gateway with CACHE_ENABLED=false (each search measured runs); load average at start ${load()}`,
  );

  const one = await tempDir('bench-analytics-cost-');
  owned(() => one.remove());
  await recordingCost(docs, one.dir);

  const mix = eventMix(docs);
  progress(`events: ${EVENT_QUERIES} distinct queries, Zipf s=${ZIPF_S}; the top one "${mix.queries[0].text}" (${mix.queries[0].hits} packages start with it)`);
  let dir = await tempDir('bench-analytics-events-');
  owned(() => dir.remove());
  const { dropped } = await eventsRecorded(mix, dir.dir, DEFAULT_MAX_QUEUED);
  if (dropped > 0) {
    dir = await tempDir('bench-analytics-events-');
    owned(() => dir.remove());
    await eventsRecorded(mix, dir.dir, Math.max(EVENTS * 2, DEFAULT_MAX_QUEUED));
  }

  console.log('');
  printTable();
  console.log('');
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; load average at end ${load()}`);
}

runBench(main, () => {
  if (rows.length) printTable();
});
