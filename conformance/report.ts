import type { TestResult } from './test-result.js';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

/** Per-folder counts, in folder order, plus the total. */
export function tally(results: readonly TestResult[]): { folders: Map<string, Tally>; total: Tally } {
  const folders = new Map<string, Tally>();
  const total: Tally = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) {
    let folder = folders.get(result.folder);
    if (!folder) folders.set(result.folder, (folder = { passed: 0, failed: 0, skipped: 0 }));
    folder[result.status]++;
    total[result.status]++;
  }
  return { folders: new Map([...folders].sort(([a], [b]) => a.localeCompare(b))), total };
}

/** The per-folder table followed by the closing `N passed, N failed, N skipped` line. */
export function formatSummary(results: readonly TestResult[]): string {
  const { folders, total } = tally(results);
  const width = Math.max('folder'.length, ...[...folders.keys()].map((name) => name.length));
  const row = (name: string, passed: string, failed: string, skipped: string): string =>
    `${name.padEnd(width)}  ${passed.padStart(6)}  ${failed.padStart(6)}  ${skipped.padStart(7)}`;
  const lines = [row('folder', 'passed', 'failed', 'skipped'), '-'.repeat(width + 25)];
  for (const [name, t] of folders) lines.push(row(name, String(t.passed), String(t.failed), String(t.skipped)));
  lines.push('', `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return lines.join('\n');
}

/** One failure as `--verbose` prints it. */
export function formatFailure(result: TestResult): string {
  const failure = result.failure;
  if (!failure) return '';
  const lines = [
    `FAIL ${result.file} :: ${result.test}`,
    `  ${failure.section} step ${failure.step}: ${failure.op}`,
    `  ${failure.message}`,
  ];
  if (failure.expected !== undefined) lines.push(`  expected: ${show(failure.expected)}`);
  if (failure.actual !== undefined || failure.expected !== undefined) lines.push(`  actual:   ${show(failure.actual)}`);
  return lines.join('\n');
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  return text.length > 800 ? `${text.slice(0, 800)}…` : text;
}
