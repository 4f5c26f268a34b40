import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Verdict {
  code: number | null;
  output: string;
}

/** Runs tsc over the tree here. */
function typecheck(): Promise<Verdict> {
  return new Promise<Verdict>((resolve) => {
    // incremental off: a build info left by another tsc run must not make this check skip files
    const child = execFile(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit', '--incremental', 'false'], { cwd: ROOT, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end();
  });
}

/**
 * The verdict of the tsc that `make test` started in the background (its `typecheck-started`
 * step) into `dir`: its output, then its exit code in `code`, renamed into place once tsc ended.
 * Waits for that rename, not for a time.
 */
async function startedVerdict(dir: string): Promise<Verdict> {
  const codeFile = path.join(dir, 'code');
  await new Promise<void>((resolve, reject) => {
    const watcher = watch(dir);
    const done = () => {
      watcher.close();
      resolve();
    };
    watcher.on('change', () => existsSync(codeFile) && done());
    watcher.on('error', (e) => {
      watcher.close();
      reject(e);
    });
    if (existsSync(codeFile)) done();
  });
  const [code, output] = await Promise.all([readFile(codeFile, 'utf8'), readFile(path.join(dir, 'output'), 'utf8')]);
  return { code: Number(code.trim()), output };
}

/**
 * The build transpiles each file with esbuild, which reads no types; the types are checked here,
 * by tsc over the whole tree (lib, spec, bench, conformance) as tsconfig.json sets it, beside the
 * other specs of `make test` instead of before them. `make test` starts that tsc as soon as the
 * dependencies are installed (it runs beside the rest of the build), and names the directory of
 * its verdict in TYPECHECK_RESULT; without it (a run of the specs alone), tsc runs here. `make
 * typecheck` runs the same check alone.
 */
describe('the tree type-checks (tsc --noEmit)', function () {
  this.timeout(600_000);

  it('tsc reports no error', async () => {
    const started = process.env.TYPECHECK_RESULT ? path.resolve(ROOT, process.env.TYPECHECK_RESULT) : undefined;
    const { code, output } = started !== undefined && existsSync(started) ? await startedVerdict(started) : await typecheck();
    expect(output.trim(), 'tsc output').to.equal('');
    expect(code, 'tsc exit code').to.equal(0);
  });
});
