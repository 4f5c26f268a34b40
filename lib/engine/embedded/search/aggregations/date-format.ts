import { EsError } from '../../../../errors/index.js';
import { DatePrinter, NAMED_PATTERNS, parseDateValue, UTC, type TimeZone } from '../../mapping/index.js';

/**
 * An aggregation's date format in a time zone: keys and bounds printed by the engine's one date
 * printer, and parsed as aggregations take them (date math, local times in the zone).
 */
export class DateFormatter {
  private readonly printer: DatePrinter;

  constructor(readonly format: string, readonly zone: TimeZone = UTC) {
    this.printer = new DatePrinter(format, zone);
  }

  print(ms: number): string {
    return this.printer.print(ms);
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
  const p = NAMED_PATTERNS[pattern] ?? pattern;
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
