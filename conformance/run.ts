#!/usr/bin/env node
/**
 * `npm run conformance`: runs the Elasticsearch YAML REST suites against a fresh gateway
 * (default), the standalone embedded engine (`--engine`) or any server (`--url`).
 *
 *   node dist/conformance/run.js [--url http://user:pass@host:port | --engine]
 *     [--suite clients-tests|es7]... [--filter <path substring>]... [--verbose]
 *     [--json <file>] [--min-passed N | --baseline <file>] [--timeout <ms>]
 *     [--es-version 8.11.0] [--skip-list <file> | --no-skip-list] [--retry-failed]
 *     [--compatible-with 7]
 *
 * `--retry-failed` runs each file with a failing test once more, after the full pass, and counts a
 * test that passes then; it is printed as flaky, so a test that fails only under load is named
 * rather than hidden.
 *
 * Exit code: 0; 1 when fewer tests passed than the gate asks; 2 when the runner crashed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatFailure, formatSummary, tally } from './report.js';
import { retryFailed, runSuites } from './run-suites.js';
import { startServer, type StartedServer } from './server-process.js';
import { EMPTY_SKIP_LIST, loadSkipList } from './skip-list.js';
import type { TestResult } from './test-result.js';
import { CLAIMED_VERSION } from './skip.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      engine: { type: 'boolean', default: false },
      suite: { type: 'string', multiple: true },
      filter: { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
      json: { type: 'string' },
      'min-passed': { type: 'string' },
      baseline: { type: 'string' },
      timeout: { type: 'string', default: '10000' },
      'es-version': { type: 'string', default: CLAIMED_VERSION },
      'skip-list': { type: 'string', default: path.join(REPO_ROOT, 'conformance', 'skip-list.json') },
      'no-skip-list': { type: 'boolean', default: false },
      'retry-failed': { type: 'boolean', default: false },
      'compatible-with': { type: 'string' },
    },
    strict: true,
  });

  const conformanceDir = path.resolve(REPO_ROOT, process.env.CONFORMANCE_DIR ?? '../shared/conformance');
  const minPassed = await passGate(values['min-passed'], values.baseline);
  const skipList = values['no-skip-list'] ? EMPTY_SKIP_LIST : await loadSkipList(values['skip-list']);

  let server: StartedServer | undefined;
  const url = values.url ?? (server = await startServer(values.engine ? 'engine' : 'gateway', REPO_ROOT)).url;
  const started = performance.now();
  try {
    const options = {
      url,
      conformanceDir,
      suites: values.suite,
      skipList,
      version: values['es-version'],
      testTimeoutMs: Number(values.timeout),
      compatibleWith: values['compatible-with'] === undefined ? undefined : Number(values['compatible-with']),
      onResult: (result: TestResult) => {
        if (values.verbose && result.status === 'failed') console.log(formatFailure(result) + '\n');
      },
    };
    let results = await runSuites({ ...options, filters: values.filter });
    if (values['retry-failed']) results = await retryFailed(
        results,
        (files) => runSuites({ ...options, filters: files }),
        (r, first) => console.log(`flaky: ${r.file} "${r.test}" failed, then passed on retry (${first.failure?.message ?? ''})`),
      );
    if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2) + '\n');
    console.log(`\nconformance against ${redact(url)} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    console.log(formatSummary(results));
    const { passed } = tally(results).total;
    if (minPassed !== undefined && passed < minPassed) {
      console.error(`conformance gate: ${passed} passed, fewer than the required ${minPassed}`);
      return 1;
    }
    return 0;
  } finally {
    await server?.stop();
  }
}

/** `--min-passed N` wins; otherwise `--baseline <file>` supplies its `passed`. */
async function passGate(minPassed: string | undefined, baseline: string | undefined): Promise<number | undefined> {
  if (minPassed !== undefined) return Number(minPassed);
  if (baseline === undefined) return undefined;
  const json = JSON.parse(await readFile(path.resolve(baseline), 'utf8')) as { passed?: unknown };
  return Number(json.passed ?? 0);
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack ?? err.message : err);
    process.exitCode = 2;
  },
);
