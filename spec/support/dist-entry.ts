import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The file a spawned process runs for `script` (a path under dist/, e.g. 'lib/main.js'): its bundle,
 * dist/bundle/<script>, when the build made one (spec/support/bundle.mjs: one file instead of ~1,300
 * modules to load, a second of CPU less per start), else the module itself. SPEC_UNBUNDLED=1 runs
 * the modules of dist/lib, as `make run` does.
 */
export function distEntry(script: string): string {
  const bundled = path.join(REPO_ROOT, 'dist/bundle', script);
  return process.env.SPEC_UNBUNDLED !== '1' && existsSync(bundled) ? bundled : path.join(REPO_ROOT, 'dist', script);
}
