/**
 * `user_agent`: a browser's User-Agent header read into its client's name and version, its
 * operating system and its device, as Elasticsearch's ingest-user-agent module does with the
 * regexes.yaml of uap-core (the `uap-core` package, as JSON written by the build; read once, on
 * first use; its patterns compiled as they are first tried, and in the background from the moment a
 * pipeline with the processor is created: UserAgentParsers). The first pattern of each list that
 * finds a match wins (run on RE2, linear in the header's length, as every regular
 * expression over user data here); `*_replacement` values stand for the name or a version part,
 * `$N` in them for the Nth group. A custom `regex_file` is refused: no file was installed at
 * startup, so every name is unknown, as in a node without config/ingest-user-agent.
 */
import { readFileSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { eventLoopTurn } from '../../../../cooperative/index.js';
import { EsError } from '../../../../errors/index.js';
import { illegalArgument, javaType } from '../ingest-document.js';
import { type ProcessorFactory, warmingUp } from '../processor.js';

/** One pattern of a list, compiled on first use (`regex`) or by the warm-up. */
interface Parser {
  source: string;
  flags: number;
  regex?: RE2JS;
  name?: string;
  versions: (string | undefined)[];
}
interface Parsed {
  name: string;
  versions: (string | undefined)[];
}
/** What a header is read into, whatever the processor keeps of it (the parse cache's entries). */
export interface ParsedAgent {
  client?: Parsed;
  os?: Parsed;
  device?: Parsed;
}

const PROPERTIES = ['name', 'os', 'device', 'original', 'version'] as const;
type Property = (typeof PROPERTIES)[number];

/**
 * regexes.yaml as JSON, written beside this module's compiled file by the build
 * (spec/support/uap-regexes.mjs): YAML.parse of the file took ~560 ms of the first document's turn,
 * JSON.parse of the same takes ~1 ms.
 */
const REGEXES_URL = new URL('./uap-regexes.json', import.meta.url);

/** How long one chunk of the background warm-up compiles before the event loop gets a turn (ms). */
const WARM_UP_CHUNK_MS = 4;

function listOf(list: unknown, nameKey: string, versionKeys: string[]): Parser[] {
  return (list as Record<string, string>[]).map((p) => ({
    source: p.regex,
    flags: p.regex_flag === 'i' ? RE2JS.CASE_INSENSITIVE : 0,
    name: p[nameKey],
    versions: versionKeys.map((k) => p[k]),
  }));
}

function regexOf(p: Parser): RE2JS {
  return (p.regex ??= RE2JS.compile(p.source, p.flags));
}

/**
 * uap-core's three lists of patterns. Compiling the 1,175 of them takes about a second on RE2JS, so
 * none is compiled before it is tried: a header compiles the patterns it runs through, and
 * `warmUp` (started when a pipeline with a user_agent processor is created) compiles the rest in
 * chunks of a few ms, a turn of the event loop between them, so later documents find them ready.
 */
export class UserAgentParsers {
  readonly ua: Parser[];
  readonly os: Parser[];
  readonly device: Parser[];
  private warming?: Promise<void>;
  /** Whether every pattern is compiled (the warm-up ended). */
  warm = false;

  /** `chunkMs`: how long a chunk of the warm-up compiles before the event loop gets a turn. */
  constructor(
    doc: Record<string, unknown>,
    private readonly chunkMs = WARM_UP_CHUNK_MS,
  ) {
    this.ua = listOf(doc.user_agent_parsers, 'family_replacement', ['v1_replacement', 'v2_replacement', 'v3_replacement', 'v4_replacement']);
    this.os = listOf(doc.os_parsers, 'os_replacement', ['os_v1_replacement', 'os_v2_replacement', 'os_v3_replacement', 'os_v4_replacement']);
    this.device = listOf(doc.device_parsers, 'device_replacement', []);
  }

  /** How many patterns are compiled, of how many. */
  compiled(): { compiled: number; total: number } {
    const all = [...this.ua, ...this.os, ...this.device];
    return { compiled: all.filter((p) => p.regex).length, total: all.length };
  }

  /** Compiles every pattern not compiled yet, in chunks of WARM_UP_CHUNK_MS; once, however often called. */
  warmUp(): Promise<void> {
    return (this.warming ??= this.compileAll());
  }

  private async compileAll(): Promise<void> {
    let end = performance.now() + this.chunkMs;
    for (const p of [...this.ua, ...this.os, ...this.device]) {
      if (p.regex) continue;
      if (performance.now() >= end) {
        await eventLoopTurn();
        end = performance.now() + this.chunkMs;
      }
      regexOf(p);
    }
    this.warm = true;
  }

  parse(text: string): ParsedAgent {
    return { client: findMatch(this.ua, text), os: findMatch(this.os, text), device: findMatch(this.device, text) };
  }
}

/** uap-core's regexes.yaml, as the build wrote it in JSON. */
export function userAgentPatterns(): Record<string, unknown> {
  let json: string;
  try {
    json = readFileSync(REGEXES_URL, 'utf8');
  } catch {
    throw new EsError(500, 'illegal_state_exception', `user_agent patterns not built: ${REGEXES_URL.pathname} is missing (make build writes it)`);
  }
  return JSON.parse(json) as Record<string, unknown>;
}

let parsers: UserAgentParsers | undefined;

/** The node's lists, read on first use (about a millisecond). */
export function userAgentParsers(): UserAgentParsers {
  return (parsers ??= new UserAgentParsers(userAgentPatterns()));
}

/**
 * Headers already parsed, by their text, as Elasticsearch's `ingest.user_agent.cache_size` (1000
 * results by default, one cache for every user_agent processor of the node): a repeated header
 * costs a lookup. Least recently used out first; a header's text counts toward a bound in bytes as
 * well, so a thousand huge headers do not stay held (a header over the bound is not kept).
 */
export const USER_AGENT_CACHE_SIZE = 1000;
const CACHE_BYTES = 4 * 1024 * 1024;
const ENTRY_BYTES = 256; // what an entry holds besides its key: the parsed names and versions, the LRU's own

export class ParsedAgentCache {
  private readonly entries: LRUCache<string, ParsedAgent>;

  constructor(max = USER_AGENT_CACHE_SIZE, maxBytes = CACHE_BYTES) {
    this.entries = new LRUCache<string, ParsedAgent>({ max, maxSize: maxBytes, sizeCalculation: (_, key) => 2 * key.length + ENTRY_BYTES });
  }

  get size(): number {
    return this.entries.size;
  }

  get(text: string): ParsedAgent | undefined {
    return this.entries.get(text);
  }

  set(text: string, parsed: ParsedAgent): void {
    this.entries.set(text, parsed);
  }
}

const parseCache = new ParsedAgentCache();

type Groups = (string | undefined)[];

/** A replacement with `$N` standing for the Nth group (an unmatched group for nothing). */
function substitute(template: string, m: Groups): string {
  return template.replace(/\$(\d)/g, (_, n: string) => m[Number(n)] ?? '').trim();
}

function present(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function findMatch(list: Parser[], text: string): Parsed | undefined {
  for (const p of list) {
    const matcher = regexOf(p).matcher(text);
    if (!matcher.find()) continue;
    const m: Groups = [];
    for (let i = 0; i <= matcher.groupCount(); i++) m.push(matcher.group(i) ?? undefined);
    const name = present(p.name !== undefined ? substitute(p.name, m) : m[1]);
    if (name === undefined) return undefined;
    const versions = [0, 1, 2, 3].map((i) => present(p.versions[i] !== undefined ? substitute(p.versions[i]!, m) : m[i + 2]));
    return { name, versions };
  }
  return undefined;
}

/** major.minor.patch.build, as far as the parts run unbroken. */
function dotted(versions: (string | undefined)[]): string | undefined {
  const parts: string[] = [];
  for (const v of versions) {
    if (v === undefined) break;
    parts.push(v);
  }
  return parts.length ? parts.join('.') : undefined;
}

const MOBILE_OS = /^(Android|iOS|Windows Phone|BlackBerry OS|Symbian OS|Firefox OS|KaiOS|Tizen|Sailfish)/;
const DESKTOP_OS = /^(Windows|Mac OS X|Linux|Ubuntu|Fedora|Debian|Chrome OS|FreeBSD|OpenBSD|NetBSD|Solaris)/;

/** `extract_device_type` (beta in Elasticsearch, "best effort"): from the device and OS parsed. */
function deviceType(device: Parsed | undefined, os: Parsed | undefined): string {
  const name = device?.name ?? '';
  if (name === 'Spider') return 'Robot';
  if (/tablet|ipad|kindle/i.test(name)) return 'Tablet';
  if (os && MOBILE_OS.test(os.name)) return 'Phone';
  if (os && DESKTOP_OS.test(os.name)) return 'Desktop';
  return 'Other';
}

/**
 * What parsing a header costs the document's ingest budget (ingest-budget.ts), as bytes: every
 * pattern scans the text, ~30 µs a character of header. A document's pipelines run in one turn of
 * the event loop, so one document parses about 4 KB of header text (some 130 ms) at most — about
 * 9 ordinary headers. At 32 KB a document (a second of parsing) a tenant's bulk of such
 * documents kept every other request waiting seconds: each of the several turns a request takes
 * waited for a whole document. A header found in the parse cache costs nothing.
 */
export function userAgentCost(text: string): number {
  return (text.length + 256) * 8192;
}

/** The processor's output for a header parsed (fresh objects: the cached parse is never handed out). */
export function userAgentDetails(text: string, parsed: ParsedAgent, properties: readonly Property[], extractDeviceType: boolean): Record<string, unknown> {
  const { client, os, device } = parsed;
  const details: Record<string, unknown> = {};
  for (const property of properties) {
    switch (property) {
      case 'original':
        details.original = text;
        break;
      case 'name':
        details.name = client?.name ?? 'Other';
        break;
      case 'version': {
        const version = client && dotted(client.versions);
        if (version !== undefined) details.version = version;
        break;
      }
      case 'os':
        if (os) {
          const version = dotted(os.versions);
          details.os = version === undefined ? { name: os.name } : { name: os.name, version, full: `${os.name} ${version}` };
        }
        break;
      case 'device':
        details.device = extractDeviceType ? { name: device?.name ?? 'Other', type: deviceType(device, os) } : { name: device?.name ?? 'Other' };
        break;
    }
  }
  return details;
}

export const userAgent: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const target = config.optionalString('target_field', 'user_agent')!;
  const regexFile = config.optionalString('regex_file');
  if (regexFile !== undefined) throw config.error('regex_file', `regex file [${regexFile}] doesn't exist (has to exist at node startup)`);
  const listed = config.optionalList('properties');
  const properties = (listed ?? PROPERTIES).map((p) => {
    const name = String(p).toLowerCase();
    if (!(PROPERTIES as readonly string[]).includes(name)) throw config.error('properties', `illegal property value [${String(p)}]. valid values are [NAME, OS, DEVICE, ORIGINAL, VERSION]`);
    return name as Property;
  });
  const extractDeviceType = config.boolean('extract_device_type', false);
  const ignoreMissing = config.boolean('ignore_missing', false);
  config.take('ecs'); // deprecated and ignored since 7.x
  const parsers = userAgentParsers();
  if (!parsers.warm) warmingUp(parsers.warmUp());
  return (doc) => {
    const value = doc.get(field, ignoreMissing);
    if ((value === undefined || value === null) && ignoreMissing) return;
    if (value === undefined || value === null) throw illegalArgument(`field [${field}] is null, cannot parse user-agent.`);
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    let parsed = parseCache.get(value);
    if (!parsed) {
      doc.budget.charge('user_agent', userAgentCost(value));
      parsed = userAgentParsers().parse(value);
      parseCache.set(value, parsed);
    }
    doc.set(target, userAgentDetails(value, parsed, properties, extractDeviceType));
  };
};
