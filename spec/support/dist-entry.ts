import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The file a spawned process runs for `script` (a path under dist/, e.g. 'lib/main.js'): its bundle,
 * dist/bundle/<script>, when the build made one (spec/support/bundle.mjs: one file instead of ~1,300
 * modules to load, a second of CPU less per start), else the module itself. SPEC_UNBUNDLED=1 runs
 * the modules of dist/lib, as `make run` does; so does every bench (a process started from
 * dist/bench/): it measures what ships, and the bundle's names kept at run time (esbuild's
 * keepNames names each closure it makes, about 1.4 µs a time) would make it slower than that.
 */
export function distEntry(script: string): string {
  const bundled = path.join(REPO_ROOT, 'dist/bundle', script);
  const unbundled = process.env.SPEC_UNBUNDLED === '1' || BENCH;
  return !unbundled && existsSync(bundled) ? bundled : path.join(REPO_ROOT, 'dist', script);
}

const BENCH = (process.argv[1] ?? '').startsWith(path.join(REPO_ROOT, 'dist/bench') + path.sep);
