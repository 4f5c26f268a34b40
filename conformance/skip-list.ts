import { readFile } from 'node:fs/promises';

/**
 * Tests we choose not to run, each with a reason (`conformance/skip-list.json`):
 * - `tests`: a file path pattern (relative to the conformance directory; `*` within a path
 *   segment, `**` across segments, a trailing `/` for a whole folder), or
 *   `"<file pattern> :: <test name>"` for one test;
 * - `apis`: API names (`snapshot.*` for a family) whose use in a test's setup or body skips it;
 * - `params`: `do` arguments whose use skips the test (`type`: 7.x mapping types in paths).
 */
export interface SkipList {
  tests: Record<string, string>;
  apis: Record<string, string>;
  params: Record<string, string>;
}

export const EMPTY_SKIP_LIST: SkipList = { tests: {}, apis: {}, params: {} };

export async function loadSkipList(file: string): Promise<SkipList> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as Partial<Record<keyof SkipList, Record<string, string>>>;
  return { tests: raw.tests ?? {}, apis: raw.apis ?? {}, params: raw.params ?? {} };
}

/** The reason the skip list gives for a whole file, or undefined. */
export function fileSkipReason(list: SkipList, relPath: string): string | undefined {
  for (const [entry, reason] of Object.entries(list.tests)) {
    if (!entry.includes(' :: ') && pathMatches(entry, relPath)) return reason;
  }
  return undefined;
}

/** The reason the skip list gives for one test of a file, or undefined. */
export function testSkipReason(list: SkipList, relPath: string, testName: string): string | undefined {
  for (const [entry, reason] of Object.entries(list.tests)) {
    const separator = entry.indexOf(' :: ');
    if (separator < 0) continue;
    if (entry.slice(separator + 4).trim() === testName && pathMatches(entry.slice(0, separator).trim(), relPath)) {
      return reason;
    }
  }
  return undefined;
}

/** The reason for skipping a test that calls `api` with `params`, or undefined. */
export function callSkipReason(list: SkipList, api: string, params: readonly string[]): string | undefined {
  for (const [pattern, reason] of Object.entries(list.apis)) {
    if (globToRegExp(pattern, '.').test(api)) return `${reason} (${api})`;
  }
  for (const param of params) {
    const reason = list.params[param];
    if (reason !== undefined) return `${reason} (${api} with ${param})`;
  }
  return undefined;
}

export function pathMatches(pattern: string, relPath: string): boolean {
  if (pattern.endsWith('/')) return relPath.startsWith(pattern);
  return globToRegExp(pattern, '/').test(relPath);
}

/** `**` spans separators, `*` stays within one segment. */
function globToRegExp(pattern: string, separator: string): RegExp {
  const sep = separator.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*' && pattern[i + 1] === '*') {
      if (pattern[i + 2] === separator) {
        source += `(?:.*${sep})?`;
        i += 2;
      } else {
        source += '.*';
        i++;
      }
    } else if (ch === '*') {
      source += `[^${sep}]*`;
    } else {
      source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}
