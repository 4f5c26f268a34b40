import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadApiSpecs, type ApiSpecs } from './api-spec.js';
import { wipeCluster } from './cleanup.js';
import { EsClient } from './es-client.js';
import { DO_OPTIONS, SUPPORTED_STEPS, TestExecution } from './execute-test.js';
import { listYamlFiles, loadTestFile, type Step, type TestFile } from './load-suite.js';
import { CLAIMED_VERSION, parseVersion, requiresReason, skipReason, SUPPORTED_FEATURES, type SkipContext } from './skip.js';
import { callSkipReason, EMPTY_SKIP_LIST, fileSkipReason, testSkipReason, type SkipList } from './skip-list.js';
import type { TestResult } from './test-result.js';

export interface RunOptions {
  /** Base URL of the server under test; userinfo becomes Basic credentials. */
  url: string;
  /** Holds `api/*.json` and one folder per suite, each with a `tests/` folder. */
  conformanceDir: string;
  /** Suite folder names to run (default: every folder with a `tests/` folder). */
  suites?: readonly string[];
  /** Run only files whose relative path contains one of these. */
  filters?: readonly string[];
  skipList?: SkipList;
  /** The Elasticsearch version we claim, for `skip: version`. */
  version?: string;
  testTimeoutMs?: number;
  /** Every call asks for REST API compatibility with this version (EsClient). */
  compatibleWith?: number;
  /** Called as each test finishes (progress, verbose output). */
  onResult?: (result: TestResult) => void;
}

/** Runs the selected YAML suites against a server and returns one result per test. */
export async function runSuites(options: RunOptions): Promise<TestResult[]> {
  const specs = await loadApiSpecs(path.join(options.conformanceDir, 'api'));
  const client = new EsClient(options.url, options.compatibleWith);
  const context: SkipContext = { version: parseVersion(options.version ?? CLAIMED_VERSION), features: SUPPORTED_FEATURES };
  const results: TestResult[] = [];
  const report = (result: TestResult): void => {
    results.push(result);
    options.onResult?.(result);
  };
  try {
    await wipeCluster(client);
    for (const suite of await suiteNames(options)) {
      const testsDir = path.join(options.conformanceDir, suite, 'tests');
      for (const file of await listYamlFiles(testsDir)) {
        const relPath = path.relative(options.conformanceDir, file).split(path.sep).join('/');
        if (options.filters && options.filters.length > 0 && !options.filters.some((f) => relPath.includes(f))) continue;
        const folder = folderOf(suite, path.relative(testsDir, file));
        const testFile = await loadTestFile(file, relPath);
        await runFile(testFile, folder, { client, specs, context, skipList: options.skipList ?? EMPTY_SKIP_LIST, timeoutMs: options.testTimeoutMs ?? 10_000 }, report);
      }
    }
  } finally {
    await client.close();
  }
  return results;
}

/** Runs again each file holding a failed test; a test that passes then replaces its failure. */
export async function retryFailed(
  results: TestResult[],
  run: (files: string[]) => Promise<TestResult[]>,
  onFlaky: (retried: TestResult, first: TestResult) => void,
): Promise<TestResult[]> {
  const key = (r: TestResult): string => `${r.file}\u0000${r.test}`;
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length === 0) return results;
  const again = new Map((await run([...new Set(failed.map((r) => r.file))])).map((r) => [key(r), r]));
  return results.map((r) => {
    const retried = r.status === 'failed' ? again.get(key(r)) : undefined;
    if (retried?.status !== 'passed') return r;
    onFlaky(retried, r);
    return retried;
  });
}

interface FileContext {
  client: EsClient;
  specs: ApiSpecs;
  context: SkipContext;
  skipList: SkipList;
  timeoutMs: number;
}

async function runFile(file: TestFile, folder: string, ctx: FileContext, report: (r: TestResult) => void): Promise<void> {
  const base = { file: file.relPath, folder };
  for (const broken of file.broken) report({ ...base, test: broken.name, status: 'skipped', reason: broken.error, durationMs: 0 });

  const fileReason =
    fileSkipReason(ctx.skipList, file.relPath) ??
    requiresReason(file.requires, ctx.context) ??
    sectionSkipReason(file.setup, ctx);
  for (const test of file.tests) {
    const reason = fileReason ?? testSkipReason(ctx.skipList, file.relPath, test.name) ?? sectionSkipReason(test.steps, ctx);
    if (reason !== undefined) {
      report({ ...base, test: test.name, status: 'skipped', reason, durationMs: 0 });
      continue;
    }
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ctx.timeoutMs);
    const execution = new TestExecution(ctx.client, ctx.specs, controller.signal);
    try {
      const failure =
        (await execution.runSection('setup', file.setup)) ?? (await execution.runSection('test', test.steps));
      // Teardown is best effort, as the wipe that follows cleans whatever it leaves behind.
      if (!controller.signal.aborted) await execution.runSection('teardown', file.teardown).catch(() => undefined);
      report({ ...base, test: test.name, status: failure ? 'failed' : 'passed', failure, durationMs: performance.now() - started });
    } catch (err) {
      const message = controller.signal.aborted ? `timed out after ${ctx.timeoutMs} ms` : String(err);
      report({ ...base, test: test.name, status: 'failed', failure: { section: 'test', step: 0, op: '', message }, durationMs: performance.now() - started });
    } finally {
      clearTimeout(timer);
    }
    await wipeCluster(ctx.client, AbortSignal.timeout(ctx.timeoutMs));
  }
}

/** Why a section's skip/requires steps, or the APIs and params it uses, exclude the test. */
function sectionSkipReason(steps: readonly Step[], ctx: FileContext): string | undefined {
  for (const step of steps) {
    let reason: string | undefined;
    if (step.op === 'skip') reason = skipReason(step.arg, ctx.context);
    else if (step.op === 'requires') reason = requiresReason(step.arg, ctx.context);
    else if (step.op === 'do' && step.arg !== null && typeof step.arg === 'object') {
      for (const [key, value] of Object.entries(step.arg as Record<string, unknown>)) {
        if (DO_OPTIONS.has(key)) continue;
        const params = value !== null && typeof value === 'object' ? Object.keys(value) : [];
        reason = callSkipReason(ctx.skipList, key, params);
        if (reason) break;
      }
    } else if (!SUPPORTED_STEPS.has(step.op)) {
      reason = `feature not supported: step [${step.op}]`;
    }
    if (reason !== undefined) return reason;
  }
  return undefined;
}

async function suiteNames(options: RunOptions): Promise<string[]> {
  if (options.suites && options.suites.length > 0) return [...options.suites];
  const names: string[] = [];
  for (const entry of await readdir(options.conformanceDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const tests = await stat(path.join(options.conformanceDir, entry.name, 'tests')).catch(() => undefined);
    if (tests?.isDirectory()) names.push(entry.name);
  }
  return names.sort();
}

function folderOf(suite: string, fileInTests: string): string {
  const dir = path.dirname(fileInTests);
  return dir === '.' ? suite : `${suite}/${dir.split(path.sep).join('/')}`;
}
