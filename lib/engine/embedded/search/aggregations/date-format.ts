import { EsError } from '../../../../errors/index.js';
import { parseDateValue } from '../../mapping/index.js';
import { UTC, type TimeZone } from './time-zone.js';

/** ES's named formats as java.time patterns (the printing side). */
const NAMED: Record<string, string> = {
  iso8601: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_optional_time_nanos: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  strict_date: 'yyyy-MM-dd',
  date: 'yyyy-MM-dd',
  strict_year_month_day: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month: 'yyyy-MM',
  year_month: 'yyyy-MM',
  strict_year: 'yyyy',
  year: 'yyyy',
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSXX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssXX",
  strict_date_hour: "yyyy-MM-dd'T'HH",
  date_hour: "yyyy-MM-dd'T'HH",
  strict_date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  strict_date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  strict_date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_hour_minute_second: 'HH:mm:ss',
  hour_minute_second: 'HH:mm:ss',
  strict_hour_minute: 'HH:mm',
  hour_minute: 'HH:mm',
  strict_hour: 'HH',
  hour: 'HH',
  strict_time: 'HH:mm:ss.SSSXXX',
  time: 'HH:mm:ss.SSSXXX',
  strict_time_no_millis: 'HH:mm:ssXXX',
  time_no_millis: 'HH:mm:ssXXX',
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
}

function offsetText(offsetMs: number, colon: boolean, zForZero: boolean): string {
  if (offsetMs === 0 && zForZero) return 'Z';
  const sign = offsetMs < 0 ? '-' : '+';
  const mins = Math.abs(offsetMs) / 60_000;
  return sign + pad(Math.floor(mins / 60), 2) + (colon ? ':' : '') + pad(mins % 60, 2);
}

type Piece = string | ((d: Date, offset: number) => string);

function compile(pattern: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      const lit = pattern.slice(i + 1, end < 0 ? undefined : end);
      out.push(lit === '' ? "'" : lit);
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      out.push(c);
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === c) n++;
    i += n;
    out.push(field(c, n));
  }
  return out;
}

function field(c: string, n: number): Piece {
  switch (c) {
    case 'y': case 'u': case 'Y':
      return n === 2 ? (d) => pad(d.getUTCFullYear() % 100, 2) : (d) => pad(d.getUTCFullYear(), n);
    case 'M': case 'L':
      if (n >= 4) return (d) => MONTHS[d.getUTCMonth()];
      if (n === 3) return (d) => MONTHS[d.getUTCMonth()].slice(0, 3);
      return (d) => pad(d.getUTCMonth() + 1, n);
    case 'd': return (d) => pad(d.getUTCDate(), n);
    case 'D': return (d) => pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, n);
    case 'H': return (d) => pad(d.getUTCHours(), n);
    case 'k': return (d) => pad(d.getUTCHours() || 24, n);
    case 'h': return (d) => pad(d.getUTCHours() % 12 || 12, n);
    case 'K': return (d) => pad(d.getUTCHours() % 12, n);
    case 'a': return (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM');
    case 'm': return (d) => pad(d.getUTCMinutes(), n);
    case 's': return (d) => pad(d.getUTCSeconds(), n);
    case 'S': return (d) => pad(d.getUTCMilliseconds(), 3).padEnd(n, '0').slice(0, n);
    case 'E': return n >= 4 ? (d) => DAYS[d.getUTCDay()] : (d) => DAYS[d.getUTCDay()].slice(0, 3);
    case 'e': return (d) => String(((d.getUTCDay() + 6) % 7) + 1);
    case 'X': return (_d, o) => offsetText(o, n >= 3, true);
    case 'x': return (_d, o) => offsetText(o, n >= 3, false);
    case 'Z': return n >= 5 ? (_d, o) => offsetText(o, true, true) : (_d, o) => offsetText(o, false, false);
    case 'z': case 'V': case 'O': return (_d, o) => (o === 0 ? 'Z' : offsetText(o, true, false));
    default: return c.repeat(n);
  }
}

/** Prints an instant with one ES date format (the first of `a||b`), in a time zone. */
export class DateFormatter {
  private readonly pieces: Piece[] | undefined;
  private readonly epoch: 'millis' | 'second' | undefined;

  constructor(readonly format: string, readonly zone: TimeZone = UTC) {
    const first = format.split('||')[0].trim();
    if (first === 'epoch_millis') this.epoch = 'millis';
    else if (first === 'epoch_second') this.epoch = 'second';
    else this.pieces = compile(NAMED[first] ?? first);
  }

  print(ms: number): string {
    if (this.epoch === 'millis') return String(ms);
    if (this.epoch === 'second') return String(ms / 1000);
    const offset = this.zone.offsetAt(ms);
    const d = new Date(ms + offset);
    let s = '';
    for (const p of this.pieces!) s += typeof p === 'string' ? p : p(d, offset);
    return s;
  }

  /** Parses a date (or date math expression) in this format; throws ES's parse error. */
  parse(value: unknown, now: number, roundUp = false): number {
    const r = parseDateMath(value, this.format, this.zone, now, roundUp);
    if (r === undefined) {
      throw new EsError(400, 'parse_exception', `failed to parse date field [${String(value)}] with format [${this.format}]`);
    }
    return r;
  }
}

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time';

const HAS_ZONE = /T.*(Z|[+-]\d{2}(:?\d{2})?)$/;

function parseAnchor(text: unknown, format: string, zone: TimeZone): number | undefined {
  if (typeof text === 'number') return parseDateValue(text, format.includes('epoch_second') && !format.includes('epoch_millis') ? 'epoch_second' : 'epoch_millis');
  const s = String(text);
  let ms = parseDateValue(s, format);
  if (ms === undefined) ms = parseDateValue(s, 'strict_date_optional_time||epoch_millis');
  if (ms === undefined) {
    const custom = parseWithPattern(s, format.split('||')[0].trim());
    if (custom === undefined) return undefined;
    return zone.toUtc(custom);
  }
  if (!/^-?\d+(\.\d+)?$/.test(s) && !HAS_ZONE.test(s) && zone !== UTC) ms = zone.toUtc(ms);
  return ms;
}

/** Local-time parse of simple java.time patterns (yyyy, MM, dd, HH, mm, ss, SSS, literals). */
function parseWithPattern(text: string, pattern: string): number | undefined {
  const p = NAMED[pattern] ?? pattern;
  let re = '';
  const groups: string[] = [];
  for (let i = 0; i < p.length;) {
    const c = p[i];
    if (c === "'") {
      const end = p.indexOf("'", i + 1);
      re += p.slice(i + 1, end).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end + 1;
      continue;
    }
    let n = 1;
    while (p[i + n] === c) n++;
    if ('yuMdHhmsS'.includes(c)) {
      re += '(\\d{1,' + Math.max(n, c === 'y' || c === 'u' ? 9 : 2) + '})';
      groups.push(c);
    } else if ('XxZ'.includes(c)) {
      re += '(Z|[+-]\\d{2}:?\\d{2})?';
      groups.push('Z');
    } else re += c.repeat(n).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    i += n;
  }
  const m = new RegExp('^' + re + '$').exec(text);
  if (!m) return undefined;
  const v: Record<string, number> = { y: 1970, M: 1, d: 1, H: 0, m: 0, s: 0, S: 0 };
  groups.forEach((g, i) => {
    if (g === 'Z' || m[i + 1] === undefined) return;
    v[g === 'u' ? 'y' : g === 'h' ? 'H' : g] = Number(g === 'S' ? m[i + 1].padEnd(3, '0').slice(0, 3) : m[i + 1]);
  });
  return Date.UTC(v.y, v.M - 1, v.d, v.H, v.m, v.s, v.S);
}

/** ES date math (`now-1d/d`, `2016-01-01||+1M/d`); rounding uses the time zone. */
export function parseDateMath(value: unknown, format: string, zone: TimeZone, now: number, roundUp = false): number | undefined {
  if (typeof value === 'number') return parseAnchor(value, format, zone);
  const s = String(value);
  let anchor: number | undefined;
  let math: string;
  if (s.startsWith('now')) {
    anchor = now;
    math = s.slice(3);
  } else {
    const sep = s.indexOf('||');
    anchor = parseAnchor(sep < 0 ? s : s.slice(0, sep), format, zone);
    math = sep < 0 ? '' : s.slice(sep + 2);
  }
  if (anchor === undefined) return undefined;
  let t = anchor;
  let i = 0;
  while (i < math.length) {
    const op = math[i++];
    if (op === '/') {
      const unit = math[i++];
      t = roundDown(t, unit, zone);
      if (roundUp) t = addUnits(t, unit, 1, zone) - 1;
      continue;
    }
    if (op !== '+' && op !== '-') return undefined;
    let num = '';
    while (i < math.length && /\d/.test(math[i])) num += math[i++];
    const unit = math[i++];
    if (!unit) return undefined;
    t = addUnits(t, unit, (num === '' ? 1 : Number(num)) * (op === '-' ? -1 : 1), zone);
  }
  return t;
}

function localParts(utc: number, zone: TimeZone): Date {
  return new Date(utc + zone.offsetAt(utc));
}

export function roundDown(utc: number, unit: string, zone: TimeZone): number {
  const d = localParts(utc, zone);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  let local: number;
  switch (unit) {
    case 'y': local = Date.UTC(y, 0, 1); break;
    case 'q': local = Date.UTC(y, mo - (mo % 3), 1); break;
    case 'M': local = Date.UTC(y, mo, 1); break;
    case 'w': local = Date.UTC(y, mo, day - ((d.getUTCDay() + 6) % 7)); break;
    case 'd': local = Date.UTC(y, mo, day); break;
    case 'h': case 'H': local = Date.UTC(y, mo, day, d.getUTCHours()); break;
    case 'm': local = Date.UTC(y, mo, day, d.getUTCHours(), d.getUTCMinutes()); break;
    case 's': local = Date.UTC(y, mo, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()); break;
    default: throw new EsError(400, 'illegal_argument_exception', `unit [${unit}] not supported for date math`);
  }
  return zone.toUtc(local);
}

export function addUnits(utc: number, unit: string, n: number, zone: TimeZone): number {
  const fixed: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000 };
  if (unit === 'y' || unit === 'M' || unit === 'q') {
    const d = localParts(utc, zone);
    const months = unit === 'y' ? 12 * n : unit === 'q' ? 3 * n : n;
    const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
    const dim = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
    target.setUTCDate(Math.min(d.getUTCDate(), dim));
    return zone.toUtc(target.getTime());
  }
  if (unit === 'd' || unit === 'w') {
    const local = utc + zone.offsetAt(utc);
    return zone.toUtc(local + n * fixed[unit]);
  }
  const ms = fixed[unit];
  if (ms === undefined) throw new EsError(400, 'illegal_argument_exception', `unit [${unit}] not supported for date math`);
  return utc + n * ms;
}
