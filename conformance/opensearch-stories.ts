#!/usr/bin/env node
/**
 * `npm run conformance:opensearch -- --dir <folder>`: runs OpenSearch API-spec test stories (the
 * YAML files of opensearch-project/opensearch-api-specification's `tests/`, fetched by hand into a
 * folder outside the repository) against a fresh gateway on the embedded engine, or any server
 * (`--url`). A dev tool: it judges each chapter by its expected status and, where the story gives
 * one, a payload subset (it does not validate responses against the OpenAPI schemas).
 *
 *   node dist/conformance/opensearch-stories.js --dir /tmp/os-stories [--url http://user:pass@host:port]
 *     [--filter <path substring>]... [--version 2.19.0] [--dialect opensearch|auto|elasticsearch]
 *     [--user-agent <ua>] [--verbose] [--json <file>]
 *
 * A story runs its prologues, then its chapters, then its epilogues (always). It passes when every
 * prologue and chapter does; a story, chapter or step whose `version` range excludes `--version`,
 * or whose `distributions` exclude opensearch.org, is skipped. `${id.name}` in paths, parameters
 * and payloads reads a value a step with that `id` kept by its `output` (`payload.a.b`, `headers.h`).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { wipeCluster } from './cleanup.js';
import { EsClient, type EsResponse } from './es-client.js';
import { startServer, type StartedServer } from './server-process.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DISTRIBUTION = 'opensearch.org';

interface Step {
  id?: string;
  synopsis?: string;
  path: string;
  method: string | string[];
  version?: string;
  distributions?: Distributions;
  parameters?: Record<string, unknown>;
  request?: { headers?: Record<string, string>; payload?: unknown; content_type?: string };
  /** `status`: the one expected, or those that count as success (the stories give either). */
  response?: { status?: number | number[]; payload?: unknown; content_type?: string };
  /** Prologues and epilogues: the statuses that count as success. */
  status?: number[];
  output?: Record<string, string>;
  retry?: { count?: number; wait?: number };
}
type Distributions = string[] | { included?: string[]; excluded?: string[] };
interface Story {
  description?: string;
  version?: string;
  distributions?: Distributions;
  pending?: string;
  prologues?: Step[];
  chapters?: Step[];
  epilogues?: Step[];
}

export interface StoryResult {
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      url: { type: 'string' },
      filter: { type: 'string', multiple: true },
      version: { type: 'string', default: '2.19.0' },
      dialect: { type: 'string', default: 'opensearch' },
      'user-agent': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      json: { type: 'string' },
    },
    strict: true,
  });
  if (!values.dir) throw new Error('--dir <folder of stories> is required');
  const files = (await listYaml(values.dir)).filter(
    (f) => !values.filter?.length || values.filter.some((part) => f.includes(part)),
  );
  let server: StartedServer | undefined;
  if (!values.url) process.env.API_DIALECT = values.dialect;
  const url = values.url ?? (server = await startServer('gateway', REPO_ROOT)).url;
  const client = new EsClient(url);
  const headers: Record<string, string> = values['user-agent'] ? { 'user-agent': values['user-agent'] } : {};
  const results: StoryResult[] = [];
  try {
    for (const file of files) {
      const rel = path.relative(values.dir, file);
      let story: Story;
      try {
        story = parse(await readFile(file, 'utf8')) as Story;
      } catch (err) {
        results.push({ file: rel, status: 'skipped', reason: `unreadable: ${String(err)}` });
        continue;
      }
      await wipeCluster(client);
      const result = await runStory(client, story, values.version!, headers);
      results.push({ file: rel, ...result });
      const line = `${result.status.padEnd(7)} ${rel}`;
      console.log(result.status === 'passed' || !values.verbose ? line : `${line}\n        ${result.reason}`);
    }
  } finally {
    await client.close();
    await server?.stop();
  }
  const count = (s: StoryResult['status']): number => results.filter((r) => r.status === s).length;
  const run = count('passed') + count('failed');
  console.log(
    `\n${count('passed')} of ${run} stories passed (${run ? ((100 * count('passed')) / run).toFixed(1) : '0'}%), ${count('skipped')} skipped`,
  );
  if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2) + '\n');
  return 0;
}

async function runStory(
  client: EsClient,
  story: Story,
  version: string,
  headers: Record<string, string>,
): Promise<Omit<StoryResult, 'file'>> {
  if (story.pending) return { status: 'skipped', reason: `pending: ${story.pending}` };
  const excluded = exclusion(story, version);
  if (excluded) return { status: 'skipped', reason: excluded };
  const outputs = new Map<string, Record<string, unknown>>();
  let failure: string | undefined;
  let chapters = 0;
  try {
    for (const step of story.prologues ?? []) {
      if (exclusion(step, version)) continue;
      const problem = await runStep(client, step, outputs, headers, 'prologue');
      if (problem) {
        failure = problem;
        break;
      }
    }
    if (!failure) {
      for (const step of story.chapters ?? []) {
        if (exclusion(step, version)) continue;
        chapters++;
        const problem = await runStep(client, step, outputs, headers, 'chapter');
        if (problem && !failure) failure = problem;
      }
    }
  } finally {
    for (const step of story.epilogues ?? []) {
      if (exclusion(step, version)) continue;
      await runStep(client, step, outputs, headers, 'epilogue').catch(() => undefined);
    }
  }
  if (failure) return { status: 'failed', reason: failure };
  return chapters === 0 ? { status: 'skipped', reason: 'no chapter for this version' } : { status: 'passed' };
}

/** Why a story or step does not apply to this version and distribution (undefined: it does). */
function exclusion(item: { version?: string; distributions?: Distributions }, version: string): string | undefined {
  if (item.version && !inRange(version, item.version)) return `version ${item.version}`;
  const d = item.distributions;
  if (d) {
    const included = Array.isArray(d) ? d : d.included;
    if (included && !included.includes(DISTRIBUTION)) return `distributions ${included.join(',')}`;
    if (!Array.isArray(d) && d.excluded?.includes(DISTRIBUTION)) return `excluded from ${DISTRIBUTION}`;
  }
  return undefined;
}

/** `>= 2.4`, `< 2.12`, `>= 2.0 < 3.0`, `2.19` (semver-style comparators, all of which must hold). */
function inRange(version: string, range: string): boolean {
  const v = versionParts(version);
  const comparators = range.match(/(>=|<=|>|<|=|~|\^)?\s*\d+(\.\d+)*/g) ?? [];
  return comparators.every((comparator) => {
    const [, op = '=', num] = /^(>=|<=|>|<|=|~|\^)?\s*(.*)$/.exec(comparator.trim())!;
    const c = compare(v, versionParts(num));
    if (op === '>=') return c >= 0;
    if (op === '>') return c > 0;
    if (op === '<=') return c <= 0;
    if (op === '<') return c < 0;
    const wanted = versionParts(num);
    return wanted.every((part, i) => part === v[i] || (op === '^' && i > 0) || (op === '~' && i > 1));
  });
}
const versionParts = (v: string): number[] => v.split('.').map(Number);
function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

async function runStep(
  client: EsClient,
  step: Step,
  outputs: Map<string, Record<string, unknown>>,
  headers: Record<string, string>,
  kind: 'prologue' | 'chapter' | 'epilogue',
): Promise<string | undefined> {
  const methods = Array.isArray(step.method) ? step.method : [step.method ?? 'GET'];
  for (const method of methods) {
    const attempts = 1 + (step.retry?.count ?? 0);
    let problem: string | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, step.retry?.wait ?? 1000));
      problem = await callOnce(client, step, method, outputs, headers, kind);
      if (!problem) break;
    }
    if (problem) return `${kind} ${method} ${step.path}${step.synopsis ? ` (${step.synopsis})` : ''}: ${problem}`;
  }
  return undefined;
}

async function callOnce(
  client: EsClient,
  step: Step,
  method: string,
  outputs: Map<string, Record<string, unknown>>,
  headers: Record<string, string>,
  kind: 'prologue' | 'chapter' | 'epilogue',
): Promise<string | undefined> {
  const parameters = substitute(step.parameters ?? {}, outputs) as Record<string, unknown>;
  const used = new Set<string>();
  let urlPath = substitute(step.path, outputs) as string;
  if (!urlPath.startsWith('/')) urlPath = `/${urlPath}`; // `path: games`, as an HTTP client joins it to the base URL
  urlPath = urlPath.replace(/\{(\w+)\}/g, (_, name: string) => {
    used.add(name);
    return encodeURIComponent(paramString(parameters[name]));
  });
  const query = Object.entries(parameters)
    .filter(([name]) => !used.has(name))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(paramString(value))}`);
  const url = urlPath + (query.length ? `?${query.join('&')}` : '');
  const callHeaders: Record<string, string> = { ...headers, ...(step.request?.headers ?? {}) };
  let body: string | undefined;
  const payload = step.request?.payload === undefined ? undefined : substitute(step.request.payload, outputs);
  if (payload !== undefined) {
    const contentType = step.request?.content_type ?? 'application/json';
    callHeaders['content-type'] = contentType;
    if (contentType.includes('ndjson') && Array.isArray(payload)) body = payload.map((line) => JSON.stringify(line)).join('\n') + '\n';
    else body = typeof payload === 'string' && !contentType.includes('json') ? payload : JSON.stringify(payload);
  }
  let response: EsResponse;
  try {
    response = await client.send({ method, url, headers: callHeaders, body });
  } catch (err) {
    return `request failed: ${String(err)}`;
  }
  if (step.id) {
    const kept: Record<string, unknown> = {};
    for (const [name, where] of Object.entries(step.output ?? {})) kept[name] = pick(response, where);
    outputs.set(step.id, kept);
  }
  const expected = kind === 'chapter' ? [step.response?.status ?? 200].flat() : step.status ?? [200, 201];
  const summary = `${url} -> ${response.status} ${response.text.slice(0, 300)}`;
  if (!expected.includes(response.status)) return `status ${response.status}, expected ${expected.join('|')}: ${summary}`;
  const wantedType = kind === 'chapter' ? step.response?.content_type : undefined;
  const gotType = (response.headers['content-type'] ?? '').split(';')[0].trim();
  if (wantedType && gotType !== wantedType) return `content type ${gotType}, expected ${wantedType}: ${summary}`;
  if (kind === 'chapter' && step.response?.payload !== undefined) {
    const mismatch = subsetMismatch(substitute(step.response.payload, outputs), decoded(response, gotType), 'payload');
    if (mismatch) return `${mismatch}: ${summary}`;
  }
  return undefined;
}

/** The body as the story reads it: JSON parsed (by the client), YAML, CBOR and Smile decoded here. */
function decoded(response: EsResponse, contentType: string): unknown {
  if (contentType === 'application/cbor' || contentType === 'application/smile') {
    const bytes = response.raw;
    return contentType === 'application/cbor' ? new BinaryReader(bytes).cbor() : new BinaryReader(bytes, 4).smile();
  }
  if (contentType !== 'application/yaml' || typeof response.body !== 'string') return response.body;
  return parseAllDocuments(response.body)[0]?.toJS();
}

/** Just enough CBOR (definite and indefinite lengths) and Smile (no back references) to read an answer. */
class BinaryReader {
  constructor(private readonly b: Buffer, private at = 0) {}
  private text(n: number): string {
    const t = this.b.toString('utf8', this.at, this.at + n);
    this.at += n;
    return t;
  }
  cbor(): unknown {
    const head = this.b[this.at++];
    const major = head >> 5;
    const info = head & 31;
    if (major === 7) {
      if (info === 20 || info === 21) return info === 21;
      if (info === 22) return null;
      if (info === 27) return (this.at += 8, this.b.readDoubleBE(this.at - 8));
      if (info === 26) return (this.at += 4, this.b.readFloatBE(this.at - 4));
      throw new Error(`cbor simple value ${info}`);
    }
    const length = (): number => {
      if (info < 24) return info;
      const size = 1 << (info - 24);
      const v = size === 8 ? Number(this.b.readBigUInt64BE(this.at)) : this.b.readUIntBE(this.at, size);
      this.at += size;
      return v;
    };
    const items = <T>(read: () => T): T[] => {
      const out: T[] = [];
      if (info === 31) while (this.b[this.at] !== 0xff) out.push(read());
      else for (let n = length(); n > 0; n--) out.push(read());
      if (info === 31) this.at++;
      return out;
    };
    if (major === 0) return length();
    if (major === 1) return -1 - length();
    if (major === 3) return this.text(length());
    if (major === 4) return items(() => this.cbor());
    if (major === 5) return Object.fromEntries(items(() => [this.cbor(), this.cbor()] as const));
    throw new Error(`cbor major type ${major}`);
  }
  smile(): unknown {
    const t = this.b[this.at++];
    if (t === 0x20) return '';
    if (t >= 0x21 && t <= 0x23) return t === 0x21 ? null : t === 0x23;
    if (t === 0x24 || t === 0x25) {
      let v = 0n;
      while (!(this.b[this.at] & 0x80)) v = (v << 7n) | BigInt(this.b[this.at++]);
      v = (v << 6n) | BigInt(this.b[this.at++] & 0x3f);
      return Number(v & 1n ? -((v + 1n) >> 1n) : v >> 1n);
    }
    if (t >= 0xc0 && t <= 0xdf) {
      const z = t & 0x1f;
      return z & 1 ? -((z + 1) >> 1) : z >> 1;
    }
    if (t >= 0x40 && t <= 0x7f) return this.text((t & 0x1f) + (t < 0x60 ? 1 : 33));
    if (t >= 0x80 && t <= 0xbf) return this.text((t & 0x1f) + (t < 0xa0 ? 2 : 34));
    if (t === 0xe0 || t === 0xe4) {
      const end = this.b.indexOf(0xfc, this.at);
      return this.text(end - this.at) + ((this.at += 1), '');
    }
    if (t === 0xf8) {
      const out: unknown[] = [];
      while (this.b[this.at] !== 0xf9) out.push(this.smile());
      this.at++;
      return out;
    }
    if (t === 0xfa) {
      const out: Record<string, unknown> = {};
      while (this.b[this.at] !== 0xfb) {
        const k = this.b[this.at++];
        let key: string;
        if (k === 0x20) key = '';
        else if (k >= 0x80 && k <= 0xbf) key = this.text((k & 0x3f) + 1);
        else if (k >= 0xc0 && k <= 0xf7) key = this.text((k & 0x3f) + 2);
        else if (k === 0x34) {
          const end = this.b.indexOf(0xfc, this.at);
          key = this.text(end - this.at);
          this.at++;
        } else throw new Error(`smile key token ${k}`);
        out[key] = this.smile();
      }
      this.at++;
      return out;
    }
    throw new Error(`smile token ${t}`);
  }
}

function paramString(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  return value === undefined || value === null ? '' : String(value);
}

/** `payload.a.b` / `headers.name` of a response. */
function pick(response: EsResponse, where: string): unknown {
  const [root, ...parts] = where.split('.');
  let value: unknown = root === 'headers' ? response.headers : root === 'payload' ? response.body : undefined;
  for (const part of root === 'headers' ? [parts.join('.').toLowerCase()] : parts) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Replaces `${id.name}` by the kept output (the value itself when it is the whole string). */
function substitute(value: unknown, outputs: Map<string, Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const lookup = (ref: string): unknown => {
      const [id, ...name] = ref.split('.');
      return outputs.get(id)?.[name.join('.')];
    };
    const whole = /^\$\{([^}]+)\}$/.exec(value);
    if (whole) return lookup(whole[1]) ?? value;
    return value.replace(/\$\{([^}]+)\}/g, (match, ref: string) => String(lookup(ref) ?? match));
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, outputs));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, outputs)]));
  }
  return value;
}

/** Where `actual` differs from `expected` (objects: the keys expected; arrays: at least as long, item by item; extra keys and items are fine). */
function subsetMismatch(expected: unknown, actual: unknown, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)?.slice(0, 100)}`;
    if (actual.length < expected.length) return `${at}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(expected[i], actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return `${at}: expected an object, got ${JSON.stringify(actual)?.slice(0, 100)}`;
    for (const [key, value] of Object.entries(expected)) {
      const m = subsetMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (m) return m;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

async function listYaml(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listYaml(full)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
