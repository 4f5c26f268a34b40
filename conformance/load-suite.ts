import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';

/** One step of a section: a single-key map such as `{ do: {...} }` or `{ match: {...} }`. */
export interface Step {
  op: string;
  arg: unknown;
}

export interface TestCase {
  name: string;
  steps: Step[];
}

/** A document that could not be read; its tests are reported as skipped with the error. */
export interface BrokenSection {
  name: string;
  error: string;
}

/** One YAML test file: optional setup/teardown run around each of its named tests. */
export interface TestFile {
  /** Path relative to the conformance directory, with forward slashes (`es7/tests/get/10_basic.yml`). */
  relPath: string;
  /** File-level `requires:` document (client tests), if any. */
  requires?: unknown;
  setup: Step[];
  teardown: Step[];
  tests: TestCase[];
  broken: BrokenSection[];
}

/** Lists the `.yml`/`.yaml` files under `dir`, sorted, recursively. */
export async function listYamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listYamlFiles(full)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

export async function loadTestFile(file: string, relPath: string): Promise<TestFile> {
  return parseTestFile(await readFile(file, 'utf8'), relPath);
}

/** Parses a multi-document test file; documents are separated by `---` lines. */
export function parseTestFile(source: string, relPath: string): TestFile {
  const result: TestFile = { relPath, setup: [], teardown: [], tests: [], broken: [] };
  for (const chunk of source.split(/^---[ \t]*$/m)) {
    if (chunk.replace(/^\s*#.*$/gm, '').trim() === '') continue;
    let document: unknown;
    try {
      document = parseLenient(chunk);
    } catch (err) {
      result.broken.push({ name: sectionName(chunk), error: `unparseable YAML: ${firstLine(err)}` });
      continue;
    }
    if (document === null || typeof document !== 'object') continue;
    for (const [name, value] of Object.entries(document as Record<string, unknown>)) {
      if (name === 'requires' && !Array.isArray(value)) {
        result.requires = value;
        continue;
      }
      let steps: Step[];
      try {
        steps = toSteps(value);
      } catch (err) {
        result.broken.push({ name, error: firstLine(err) });
        continue;
      }
      if (name === 'setup') result.setup = steps;
      else if (name === 'teardown') result.teardown = steps;
      else result.tests.push({ name, steps });
    }
  }
  return result;
}

function toSteps(value: unknown): Step[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('a section must be a list of steps');
  return value.map((step) => {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) throw new Error(`malformed step ${JSON.stringify(step)}`);
    const entries = Object.entries(step as Record<string, unknown>);
    if (entries.length !== 1) throw new Error(`a step must have exactly one key, got ${JSON.stringify(step)}`);
    return { op: entries[0][0], arg: entries[0][1] };
  });
}

/** Keys stay the text they were written as (`1.0:` is the key "1.0"), as Jackson's YAML parser in Elasticsearch's runner reads them. */
const YAML_OPTIONS = { uniqueKeys: false, prettyErrors: false, stringKeys: true } as const;

/**
 * The suites were written for SnakeYAML, which accepts flow collections (`{ … }`, `[ … ]`)
 * whose continuation lines are indented no deeper than their key. The `yaml` package
 * rejects those; on failure we indent such lines below their opener and parse again.
 */
function parseLenient(chunk: string): unknown {
  try {
    return parse(chunk, YAML_OPTIONS);
  } catch (first) {
    const reindented = reindentFlowContinuations(chunk);
    if (reindented === chunk) throw first;
    return parse(reindented, YAML_OPTIONS);
  }
}

export function reindentFlowContinuations(text: string): string {
  let depth = 0;
  let openerIndent = 0;
  return text
    .split('\n')
    .map((line) => {
      let out = line;
      const indent = line.length - line.trimStart().length;
      if (depth > 0 && line.trim() !== '' && indent <= openerIndent) {
        out = ' '.repeat(openerIndent + 2) + line.trimStart();
      } else if (depth === 0) {
        openerIndent = indent;
      }
      depth = Math.max(0, depth + flowDepthChange(line));
      return out;
    })
    .join('\n');
}

/** Net count of flow brackets opened on a line, ignoring quoted text and comments. */
function flowDepthChange(line: string): number {
  let change = 0;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    const previous = i === 0 ? ' ' : line[i - 1];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"') i++;
    } else if ((ch === '"' || ch === "'") && /[\s{[,:]/.test(previous)) {
      quote = ch;
    } else if (ch === '#' && /\s/.test(previous)) {
      break;
    } else if (ch === '{' || ch === '[') {
      change++;
    } else if (ch === '}' || ch === ']') {
      change--;
    }
  }
  return change;
}

function sectionName(chunk: string): string {
  for (const line of chunk.split('\n')) {
    const match = /^(?:"([^"]*)"|'([^']*)'|([^\s#][^:]*)):/.exec(line);
    if (match) return match[1] ?? match[2] ?? match[3];
  }
  return '(unnamed section)';
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}
