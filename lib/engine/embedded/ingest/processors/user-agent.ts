/**
 * `user_agent`: a browser's User-Agent header read into its client's name and version, its
 * operating system and its device, as Elasticsearch's ingest-user-agent module does with the
 * regexes.yaml of uap-core (the `uap-core` package; read once, on first use). The first pattern of
 * each list that finds a match wins (run on RE2, linear in the header's length, as every regular
 * expression over user data here); `*_replacement` values stand for the name or a version part,
 * `$N` in them for the Nth group. A custom `regex_file` is refused: no file was installed at
 * startup, so every name is unknown, as in a node without config/ingest-user-agent.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RE2JS } from 're2js';
import { illegalArgument, javaType } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

interface Parser {
  regex: RE2JS;
  name?: string;
  versions: (string | undefined)[];
}
interface Parsed {
  name: string;
  versions: (string | undefined)[];
}
interface Parsers {
  ua: Parser[];
  os: Parser[];
  device: Parser[];
}

const PROPERTIES = ['name', 'os', 'device', 'original', 'version'] as const;
type Property = (typeof PROPERTIES)[number];

let parsers: Parsers | undefined;

function compile(list: unknown, nameKey: string, versionKeys: string[]): Parser[] {
  return (list as Record<string, string>[]).map((p) => ({
    regex: RE2JS.compile(p.regex, p.regex_flag === 'i' ? RE2JS.CASE_INSENSITIVE : 0),
    name: p[nameKey],
    versions: versionKeys.map((k) => p[k]),
  }));
}

function loadParsers(): Parsers {
  if (parsers) return parsers;
  const require = createRequire(import.meta.url);
  const yaml = require('yaml') as typeof import('yaml');
  const doc = yaml.parse(readFileSync(require.resolve('uap-core/regexes.yaml'), 'utf8')) as Record<string, unknown>;
  parsers = {
    ua: compile(doc.user_agent_parsers, 'family_replacement', ['v1_replacement', 'v2_replacement', 'v3_replacement', 'v4_replacement']),
    os: compile(doc.os_parsers, 'os_replacement', ['os_v1_replacement', 'os_v2_replacement', 'os_v3_replacement', 'os_v4_replacement']),
    device: compile(doc.device_parsers, 'device_replacement', []),
  };
  return parsers;
}

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
    const matcher = p.regex.matcher(text);
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
 * pattern scans the text, ~10 ms for a browser's header and ~20 µs a character beyond, so one
 * document parses about 70 ordinary headers or 32 KB of header text (some 650 ms) at most.
 */
export function userAgentCost(text: string): number {
  return (text.length + 256) * 1024;
}

export function parseUserAgent(text: string, properties: readonly Property[], extractDeviceType: boolean): Record<string, unknown> {
  const { ua, os: osList, device: deviceList } = loadParsers();
  const client = findMatch(ua, text);
  const os = findMatch(osList, text);
  const device = findMatch(deviceList, text);
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
  return (doc) => {
    const value = doc.get(field, ignoreMissing);
    if ((value === undefined || value === null) && ignoreMissing) return;
    if (value === undefined || value === null) throw illegalArgument(`field [${field}] is null, cannot parse user-agent.`);
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    doc.budget.charge('user_agent', userAgentCost(value));
    doc.set(target, parseUserAgent(value, properties, extractDeviceType));
  };
};
