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
