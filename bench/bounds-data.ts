/**
 * bench:bounds-data — the hostile cases of issue 39's data half, each against its bound.
 *
 * One process, the embedded engine in-process (as the specs start it), `--expose-gc` for heap
 * figures. Each case prints what it took (ms), what it answered, and the heap it left; the floor
 * is a small document written through a one-processor pipeline in the same run, and every
 * ingest case is printed as a ratio to it. While each case runs, others are probed as bench:bounds
 * probes them: `GET /` of the engine every 50 ms (its latency from when it was due, so a loop held
 * by the case counts in full), failed probes, RSS growth, and the longest stretch of CPU the event
 * loop ran without a turn (thread CPU between two looks of a 5 ms timer); the goal is bench:bounds'
 * (p99 ≤ 2 × the baseline p99 + 50 ms, no failed probe, RSS +≤ 1 GB). The process is the engine's,
 * so the probe sees what the case does to everyone else on it.
 *
 *   ingest      grok definitions doubling over 30 levels (PUT), 200 × GREEDYDATA on a 1 MB field,
 *               foreach appending to its own list, nested pipelines doubling over 24 levels,
 *               split of 5 MB by "", gsub amplifying ×10 ten times, json nested 100,000 deep
 *   history     10 ids overwritten 5,000 times with 1 MB documents (in-process bus, default bytes)
 *   pit         points in time over 20,000 documents of 2 KB, a write between each, until refused;
 *               then all closed (RSS growth, the longest event-loop block in CPU ms, what a view takes
 *               in heap and typed arrays against what it is charged)
 *   rules       2,000 `matches` rules and a 4 KB search text: the rule set vs one regex per rule;
 *               rebuilding the set after a change
 *   indices     indices created until refused (cluster.max_shards_per_node, default 1000);
 *               BENCH_INDEX_CAP=1 raises the setting to 100,000 to show the store's own cap
 * BENCH_PARTS=ingest,pit,rules,indices,history runs only those parts (default: all).
 */
import { RE2JS } from 're2js';
import { Pool } from 'undici';
import { threadCpuMs } from '../lib/cooperative/index.js';
import { summarize } from './support/latency.js';
import { MemoryChangeBus } from '../lib/changes/index.js';
import { pointInTimeBytes } from '../lib/engine/embedded/indices/index.js';
import { compileAhead, fold, RuleSet, type SearchSituation } from '../lib/rules/rule-set.js';
import type { QueryRule } from '../lib/rules/rule.js';
import { RuleStore } from '../lib/rules/rule-store.js';
import { ndjson, startEngine, type Reply, type TestEngine } from '../spec/engine/embedded/support.js';

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / MB;
}


const RSS_GROWTH_GOAL_MB = 1024;
const PROBE_EVERY_MS = 50;

interface Probed {
  p50: number;
  p99: number;
  failed: number;
  n: number;
  rssMb: number;
  cpuMs: number;
}

/** Others' view of the engine while `work` runs (and at least `minMs`): see the file's comment. */
async function probed<T>(pool: Pool, work: () => Promise<T> | T, minMs = 1000): Promise<{ value: T; probe: Probed }> {
  const latencies: number[] = [];
  let failed = 0;
  let done = false;
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  let lastCpu = threadCpuMs() ?? 0;
  let cpuMs = 0;
  const looks = setInterval(() => {
    const now = threadCpuMs() ?? 0;
    cpuMs = Math.max(cpuMs, now - lastCpu);
    lastCpu = now;
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const sent: Promise<void>[] = [];
  const prober = (async () => {
    for (let i = 0; !done || performance.now() - started < minMs; i++) {
      const due = started + i * PROBE_EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(pool.request({ method: 'GET', path: '/', headersTimeout: 10_000, bodyTimeout: 10_000 }).then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) failed++;
        latencies.push(performance.now() - due);
      }, () => {
        failed++;
        latencies.push(performance.now() - due);
      }));
    }
  })();
  // the case starts once the probe has begun
  await new Promise((r) => setImmediate(r));
  let value: T;
  try {
    value = await work();
  } finally {
    done = true;
    await prober;
    await Promise.all(sent);
    clearInterval(looks);
  }
  const sum = summarize(latencies);
  return { value, probe: { p50: sum.p50, p99: sum.p99, failed, n: sum.n, rssMb: (rssPeak - rss0) / MB, cpuMs } };
}

let goalMs = Infinity;
const met = (p: Probed) => p.p99 <= goalMs && p.failed === 0 && p.rssMb <= RSS_GROWTH_GOAL_MB;
/** A probe's figures, and whether its goal was met (`reference`: a figure to compare with, no case of its own). */
const probeText = (p: Probed, reference = false) =>
  `probe p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms (${p.n}), ${reference ? 'a reference, no goal' : met(p) ? 'met' : 'MISSED'}; failed ${p.failed}; RSS +${p.rssMb.toFixed(0)} MB; longest block ${p.cpuMs} ms of CPU`;

async function baseline(pool: Pool): Promise<void> {
  await probed(pool, () => undefined, 1000);
  const { probe } = await probed(pool, () => undefined, 3000);
  goalMs = 2 * probe.p99 + 50;
  console.log(`baseline: probe p50 ${probe.p50.toFixed(1)} ms, p99 ${probe.p99.toFixed(1)} ms (${probe.n} probes, ${probe.failed} failed), longest block ${probe.cpuMs} ms of CPU; goal during a case: p99 ≤ ${goalMs.toFixed(1)} ms, no failed probe, RSS +≤ ${RSS_GROWTH_GOAL_MB} MB`);
}

async function timed<T>(f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

const answer = (r: Reply) => `${r.status} ${r.json?.error ? `${r.json.error.type}: ${String(r.json.error.reason).slice(0, 110)}` : (r.json?.result ?? '')}`;

async function ingest(es: TestEngine, pool: Pool): Promise<void> {
  const put = (id: string, processors: unknown[]) => es.call('PUT', `/_ingest/pipeline/${id}`, { processors });
  let n = 0;
  const write = (pipeline: string, doc: unknown) => es.call('PUT', `/bench/_doc/${++n}?pipeline=${pipeline}`, doc);

  await put('floor', [{ set: { field: 'x', value: 1 } }]);
  for (let i = 0; i < 50; i++) await write('floor', { f: 'warm' });
  const floorRuns: number[] = [];
  for (let i = 0; i < 200; i++) floorRuns.push((await timed(() => write('floor', { f: 'small' }))).ms);
  floorRuns.sort((a, b) => a - b);
  const floor = floorRuns[100];
  console.log(`floor: a small document through a one-processor pipeline, p50 ${floor.toFixed(2)} ms (200 writes)`);
  console.log('');
  console.log('ingest case                                   | ms        | × floor  | heap after MB | answer');

  const row = (name: string, ms: number, r: Reply, p: Probed) =>
    console.log(`${name.padEnd(45)} | ${ms.toFixed(0).padStart(9)} | ${(ms / floor).toFixed(0).padStart(8)} | ${heapMb().toFixed(0).padStart(13)} | ${answer(r)}\n${''.padEnd(45)} | ${probeText(p)}`);
  /** The case timed, with the probe running meanwhile. */
  const during = async (f: () => Promise<Reply>) => {
    const { value, probe } = await probed(pool, () => timed(f));
    return { ...value, probe };
  };

  const defs: Record<string, string> = { P0: 'a' };
  for (let i = 1; i <= 30; i++) defs[`P${i}`] = `%{P${i - 1}}%{P${i - 1}}`;
  let t = await during(() => put('doubling', [{ grok: { field: 'f', patterns: ['%{P30}'], pattern_definitions: defs } }]));
  row('grok definitions doubling ×30 (PUT)', t.ms, t.value, t.probe);

  await put('greedy', [{ grok: { field: 'f', patterns: [Array.from({ length: 200 }, (_, i) => `%{GREEDYDATA:f${i}}`).join(' ')] } }]);
  const spaced = Array.from({ length: 1 << 19 }, () => 'x').join(' ');
  t = await during(() => write('greedy', { f: spaced }));
  row('200 × GREEDYDATA on a 1 MB field', t.ms, t.value, t.probe);

  await put('grow', [{ foreach: { field: 'a', processor: { append: { field: 'a', value: 'x' } } } }]);
  t = await during(() => write('grow', { a: ['y'] }));
  row('foreach appending to its own list', t.ms, t.value, t.probe);

  for (let i = 24; i >= 0; i--) await put(`fan${i}`, i === 24 ? [{ set: { field: 'leaf', value: 1 } }] : [{ pipeline: { name: `fan${i + 1}` } }, { pipeline: { name: `fan${i + 1}` } }]);
  t = await during(() => write('fan0', { f: 1 }));
  row('nested pipelines doubling ×24', t.ms, t.value, t.probe);

  await put('chars', [{ split: { field: 'f', separator: '' } }]);
  t = await during(() => write('chars', { f: 'x'.repeat(5 * MB) }));
  row('split of 5 MB by ""', t.ms, t.value, t.probe);

  await put('amplify', Array.from({ length: 10 }, () => ({ gsub: { field: 'f', pattern: '', replacement: 'xxxxxxxxxx' } })));
  t = await during(() => write('amplify', { f: 'x'.repeat(1000) }));
  row('gsub "" → 10 chars, ten times, on 1,000', t.ms, t.value, t.probe);

  await put('deep', [{ json: { field: 'f' } }]);
  t = await during(() => write('deep', { f: '['.repeat(100_000) + ']'.repeat(100_000) }));
  row('json nested 100,000 deep', t.ms, t.value, t.probe);
}

async function history(pool: Pool): Promise<void> {
  const bus = new MemoryChangeBus();
  const before = heapMb();
  const t0 = performance.now();
  const writes = 5000;
  const { probe } = await probed(pool, async () => {
    for (let v = 1; v <= writes; v++) {
      // each write in a turn of its own, as writes arrive (requests): 5,000 in one promise chain
      // would be this load generator holding the loop, not the history
      await new Promise((resolve) => setImmediate(resolve));
      await bus.publish({ kind: 'document', index: 'big', type: '_doc', id: String(v % 10), op: 'index', version: v, seqNo: v, primaryTerm: 1, source: { v, text: `${v}`.padEnd(MB, 'x') } });
    }
  });
  const ms = performance.now() - t0;
  console.log(`history: ${writes} overwrites of 10 ids with 1 MB documents in ${ms.toFixed(0)} ms; the history holds ${(bus.historyBytes() / MB).toFixed(1)} MB (STREAM_HISTORY_BYTES default 64 MB); heap ${before.toFixed(0)} → ${heapMb().toFixed(0)} MB`);
  console.log(`history: ${probeText(probe)}`);
  await bus.close();
}

async function pointsInTime(es: TestEngine, pool: Pool): Promise<void> {
  const docs = Number(process.env.BENCH_PIT_DOCS ?? 20_000);
  const words = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}`);
  for (let start = 0; start < docs; start += 2000) {
    const lines: unknown[] = [];
    for (let i = start; i < Math.min(docs, start + 2000); i++) {
      lines.push({ index: { _index: 'pit', _id: String(i) } }, { text: Array.from({ length: 300 }, (_, j) => words[(i * 7 + j * 13) % 2000]).join(' ').slice(0, 2000), n: i });
    }
    await es.call('POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  }
  await es.call('POST', '/pit/_refresh');
  const base = heapMb();
  const external0 = process.memoryUsage().arrayBuffers / MB;
  const ids: string[] = [];
  let refused: Reply | undefined;
  const t0 = performance.now();
  const opening = await probed(pool, async () => {
    for (let k = 0; k < 200 && !refused; k++) {
      await es.call('PUT', `/pit/_doc/changed-${k}?refresh=true`, { text: 'changed' });
      const r = await es.call('POST', '/pit/_pit?keep_alive=10m');
      if (r.status === 200) ids.push(r.json.id);
      else refused = r;
    }
  });
  const ms = performance.now() - t0;
  const held = pointInTimeBytes();
  const atPeak = heapMb();
  // RSS growth and the longest block while opening: the probe's own looks (probeText)
  console.log(`pit: ${docs} documents of 2 KB; ${ids.length} points in time opened in ${ms.toFixed(0)} ms (a write between each), then ${refused ? answer(refused) : 'none refused'}`);
  const external = process.memoryUsage().arrayBuffers / MB - external0;
  console.log(`pit: charged ${(held.held / MB).toFixed(0)} MB of ${(held.limit / MB).toFixed(0)} MB (${(held.held / MB / Math.max(1, ids.length)).toFixed(1)} MB a view); heap ${base.toFixed(0)} → ${atPeak.toFixed(0)} MB and typed arrays +${external.toFixed(0)} MB (${((atPeak - base + external) / Math.max(1, ids.length)).toFixed(1)} MB a view)`);
  console.log(`pit: opening them: ${probeText(opening.probe)}`);
  const closing = await probed(pool, async () => {
    for (const id of ids) await es.call('DELETE', '/_pit', { id });
  });
  console.log(`pit: closing them: ${probeText(closing.probe)}`);
  console.log(`pit: all closed: charged ${(pointInTimeBytes().held / MB).toFixed(0)} MB, heap ${heapMb().toFixed(0)} MB`);
}

async function rules(es: TestEngine, pool: Pool): Promise<void> {
  const N = 2000;
  const rulesOf = (brand: string): QueryRule[] => Array.from({ length: N }, (_, i) => ({
    id: `r${i}`, enabled: true, trigger: { type: 'query', operator: 'matches', value: `(shoe|boot)s?\\s+size\\s+${i}\\b|${brand}-${i}[a-z]+` }, actions: [{ type: 'custom_data', value: i }],
  }));
  const ruleList = rulesOf('brand');
  const text = `${Array.from({ length: 800 }, (_, i) => `word${i % 97}`).join(' ').slice(0, 4000)} brand-77abc`;
  const situation: SearchSituation = { index: 'shop', query: text, filters: new Map(), now: 0 };
  const compiled = ruleList.map((r) => RE2JS.compile(r.trigger.value!, RE2JS.CASE_INSENSITIVE));
  const oneByOne = timedSync(() => compiled.filter((re) => re.matcher(text).find() || re.matcher(fold(text)).find()).length);
  // the set built in one piece (what a search that did not wait for the compile would do)
  const cold = await probed(pool, () => {
    const build = timedSync(() => new RuleSet(ruleList));
    const first = timedSync(() => build.value.matching(situation).length);
    return { build, first };
  });
  const set = cold.value.build.value;
  const steady: number[] = [];
  for (let i = 0; i < 50; i++) steady.push(timedSync(() => set.matching(situation)).ms);
  steady.sort((a, b) => a - b);
  const other = timedSync(() => set.matching({ ...situation, query: text.replace('brand-77', 'brand-1999') }).length);
  const rebuild = timedSync(() => new RuleSet([...ruleList, { ...ruleList[0], id: 'extra' }]));
  console.log(`rules: ${N} matches rules, a 4 KB text: one regex per rule ${oneByOne.ms.toFixed(0)} ms (${oneByOne.value} fired); the set: p50 ${steady[25].toFixed(2)} ms a search, another text ${other.ms.toFixed(0)} ms (${other.value} fired); ratio one-by-one / set p50 = ${(oneByOne.ms / steady[25]).toFixed(0)}×`);
  console.log(`rules: the set built in one piece (no store, for reference): ${cold.value.build.ms.toFixed(0)} ms, its first search ${cold.value.first.ms.toFixed(0)} ms; ${probeText(cold.probe, true)}`);
  // the rule store as the gateway has it: 2,000 rules stored, and a search right after the last
  // write (before the compile the change started has ended) waits for it (RuleStore.ready)
  const store = new RuleStore(es.engine, new MemoryChangeBus());
  await store.start();
  for (const rule of rulesOf('store').slice(0, N - 1)) await store.put(rule);
  await store.ready();
  const early = await probed(pool, async () => {
    const t0 = performance.now();
    await store.put(rulesOf('store')[N - 1]);
    await store.ready();
    const fired = store.rules.matching({ ...situation, query: text.replace('brand-77', 'store-1999') }).length;
    return { ms: performance.now() - t0, fired };
  });
  store.close();
  console.log(`rules: a search right after a change of one of ${N} stored rules waits for their compile: answered in ${early.value.ms.toFixed(0)} ms (${early.value.fired} fired); ${probeText(early.probe)}`);
  console.log(`rules: rebuilt after a change of one rule ${rebuild.ms.toFixed(1)} ms (each rule compiled once)`);
  // as the rule store does after a change: compiled ahead a slice at a time, then built, then searched
  const fresh = rulesOf('label');
  const ahead = await probed(pool, async () => {
    const compiling = await timed(() => compileAhead(fresh));
    const build = timedSync(() => new RuleSet(fresh));
    const first = timedSync(() => build.value.matching(situation).length);
    return { compiling, build, first };
  });
  console.log(`rules: compiled ahead (the rule store after a change) in ${ahead.value.compiling.ms.toFixed(0)} ms, then the set built in ${ahead.value.build.ms.toFixed(1)} ms, its first search ${ahead.value.first.ms.toFixed(0)} ms; ${probeText(ahead.probe)}`);
}

function timedSync<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: performance.now() - t0, value };
}

async function indices(es: TestEngine, pool: Pool): Promise<void> {
  const cap = process.env.BENCH_INDEX_CAP === '1';
  if (cap) await es.call('PUT', '/_cluster/settings', { transient: { 'cluster.max_shards_per_node': 100_000 } });
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  let created = 0;
  let refused: Reply | undefined;
  const { probe } = await probed(pool, async () => {
    for (let i = 0; i < 20_000 && !refused; i++) {
      const r = await es.call('PUT', `/many-${i}`);
      if (r.status === 200) created++;
      else refused = r;
    }
  });
  const ms = performance.now() - t0;
  console.log(`indices: ${created} created in ${ms.toFixed(0)} ms (${((process.memoryUsage().rss - rss0) / 1024 / Math.max(1, created)).toFixed(0)} KB RSS each), then ${refused ? answer(refused) : 'none refused'}`);
  console.log(`indices: ${probeText(probe)}`);
  if (cap) await es.call('PUT', '/_cluster/settings', { transient: { 'cluster.max_shards_per_node': null } });
}

const parts = process.env.BENCH_PARTS?.split(',').map((p) => p.trim());
function runs(part: string): boolean {
  const yes = !parts || parts.includes(part);
  if (yes) console.log('');
  return yes;
}

async function main(): Promise<void> {
  console.log(`bench:bounds-data — Node ${process.version}${gc ? '' : ' (run with --expose-gc for heap figures)'}`);
  const es = await startEngine();
  // the probe's own connections: a few, so that probes due while the loop is held queue on none
  const pool = new Pool(es.url, { connections: 8 });
  try {
    await baseline(pool);
    if (runs('ingest')) await ingest(es, pool);
    if (runs('pit')) await pointsInTime(es, pool);
    if (runs('rules')) await rules(es, pool);
    if (runs('indices')) await indices(es, pool);
    if (runs('history')) await history(pool);
  } finally {
    await pool.destroy();
    await es.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
