import { LRUCache } from 'lru-cache';
import { DAY_NAMES, MONTH_NAMES, NAMED_PATTERNS, OPTIONAL_TIME_NAMES, tokenize, type Token } from './date-pattern.js';
import { instantOf, type EpochTime, type Instant } from './instant.js';
import { UTC, type TimeZone } from './time-zone.js';

/**
 * A fraction of a second printed down to the nanosecond, trailing zeros dropped down to `min`
 * digits (java.time's appendFraction): how `strict_date_optional_time_nanos` prints 3 to 9 digits.
 */
type PrintToken = Token | { kind: 'fraction'; min: number };

/** What a pattern prints from: the local wall time (read with the UTC getters), its nano-of-second and zone offset. */
interface LocalTime {
  wall: Date;
  nanoOfSecond: number;
  offsetMs: number;
}

function tokensOf(name: string): PrintToken[] {
  if (name === 'strict_date_optional_time_nanos') {
    return [...tokenize("yyyy-MM-dd'T'HH:mm:ss."), { kind: 'fraction', min: 3 }, ...tokenize('XXX')];
  }
  if (OPTIONAL_TIME_NAMES.has(name)) return tokenize("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  return tokenize(NAMED_PATTERNS[name] ?? name);
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
}

/** The digits of a fraction `width` places wide (`value` of 10^width), trailing zeros dropped down to `min` places. */
function fractionText(value: number, width: number, min: number): string {
  let s = String(value).padStart(width, '0');
  while (s.length > min && s.endsWith('0')) s = s.slice(0, -1);
  return s;
}

/** A zone offset as java.time's X/x/Z letters print it: `+01`, `+0100` or `+01:00`, `Z` for UTC where asked. */
function offsetText(offsetMs: number, style: 'hour' | 'basic' | 'colon', zForZero: boolean): string {
  if (offsetMs === 0 && zForZero) return 'Z';
  const mins = Math.abs(offsetMs) / 60_000;
  const hh = pad(Math.floor(mins / 60), 2);
  const mm = pad(mins % 60, 2);
  const sign = offsetMs < 0 ? '-' : '+';
  if (style === 'hour') return sign + hh + (mins % 60 ? mm : '');
  return sign + hh + (style === 'colon' ? ':' : '') + mm;
}

function offsetStyle(count: number): 'hour' | 'basic' | 'colon' {
  return count === 1 ? 'hour' : count === 2 ? 'basic' : 'colon';
}

/** One run of a pattern letter, as java.time prints it (Locale.ROOT, ISO weeks). */
function fieldText(letter: string, n: number, t: LocalTime): string {
  const d = t.wall;
  switch (letter) {
    case 'y': case 'u': case 'Y':
      return n === 2 ? pad(d.getUTCFullYear() % 100, 2) : pad(d.getUTCFullYear(), n);
    case 'M': case 'L':
      if (n >= 4) return MONTH_NAMES[d.getUTCMonth()];
      if (n === 3) return MONTH_NAMES[d.getUTCMonth()].slice(0, 3);
      return pad(d.getUTCMonth() + 1, n);
    case 'd': return pad(d.getUTCDate(), n);
    case 'D': return pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, n);
    case 'H': return pad(d.getUTCHours(), n);
    case 'k': return pad(d.getUTCHours() || 24, n);
    case 'h': return pad(d.getUTCHours() % 12 || 12, n);
    case 'K': return pad(d.getUTCHours() % 12, n);
    case 'a': return d.getUTCHours() < 12 ? 'AM' : 'PM';
    case 'm': return pad(d.getUTCMinutes(), n);
    case 's': return pad(d.getUTCSeconds(), n);
    case 'S': return String(t.nanoOfSecond).padStart(9, '0').padEnd(n, '0').slice(0, n);
    case 'n': return pad(t.nanoOfSecond, n);
    case 'E': return n >= 4 ? DAY_NAMES[d.getUTCDay()] : DAY_NAMES[d.getUTCDay()].slice(0, 3);
    case 'e': case 'c':
      if (n >= 4) return DAY_NAMES[d.getUTCDay()];
      if (n === 3) return DAY_NAMES[d.getUTCDay()].slice(0, 3);
      return String(((d.getUTCDay() + 6) % 7) + 1);
    case 'X': return offsetText(t.offsetMs, offsetStyle(n), true);
    case 'x': return offsetText(t.offsetMs, offsetStyle(n), false);
    case 'Z': return n >= 5 ? offsetText(t.offsetMs, 'colon', true) : offsetText(t.offsetMs, 'basic', false);
    case 'z': case 'V': case 'O': return t.offsetMs === 0 ? 'Z' : offsetText(t.offsetMs, 'colon', false);
    default: return letter.repeat(n);
  }
}

function printTokens(tokens: readonly PrintToken[], t: LocalTime): string {
  let out = '';
  for (const tok of tokens) {
    if (tok.kind === 'lit') out += tok.text;
    else if (tok.kind === 'opt') out += printTokens(tok.tokens, t);
    else if (tok.kind === 'fraction') out += fractionText(t.nanoOfSecond, 9, tok.min);
    else out += fieldText(tok.letter, tok.count, t);
  }
  return out;
}

/** `epoch_millis`: the millis, then the nanoseconds within the millisecond when there are any. */
function epochMillisText(i: Instant): string {
  return i.nanos === 0 ? String(i.millis) : `${i.millis}.${fractionText(i.nanos, 6, 0)}`;
}

/** `epoch_second`: the seconds, with the fraction of a second down to the nanosecond when there is one. */
function epochSecondText(i: Instant): string {
  if (i.nanos === 0) return String(i.millis / 1000);
  const nanoOfSecond = (i.millis % 1000) * 1_000_000 + i.nanos;
  return `${Math.trunc(i.millis / 1000)}.${fractionText(nanoOfSecond, 9, 0)}`;
}

/**
 * Prints dates with one Elasticsearch format — the first of `a||b` — in a time zone: the one
 * printer behind `fields`, `docvalue_fields`, formatted sort values and aggregation keys
 * (`key_as_string`). Values are epoch millis or epoch nanoseconds (date_nanos, see `EpochTime`),
 * printed with as many fraction digits as the format asks for, down to the nanosecond.
 */
export class DatePrinter {
  private readonly epoch: ((i: Instant) => string) | undefined;
  private readonly tokens: PrintToken[];

  constructor(
    readonly format: string,
    readonly zone: TimeZone = UTC,
  ) {
    const first = format.split('||')[0].trim();
    this.epoch = first === 'epoch_millis' ? epochMillisText : first === 'epoch_second' ? epochSecondText : undefined;
    this.tokens = this.epoch ? [] : tokensOf(first);
  }

  print(value: EpochTime): string {
    const instant = instantOf(value);
    if (this.epoch) return this.epoch(instant);
    const offsetMs = this.zone.offsetAt(instant.millis);
    const wall = new Date(instant.millis + offsetMs);
    return printTokens(this.tokens, { wall, nanoOfSecond: wall.getUTCMilliseconds() * 1_000_000 + instant.nanos, offsetMs });
  }
}

/** UTC printers by format, kept: hits print many values with a handful of formats. */
const printers = new LRUCache<string, DatePrinter>({ max: 256 });

/** A date value printed in UTC with a format, as ES prints a date field's value. */
export function formatDate(value: EpochTime, format: string): string {
  let printer = printers.get(format);
  if (!printer) printers.set(format, (printer = new DatePrinter(format)));
  return printer.print(value);
}
