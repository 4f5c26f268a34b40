import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { DEBIAN_INDEX } from './live-search-mix.js';

/**
 * What bench:streams' live dashboards ask of a node, shared by the gateway run
 * (live-dashboards.ts) and its floor, the engine alone (dashboards-floor.ts), so that both see
 * the same corpus, the same dashboards and the same writes at the same rate.
 */
export const INDEX = 'dash';
export const DISTINCT = Number(process.env.BENCH_DASH_DISTINCT ?? 100);
export const WRITES_PER_SECOND = Number(process.env.BENCH_DASH_RATE ?? 500);
export const SECONDS = Number(process.env.BENCH_DASH_SECONDS ?? 30);
/** Issue 35's goals for the aggregation streams. */
export const GOAL_P99_MS = 300;
export const GOAL_PUSHES_PER_SECOND = 4;
/** The gateway's defaults: a live aggregation is computed at most once per 250 ms (STREAM_AGG_INTERVAL_MS), 2 at most at once (STREAM_AGG_CONCURRENCY). */
export const AGG_INTERVAL_MS = 250;
export const AGG_CONCURRENCY = 2;
/** The seed of each part's writes: the floor's are the gateway aggregations' own. */
export const WRITES_SEED = 18;

const DAY = 86_400_000;
const YEAR_START = Date.UTC(2024, 0, 1);

/** Dashboard `variant` 0 has a monthly histogram, 1 a weekly one, and so on. */
const INTERVALS = ['month', 'week', 'day', 'quarter'];

export interface Dashboard {
  section: string;
  variant: number;
}

/** One dashboard's search: a section's priorities, updates per period, total size and latest `seq`. */
export const dashboardSearch = ({ section, variant }: Dashboard) => ({
  size: 0,
  query: { term: { 'section.raw': section } },
  aggs: {
    priority: { terms: { field: 'priority' } },
    per_period: { date_histogram: { field: 'updated_at', calendar_interval: INTERVALS[variant % INTERVALS.length] } },
    size: { sum: { field: 'installed_size_kb' } },
    last: { max: { field: 'seq' } },
  },
});

/** The index: the Debian corpus's mapping with `updated_at` and `seq`. */
export function dashboardMapping(): Record<string, unknown> {
  const mapping = structuredClone(DEBIAN_INDEX) as { mappings: { properties: Record<string, unknown> } };
  mapping.mappings.properties.updated_at = { type: 'date' };
  mapping.mappings.properties.seq = { type: 'long' };
  return mapping;
}

/** The sections of the corpus, most packages first. */
function largestSections(docs: ReadonlyArray<Record<string, unknown>>): string[] {
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(String(d.section), (counts.get(String(d.section)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([s]) => s);
}

export interface DashboardCorpus {
  /** The `DISTINCT` dashboards: each section, largest first, then each again in the next variant. */
  dashboards: Dashboard[];
  sections: string[];
  /** Per section: the ids of its packages. */
  bySection: Map<string, string[]>;
  /** The packages as indexed: each with an `updated_at` in 2024, `seq` 0 and its id. */
  packages: Array<{ id: string; doc: Record<string, unknown> }>;
}

export function dashboardCorpus(docs: ReadonlyArray<Record<string, unknown>>): DashboardCorpus {
  const ordered = largestSections(docs);
  const dashboards = Array.from({ length: DISTINCT }, (_, i) => ({ section: ordered[i % ordered.length], variant: Math.floor(i / ordered.length) }));
  const sections = [...new Set(dashboards.map((d) => d.section))];
  const bySection = new Map<string, string[]>(sections.map((s) => [s, []]));
  const packages = docs.map((d, i) => {
    const id = `p${i}`;
    bySection.get(String(d.section))?.push(id);
    return { id, doc: { ...d, updated_at: new Date(YEAR_START + (i % 365) * DAY).toISOString(), seq: 0 } };
  });
  return { dashboards, sections, bySection, packages };
}

/** Creates the index at `url` (a gateway or an engine) and bulk-loads the packages under their ids, refreshed. */
export async function loadDashboardIndex(url: string, headers: Record<string, string>, corpus: DashboardCorpus): Promise<void> {
  const created = await fetch(`${url}/${INDEX}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(dashboardMapping()) });
  if (!created.ok) throw new Error(`creating ${INDEX} failed: ${created.status} ${await created.text()}`);
  await created.arrayBuffer();
  const { packages } = corpus;
  for (let i = 0; i < packages.length; i += 5000) {
    const lines: string[] = [];
    for (const { id, doc } of packages.slice(i, i + 5000)) lines.push(JSON.stringify({ index: { _index: INDEX, _id: id } }), JSON.stringify(doc));
    const res = await fetch(`${url}/_bulk?refresh=${i + 5000 >= packages.length}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
    if (!res.ok) throw new Error(`bulk failed: ${res.status}`);
    await res.arrayBuffer();
  }
}

/** One write: the document `id` of `section` set to `doc`, whose `seq` is `seq`. */
export interface DashboardWrite {
  section: string;
  id: string;
  seq: number;
  doc: Record<string, unknown>;
}

/**
 * The write of sequence number `seq`: a random dashboard's section; for the aggregations, a
 * random package of it updated (new `seq`, `updated_at` now, another size); for the declarative
 * UIs, a new package in it.
 */
export function nextWrite(kind: 'aggregations' | 'declarative', corpus: DashboardCorpus, random: () => number, seq: number): DashboardWrite {
  const section = corpus.dashboards[Math.floor(random() * corpus.dashboards.length)].section;
  const ids = corpus.bySection.get(section)!;
  const id = kind === 'aggregations' ? ids[Math.floor(random() * ids.length)] : `w${seq}`;
  const doc = { name: `pkg${seq}`, section, priority: ['optional', 'important', 'extra'][seq % 3], installed_size_kb: Math.floor(random() * 100_000), updated_at: new Date().toISOString(), seq };
  return { section, id, seq, doc };
}

/**
 * The pool the writes go through, the floor's and the gateway's alike: as many in flight as the
 * rate times an acknowledgement allows (256: half a second at 500/s). A node that acknowledges
 * fewer writes a second than the rate leaves the others waiting here for a connection; the run
 * says so (`writesLeft`), since their acknowledgement and push times then include that wait. At
 * 5,000 streams (loaded) this was most of both: acknowledged p50 31 s, while a write from another
 * process, on a connection of its own, was acknowledged in 4 ms to 2 s. More connections do not
 * remove the wait, they move it: opened as they were needed (up to 5,000), the writes waited in
 * the gateway's accept queue instead (5–9 s at 1,000 streams, loaded).
 */
export const openWritesPool = (url: string): Pool => new Pool(url, { connections: 256 });

export interface OpenLoopWrites {
  /** Per write: from sending it to its acknowledgement, ms. */
  acks: number[];
  failed: number;
  /** From the first write's sending to the last one's acknowledgement. */
  seconds: number;
  /** Writes sent per second, from the first one's sending to the last one's: below the rate when this process is short of CPU. */
  sentPerSecond: number;
  /** Writes that waited in this process for a connection, at most at once: 0 when each left as it was due. */
  queuedMax: number;
  /** Writes acknowledged per second while they were sent: below the rate when the node falls behind. */
  ackedPerSecond: number;
  /** Connections the writes opened. */
  connections: number;
  /** This process's event-loop delay over the writes (p99 and max, ms): what it adds to every time it takes. */
  loopDelay: { p99: number; max: number };
}

/**
 * Sends `WRITES_PER_SECOND × SECONDS` writes through `pool` at a steady rate, open loop (a write is
 * sent when due, whatever the acknowledgements before it: the pool holds as many in flight as the
 * rate times an acknowledgement needs). `sent` is told of each write as it leaves (`at`, from
 * performance.now()), `acknowledged` of each successful acknowledgement.
 */
export async function openLoopWrites(
  pool: Pool,
  headers: Record<string, string>,
  next: () => DashboardWrite,
  sent: (write: DashboardWrite, at: number) => void,
  acknowledged?: (write: DashboardWrite) => void,
): Promise<OpenLoopWrites> {
  const total = WRITES_PER_SECOND * SECONDS;
  const acks: number[] = [];
  const inFlight: Array<Promise<void>> = [];
  let failed = 0;
  let queuedMax = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const t0 = performance.now();
  for (let w = 0; w < total; w++) {
    const wait = t0 + (w * 1000) / WRITES_PER_SECOND - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const write = next();
    const at = performance.now();
    sent(write, at);
    inFlight.push(
      pool.request({ method: 'PUT', path: `/${INDEX}/_doc/${write.id}`, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(write.doc) })
        .then(async (res) => {
          await res.body.dump();
          acks.push(performance.now() - at);
          if (res.statusCode >= 300) failed++;
          else acknowledged?.(write);
        }),
    );
    queuedMax = Math.max(queuedMax, pool.stats.queued);
  }
  const sendingSeconds = Math.max(1e-3, (performance.now() - t0) / 1000);
  const sentPerSecond = total / sendingSeconds;
  const ackedPerSecond = acks.length / sendingSeconds;
  await Promise.all(inFlight);
  loop.disable();
  return {
    acks, failed, seconds: (performance.now() - t0) / 1000, sentPerSecond, ackedPerSecond, queuedMax, connections: pool.stats.connected,
    loopDelay: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
  };
}

/** How a run's writes left this process, for its note: whether any waited here for a connection, and this process's event-loop delay. */
export const writesLeft = (run: OpenLoopWrites): string =>
  `${run.ackedPerSecond.toFixed(0)}/s acknowledged while sending, ` +
  `${run.queuedMax ? `up to ${run.queuedMax} writes waited in the bench for one of ${run.connections} connections (their times include that wait)` : `each write sent when due (${run.connections} connections)`}, ` +
  `the bench's event-loop delay p99 ${run.loopDelay.p99.toFixed(0)} / max ${run.loopDelay.max.toFixed(0)} ms`;
