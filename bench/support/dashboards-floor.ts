import { loadavg } from 'node:os';
import pLimit, { type LimitFunction } from 'p-limit';
import { Pool } from 'undici';
import { spawnEngine, tempDir } from '../../spec/support/servers.js';
import { coalescedLoop, type CoalescedLoop } from './coalesced-loop.js';
import {
  AGG_INTERVAL_MS, dashboardCorpus, dashboardSearch, GOAL_P99_MS, loadDashboardIndex, nextWrite, openLoopWrites, writesLeft, openWritesPool, WRITES_SEED, INDEX,
} from './dashboard-workload.js';
import { cpuSecondsOf, seededRandom, summarize, type Summary } from './latency.js';
import { owned } from './teardown.js';

/**
 * The floor of bench:streams' live aggregations: the embedded engine alone (the standalone engine
 * in a child process: no gateway, so no HTTP streams, authentication, logs or change bus), the
 * same corpus, the same writes at the same rate through its HTTP API, and the same dashboards'
 * searches, each run again by this process after a write to its section, at most once per
 * `AGG_INTERVAL_MS` (the gateway's schedule) and `FLOOR_IN_FLIGHT` at once, with none of the gateway's
 * work around it.
 *
 * What no gateway on this engine, on this machine, can do better than: if the engine alone needs
 * more than a core, or misses the latency goal, a single-node gateway cannot meet it.
 */
export interface DashboardsFloor {
  /** Per dashboard: from sending a write to the end of the first search whose `max(seq)` covers it. */
  fresh: Summary;
  /** Per write: from sending it to its acknowledgement. */
  ack: Summary;
  /** The engine process's CPU time over the writes, as a share of one core (its worker threads included). */
  cpu: number;
  writeSeconds: number;
  /** Writes sent per second (the rate, unless this process fell behind). */
  sentPerSecond: number;
  /** How the writes left the bench (writesLeft). */
  left: string;
  failedWrites: number;
  /** Searches run per dashboard per second: mean and max. */
  runsPerSecond: { mean: number; max: number };
  /** Write-dashboard pairs no search covered within 5 s of the last acknowledgement. */
  missing: number;
  /** This process's CPU time over the writes (writes, searches, timing), as a share of one core. */
  benchCpu: number;
  /** The machine's one-minute load average as the writes began (the floor is only as good as the machine is quiet). */
  load: number;
  /** The floor misses issue 35's latency goal, or needs more than one core: the goal is below it on this machine. */
  missesGoal: boolean;
}

/**
 * Searches in flight at most. The gateway runs two at once (STREAM_AGG_CONCURRENCY) in process;
 * here each also crosses HTTP twice, and two left the engine idle between them (runs ~2.6/s per
 * dashboard, 70% of a core); a hundred queued a burst of searches before each write (ack p99 over
 * 1 s). Eight, loaded runs of 10 s at 500 writes/s: runs 3.3–3.8/s, ack p99 ~200 ms.
 */
export const FLOOR_IN_FLIGHT = 8;

export async function dashboardsFloor(docs: ReadonlyArray<Record<string, unknown>>, progress: (line: string) => void): Promise<DashboardsFloor> {
  const corpus = dashboardCorpus(docs);
  const data = await tempDir('bench-streams-dash-floor-');
  const removeData = owned(() => data.remove());
  const engine = await spawnEngine(data.dir);
  const stopEngine = owned(() => engine.stop());
  const writesPool = openWritesPool(engine.url);
  const searchPool = new Pool(engine.url, { connections: FLOOR_IN_FLIGHT });
  const closePools = owned(() => Promise.all([writesPool.close(), searchPool.close()]));
  try {
    await loadDashboardIndex(engine.url, {}, corpus);
    progress(`dashboards floor: ${docs.length} packages indexed in the engine alone`);

    /** Per section: the writes sent, in seq order (seq, sent at). */
    const writes = new Map<string, Array<{ seq: number; at: number }>>(corpus.sections.map((s) => [s, []]));
    const fresh: number[] = [];
    const limit = pLimit(FLOOR_IN_FLIGHT);
    let measuring = true;
    const loops = corpus.dashboards.map((d) => dashboardLoop(async () => {
      const res = await searchPool.request({ method: 'POST', path: `/${INDEX}/_search`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(dashboardSearch(d)) });
      const body = (await res.body.json()) as { aggregations?: { last?: { value?: number } } };
      if (res.statusCode >= 300) throw new Error(`dashboard search failed: ${res.statusCode} ${JSON.stringify(body)}`);
      return body.aggregations?.last?.value ?? 0;
    }, writes.get(d.section)!, limit, (ms) => measuring && fresh.push(ms)));
    const loopsOf = new Map<string, DashboardLoop[]>(corpus.sections.map((s) => [s, loops.filter((_, i) => corpus.dashboards[i].section === s)]));

    const random = seededRandom(WRITES_SEED);
    let seq = 0;
    const pid = engine.proc.pid!;
    const cpu0 = await cpuSecondsOf(pid);
    const load = loadavg()[0];
    const bench0 = process.cpuUsage();
    const run = await openLoopWrites(
      writesPool, {},
      () => nextWrite('aggregations', corpus, random, ++seq),
      (write, at) => writes.get(write.section)!.push({ seq: write.seq, at }),
      // the engine shows a write once it is durable, when it acknowledges it: the dashboards of its section run again
      (write) => { for (const loop of loopsOf.get(write.section)!) loop.changed(); },
    );
    const cpu = ((await cpuSecondsOf(pid)) - cpu0) / run.seconds;
    const { user, system } = process.cpuUsage(bench0);
    const benchCpu = (user + system) / 1e6 / run.seconds;
    const deadline = performance.now() + 5_000;
    const missingNow = () => loops.reduce((m, l) => m + l.uncovered(), 0);
    while (missingNow() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    measuring = false;
    const missing = missingNow();
    const failed = loops.map((l) => l.error).find((e) => e !== undefined);
    if (failed) throw failed;
    for (const l of loops) l.stop();
    const runs = loops.map((l) => l.runs / run.seconds);
    const s = summarize(fresh);
    const result: DashboardsFloor = {
      fresh: s, ack: summarize(run.acks), cpu, writeSeconds: run.seconds, sentPerSecond: run.sentPerSecond, left: writesLeft(run), failedWrites: run.failed,
      runsPerSecond: { mean: runs.reduce((a, b) => a + b, 0) / Math.max(1, runs.length), max: Math.max(0, ...runs) },
      missing,
      load,
      benchCpu,
      missesGoal: !(s.p99 < GOAL_P99_MS) || missing > 0 || cpu > 1,
    };
    progress(`dashboards floor: fresh p50 ${s.p50.toFixed(1)} / p99 ${s.p99.toFixed(1)} ms; engine CPU ${(cpu * 100).toFixed(0)}% of a core; acknowledged p50 ${result.ack.p50.toFixed(0)} / p99 ${result.ack.p99.toFixed(0)} ms`);
    return result;
  } finally {
    await closePools();
    await stopEngine();
    await removeData();
  }
}

interface DashboardLoop extends CoalescedLoop {
  /** The writes of its section no result has covered yet. */
  uncovered(): number;
}

/**
 * One dashboard, computed again after a change on the gateway's schedule (`coalescedLoop`): each
 * result's `max(seq)` times the writes of `writes` it covers.
 */
function dashboardLoop(
  search: () => Promise<number>,
  writes: ReadonlyArray<{ seq: number; at: number }>,
  limit: LimitFunction,
  sample: (ms: number) => void,
): DashboardLoop {
  let covered = 0;
  const loop = coalescedLoop(async () => {
    const upTo = await search();
    const at = performance.now();
    while (covered < writes.length && writes[covered].seq <= upTo) sample(at - writes[covered++].at);
  }, limit, AGG_INTERVAL_MS);
  return Object.assign(loop, { uncovered: () => writes.length - covered });
}
