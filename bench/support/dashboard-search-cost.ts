/**
 * `node dist/bench/support/dashboard-search-cost.js [rounds]`: the embedded engine's CPU per
 * dashboard search of bench:streams' live dashboards, in process (no HTTP, no gateway): the
 * dashboard corpus loaded, then `rounds` rounds of a write to each section followed by each of
 * the `DISTINCT` dashboards' searches; CPU µs per search (process.cpuUsage, which a loaded machine
 * stretches less than the wall time) and a hash of the answers (without `took`), to check that an
 * engine change keeps them byte-identical (the writes' `updated_at` is now, as bench:streams'
 * writes: compare hashes within one A/B run, not across runs).
 *
 * BENCH_AB_DIST=<another build's dist/> makes it a paired A/B: that build's engine and this one,
 * each with its own copy of the index, the same writes and searches alternating one by one, so
 * that both sides meet the same load. BENCH_CPU_PROF=1 profiles the measured rounds (Node's
 * inspector) into dashboard-search.cpuprofile.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineRequest, EngineResponse } from '../../lib/engine/index.js';
import { tempDir } from '../../spec/support/servers.js';
import { loadCorpus } from './corpus.js';
import { dashboardCorpus, dashboardMapping, dashboardSearch, INDEX } from './dashboard-workload.js';

interface Side {
  name: string;
  request(req: EngineRequest): Promise<unknown>;
  close(): Promise<void>;
  cpuUs: number;
  searches: number;
  hash: ReturnType<typeof createHash>;
}

/** An engine of the build whose dist/ is `dist` (this one by default), in a temp directory of its own. */
async function openSide(name: string, dist: string): Promise<Side> {
  const embedded = (await import(pathToFileURL(path.join(dist, 'lib/engine/embedded/index.js')).href)) as typeof import('../../lib/engine/embedded/index.js');
  const { readJson } = (await import(pathToFileURL(path.join(dist, 'lib/engine/index.js')).href)) as typeof import('../../lib/engine/index.js');
  const data = await tempDir('bench-dash-cost-');
  const engine = await embedded.openEmbeddedEngine({ dataDir: data.dir });
  return {
    name,
    request: async (req) => readJson((await engine.request(req)) as EngineResponse),
    close: async () => {
      await engine.close();
      await data.remove();
    },
    cpuUs: 0,
    searches: 0,
    hash: createHash('sha256'),
  };
}

const rounds = Number(process.argv[2] ?? 20);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const sides = [await openSide('this build', here)];
if (process.env.BENCH_AB_DIST) sides.unshift(await openSide(`A ${process.env.BENCH_AB_DIST}`, path.resolve(process.env.BENCH_AB_DIST)));
const docs = await loadCorpus();
const corpus = dashboardCorpus(docs);
const json = { 'content-type': 'application/json' };
try {
  for (const side of sides) {
    await side.request({ method: 'PUT', path: `/${INDEX}`, headers: json, body: JSON.stringify(dashboardMapping()) });
    for (let i = 0; i < corpus.packages.length; i += 5000) {
      const lines: string[] = [];
      for (const { id, doc } of corpus.packages.slice(i, i + 5000)) lines.push(JSON.stringify({ index: { _id: id } }), JSON.stringify(doc));
      await side.request({ method: 'POST', path: `/${INDEX}/_bulk`, headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
    }
    await side.request({ method: 'POST', path: `/${INDEX}/_refresh`, headers: json });
  }
  const bodies = corpus.dashboards.map((d) => JSON.stringify(dashboardSearch(d)));
  let seq = 0;
  const run = async (measure: boolean) => {
    for (const section of corpus.sections) {
      const ids = corpus.bySection.get(section)!;
      const id = ids[seq % ids.length];
      const doc = { ...corpus.packages[Number(id.slice(1))].doc, seq: ++seq, updated_at: new Date().toISOString() }; // as bench:streams' writes: now
      for (const side of sides) await side.request({ method: 'PUT', path: `/${INDEX}/_doc/${id}?refresh=true`, headers: json, body: JSON.stringify(doc) });
    }
    for (const body of bodies) {
      for (const side of sides) {
        const t0 = process.cpuUsage();
        const answer = (await side.request({ method: 'POST', path: `/${INDEX}/_search`, headers: json, body })) as { took?: number };
        const t = process.cpuUsage(t0);
        if (!measure) continue;
        side.cpuUs += t.user + t.system;
        side.searches++;
        delete answer.took;
        side.hash.update(JSON.stringify(answer));
      }
    }
  };
  await run(false); // warm-up
  await run(false);
  let session: Session | undefined;
  if (process.env.BENCH_CPU_PROF) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let r = 0; r < rounds; r++) await run(true);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync('dashboard-search.cpuprofile', JSON.stringify(profile));
  }
  const { loadavg } = await import('node:os');
  for (const side of sides) {
    console.log(`${side.name}: ${side.searches} dashboard searches, ${(side.cpuUs / side.searches).toFixed(0)} µs CPU each; answers ${side.hash.digest('hex').slice(0, 16)}`);
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  for (const side of sides) await side.close();
}
