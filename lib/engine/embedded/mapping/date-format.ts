import { RE2JS } from 're2js';
import { compileLinear, type LinearRegex } from '../regex/index.js';
import { DAY_NAMES, MONTH_NAMES, NAMED_PATTERNS, OPTIONAL_TIME_NAMES, tokenize, type Token } from './date-pattern.js';
import type { Instant } from './instant.js';

/**
 * Parsing with Elasticsearch date formats: the built-in names (`strict_date_optional_time`,
 * `epoch_millis`…) and Java-time patterns (`yyyy-MM-dd HH:mm:ss`, `dd/MM/yyyy`, `[` optional `]`
 * sections), joined by `||`. A date parses to an instant to the nanosecond (UTC unless the text
 * carries a zone); `date` fields keep its millis, `date_nanos` fields all of it. Printing is
 * `date-printer.ts`.
 */

const STRICT_OPTIONAL_TIME =
  /^([+-]?\d{4,9})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;
const LENIENT_OPTIONAL_TIME =
  /^([+-]?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
export const DEFAULT_DATE_NANOS_FORMAT = 'strict_date_optional_time_nanos||epoch_millis';

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const t = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  t.setUTCFullYear(y);
  return t.getTime();
}

/** The instant of a local date-time at a zone offset; undefined when a field is out of its range. */
function instantAt(y: number, mo: number, d: number, h: number, mi: number, s: number, nanoOfSecond: number, zone: string | undefined): Instant | undefined {
  const ms = utc(y, mo, d, h, mi, s, Math.floor(nanoOfSecond / 1_000_000));
  return ms === undefined ? undefined : { millis: ms - zoneOffsetMinutes(zone) * 60_000, nanos: nanoOfSecond % 1_000_000 };
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2, 4)) : 0));
}

/** Fraction-of-second digits → nano-of-second (digits past the ninth are dropped). */
function fractionNanos(f: string | undefined): number {
  return f ? Number(f.padEnd(9, '0').slice(0, 9)) : 0;
}

function parseOptionalTime(text: string, strict: boolean): Instant | undefined {
  const m = (strict ? STRICT_OPTIONAL_TIME : LENIENT_OPTIONAL_TIME).exec(text);
  if (!m) return undefined;
  return instantAt(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), fractionNanos(m[7]), m[8]);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fieldRegex(letter: string, count: number): string {
  switch (letter) {
    case 'y':
    case 'u':
    case 'Y':
      return count === 2 ? '(\\d{2})' : count >= 4 ? '([+-]?\\d{4,9})' : '([+-]?\\d{1,9})';
    case 'M':
    case 'L':
      if (count >= 4) return `(${MONTH_NAMES.join('|')})`;
      if (count === 3) return `(${MONTH_NAMES.map((n) => n.slice(0, 3)).join('|')})`;
      return count === 2 ? '(\\d{2})' : '(\\d{1,2})';
    case 'd':
    case 'H':
    case 'h':
    case 'k':
    case 'K':
    case 'm':
    case 's':
      return count === 2 ? '(\\d{2})' : '(\\d{1,2})';
    case 'D':
      return count === 3 ? '(\\d{3})' : '(\\d{1,3})';
    case 'S':
      return `(\\d{${count}})`;
    case 'n':
      return count === 1 ? '(\\d{1,9})' : `(\\d{${count}})`;
    case 'a':
      return '(AM|PM|am|pm)';
    case 'E':
    case 'e':
      return count >= 4 ? `(${DAY_NAMES.join('|')})` : `(${DAY_NAMES.map((n) => n.slice(0, 3)).join('|')})`;
    case 'X':
    case 'x':
      return '(Z|[+-]\\d{2}(?::?\\d{2})?)';
    case 'Z':
      return '(Z|[+-]\\d{2}:?\\d{2})';
    case 'z':
    case 'V':
      return '(Z|UTC|GMT|[+-]\\d{2}:?\\d{2})';
    default:
      return `(${escape(letter.repeat(count))})`;
  }
}

interface CompiledPattern {
  /** Built from a user's format: on the linear-time engine, as `[d][d][d]…` must not backtrack. */
  regex: LinearRegex;
  fields: Array<{ letter: string; count: number }>;
}

const compiled = new Map<string, CompiledPattern>();

function compile(pattern: string): CompiledPattern {
  let c = compiled.get(pattern);
  if (c) return c;
  const fields: Array<{ letter: string; count: number }> = [];
  const build = (tokens: Token[]): string =>
    tokens.map((t) => {
      if (t.kind === 'lit') return escape(t.text);
      if (t.kind === 'opt') return `(?:${build(t.tokens)})?`;
      fields.push({ letter: t.letter, count: t.count });
      return fieldRegex(t.letter, t.count);
    }).join('');
  c = { regex: compileLinear(`^${build(tokenize(pattern))}$`, RE2JS.CASE_INSENSITIVE, pattern), fields };
  compiled.set(pattern, c);
  return c;
}

function parsePattern(text: string, pattern: string): Instant | undefined {
  const { regex, fields } = compile(pattern);
  const m = regex.exec(text);
  if (!m) return undefined;
  let y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0, nanoOfSecond = 0, pm: boolean | undefined, zone: string | undefined, doy: number | undefined;
  fields.forEach((f, i) => {
    const v = m[i + 1];
    if (v === undefined) return;
    switch (f.letter) {
      case 'y': case 'u': case 'Y':
        y = Number(v);
        if (f.count === 2) y += 2000;
        break;
      case 'M': case 'L':
        mo = f.count >= 3 ? MONTH_NAMES.findIndex((name) => name.slice(0, 3).toLowerCase() === v.slice(0, 3).toLowerCase()) + 1 : Number(v);
        break;
      case 'd': d = Number(v); break;
      case 'D': doy = Number(v); break;
      case 'H': case 'k': h = Number(v) % 24; break;
      case 'h': case 'K': h = Number(v) % 12; break;
      case 'm': mi = Number(v); break;
      case 's': s = Number(v); break;
      case 'S': nanoOfSecond = fractionNanos(v); break;
      case 'n': nanoOfSecond = Number(v); break;
      case 'a': pm = v.toLowerCase() === 'pm'; break;
      case 'X': case 'x': case 'Z': case 'z': case 'V':
        zone = v.toUpperCase() === 'UTC' || v.toUpperCase() === 'GMT' ? 'Z' : v;
        break;
    }
  });
  if (pm !== undefined && pm) h += 12;
  if (doy === undefined) return instantAt(y, mo, d, h, mi, s, nanoOfSecond, zone);
  const base = instantAt(y, 1, 1, h, mi, s, nanoOfSecond, zone);
  return base === undefined ? undefined : { millis: base.millis + (doy - 1) * 86_400_000, nanos: base.nanos };
}

const EPOCH_NUMBER = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * `epoch_millis` (unit 1) or `epoch_second` (unit 1000), a number or its text. The decimal digits
 * are read exactly, down to the nanosecond; before the epoch, to the millisecond (only `date`
 * fields take such dates).
 */
function epochInstant(value: unknown, unitMillis: 1 | 1000): Instant | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const m = EPOCH_NUMBER.exec(String(value));
  if (!m) return typeof value === 'number' ? { millis: Math.trunc(value * unitMillis), nanos: 0 } : undefined;
  const millisDigits = unitMillis === 1 ? 0 : 3;
  const fraction = (m[3] ?? '').padEnd(millisDigits + 6, '0');
  const millis = Number(m[2]) * unitMillis + (millisDigits ? Number(fraction.slice(0, millisDigits)) : 0);
  if (m[1] === '-') return { millis: millis === 0 ? 0 : -millis, nanos: 0 };
  return { millis, nanos: Number(fraction.slice(millisDigits, millisDigits + 6)) };
}

/** One format (no `||`) applied to a value; undefined when it does not parse. */
function parseOne(value: unknown, format: string): Instant | undefined {
  const f = format.trim();
  if (f === 'epoch_millis') return epochInstant(value, 1);
  if (f === 'epoch_second') return epochInstant(value, 1000);
  if (typeof value !== 'string') return undefined;
  if (OPTIONAL_TIME_NAMES.has(f)) return parseOptionalTime(value, f.startsWith('strict') || f === 'iso8601');
  const named = NAMED_PATTERNS[f];
  if (named) return parsePattern(value, named) ?? (f.startsWith('strict') ? undefined : parseOptionalTime(value, false));
  return parsePattern(value, f);
}

/** A date value under a format with `||` alternatives → its instant; undefined when none parses. */
export function parseInstant(value: unknown, format: string = DEFAULT_DATE_FORMAT): Instant | undefined {
  for (const f of format.split('||')) {
    const r = parseOne(value, f);
    if (r !== undefined && Number.isFinite(r.millis)) return r;
  }
  return undefined;
}

/** A date value under a format with `||` alternatives → epoch millis; undefined when none parses. */
export function parseDate(value: unknown, format: string = DEFAULT_DATE_FORMAT): number | undefined {
  return parseInstant(value, format)?.millis;
}

/** Is this a format ES knows (a built-in name or a valid pattern)? */
export function isValidDateFormat(format: string): boolean {
  return format.split('||').every((f) => {
    const t = f.trim();
    if (t === '' ) return false;
    if (t === 'epoch_millis' || t === 'epoch_second' || OPTIONAL_TIME_NAMES.has(t) || NAMED_PATTERNS[t]) return true;
    if (/^[a-z_]+$/.test(t)) return false;
    return tokenize(t).every(function ok(tok: Token): boolean {
      if (tok.kind === 'opt') return tok.tokens.every(ok);
      return tok.kind === 'lit' || 'yuYMLdDHhkKmsSnaEeXxZzVG'.includes(tok.letter);
    });
  });
}
