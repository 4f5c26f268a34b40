/**
 * bench:rules — what 1,000 stored query rules add to a declarative search.
 *
 * One run, the gateway in-process on the embedded engine with BENCH_DOCS Debian packages:
 *   1. the search with no rule stored (the reference);
 *   2. 1,000 rules stored — 100 (10%) on the searched index, of which one fires for the search
 *      (it adds custom data), 900 on other indices — then the same search, interleaved with the
 *      same search sent with `enableQueryRules: false` (a second reference, same heap, same time);
 *   3. the rule lookup alone (RuleSet.matching), per call, with the same 1,000 rules.
 * Prints p50/p99 of each, the added latency and the ratio. Goal: added p50 under 0.3 ms.
 */
import { loadConfig } from '../lib/config/index.js';
import { startGateway } from '../lib/server/index.js';
import { silentLogger } from '../lib/logging/index.js';
import { parseRule, RuleSet } from '../lib/rules/index.js';
import { tempDir } from '../spec/support/servers.js';
import { bulkIndex, loadCorpus } from './support/corpus.js';
import { runLoad, fmt, type LoadResult } from './support/load.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const DOCS = Number(process.env.BENCH_DOCS ?? 20_000);
const RULES = 1000;
const auth = 'Basic ' + Buffer.from('bench:bench-password').toString('base64');
const json = { 'content-type': 'application/json', authorization: auth };

const search = (enableQueryRules: boolean) =>
  JSON.stringify({ query: [{ id: 'search', dataField: [{ field: 'name', weight: 3 }, 'summary'], value: 'python library', size: 10 }], settings: { enableQueryRules } });

/** Rule i: one in ten on the searched index; triggers of every kind; only rule 0 fires for "python library". */
function ruleBody(i: number): Record<string, unknown> {
  const onIndex = i % 10 === 0;
  const indices = [onIndex ? 'debian' : `other-${i}`];
  const kinds: Array<Record<string, unknown>> = [
    { type: 'query', operator: 'is', value: `term ${i}` },
    { type: 'query', operator: 'contains', value: `word${i}` },
    { type: 'query', operator: 'starts_with', value: `prefix${i}` },
    { type: 'query', operator: 'ends_with', value: `suffix${i}` },
    { type: 'query', operator: 'matches', value: `^re${i}[a-z]+$` },
    { type: 'filter', filter: { field: 'section', value: `section-${i}` } },
    { type: 'always', timeframe: { start_time: 4_000_000_000 } },
  ];
  const trigger = i === 0 ? { type: 'query', operator: 'is', value: 'Python Library' } : kinds[i % kinds.length];
  return { name: `rule ${i}`, trigger: { ...trigger, indices }, actions: i === 0 && process.env.BENCH_HIDE !== '1' ? { custom_data: { rule: i } } : { custom_data: { rule: i }, hide: [`hidden-${i}`] } };
}

const row = (name: string, r: LoadResult) =>
  console.log(`${name.padEnd(34)} | ${fmt(r.rps, 0).padStart(7)} | ${fmt(r.p50, 3).padStart(8)} | ${fmt(r.p99, 3).padStart(8)} | ${r.errors}`);

async function main() {
  console.log(`bench:rules — Node ${process.version}, ${DOCS} Debian packages, ${RULES} rules (10% on the searched index), ${DURATION_MS} ms per measurement, one client`);
  const data = await tempDir('bench-rules-');
  const gw = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir, ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' }), { log: () => {}, logger: silentLogger() });
  try {
    const docs = await loadCorpus(DOCS);
    await bulkIndex(gw.url, auth, 'debian', docs);
    const spec = (rules: boolean) => ({ method: 'POST' as const, path: '/debian/_declarative', body: search(rules), headers: json });
    const measure = (rules: boolean, ms = DURATION_MS / 2) => runLoad(gw.url, spec(rules), { concurrency: 1, durationMs: ms });
    const mean = (a: LoadResult, b: LoadResult): LoadResult => {
      if (a.errors || b.errors) throw new Error('the search failed during a measurement');
      return { ...a, rps: (a.rps + b.rps) / 2, p50: (a.p50 + b.p50) / 2, p99: (a.p99 + b.p99) / 2, errors: 0 };
    };
    const probe = await fetch(`${gw.url}/debian/_declarative`, { method: 'POST', headers: json, body: search(true) });
    if (!probe.ok) throw new Error(`the search fails: ${probe.status} ${await probe.text()}`);
    await probe.arrayBuffer();

    await measure(true, 1000); // warm up
    const none = mean(await measure(true), await measure(true));

    const started = Date.now();
    for (let i = 0; i < RULES; i++) {
      const res = await fetch(`${gw.url}/_rule/rule-${i}`, { method: 'PUT', headers: json, body: JSON.stringify(ruleBody(i)) });
      if (res.status !== 201) throw new Error(`rule ${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const storeMs = Date.now() - started;
    const check = (await (await fetch(`${gw.url}/debian/_declarative`, { method: 'POST', headers: json, body: search(true) })).json()) as { search?: { customData?: unknown } };
    if (JSON.stringify(check.search?.customData) !== '{"rule":0}') throw new Error(`the firing rule did not apply: ${JSON.stringify(check).slice(0, 300)}`);
    await measure(true, 1000);
    // interleaved, so that drift falls on both sides
    const off1 = await measure(false);
    const on1 = await measure(true);
    const on2 = await measure(true);
    const off2 = await measure(false);
    const on = mean(on1, on2);
    const off = mean(off1, off2);

    console.log(`stored ${RULES} rules through the API in ${storeMs} ms; the firing rule's custom data is in the answer`);
    console.log(`${'declarative search'.padEnd(34)} |   req/s |   p50 ms |   p99 ms | errors`);
    row('no rule stored', none);
    row(`${RULES} rules stored, rules off`, off);
    row(`${RULES} rules stored, rules on`, on);
    const added = on.p50 - none.p50;
    console.log(`added by ${RULES} rules: p50 ${fmt(added, 3)} ms, p99 ${fmt(on.p99 - none.p99, 3)} ms (vs rules off in the same phase: p50 ${fmt(on.p50 - off.p50, 3)} ms); ratio p50 ${fmt(on.p50 / none.p50, 3)} (goal: added p50 < 0.3 ms → ${added < 0.3 ? 'met' : 'missed'})`);

    // the lookup alone, in this process
    const set = new RuleSet(Array.from({ length: RULES }, (_, i) => parseRule(ruleBody(i), `rule-${i}`)));
    const situation = { index: 'debian', query: 'python library', filters: new Map<string, string[]>(), now: Math.floor(Date.now() / 1000) };
    if (set.matching(situation).length !== 1) throw new Error('the lookup should find exactly the firing rule');
    const n = 200_000;
    for (let i = 0; i < 20_000; i++) set.matching(situation);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) set.matching(situation);
    console.log(`RuleSet.matching with ${RULES} rules (100 on the index): ${fmt(Number(process.hrtime.bigint() - t0) / 1000 / n, 2)} µs per search`);
  } finally {
    await gw.close();
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
