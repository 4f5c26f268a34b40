/**
 * Elasticsearch date formats: the built-in names (`strict_date_optional_time`, `epoch_millis`…)
 * and Java-time patterns (`yyyy-MM-dd HH:mm:ss`, `dd/MM/yyyy`, `[` optional `]` sections),
 * joined by `||`. Parsing gives epoch millis (UTC unless the text carries a zone); formatting
 * prints a date with the first format, as ES does for `fields`, `docvalue_fields` and sort values.
 */

const STRICT_OPTIONAL_TIME =
  /^([+-]?\d{4,9})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;
const LENIENT_OPTIONAL_TIME =
  /^([+-]?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

const NAMED_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  strict_basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSZ",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssZ",
  strict_date: 'yyyy-MM-dd',
  date: 'yyyy-MM-dd',
  strict_year_month_day: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month: 'yyyy-MM',
  year_month: 'yyyy-MM',
  strict_year: 'yyyy',
  year: 'yyyy',
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
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
};

const OPTIONAL_TIME_NAMES = new Set(['strict_date_optional_time', 'date_optional_time', 'strict_date_optional_time_nanos', 'iso8601']);

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const t = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  t.setUTCFullYear(y);
  return t.getTime();
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2, 4)) : 0));
}

function fractionMillis(f: string | undefined): number {
  return f ? Number(f.padEnd(3, '0').slice(0, 3)) : 0;
}

function parseOptionalTime(text: string, strict: boolean): number | undefined {
  const m = (strict ? STRICT_OPTIONAL_TIME : LENIENT_OPTIONAL_TIME).exec(text);
  if (!m) return undefined;
  const ms = utc(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), fractionMillis(m[7]));
  return ms === undefined ? undefined : ms - zoneOffsetMinutes(m[8]) * 60_000;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Token = { kind: 'lit'; text: string } | { kind: 'field'; letter: string; count: number } | { kind: 'opt'; tokens: Token[] };

function tokenize(pattern: string): Token[] {
  const stack: Token[][] = [[]];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    const top = stack[stack.length - 1];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      const lit = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
      top.push({ kind: 'lit', text: lit === '' ? "'" : lit });
      i = end < 0 ? pattern.length : end + 1;
    } else if (c === '[') {
      stack.push([]);
      i++;
    } else if (c === ']') {
      const inner = stack.length > 1 ? stack.pop()! : [];
      stack[stack.length - 1].push({ kind: 'opt', tokens: inner });
      i++;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      top.push({ kind: 'field', letter: c, count: j - i });
      i = j;
    } else {
      top.push({ kind: 'lit', text: c });
      i++;
    }
  }
  while (stack.length > 1) {
    const inner = stack.pop()!;
    stack[stack.length - 1].push({ kind: 'opt', tokens: inner });
  }
  return stack[0];
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
    case 'n':
      return `(\\d{${count}})`;
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
  regex: RegExp;
  fields: Array<{ letter: string; count: number }>;
  tokens: Token[];
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
  const tokens = tokenize(pattern);
  c = { regex: new RegExp(`^${build(tokens)}$`, 'i'), fields, tokens };
  compiled.set(pattern, c);
  return c;
}

function parsePattern(text: string, pattern: string): number | undefined {
  const { regex, fields } = compile(pattern);
  const m = regex.exec(text);
  if (!m) return undefined;
  let y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0, ms = 0, pm: boolean | undefined, zone: string | undefined, doy: number | undefined;
  fields.forEach((f, i) => {
    const v = m[i + 1];
    if (v === undefined) return;
    switch (f.letter) {
      case 'y': case 'u': case 'Y':
        y = Number(v);
        if (f.count === 2) y += 2000;
        break;
      case 'M': case 'L':
        mo = f.count >= 3 ? MONTHS.indexOf(v.slice(0, 3).toLowerCase()) + 1 : Number(v);
        break;
      case 'd': d = Number(v); break;
      case 'D': doy = Number(v); break;
      case 'H': case 'k': h = Number(v) % 24; break;
      case 'h': case 'K': h = Number(v) % 12; break;
      case 'm': mi = Number(v); break;
      case 's': s = Number(v); break;
      case 'S': case 'n': ms = fractionMillis(v); break;
      case 'a': pm = v.toLowerCase() === 'pm'; break;
      case 'X': case 'x': case 'Z': case 'z': case 'V':
        zone = v.toUpperCase() === 'UTC' || v.toUpperCase() === 'GMT' ? 'Z' : v;
        break;
    }
  });
  if (pm !== undefined && pm) h += 12;
  if (doy !== undefined) {
    const base = utc(y, 1, 1, h, mi, s, ms);
    return base === undefined ? undefined : base + (doy - 1) * 86_400_000 - zoneOffsetMinutes(zone) * 60_000;
  }
  const t = utc(y, mo, d, h, mi, s, ms);
  return t === undefined ? undefined : t - zoneOffsetMinutes(zone) * 60_000;
}

function epochOf(value: unknown, scale: number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value * scale) : undefined;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Math.trunc(Number(value) * scale);
  return undefined;
}

/** One format (no `||`) applied to a value; undefined when it does not parse. */
function parseOne(value: unknown, format: string): number | undefined {
  const f = format.trim();
  if (f === 'epoch_millis') return epochOf(value, 1);
  if (f === 'epoch_second') return epochOf(value, 1000);
  if (typeof value !== 'string') return undefined;
  if (OPTIONAL_TIME_NAMES.has(f)) return parseOptionalTime(value, f.startsWith('strict') || f === 'iso8601');
  const named = NAMED_PATTERNS[f];
  if (named) return parsePattern(value, named) ?? (f.startsWith('strict') ? undefined : parseOptionalTime(value, false));
  return parsePattern(value, f);
}

/** A date value under a format with `||` alternatives → epoch millis; undefined when none parses. */
export function parseDate(value: unknown, format: string = DEFAULT_DATE_FORMAT): number | undefined {
  for (const f of format.split('||')) {
    const r = parseOne(value, f);
    if (r !== undefined && Number.isFinite(r)) return r;
  }
  return undefined;
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

const pad = (n: number, w: number) => String(Math.abs(n)).padStart(w, '0');

function formatPattern(ms: number, pattern: string): string {
  const dt = new Date(ms);
  const out = (tokens: Token[]): string =>
    tokens.map((t) => {
      if (t.kind === 'lit') return t.text;
      if (t.kind === 'opt') return out(t.tokens);
      const n = t.count;
      switch (t.letter) {
        case 'y': case 'u': case 'Y': {
          const y = dt.getUTCFullYear();
          return n === 2 ? pad(y % 100, 2) : (y < 0 ? '-' : '') + pad(y, Math.max(n, 4));
        }
        case 'M': case 'L':
          if (n >= 4) return MONTH_NAMES[dt.getUTCMonth()];
          if (n === 3) return MONTH_NAMES[dt.getUTCMonth()].slice(0, 3);
          return pad(dt.getUTCMonth() + 1, n);
        case 'd': return pad(dt.getUTCDate(), n);
        case 'D': return pad(Math.floor((ms - Date.UTC(dt.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, n);
        case 'H': case 'k': return pad(dt.getUTCHours(), n);
        case 'h': case 'K': return pad(dt.getUTCHours() % 12 || (t.letter === 'h' ? 12 : 0), n);
        case 'm': return pad(dt.getUTCMinutes(), n);
        case 's': return pad(dt.getUTCSeconds(), n);
        case 'S': case 'n': return pad(dt.getUTCMilliseconds(), 3).padEnd(n, '0').slice(0, n);
        case 'a': return dt.getUTCHours() < 12 ? 'AM' : 'PM';
        case 'E': case 'e': return n >= 4 ? DAY_NAMES[dt.getUTCDay()] : DAY_NAMES[dt.getUTCDay()].slice(0, 3);
        case 'X': case 'x': return t.letter === 'X' ? 'Z' : n >= 3 ? '+00:00' : '+0000';
        case 'Z': return n >= 4 ? 'Z' : '+0000';
        case 'z': case 'V': return n >= 4 ? 'Coordinated Universal Time' : 'UTC';
        default: return t.letter.repeat(n);
      }
    }).join('');
  return out(compile(pattern).tokens);
}

/** Epoch millis printed with the first format of a `||` list, as ES prints a date field's value. */
export function formatDate(ms: number, format: string = DEFAULT_DATE_FORMAT): string {
  const f = format.split('||')[0].trim();
  if (f === 'epoch_millis') return String(ms);
  if (f === 'epoch_second') return String(ms / 1000);
  if (OPTIONAL_TIME_NAMES.has(f) || f === 'strict_date_time' || f === 'date_time') {
    const iso = new Date(ms).toISOString();
    const y = new Date(ms).getUTCFullYear();
    return y >= 0 && y <= 9999 ? iso : formatPattern(ms, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
  }
  const named = NAMED_PATTERNS[f];
  return formatPattern(ms, named ?? f);
}
