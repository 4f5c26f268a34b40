/**
 * bench:proxy — one run, one upstream, one load, four targets:
 *   engine             the standalone embedded engine, direct;
 *   reference proxy    the least an authenticated proxy does (bench/support/reference-proxy.ts) → engine;
 *   gateway → engine   the gateway's proxy path (ENGINE_URL = that engine);
 *   gateway embedded   the gateway on its own embedded engine, holding the same documents;
 *   … (logs off)       the same two gateways with LOGS_ENABLED=false and ACCESS_LOG=false: what
 *                      the request logs and the access lines (both on by default) cost;
 *   koa floor          koa and the embedded engine alone (bench/support/koa-floor.ts): what the
 *                      gateway embedded cannot go below while it is a koa application.
 * For each: requests/s, p50/p99 latency and CPU time per request of the serving process alone (a
 * proxy's own, never the engine's behind it). Goals, with the defaults (request logs, access lines,
 * metrics and cache on): gateway/reference CPU per request ≤ 1.3, and gateway embedded/koa floor
 * requests/s ≥ 0.75. The process exits 1 when a goal is missed, so the command says where the
 * product stands.
 *
 * The load runs in this process; the servers are child processes, whose output (the gateways' access
 * lines) is read and dropped, as a log shipper would take it (bench/support/dropped-output.ts). Each target gets
 * BENCH_DURATION_MS of load per request kind, split into BENCH_ROUNDS rounds that take the targets
 * in turn (the order reversed every other round), so a noisy machine's drift hits all of them alike.
 * The table shows the median round; a ratio is the median of the per-round ratios.
 *
 * BENCH_CPU_PROF=dir: the four gateways write a V8 CPU profile there when they stop (one
 * `.cpuprofile` per process; `node dist/bench/support/self-time.js <file>` sums its self time per
 * function), for finding where a gateway's CPU per request goes.
 */
import os from 'node:os';
import { spawnEngine, spawnGateway, spawnServer, tempDir, type ChildServer } from '../spec/support/servers.js';
import { runLoad, fmt, type LoadSpec } from './support/load.js';
import { cpuMicros, CLOCK_TICKS_PER_SECOND } from './support/cpu.js';
import { dropOutput } from './support/dropped-output.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = 2000;
/** BENCH_KIND=get (or search) measures only the request kinds whose name contains it. */
const ONLY = (process.env.BENCH_KIND ?? '').trim().toLowerCase();
const ADMIN = { ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' };
const AUTHORIZATION = 'Basic ' + Buffer.from(`${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}`).toString('base64');
const JSON_HEADERS = { 'content-type': 'application/json' };
/** The request logs and the access lines off: what the gateway costs without them. */
const LOGS_OFF = { LOGS_ENABLED: 'false', ACCESS_LOG: 'false' };
/** BENCH_CPU_PROF=dir: the gateways profiled (--cpu-prof), their profiles written there when they stop. */
const GATEWAY_ARGS = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const gatewayChild = (env: Record<string, string>) => spawnGateway(env, undefined, GATEWAY_ARGS);

interface Target {
  name: string;
  server: ChildServer;
  authorization?: string;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  errors: number;
}

interface RequestKind {
  name: string;
  spec: LoadSpec;
  /** What a correct answer looks like, checked on every target before measuring. */
  answered: (body: { found?: boolean; hits?: { hits?: unknown[] } }) => boolean;
}

const KINDS: RequestKind[] = [
  { name: 'GET document', spec: { method: 'GET', path: '/bench/_doc/42' }, answered: (b) => b.found === true },
  {
    name: 'small _search',
    spec: { method: 'POST', path: '/bench/_search', body: JSON.stringify({ size: 5, query: { term: { section: 'games' } } }), headers: JSON_HEADERS },
    answered: (b) => b.hits?.hits?.length === 5,
  },
];

/** spawnServer awaits `<what> listening on <url>`; its type names only gateway and engine, the reference prints `reference`. */
const spawnReference = (upstream: string) =>
  spawnServer('bench/support/reference-proxy.js', { UPSTREAM_URL: upstream, PORT: '0', REFERENCE_AUTH: `${ADMIN.ADMIN_USER}:${ADMIN.ADMIN_PASSWORD}` }, 'reference' as 'engine');
const spawnFloor = (dataDir: string) => spawnServer('bench/support/koa-floor.js', { ENGINE_DATA_DIR: dataDir, PORT: '0' }, 'floor' as 'engine');

function asTarget(target: Target, spec: LoadSpec): LoadSpec {
  return target.authorization ? { ...spec, headers: { ...spec.headers, authorization: target.authorization } } : spec;
}

async function bulkLoad(url: string, authorization?: string): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) {
    lines.push(JSON.stringify({ index: { _index: 'bench', _id: String(i) } }));
    lines.push(JSON.stringify({ name: `package-${i}`, section: i % 2 ? 'utils' : 'games', size: i }));
  }
  const headers: Record<string, string> = { 'content-type': 'application/x-ndjson', ...(authorization ? { authorization } : {}) };
  const res = await fetch(`${url}/_bulk?refresh=true`, { method: 'POST', headers, body: lines.join('\n') + '\n' });
  const body = (await res.json()) as { errors?: boolean };
  if (!res.ok || body.errors !== false) throw new Error(`bulk load into ${url} failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function checkAnswers(target: Target, kind: RequestKind): Promise<void> {
  const spec = asTarget(target, kind.spec);
  const res = await fetch(target.server.url + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
  const text = await res.text();
  if (res.status !== 200 || !kind.answered(JSON.parse(text))) throw new Error(`${target.name} answers ${kind.name} wrongly: ${res.status} ${text.slice(0, 300)}`);
}

async function measure(target: Target, spec: LoadSpec, durationMs: number): Promise<Round> {
  const pid = target.server.proc.pid!;
  const cpuBefore = cpuMicros(pid);
  const r = await runLoad(target.server.url, asTarget(target, spec), { concurrency: CONCURRENCY, durationMs });
  const cpu = cpuMicros(pid) - cpuBefore;
  return { rps: r.rps, p50: r.p50, p99: r.p99, cpuMicrosPerRequest: cpu / r.requests, errors: r.errors };
}

/** The machine's load averages (1, 5, 15 min): a run on a busy machine says so beside its figures. */
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Starts the servers one after another (all at once, seven processes booting on a loaded machine
 * missed the start timeout), or none: a failed start stops those already running.
 */
async function startAll<T extends ReadonlyArray<() => Promise<ChildServer>>>(starts: T, running: ChildServer[]): Promise<{ [K in keyof T]: ChildServer }> {
  const started: ChildServer[] = [];
  for (const start of starts) {
    // its output read and dropped, not kept here: this process is the load generator (dropped-output.ts)
    const server = dropOutput(await start());
    running.push(server);
    started.push(server);
  }
  return started as { [K in keyof T]: ChildServer };
}

async function main() {
  const data = await tempDir('bench-proxy-');
  const running: ChildServer[] = [];
  try {
    const [engine] = await startAll([() => spawnEngine(data.dir + '/engine')], running);
    // the gateway is up before the engine gets its documents, so its index templates apply to both
    const [gateway, embedded, reference, floor, gatewayOff, embeddedOff] = await startAll(
      [
        () => gatewayChild({ ENGINE_URL: engine.url, DATA_DIR: data.dir + '/gateway', ...ADMIN }),
        () => gatewayChild({ DATA_DIR: data.dir + '/embedded', ...ADMIN }),
        () => spawnReference(engine.url),
        () => spawnFloor(data.dir + '/floor'),
        () => gatewayChild({ ENGINE_URL: engine.url, DATA_DIR: data.dir + '/gateway-off', ...LOGS_OFF, ...ADMIN }),
        () => gatewayChild({ DATA_DIR: data.dir + '/embedded-off', ...LOGS_OFF, ...ADMIN }),
      ],
      running,
    );
    await Promise.all([bulkLoad(engine.url), bulkLoad(embedded.url, AUTHORIZATION), bulkLoad(floor.url), bulkLoad(embeddedOff.url, AUTHORIZATION)]);
    const targets: Target[] = [
      { name: 'engine', server: engine },
      { name: 'reference proxy', server: reference, authorization: AUTHORIZATION },
      { name: 'gateway → engine', server: gateway, authorization: AUTHORIZATION },
      { name: 'gateway embedded', server: embedded, authorization: AUTHORIZATION },
      { name: 'koa floor', server: floor },
      { name: 'gateway → engine (logs off)', server: gatewayOff, authorization: AUTHORIZATION },
      { name: 'gateway embedded (logs off)', server: embeddedOff, authorization: AUTHORIZATION },
    ];
    const [direct, ref, proxied, onEmbedded, koaFloor, proxiedOff, onEmbeddedOff] = targets;

    console.log(
      `bench:proxy — concurrency ${CONCURRENCY}, ${DURATION_MS} ms per target and request kind in ${ROUNDS} alternating rounds (median shown), ` +
        `Node ${process.version}, ${os.availableParallelism()} CPUs, CLK_TCK ${CLOCK_TICKS_PER_SECOND}; load average at start ${loadAverage()}`,
    );
    console.log('load          | target                         |   req/s | ±req/s |  p50 ms |  p99 ms | CPU µs/req | errors');
    const ratioLines: string[] = [];
    const missed: string[] = [];
    for (const kind of KINDS.filter((k) => !ONLY || k.name.toLowerCase().includes(ONLY))) {
      for (const target of targets) {
        await checkAnswers(target, kind);
        await runLoad(target.server.url, asTarget(target, kind.spec), { concurrency: CONCURRENCY, durationMs: WARMUP_MS });
      }
      const rounds = new Map<Target, Round[]>(targets.map((t) => [t, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of round % 2 ? [...targets].reverse() : targets) {
          rounds.get(target)!.push(await measure(target, kind.spec, DURATION_MS / ROUNDS));
        }
      }
      for (const target of targets) {
        const rs = rounds.get(target)!;
        const rps = median(rs.map((r) => r.rps));
        const spread = (Math.max(...rs.map((r) => r.rps)) - Math.min(...rs.map((r) => r.rps))) / 2 / rps;
        console.log(
          `${kind.name.padEnd(13)} | ${target.name.padEnd(30)} | ${fmt(rps, 0).padStart(7)} | ${(fmt(spread * 100, 1) + '%').padStart(6)} | ` +
            `${fmt(median(rs.map((r) => r.p50))).padStart(7)} | ${fmt(median(rs.map((r) => r.p99))).padStart(7)} | ` +
            `${fmt(median(rs.map((r) => r.cpuMicrosPerRequest)), 0).padStart(10)} | ${rs.reduce((n, r) => n + r.errors, 0)}`,
        );
      }
      const ratios = (a: Target, b: Target, of: (r: Round) => number) => rounds.get(a)!.map((r, i) => of(r) / of(rounds.get(b)![i]));
      const perRound = (a: Target, b: Target, of: (r: Round) => number) => median(ratios(a, b, of));
      // the rounds' spread beside a goal's ratio: on a busy machine one gateway process against one reference varies by ~10%
      const range = (a: Target, b: Target, of: (r: Round) => number) => {
        const rs = ratios(a, b, of);
        return `rounds ${fmt(Math.min(...rs))}–${fmt(Math.max(...rs))}`;
      };
      const cpuRatio = perRound(proxied, ref, (r) => r.cpuMicrosPerRequest);
      const rpsRatio = perRound(onEmbedded, direct, (r) => r.rps);
      const embeddedCpuRatio = perRound(onEmbedded, direct, (r) => r.cpuMicrosPerRequest);
      const floorRps = perRound(koaFloor, direct, (r) => r.rps);
      const floorCpu = perRound(koaFloor, direct, (r) => r.cpuMicrosPerRequest);
      const aboveFloor = perRound(onEmbedded, koaFloor, (r) => r.cpuMicrosPerRequest);
      const logsCpu = perRound(proxied, proxiedOff, (r) => r.cpuMicrosPerRequest);
      const offCpuRatio = perRound(proxiedOff, ref, (r) => r.cpuMicrosPerRequest);
      const offRpsRatio = perRound(onEmbeddedOff, direct, (r) => r.rps);
      const embeddedToFloor = perRound(onEmbedded, koaFloor, (r) => r.rps);
      if (!(cpuRatio <= 1.3)) missed.push(`${kind.name}: gateway/reference CPU per request ${fmt(cpuRatio)} > 1.3`);
      if (!(embeddedToFloor >= 0.75)) missed.push(`${kind.name}: gateway embedded/koa floor req/s ${fmt(embeddedToFloor)} < 0.75`);
      ratioLines.push(
        `${kind.name.padEnd(13)} | gateway/reference CPU per request ${fmt(cpuRatio)} (${range(proxied, ref, (r) => r.cpuMicrosPerRequest)}; goal ≤ 1.3: ${cpuRatio <= 1.3 ? 'met' : 'missed'})` +
          ` | gateway embedded/koa floor req/s ${fmt(embeddedToFloor)} (${range(onEmbedded, koaFloor, (r) => r.rps)}; goal ≥ 0.75: ${embeddedToFloor >= 0.75 ? 'met' : 'missed'})` +
          ` | gateway embedded/engine req/s ${fmt(rpsRatio)}, CPU per request ×${fmt(embeddedCpuRatio)}` +
          ` | koa floor/engine req/s ${fmt(floorRps)}, CPU ×${fmt(floorCpu)}; gateway embedded/koa floor CPU ×${fmt(aboveFloor)}` +
          ` | logs off: gateway/reference CPU per request ${fmt(offCpuRatio)}, gateway embedded/engine req/s ${fmt(offRpsRatio)}; logs on/off CPU per request (gateway → engine) ×${fmt(logsCpu)}`,
      );
    }
    console.log(`ratios (median of per-round ratios); load average at end ${loadAverage()}`);
    for (const line of ratioLines) console.log(line);
    if (missed.length) {
      console.log(`goals missed (defaults on): ${missed.join('; ')}`);
      process.exitCode = 1;
    } else console.log('every goal met with the defaults');
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
