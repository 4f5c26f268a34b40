import { createRequire } from 'node:module';
import { BINARY_CONTENT_TYPES, encodeBinary } from './binary-content.js';
import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { booleanParam } from './params.js';
import type { RestRequest, RestResponse } from './types.js';

/** yaml, loaded by the first `format=yaml` answer (a tenth of a second of CPU at every start otherwise). */
let yaml: typeof import('yaml') | undefined;
const toYaml = (value: unknown, options: import('yaml').ToStringOptions): string => (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')).stringify(value, options);

/**
 * Elasticsearch's `_cat` tables (RestTable, AbstractCatAction): columns declared with ES's own
 * attribute strings (`alias:…;text-align:right;desc:…;default:false`), rows of typed cells, and
 * one renderer for every `_cat` API — `v`, `h` (names, aliases, wildcards), `s` (`:asc`/`:desc`),
 * `ts`, `bytes`, `time`, `help`, `format=json|yaml|cbor|smile`. Only `format` selects a structured answer:
 * an `Accept` header does not (clients and test runners send `application/json` to every API).
 */

/** A size as ES's ByteSizeValue prints it: `225b`, `4.5kb` (one decimal, truncated), or in `bytes=` units. */
export class ByteSize {
  constructor(readonly bytes: number) {}

  toString(): string {
    const units: Array<[string, number]> = [['pb', 1024 ** 5], ['tb', 1024 ** 4], ['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]];
    for (const [suffix, size] of units) if (this.bytes >= size) return oneDecimal(this.bytes / size) + suffix;
    return `${this.bytes}b`;
  }
}

/** A duration as ES's TimeValue prints it: `0s`, `1.5ms`, `3.2m`, or in `time=` units. */
export class Duration {
  private constructor(readonly nanos: number) {}

  static ofMillis(ms: number): Duration {
    return new Duration(Math.round(ms * 1e6));
  }

  static ofNanos(ns: number): Duration {
    return new Duration(ns);
  }

  toString(): string {
    const ns = this.nanos;
    if (ns < 0) return String(ns);
    if (ns === 0) return '0s';
    const units: Array<[string, number]> = [['d', 86_400e9], ['h', 3_600e9], ['m', 60e9], ['s', 1e9], ['ms', 1e6], ['micros', 1e3]];
    for (const [suffix, size] of units) if (ns >= size) return oneDecimal(ns / size) + suffix;
    return `${ns}nanos`;
  }
}

/** Java's Strings.format1Decimals: the value with its first decimal, truncated, and none when it is 0. */
function oneDecimal(value: number): string {
  const s = String(value);
  const dot = s.indexOf('.');
  if (dot < 0) return s;
  const digit = s[dot + 1];
  return digit === '0' ? s.slice(0, dot) : s.slice(0, dot + 2);
}

export type Cell = string | number | boolean | ByteSize | Duration | null;

export interface CatColumn<Row> {
  name: string;
  aliases: string[];
  /** The `alias` attribute as declared, for `help`. */
  aliasText: string;
  desc: string;
  shownByDefault: boolean;
  rightAligned: boolean;
  value(row: Row): Cell;
}

/** A column declared as Elasticsearch declares it: `column('docs', 'alias:d,dc;text-align:right;desc:…', row => …)`. */
export function column<Row>(name: string, attributes: string, value: (row: Row) => Cell): CatColumn<Row> {
  const attrs = new Map<string, string>();
  for (const part of attributes.split(';')) {
    const colon = part.indexOf(':');
    if (colon > 0) attrs.set(part.slice(0, colon), part.slice(colon + 1));
  }
  const aliasText = attrs.get('alias') ?? '';
  return {
    name,
    aliases: aliasText.split(',').map((a) => a.trim()).filter(Boolean),
    aliasText,
    desc: attrs.get('desc') ?? 'not available',
    shownByDefault: attrs.get('default') !== 'false',
    rightAligned: attrs.get('text-align') === 'right',
    value,
  };
}

/** The `epoch` and `timestamp` columns ES puts first in tables "with timestamp" (`ts=false` hides them). */
export function timestampColumns<Row>(at: (row: Row) => number): Array<CatColumn<Row>> {
  return [
    column<Row>('epoch', 'alias:t,time;desc:seconds since 1970-01-01 00:00:00', (r) => Math.floor(at(r) / 1000)),
    column<Row>('timestamp', 'alias:ts,hms,hhmmss;desc:time in HH:MM:SS', (r) => new Date(at(r)).toISOString().slice(11, 19)),
  ];
}

const TIMESTAMP_COLUMNS = new Set(['epoch', 'timestamp']);

interface Shown<Row> {
  column: CatColumn<Row>;
  /** The name the request used (a column's alias shows as that alias). */
  display: string;
}

function splitList(v: string): string[] {
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The column an alias names: the last that declares it, as ES's alias lookups end on it. */
function byAlias<Row>(columns: Array<CatColumn<Row>>, alias: string): CatColumn<Row> | undefined {
  for (let i = columns.length - 1; i >= 0; i--) if (columns[i].aliases.includes(alias)) return columns[i];
  return undefined;
}

function shownColumns<Row>(req: RestRequest, columns: Array<CatColumn<Row>>): Array<Shown<Row>> {
  const ts = booleanParam(req.params, 'ts', true);
  const visible = (c: CatColumn<Row>) => ts || !TIMESTAMP_COLUMNS.has(c.name);
  const h = req.params.get('h');
  if (h === null) return columns.filter((c) => c.shownByDefault && visible(c)).map((c) => ({ column: c, display: c.name }));
  // RestTable.expandHeadersFromRequest: wildcards expand to column names (by name or alias), once each
  const wanted = new Set<string>();
  for (const name of splitList(h)) {
    if (!name.includes('*')) {
      wanted.add(name);
      continue;
    }
    for (const c of columns) if (simpleMatch(name, c.name) || c.aliases.some((a) => simpleMatch(name, a))) wanted.add(c.name);
  }
  const out: Array<Shown<Row>> = [];
  for (const name of wanted) {
    const c = columns.find((col) => col.name === name) ?? byAlias(columns, name);
    // a name that is no column is left out, as ES does
    if (c && visible(c)) out.push({ column: c, display: name });
  }
  return out;
}

function compareCells(a: Cell, b: Cell): number {
  if (a === null && b === null) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const key = (v: Exclude<Cell, null>) => (v instanceof ByteSize ? v.bytes : v instanceof Duration ? v.nanos : v);
  const ka = key(a);
  const kb = key(b);
  const sameKind = typeof ka === typeof kb && (a instanceof ByteSize) === (b instanceof ByteSize) && (a instanceof Duration) === (b instanceof Duration);
  const [x, y] = sameKind ? [ka, kb] : [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortRows<Row>(req: RestRequest, columns: Array<CatColumn<Row>>, rows: Row[]): Row[] {
  const s = req.params.get('s');
  if (s === null) return rows;
  const keys = splitList(s).map((spec) => {
    let name = spec;
    let desc = false;
    if (name.endsWith(':desc')) {
      name = name.slice(0, -5);
      desc = true;
    } else if (name.endsWith(':asc')) name = name.slice(0, -4);
    const c = columns.find((col) => col.name === name) ?? byAlias(columns, name);
    if (!c) throw new EsError(500, 'unsupported_operation_exception', `Unable to sort by unknown sort key \`${name}\``);
    return { c, desc };
  });
  return [...rows].sort((ra, rb) => {
    for (const { c, desc } of keys) {
      const cmp = compareCells(c.value(ra), c.value(rb));
      if (cmp) return desc ? -cmp : cmp;
    }
    return 0;
  });
}

const BYTE_UNITS: Record<string, number> = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4, p: 1024 ** 5, pb: 1024 ** 5 };
const TIME_UNITS: Record<string, number> = { nanos: 1, micros: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3_600e9, d: 86_400e9 };

/** A cell as text, in the units `bytes` and `time` ask for (RestTable.renderValue); null stays null. */
function render(req: RestRequest, v: Cell): string | null {
  if (v === null) return null;
  if (v instanceof ByteSize) {
    const unit = BYTE_UNITS[req.params.get('bytes') ?? ''];
    return unit ? String(Math.floor(v.bytes / unit)) : v.toString();
  }
  if (v instanceof Duration) {
    const unit = TIME_UNITS[req.params.get('time') ?? ''];
    return unit ? String(Math.floor(v.nanos / unit)) : v.toString();
  }
  return String(v);
}

/** RestTable.pad: right-aligned cells get their spaces first; the last column gets no trailing ones. */
function pad(text: string | null, width: number, right: boolean, last: boolean): string {
  const s = text ?? '';
  const left = width - s.length;
  if (left > 0 && right) return ' '.repeat(left) + s;
  return last || left <= 0 ? s : s + ' '.repeat(left);
}

/** `help`: one `name | aliases | description` line per column, each part padded to its widest. */
function helpText<Row>(columns: Array<CatColumn<Row>>): string {
  const w = [0, 0, 0];
  for (const c of columns) {
    w[0] = Math.max(w[0], c.name.length);
    w[1] = Math.max(w[1], c.aliasText.length);
    w[2] = Math.max(w[2], c.desc.length);
  }
  return columns.map((c) => `${c.name.padEnd(w[0])} | ${c.aliasText.padEnd(w[1])} | ${c.desc.padEnd(w[2])}\n`).join('');
}

/**
 * One page of a paginated table (OpenSearch's `_list` APIs): its rows go under `key` beside the
 * `next_token` of the page after it (`null` on the last page); as text, a `next_token` line ends it.
 */
export interface TablePage {
  key: string;
  nextToken: string | null;
}

/** A `_cat` table as the request asks for it: help, text (with `v`), or `format=json|yaml|cbor|smile`. */
export function catResponse<Row>(req: RestRequest, columns: Array<CatColumn<Row>>, rows: Row[] | (() => Row[]), page?: TablePage): RestResponse {
  if (booleanParam(req.params, 'help', false)) return { status: 200, text: helpText(columns) };
  const shown = shownColumns(req, columns);
  const ordered = sortRows(req, columns, typeof rows === 'function' ? rows() : rows);
  const cells = ordered.map((row) => shown.map((s) => render(req, s.column.value(row))));
  const format = req.params.get('format');
  if (format === 'json' || format === 'yaml' || format === 'cbor' || format === 'smile') {
    const objects = cells.map((r) => Object.fromEntries(shown.map((s, i) => [s.display, r[i]])));
    const value = page ? { next_token: page.nextToken, [page.key]: objects } : objects;
    if (format === 'json') return { status: 200, body: value };
    if (format === 'cbor' || format === 'smile') {
      return { status: 200, bytes: encodeBinary(format, value), headers: { 'content-type': BINARY_CONTENT_TYPES[format] } };
    }
    return { status: 200, text: toYaml(value, { lineWidth: 0 }).replace(/^/, '---\n'), headers: { 'content-type': 'application/yaml' } };
  }
  const verbose = booleanParam(req.params, 'v', false);
  const widths = shown.map((s, i) => Math.max(verbose ? s.display.length : 0, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (texts: Array<string | null>) =>
    texts.map((t, i) => pad(t, widths[i], shown[i].column.rightAligned, i === texts.length - 1)).join(' ') + '\n';
  const lines = cells.map(line);
  if (verbose) lines.unshift(line(shown.map((s) => s.display)));
  if (page) lines.push(`next_token ${page.nextToken ?? 'null'}\n`);
  return { status: 200, text: lines.join('') };
}
