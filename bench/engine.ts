/**
 * bench:engine — the Debian corpus in the embedded engine (in-process, through Backend.request, so
 * JSON parse and serialisation count) and in MiniSearch, the same query mix on both: indexing
 * docs/s, p50/p99 per query kind, heap used, reopen time, and the ratios engine/MiniSearch; then
 * a stored search template's p50/p99 next to the same search sent directly.
 *
 * Indexing is measured twice on the engine: with a mapping that indexes the fields MiniSearch
 * indexes and nothing else (the like-for-like figure), and with the full mapping the queries need
 * (dynamic mapping of every other field, multi-fields: several times the terms per document).
 * The like-for-like figure is the median of BENCH_INDEX_ROUNDS rounds (default 5), each an engine
 * run and a MiniSearch run back to back, after a warm-up of both: on a shared 2-core machine one
 * run of either varies by ±20%. The engine's time runs from the first request sent to the last
 * answer parsed; the request bodies are built before (a load generator's payload), MiniSearch
 * gets the documents as objects. Each round also indexes the same two fields with the `french`
 * language analyzer, beside the standard one: what a language analyzer costs at indexing.
 *
 * Last, a scripted `_update_by_query` over the whole corpus (a Painless script reading and
 * writing `_source`, some documents left as they are with `ctx.op = 'noop'`), beside the same
 * request without a script, which rewrites every document as it is: docs/s of each. And the
 * corpus through `_bulk?pipeline=` with an ingest pipeline of five processors, beside the same
 * `_bulk` without one: docs/s of each.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { openEmbeddedEngine, type EmbeddedEngine } from '../lib/engine/embedded/index.js';
import { readJson } from '../lib/engine/index.js';
import { tempDir } from '../spec/support/servers.js';
import { loadCorpus } from './support/corpus.js';
import { fmt } from './support/load.js';

const BATCH = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
type Doc = Record<string, unknown>;

const SETTINGS = {
  settings: {
    number_of_shards: 1,
    analysis: {
      filter: { autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20, token_chars: ['letter', 'digit', 'punctuation', 'symbol'] } },
      analyzer: { autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'autosuggest_filter'] } },
    },
  },
  mappings: {
    properties: {
      name: { type: 'text', fields: { raw: { type: 'keyword' }, autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'simple' } } },
      summary: { type: 'text' },
      section: { type: 'text', fields: { raw: { type: 'keyword' } } },
      installed_size_kb: { type: 'long' },
    },
  },
};

/**
 * The fields MiniSearch indexes (`fields` below), and nothing else: `dynamic: false` keeps the other
 * fields in `_source` without indexing them, so both sides index the same text.
 */
const SAME_FIELDS = {
  settings: { number_of_shards: 1 },
  mappings: { dynamic: false, properties: { name: { type: 'text' }, summary: { type: 'text' } } },
};

/** The same fields analysed by a language analyzer (french: elision, stop words, light stemmer) instead of standard. */
const FRENCH_FIELDS = {
  settings: { number_of_shards: 1 },
  mappings: { dynamic: false, properties: { name: { type: 'text', analyzer: 'french' }, summary: { type: 'text', analyzer: 'french' } } },
};

const WORDS = ['network', 'library', 'python', 'server', 'documentation', 'perl module', 'gnome desktop', 'development files', 'font', 'kernel'];
const PREFIXES = ['l', 'li', 'lib', 'libs', 'libss', 'py', 'pyt', 'pyth', 'g', 'gn', 'gno', 'gnom', 'x', 'xs', 'xse', 'fo', 'fon', 'font'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(fn: (i: number) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 20; i++) await fn(i);
  const lat: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await fn(i);
    lat.push(performance.now() - t0);
  }
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

async function search(engine: EmbeddedEngine, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await engine.request({ method: 'POST', path: '/debian/_search', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await readJson<Record<string, unknown>>(res);
  return { status: res.status, json };
}

/**
 * The corpus as `_bulk` request bodies of BATCH documents, built before any timing as a load
 * generator holds its payload (each body one flat string, as a request read off a socket is).
 */
function bulkBodies(docs: Doc[], from = 0, to = docs.length): string[] {
  const bodies: string[] = [];
  for (let i = from; i < to; i += BATCH) {
    const lines: string[] = [];
    for (let j = i; j < Math.min(i + BATCH, to); j++) lines.push(JSON.stringify({ index: { _id: String(j) } }), JSON.stringify(docs[j]));
    lines.push('');
    bodies.push(lines.join('\n'));
  }
  return bodies;
}

/**
 * Creates `index` with `settings` and sends it the bodies through `_bulk`, one request at a time,
 * each answer read and parsed: seconds taken, memory the index holds.
 */
/** `querystring`: the bulk requests' URL parameters, without `?` (an in-process request takes them apart from the path). */
async function indexCorpus(engine: EmbeddedEngine, index: string, settings: unknown, bodies: string[], querystring = ''): Promise<{ seconds: number; heap: number; buffers: number }> {
  const created = await engine.request({ method: 'PUT', path: `/${index}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
  if (created.status !== 200) throw new Error(`create index: ${JSON.stringify(await readJson(created))}`);
  await readJson(created);
  global.gc?.();
  const mem0 = process.memoryUsage();
  const t0 = performance.now();
  for (const body of bodies) {
    const res = await engine.request({ method: 'POST', path: `/${index}/_bulk`, querystring, headers: { 'content-type': 'application/x-ndjson' }, body });
    const answer = await readJson<{ errors: boolean }>(res);
    if (res.status !== 200 || answer.errors) throw new Error(`bulk failed: ${JSON.stringify(answer).slice(0, 400)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  global.gc?.();
  const mem1 = process.memoryUsage();
  return { seconds, heap: mem1.heapUsed - mem0.heapUsed, buffers: mem1.arrayBuffers - mem0.arrayBuffers };
}

const MINI_OPTIONS = {
  idField: 'id', fields: ['name', 'summary'], storeFields: ['name', 'section', 'installed_size_kb'],
  extractField: (d: Doc, f: string) => (f === 'id' ? (d as Doc & { id: number }).id : (d[f] as string)),
};

/** MiniSearch indexing the documents (given as objects, as it takes them): seconds, and the index. */
function miniIndex(docs: Array<Doc & { id: number }>): { seconds: number; mini: MiniSearch<Doc> } {
  const t0 = performance.now();
  const mini = new MiniSearch<Doc>(MINI_OPTIONS);
  mini.addAll(docs);
  return { seconds: (performance.now() - t0) / 1000, mini };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const INDEX_ROUNDS = Number(process.env.BENCH_INDEX_ROUNDS ?? 5);
const WARMUP_DOCS = 5000;

async function main() {
  const docs = await loadCorpus();
  const data = await tempDir('bench-engine-');
  try {
    const dir = path.join(data.dir, 'engine');
    let engine = await openEmbeddedEngine({ dataDir: dir });

    const bodies = bulkBodies(docs);
    const withIds = docs.map((d, id) => ({ ...d, id }));
    // Warm-up of both sides (JIT), on the first documents, into indices thrown away.
    await indexCorpus(engine, 'warm-up', SAME_FIELDS, bulkBodies(docs, 0, WARMUP_DOCS));
    await readJson(await engine.request({ method: 'DELETE', path: '/warm-up' }));
    miniIndex(withIds.slice(0, WARMUP_DOCS));

    // The same fields as MiniSearch, INDEX_ROUNDS times, each round one engine run (into a fresh
    // index, then dropped) and one MiniSearch run, alternating so that both see the same machine.
    const sameRuns: Array<{ seconds: number; heap: number; buffers: number }> = [];
    const frenchRuns: number[] = [];
    const miniRuns: number[] = [];
    let mini: MiniSearch<Doc> | undefined;
    let miniHeap = 0;
    for (let round = 0; round < INDEX_ROUNDS; round++) {
      sameRuns.push(await indexCorpus(engine, `debian-same-fields-${round}`, SAME_FIELDS, bodies));
      await readJson(await engine.request({ method: 'DELETE', path: `/debian-same-fields-${round}` }));
      frenchRuns.push((await indexCorpus(engine, `debian-french-${round}`, FRENCH_FIELDS, bodies)).seconds);
      await readJson(await engine.request({ method: 'DELETE', path: `/debian-french-${round}` }));
      mini = undefined;
      global.gc?.();
      const heap0 = process.memoryUsage().heapUsed;
      const run = miniIndex(withIds);
      miniRuns.push(run.seconds);
      mini = run.mini;
      global.gc?.();
      // The first round's: later rounds start with the previous index not yet collected.
      if (round === 0) miniHeap = process.memoryUsage().heapUsed - heap0;
    }
    const same = { seconds: median(sameRuns.map((r) => r.seconds)), heap: sameRuns[0].heap, buffers: sameRuns[0].buffers };
    const miniIndexS = median(miniRuns);
    const frenchS = median(frenchRuns);
    // Then the bench's full mapping, which the queries use.
    const full = await indexCorpus(engine, 'debian', SETTINGS, bodies);
    let t0: number;
    const searchMini = mini!;

    const rows: Array<{ kind: string; e: { p50: number; p99: number } | undefined; m: { p50: number; p99: number } | undefined; note?: string }> = [];
    const supported = async (body: unknown) => (await search(engine, body)).status === 200;

    rows.push({
      kind: 'match summary',
      e: await time((i) => search(engine, { query: { match: { summary: WORDS[i % WORDS.length] } } })),
      m: await time((i) => searchMini.search(WORDS[i % WORDS.length], { fields: ['summary'] })),
    });
    rows.push({
      kind: 'multi_match name^3,summary',
      e: await time((i) => search(engine, { query: { multi_match: { query: WORDS[i % WORDS.length], fields: ['name^3', 'summary'] } } })),
      m: await time((i) => searchMini.search(WORDS[i % WORDS.length], { fields: ['name', 'summary'], boost: { name: 3 } })),
    });
    rows.push({
      kind: 'autosuggest prefix name',
      e: await time((i) => search(engine, { size: 5, query: { match: { 'name.autosuggest': PREFIXES[i % PREFIXES.length] } } })),
      m: await time((i) => searchMini.search(PREFIXES[i % PREFIXES.length], { fields: ['name'], prefix: true }).slice(0, 5)),
    });
    const aggBody = { size: 0, aggs: { sections: { terms: { field: 'section.raw', size: 10 } } } };
    const miniTerms = () => {
      const counts = new Map<string, number>();
      for (const d of docs) counts.set(d.section as string, (counts.get(d.section as string) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 10);
    };
    rows.push(await supported(aggBody)
      ? { kind: 'terms agg section.raw', e: await time(() => search(engine, aggBody)), m: await time(miniTerms), note: 'MiniSearch has no aggregations: counted over the corpus array' }
      : { kind: 'terms agg section.raw', e: undefined, m: undefined, note: 'n/a (aggregations not available)' });
    rows.push({
      kind: 'range installed_size_kb',
      e: await time((i) => search(engine, { query: { range: { installed_size_kb: { gte: 100 * (i % 10), lt: 100 * (i % 10) + 500 } } } })),
      m: await time((i) => searchMini.search(MiniSearch.wildcard, { filter: (r) => (r.installed_size_kb as number) >= 100 * (i % 10) && (r.installed_size_kb as number) < 100 * (i % 10) + 500 }).slice(0, 10)),
      note: 'MiniSearch: wildcard search + filter',
    });
    const sortBody = { query: { match: { summary: 'library' } }, sort: [{ 'name.raw': 'asc' }] };
    rows.push(await supported(sortBody)
      ? {
        kind: 'match + sort name.raw', e: await time(() => search(engine, sortBody)),
        m: await time(() => searchMini.search('library', { fields: ['summary'] }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, 10)),
      }
      : { kind: 'match + sort name.raw', e: undefined, m: undefined, note: 'n/a (sort not available)' });

    // A stored search template against the same search sent directly: what rendering costs.
    const templated = await templateAgainstDirect(engine);
    const byQuery = async (body: unknown) => {
      const started = performance.now();
      const res = await engine.request({ method: 'POST', path: '/debian/_update_by_query', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await readJson(res)) as Record<string, number>;
      if (res.status !== 200) throw new Error(`_update_by_query failed: ${JSON.stringify(json)}`);
      return { seconds: (performance.now() - started) / 1000, json };
    };
    const plainUbq = await byQuery({});
    const scriptedUbq = await byQuery({
      script: {
        lang: 'painless',
        source: "if (ctx._source.section == params.skip) { ctx.op = 'noop'; return; } " +
          'def kb = ctx._source.installed_size_kb; ctx._source.size_mb = kb == null ? 0 : kb / 1024.0; ' +
          "ctx._source.name_length = ctx._source.name.length(); ctx._source.tags = ctx._source.section == null ? [] : ctx._source.section.splitOnToken('/');",
        params: { skip: 'oldlibs' },
      },
    });

    const ingest = await ingestAgainstPlain(engine, bodies);
    // _reindex of the corpus into a fresh index with the same mapping, next to _bulk of the same documents (`full`)
    await readJson(await engine.request({ method: 'PUT', path: '/debian-copy', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SETTINGS) }));
    t0 = performance.now();
    const reindexRes = await engine.request({
      method: 'POST', path: '/_reindex', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ source: { index: 'debian' }, dest: { index: 'debian-copy' } }),
    });
    const reindexed = (await readJson(reindexRes)) as Record<string, number>;
    if (reindexRes.status !== 200) throw new Error(`_reindex failed: ${JSON.stringify(reindexed)}`);
    const reindexS = (performance.now() - t0) / 1000;
    await readJson(await engine.request({ method: 'DELETE', path: '/debian-copy' }));

    await engine.close();
    t0 = performance.now();
    engine = await openEmbeddedEngine({ dataDir: dir });
    const reopenMs = performance.now() - t0;
    await engine.close();
    // As after a crash: no snapshot of the in-memory index, everything is rebuilt from LMDB.
    await rm(path.join(dir, 'snapshots'), { recursive: true, force: true });
    t0 = performance.now();
    engine = await openEmbeddedEngine({ dataDir: dir });
    const rebuildMs = performance.now() - t0;
    await engine.close();

    console.log(`bench:engine — ${docs.length} Debian packages, Node ${process.version}, ${ROUNDS} rounds per query kind`);
    const mib = (n: number) => fmt(n / 1024 ** 2, 0);
    const settled = global.gc ? '' : ' (run with --expose-gc for settled figures)';
    const rate = (seconds: number, count = docs.length) => fmt(count / seconds, 0);
    console.log(`indexing: ${INDEX_ROUNDS} rounds, engine and MiniSearch alternating, after a warm-up of ${WARMUP_DOCS} documents each; medians, every round in brackets`);
    console.log(`MiniSearch indexes name + summary (stores name, section, installed_size_kb): ${rate(miniIndexS)} docs/s [${miniRuns.map((s) => rate(s)).join(', ')}], heap +${mib(miniHeap)} MiB${settled}`);
    console.log(`engine, through _bulk (${BATCH} docs a request, bodies built beforehand, each answer read and parsed, each request durable in LMDB before it answers):`);
    console.log(`  same fields as MiniSearch  ${rate(same.seconds).padStart(6)} docs/s [${sameRuns.map((r) => rate(r.seconds)).join(', ')}]   ratio engine/MiniSearch ${fmt(miniIndexS / same.seconds)} (>1: engine faster)   heap +${mib(same.heap)} MiB + ${mib(same.buffers)} MiB typed arrays`);
    console.log('                             (name, summary: text; dynamic: false, the other fields kept in _source only)');
    console.log(`  same fields, french analyzer ${rate(frenchS).padStart(4)} docs/s [${frenchRuns.map((s) => rate(s)).join(', ')}]   ratio french/standard ${fmt(same.seconds / frenchS)} (elision, stop words, light_french stemmer)`);
    console.log(`  full mapping (the queries) ${rate(full.seconds).padStart(6)} docs/s (one run)   ratio engine/MiniSearch ${fmt(miniIndexS / full.seconds)}   heap +${mib(full.heap)} MiB + ${mib(full.buffers)} MiB typed arrays`);
    console.log('                             (name text + .raw + .autosuggest edge_ngram 1-20, summary, section + .raw, installed_size_kb long,');
    console.log('                              the other 6 fields dynamic: text + .keyword + .raw each: ≈71 terms in 23 fields a document, against ≈9.4 in 2)');
    console.log(`reopen: ${fmt(reopenMs, 0)} ms from the snapshot written at close; ${fmt(rebuildMs, 0)} ms rebuilding from LMDB (no snapshot, as after a crash)`);
    const ubqRate = (r: { seconds: number; json: Record<string, number> }) => rate(r.seconds, r.json.total);
    console.log(`scripted _update_by_query over the Debian corpus: ${ubqRate(scriptedUbq)} docs/s (${scriptedUbq.json.updated} updated, ${scriptedUbq.json.noops} noops, ` +
      `${fmt(scriptedUbq.seconds, 2)} s); without a script ${ubqRate(plainUbq)} docs/s (${fmt(plainUbq.seconds, 2)} s)`);
    console.log(`_bulk through an ingest pipeline of five processors (set with a template, lowercase, convert, split, gsub): ${fmt(ingest.piped, 0)} docs/s; ` +
      `the same _bulk without it ${fmt(ingest.plain, 0)} docs/s (ratio ${fmt(ingest.piped / ingest.plain)}; same fields as MiniSearch, medians of ${INGEST_ROUNDS} rounds each)`);
    console.log(`_reindex of the Debian corpus into the full mapping: ${rate(reindexS, reindexed.created)} docs/s (${reindexed.created} created, ${reindexed.batches} batches, ${fmt(reindexS, 2)} s); ` +
      `_bulk of the same documents ${rate(full.seconds)} docs/s; ratio reindex/bulk ${fmt(full.seconds / reindexS)} (>1: reindex faster)`);
    console.log('query kind                   engine p50/p99 ms     MiniSearch p50/p99 ms   p99 ratio engine/MiniSearch');
    for (const r of rows) {
      if (!r.e || !r.m) {
        console.log(`${r.kind.padEnd(28)} ${r.note}`);
        continue;
      }
      console.log(`${r.kind.padEnd(28)} ${`${fmt(r.e.p50, 2)} / ${fmt(r.e.p99, 2)}`.padEnd(21)} ${`${fmt(r.m.p50, 2)} / ${fmt(r.m.p99, 2)}`.padEnd(23)} ${fmt(r.e.p99 / r.m.p99)}${r.note ? `   (${r.note})` : ''}`);
    }
    console.log(`search template (stored, match summary) p50 ${fmt(templated.template.p50, 2)} ms / p99 ${fmt(templated.template.p99, 2)} ms;`
      + ` the same search sent directly p50 ${fmt(templated.direct.p50, 2)} ms / p99 ${fmt(templated.direct.p99, 2)} ms`);
  } finally {
    await data.remove();
  }
}

/**
 * `_search/template` with a stored Mustache template, and the search it renders to sent to
 * `_search`, over the same words: p50/p99 of each (the difference is the template's cost:
 * lookup, render, parse of the rendered text).
 */
const INGEST_ROUNDS = 3;
const BENCH_PIPELINE = {
  description: 'bench:engine — five processors over each Debian package',
  processors: [
    { set: { field: 'ingested_into', value: '{{_index}}' } },
    { lowercase: { field: 'name', target_field: 'name_lower' } },
    { convert: { field: 'installed_size_kb', type: 'long', target_field: 'size_long', ignore_missing: true } },
    { split: { field: 'section', separator: '/', target_field: 'section_parts', ignore_missing: true } },
    { gsub: { field: 'summary', pattern: '\\s+', replacement: ' ', ignore_missing: true } },
  ],
};

/**
 * The corpus through `_bulk?pipeline=` (a pipeline of five processors) beside the same `_bulk`
 * without it, alternating rounds into fresh indices: what running a pipeline on writes costs.
 * Durations are in seconds; the figures handed back are docs/s (medians).
 */
async function ingestAgainstPlain(engine: EmbeddedEngine, bodies: string[]): Promise<{ piped: number; plain: number }> {
  const put = await engine.request({ method: 'PUT', path: '/_ingest/pipeline/bench', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_PIPELINE) });
  if (put.status !== 200) throw new Error(`put pipeline: ${JSON.stringify(await readJson(put))}`);
  await readJson(put);
  const count = bodies.reduce((n, b) => n + (b.split('\n').length - 1) / 2, 0);
  const piped: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    for (const [runs, query] of [[piped, 'pipeline=bench'], [plain, '']] as const) {
      const index = `debian-ingest-${round}${query ? '-piped' : ''}`;
      runs.push(count / (await indexCorpus(engine, index, SAME_FIELDS, bodies, query)).seconds);
      if (query) await expectPipelineRan(engine, index);
      await readJson(await engine.request({ method: 'DELETE', path: `/${index}` }));
    }
  }
  return { piped: median(piped), plain: median(plain) };
}

/** The measured pipeline did run: a document of the piped index carries what its processors wrote. */
async function expectPipelineRan(engine: EmbeddedEngine, index: string): Promise<void> {
  const res = await engine.request({ method: 'POST', path: `/${index}/_search`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ size: 1 }) });
  const answer = await readJson<{ hits: { hits: Array<{ _source: Record<string, unknown> }> } }>(res);
  const source = answer.hits.hits[0]?._source;
  if (source?.ingested_into !== index || typeof source.name_lower !== 'string') throw new Error(`the ingest pipeline did not run: ${JSON.stringify(source).slice(0, 300)}`);
}

async function templateAgainstDirect(engine: EmbeddedEngine): Promise<{ template: { p50: number; p99: number }; direct: { p50: number; p99: number } }> {
  const json = { 'content-type': 'application/json' };
  const stored = await engine.request({
    method: 'PUT', path: '/_scripts/bench-match-summary', headers: json,
    body: JSON.stringify({ script: { lang: 'mustache', source: { query: { match: { summary: '{{q}}' } }, size: '{{size}}{{^size}}10{{/size}}' } } }),
  });
  if (stored.status !== 200) throw new Error(`put script: ${JSON.stringify(await readJson(stored))}`);
  await readJson(stored);
  const viaTemplate = async (q: string) => {
    const res = await engine.request({ method: 'POST', path: '/debian/_search/template', headers: json, body: JSON.stringify({ id: 'bench-match-summary', params: { q } }) });
    const answer = await readJson<Record<string, unknown>>(res);
    if (res.status !== 200) throw new Error(`search template: ${JSON.stringify(answer).slice(0, 400)}`);
  };
  const template = await time((i) => viaTemplate(WORDS[i % WORDS.length]));
  const direct = await time((i) => search(engine, { query: { match: { summary: WORDS[i % WORDS.length] } }, size: '10' }));
  return { template, direct };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
