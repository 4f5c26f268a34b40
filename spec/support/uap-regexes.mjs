// uap-core's regexes.yaml (the `user_agent` ingest processor's patterns) as JSON, written beside the
// compiled processor (dist/lib/engine/embedded/ingest/processors/uap-regexes.json): parsing the
// YAML takes half a second, JSON.parse of the same lists a millisecond, and the processor reads the
// file on first use. The bundles find it there too: their modules' `import.meta.url` is that of
// their compiled file in dist/lib (bundle.mjs). Built by the Makefile with the per-file transpile.
import path from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'dist/lib/engine/embedded/ingest/processors/uap-regexes.json');

const require = createRequire(import.meta.url);
const doc = parse(await readFile(require.resolve('uap-core/regexes.yaml'), 'utf8'));
await mkdir(path.dirname(OUT), { recursive: true });
await writeFile(OUT, JSON.stringify(doc));
