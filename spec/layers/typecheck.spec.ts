import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The build transpiles each file with esbuild, which reads no types; the types are checked here,
 * by tsc over the whole tree (lib, spec, bench, conformance) as tsconfig.json sets it, beside the
 * other specs of `make test` instead of before them. `make typecheck` runs the same check alone.
 */
describe('the tree type-checks (tsc --noEmit)', function () {
  this.timeout(600_000);

  it('tsc reports no error', async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      // incremental off: a build info left by another tsc run must not make this check skip files
      const child = execFile(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit', '--incremental', 'false'], { cwd: ROOT, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
      });
      child.stdin?.end();
    });
    expect(output.trim(), 'tsc output').to.equal('');
    expect(code, 'tsc exit code').to.equal(0);
  });
});
