import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { REPO_ROOT } from '../../spec/support/servers.js';

export const CORPUS = path.resolve(REPO_ROOT, process.env.CORPUS ?? '../shared/data/debian-packages.ndjson.gz');

/** The Debian package records, parsed, in file order. */
export async function loadCorpus(limit = Infinity): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(CORPUS)) throw new Error(`corpus not found at ${CORPUS} (set CORPUS=...)`);
  const docs: Array<Record<string, unknown>> = [];
  const lines = createInterface({ input: createReadStream(CORPUS).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    docs.push(JSON.parse(line));
    if (docs.length >= limit) break;
  }
  return docs;
}

/** Indexes `docs` into `index` through `_bulk` at `url`, 5,000 a request. */
export async function bulkIndex(url: string, authorization: string, index: string, docs: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const action = JSON.stringify({ index: { _index: index } });
  for (let i = 0; i < docs.length; i += 5000) {
    const lines: string[] = [];
    for (const d of docs.slice(i, i + 5000)) lines.push(action, JSON.stringify(d));
    const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization }, body: lines.join('\n') + '\n' });
    if (!res.ok) throw new Error(`bulk failed: ${res.status}`);
    await res.arrayBuffer();
  }
}
