import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, tempDir } from '../support/servers.js';

const CONFORMANCE_DIR = path.resolve(REPO_ROOT, '../shared/conformance');

/**
 * The compatibility gate: the Elasticsearch YAML REST suites run against a fresh gateway on the
 * embedded engine, and the number passing may never fall below conformance/baseline.json.
 */
describe('Elasticsearch YAML REST suites (conformance gate)', function () {
  this.timeout(10 * 60_000);

  it('passes at least as many tests as the recorded baseline', async function () {
    if (!existsSync(CONFORMANCE_DIR)) this.skip();
    const out = await tempDir('conformance-');
    try {
      const json = path.join(out.dir, 'results.json');
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [path.join(REPO_ROOT, 'dist/conformance/run.js'), '--verbose', '--retry-failed', '--baseline', path.join(REPO_ROOT, 'conformance/baseline.json'), '--json', json],
          { maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', CONFORMANCE_DIR } },
          (_err, stdout) => resolve({ code: child.exitCode, stdout }),
        );
      });
      const baseline = JSON.parse(await readFile(path.join(REPO_ROOT, 'conformance/baseline.json'), 'utf8')).passed as number;
      const summary = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(stdout);
      expect(summary, stdout.slice(-2000)).to.not.equal(null);
      const passed = Number(summary![1]);
      console.log(`      conformance: ${passed} passed (baseline ${baseline}), ${summary![2]} failing, ${summary![3]} skipped`);
      for (const line of stdout.split('\n')) if (line.startsWith('flaky: ')) console.log(`      ${line}`);
      expect(passed, `conformance passes fell below the baseline:\n${stdout.slice(-6000)}`).to.be.at.least(baseline);
      expect(code).to.equal(0);
    } finally {
      await out.remove();
    }
  });
});
