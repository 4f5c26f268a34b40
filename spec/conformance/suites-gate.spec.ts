import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { listYamlFiles } from '../../conformance/load-suite.js';
import type { TestResult } from '../../conformance/test-result.js';
import { REPO_ROOT, tempDir } from '../support/servers.js';

const CONFORMANCE_DIR = path.resolve(REPO_ROOT, '../shared/conformance');

/**
 * The suites run in this many runners at once, each with a gateway of its own and a share of the
 * files: a runner spends most of its time waiting for its gateway's answers (one request at a
 * time, the cluster wiped after each test), so three of them take a third of one's time on two
 * cores, and the gate stops being the run's longest file.
 */
const SHARDS = 3;

/** Every YAML test file, by its path relative to CONFORMANCE_DIR (what `run.js --filter` matches). */
async function testFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(CONFORMANCE_DIR, { withFileTypes: true })) {
    const tests = path.join(CONFORMANCE_DIR, entry.name, 'tests');
    if (!entry.isDirectory() || !existsSync(tests)) continue;
    for (const file of await listYamlFiles(tests)) files.push(path.relative(CONFORMANCE_DIR, file).split(path.sep).join('/'));
  }
  return files.sort();
}

/** The run's TMPDIR (spec/support/run-tests.sh puts it on tmpfs), where each gateway's data goes. */
function tmpDirEnv(): Record<string, string> {
  return process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {};
}

interface ShardRun {
  code: number | null;
  stdout: string;
  /** What the runner wrote to stderr: why it failed, when it did (its error's stack). */
  stderr: string;
  results: TestResult[];
}

/** One runner over `files` (each its own `--filter`), against a fresh gateway of its own. */
async function runShard(files: string[], dir: string, n: number): Promise<ShardRun> {
  const json = path.join(dir, `results-${n}.json`);
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'dist/conformance/run.js'), '--verbose', '--retry-failed', '--json', json, ...files.flatMap((f) => ['--filter', f])],
      { maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', CONFORMANCE_DIR, ...tmpDirEnv() } },
      (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
  const results = existsSync(json) ? (JSON.parse(await readFile(json, 'utf8')) as TestResult[]) : [];
  return { code, stdout, stderr, results };
}

/**
 * The compatibility gate: the Elasticsearch YAML REST suites run against fresh gateways on the
 * embedded engine (the files shared out among SHARDS runners), and the number passing in all of
 * them may never fall below conformance/baseline.json.
 */
describe('Elasticsearch YAML REST suites (conformance gate)', function () {
  this.timeout(10 * 60_000);

  it('passes at least as many tests as the recorded baseline', async function () {
    if (!existsSync(CONFORMANCE_DIR)) this.skip();
    const files = await testFiles();
    // a filter is a substring of a path: each file must be matched by its own filter alone, or a
    // file would run in two shards (counted twice) or in none
    for (const file of files) expect(files.filter((other) => file.includes(other)), file).to.deep.equal([file]);
    const shards = Array.from({ length: SHARDS }, (_, n) => files.filter((_f, i) => i % SHARDS === n));
    const out = await tempDir('conformance-');
    try {
      const runs = await Promise.all(shards.map((share, n) => runShard(share, out.dir, n)));
      const baseline = JSON.parse(await readFile(path.join(REPO_ROOT, 'conformance/baseline.json'), 'utf8')).passed as number;
      for (const run of runs) expect(run.code, `a runner failed:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-4000)}`).to.equal(0);
      // each runner ran its own share and nothing else
      runs.forEach((run, n) => expect([...new Set(run.results.map((r) => r.file))].filter((f) => !shards[n].includes(f)), `shard ${n}`).to.deep.equal([]));
      const results = runs.flatMap((run) => run.results);
      const count = (status: TestResult['status']) => results.filter((r) => r.status === status).length;
      const passed = count('passed');
      console.log(`      conformance: ${passed} passed (baseline ${baseline}), ${count('failed')} failing, ${count('skipped')} skipped, in ${SHARDS} runners`);
      for (const run of runs) for (const line of run.stdout.split('\n')) if (line.startsWith('flaky: ')) console.log(`      ${line}`);
      const failures = runs.map((run) => run.stdout.slice(-6000 / SHARDS)).join('\n');
      expect(passed, `conformance passes fell below the baseline:\n${failures}`).to.be.at.least(baseline);
    } finally {
      await out.remove();
    }
  });
});
