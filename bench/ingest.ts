/**
 * bench:ingest — bulk-load the Debian corpus into the embedded engine (through its Backend, as the
 * gateway calls it); docs/s and data size on disk. Reference in the same run: the same records
 * written to a bare LMDB database in the same batches (the storage floor).
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { open } from 'lmdb';
import { openEmbeddedEngine } from '../lib/engine/embedded/index.js';
import { readJson } from '../lib/engine/index.js';
import { tempDir } from '../spec/support/servers.js';
import { loadCorpus } from './support/corpus.js';
import { fmt } from './support/load.js';

const BATCH = Number(process.env.BENCH_BATCH ?? 1000);

function du(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir]).toString().split(/\s+/)[0]) * 1024;
}

async function main() {
  const docs = await loadCorpus();
  const data = await tempDir('bench-ingest-');
  try {
    // reference: bare LMDB puts of the JSON records, one transaction per batch
    const raw = open({ path: path.join(data.dir, 'raw'), compression: false });
    let t0 = performance.now();
    for (let i = 0; i < docs.length; i += BATCH) {
      await raw.transaction(() => {
        for (let j = i; j < Math.min(i + BATCH, docs.length); j++) raw.put(`bench:${j}`, docs[j]);
      });
    }
    const rawSeconds = (performance.now() - t0) / 1000;
    await raw.close();

    const engine = await openEmbeddedEngine({ dataDir: path.join(data.dir, 'engine') });
    t0 = performance.now();
    for (let i = 0; i < docs.length; i += BATCH) {
      const lines: string[] = [];
      for (let j = i; j < Math.min(i + BATCH, docs.length); j++) {
        lines.push(JSON.stringify({ index: { _index: 'debian', _id: String(j) } }), JSON.stringify(docs[j]));
      }
      const res = await engine.request({ method: 'POST', path: '/_bulk', headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n' });
      const body = await readJson<{ errors: boolean; items: unknown[] }>(res);
      if (res.status !== 200 || body.errors) throw new Error(`bulk failed at batch ${i / BATCH}: ${JSON.stringify(body).slice(0, 500)}`);
    }
    const engineSeconds = (performance.now() - t0) / 1000;
    const count = await readJson<{ count: number }>(await engine.request({ method: 'GET', path: '/debian/_count' }));
    await engine.close();

    let t1 = performance.now();
    let reopened = await openEmbeddedEngine({ dataDir: path.join(data.dir, 'engine') });
    const startupMs = performance.now() - t1;
    await reopened.close();
    // As after a crash: no snapshot of the in-memory index, everything is rebuilt from LMDB.
    await rm(path.join(data.dir, 'engine', 'snapshots'), { recursive: true, force: true });
    t1 = performance.now();
    reopened = await openEmbeddedEngine({ dataDir: path.join(data.dir, 'engine') });
    const rebuildMs = performance.now() - t1;
    await reopened.close();

    const snapshotBytes = du(path.join(data.dir, 'engine', 'snapshots'));
    const engineBytes = du(path.join(data.dir, 'engine')) - snapshotBytes;
    const rawBytes = du(path.join(data.dir, 'raw'));
    console.log(`bench:ingest — ${docs.length} Debian package records, _bulk batches of ${BATCH}, Node ${process.version}`);
    console.log(`embedded engine : ${fmt(docs.length / engineSeconds, 0)} docs/s (${fmt(engineSeconds)} s), ${count.count} docs searchable, ${fmt(engineBytes / 1024 ** 2, 1)} MiB on disk`);
    console.log(`bare LMDB puts  : ${fmt(docs.length / rawSeconds, 0)} docs/s (${fmt(rawSeconds)} s), ${fmt(rawBytes / 1024 ** 2, 1)} MiB on disk`);
    console.log(`ratio engine/bare LMDB: throughput ${fmt(rawSeconds / engineSeconds)}, disk ${fmt(engineBytes / rawBytes)}`);
    console.log(`index snapshot (written at close, a cache of the in-memory index): ${fmt(snapshotBytes / 1024 ** 2, 1)} MiB`);
    console.log(`engine restart: ${fmt(startupMs, 0)} ms from the snapshot written at close; ${fmt(rebuildMs, 0)} ms rebuilding from LMDB (no snapshot, as after a crash)`);
  } finally {
    await data.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
