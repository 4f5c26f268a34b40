import type { FieldMapping } from './types.js';

// strict_date_optional_time: yyyy[-MM[-dd['T'HH[:mm[:ss[.S+]]][zone]]]]
const STRICT_OPTIONAL_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;
const SLASH_DATE = /^(\d{4})\/(\d{2})\/(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

function validParts(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const m = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (h * 60 + m);
}

/** Parses `strict_date_optional_time` to epoch millis; undefined when the text is not one. */
export function parseStrictDateOptionalTime(text: string): number | undefined {
  const m = STRICT_OPTIONAL_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (!validParts(y, mo, d, h, mi, s)) return undefined;
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - zoneOffsetMinutes(m[8]) * 60_000;
}

function parseSlashDate(text: string): number | undefined {
  const m = SLASH_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (!validParts(y, mo, d, h, mi, s)) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** ES's default `dynamic_date_formats`; a match maps the string field as a date. */
export function looksLikeDynamicDate(text: string): FieldMapping | undefined {
  // A bare year ("2015") is not detected as a date by ES's dynamic detection.
  if (/^\d+$/.test(text)) return undefined;
  if (parseStrictDateOptionalTime(text) !== undefined) return { type: 'date' };
  if (parseSlashDate(text) !== undefined) return { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' };
  return undefined;
}

/**
 * A date field value → epoch millis, under the field's `format` (default
 * `strict_date_optional_time||epoch_millis`). Only the common formats are understood;
 * undefined when the value does not parse.
 */
export function parseDateValue(value: unknown, format = 'strict_date_optional_time||epoch_millis'): number | undefined {
  const formats = format.split('||').map((f) => f.trim());
  for (const f of formats) {
    let r: number | undefined;
    if (f === 'epoch_millis') {
      if (typeof value === 'number') r = Math.trunc(value);
      else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) r = Math.trunc(Number(value));
    } else if (f === 'epoch_second') {
      if (typeof value === 'number') r = Math.trunc(value * 1000);
      else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) r = Math.trunc(Number(value) * 1000);
    } else if (typeof value === 'string') {
      if (f === 'yyyy/MM/dd HH:mm:ss' || f === 'yyyy/MM/dd') r = parseSlashDate(value);
      else if (f === 'strict_date_optional_time' || f === 'date_optional_time' || f === 'strict_date_optional_time_nanos' || f === 'date_time' || f === 'strict_date_time' || f === 'strict_date' || f === 'date' || f === 'yyyy-MM-dd') {
        r = parseStrictDateOptionalTime(value);
      } else {
        r = parseStrictDateOptionalTime(value);
      }
    }
    if (r !== undefined && Number.isFinite(r)) return r;
  }
  return undefined;
}
