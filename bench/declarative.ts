/**
 * bench:declarative — (1) translation cost per request of a typical 5-component search UI request
 * (search box, two term facets, a range, a result list reacting to all), (2) its end-to-end latency
 * through the gateway on the Debian corpus, against the equivalent `_msearch` sent directly through
 * the same gateway in the same run (the embedded engine, in-process).
 */
import { loadConfig } from '../lib/config/index.js';
import {
  FieldCatalog, checkReactGraph, checkRequestShape, translate, translateDeclarative, validateDeclarative,
  type DeclarativeRequest, type IndexMeta,
} from '../lib/declarative/index.js';
import { startGateway } from '../lib/server/index.js';
import { silentLogger } from '../lib/logging/index.js';
import type { Principal } from '../lib/auth/index.js';
import { tempDir } from '../spec/support/servers.js';
import { bulkIndex, loadCorpus } from './support/corpus.js';
import { runLoad, fmt } from './support/load.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50_000);
const auth = 'Basic ' + Buffer.from('bench:bench-password').toString('base64');

const MAPPINGS = {
  properties: {
    name: { type: 'text', fields: { raw: { type: 'keyword' } } },
    summary: { type: 'text' },
    section: { type: 'keyword' },
    architecture: { type: 'keyword' },
    priority: { type: 'keyword' },
    maintainer: { type: 'text', fields: { raw: { type: 'keyword' } } },
    installed_size_kb: { type: 'long' },
  },
};

/** What a search-as-you-type UI sends on a keystroke. */
const REQUEST: DeclarativeRequest = {
  query: [
    { id: 'search', dataField: [{ field: 'name', weight: 3 }, 'summary'], value: 'python library', execute: false },
    { id: 'section', type: 'term', dataField: 'section', value: ['python', 'libs'], aggregationSize: 20, react: { and: ['search', 'size'] } },
    { id: 'arch', type: 'term', dataField: 'architecture', value: 'all', react: { and: ['search', 'size'] } },
    { id: 'size', type: 'range', dataField: 'installed_size_kb', value: { start: 10, end: 5000 }, react: 'search' },
    { id: 'results', dataField: ['name', 'summary'], react: { and: ['search', 'section', 'arch', 'size'] }, size: 10, includeFields: ['name', 'summary', 'version', 'section'] },
  ],
  settings: { backend: 'elasticsearch' },
};

function perCall(label: string, n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(n, 5000); i++) fn(); // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  const us = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`${label.padEnd(48)} ${fmt(us, 2).padStart(8)} µs`);
  return us;
}

async function main() {
  console.log(`bench:declarative — Node ${process.version}`);
  // 1. translation, pure (no I/O)
  const meta: Record<string, IndexMeta> = { debian: { mappings: MAPPINGS } as IndexMeta };
  const catalogs = new Map([['debian', FieldCatalog.fromIndexMeta(meta)]]);
  const admin: Principal = {
    username: 'bench', role: 'user',
    credential: { username: 'bench', indices: ['debian'], categories: ['declarative'], ops: ['read'], sources: [], referers: [], allow_raw_dsl: false, role: 'user', created_at: '', updated_at: '' },
  };
  const body = JSON.stringify(REQUEST);
  console.log(`\ntranslation, ${ITERATIONS} iterations, 5 components (4 executing)`);
  perCall('translate() only', ITERATIONS, () => translate(REQUEST, catalogs, { defaultIndex: 'debian' }));
  const full = perCall('parse + schema + react graph + translate + NDJSON', ITERATIONS, () => {
    const parsed = JSON.parse(body) as DeclarativeRequest;
    checkRequestShape(parsed);
    checkReactGraph(parsed.query);
    const t = translate(parsed, catalogs, { defaultIndex: 'debian' });
    let s = '';
    for (const line of t.msearch) s += JSON.stringify(line) + '\n';
    return s;
  });
  const mappingsOf = async () => catalogs.get('debian')!;
  const n = ITERATIONS / 5;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) translateDeclarative(await validateDeclarative(JSON.parse(body), admin, mappingsOf, { defaultIndex: 'debian' }));
  const asyncUs = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`${'validateDeclarative + translateDeclarative (async)'.padEnd(48)} ${fmt(asyncUs, 2).padStart(8)} µs`);
  console.log(`goal: < 50 µs per request → ${full < 50 && asyncUs < 50 ? 'met' : 'NOT met'}`);

  // 2. end to end on the Debian corpus
  const data = await tempDir('bench-declarative-');
  const gw = await startGateway(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir, ADMIN_USER: 'bench', ADMIN_PASSWORD: 'bench-password' }), { log: () => {}, logger: silentLogger() });
  try {
    const json = { 'content-type': 'application/json', authorization: auth };
    const created = await fetch(`${gw.url}/debian`, { method: 'PUT', headers: json, body: JSON.stringify({ mappings: MAPPINGS }) });
    if (!created.ok) throw new Error(`index creation failed: ${created.status} ${await created.text()}`);
    const docs = await loadCorpus();
    await bulkIndex(gw.url, auth, 'debian', docs);
    console.log(`\nend to end: ${docs.length} Debian packages, gateway in-process on the embedded engine, ${DURATION_MS} ms per run`);
    const direct = translate(REQUEST, catalogs, { defaultIndex: 'debian' }).msearch.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const check = await (await fetch(`${gw.url}/_declarative`.replace('/_declarative', '/debian/_declarative'), { method: 'POST', headers: json, body })).json() as Record<string, { hits?: { total?: { value: number } } }>;
    console.log(`results: ${check.results?.hits?.total?.value} hits; section facet, arch facet, size range answered: ${['section', 'arch', 'size'].every((k) => k in check)}`);
    const declarativeSpec = { method: 'POST' as const, path: '/debian/_declarative', body, headers: json };
    const msearchSpec = { method: 'POST' as const, path: '/_msearch', body: direct, headers: { 'content-type': 'application/x-ndjson', authorization: auth } };
    console.log('concurrency | request                 |   req/s |  p50 ms |  p99 ms | errors');
    for (const concurrency of [1, 8]) {
      await runLoad(gw.url, declarativeSpec, { concurrency, durationMs: 700 });
      await runLoad(gw.url, msearchSpec, { concurrency, durationMs: 700 });
      // interleaved halves so drift (GC, JIT) falls on both sides
      const d1 = await runLoad(gw.url, msearchSpec, { concurrency, durationMs: DURATION_MS / 2 });
      const q1 = await runLoad(gw.url, declarativeSpec, { concurrency, durationMs: DURATION_MS / 2 });
      const q2 = await runLoad(gw.url, declarativeSpec, { concurrency, durationMs: DURATION_MS / 2 });
      const d2 = await runLoad(gw.url, msearchSpec, { concurrency, durationMs: DURATION_MS / 2 });
      const avg = (a: typeof d1, b: typeof d1) => ({ rps: (a.rps + b.rps) / 2, p50: (a.p50 + b.p50) / 2, p99: (a.p99 + b.p99) / 2, errors: a.errors + b.errors });
      const d = avg(d1, d2);
      const q = avg(q1, q2);
      for (const [name, r] of [['direct _msearch', d], ['declarative', q]] as const) {
        console.log(`${String(concurrency).padStart(11)} | ${name.padEnd(23)} | ${fmt(r.rps, 0).padStart(7)} | ${fmt(r.p50).padStart(7)} | ${fmt(r.p99).padStart(7)} | ${r.errors}`);
      }
      console.log(`${String(concurrency).padStart(11)} | ratio declarative/direct: p50 ${fmt(q.p50 / d.p50)}, p99 ${fmt(q.p99 / d.p99)}, req/s ${fmt(q.rps / d.rps)} (goal: p50 ≤ 1.10)`);
    }
  } finally {
    await gw.close();
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
