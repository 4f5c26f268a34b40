import { EsError } from '../../../../errors/index.js';
import { parseInstant, type Instant } from '../../mapping/index.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, H: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A fixed UTC offset in ms for `Z`, `UTC`, `+01:00`, `-0530`; named zones are read as UTC. */
export function zoneOffsetMs(zone: string | undefined): number {
  if (!zone || /^(Z|UTC|GMT)$/i.test(zone)) return 0;
  const m = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone.trim());
  if (!m) return 0;
  const ms = (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000;
  return m[1] === '-' ? -ms : ms;
}

function addUnits(t: number, n: number, unit: string, off: number): number {
  if (unit === 'y' || unit === 'M') {
    const d = new Date(t + off);
    if (unit === 'y') d.setUTCFullYear(d.getUTCFullYear() + n);
    else d.setUTCMonth(d.getUTCMonth() + n);
    return d.getTime() - off;
  }
  return t + n * UNIT_MS[unit];
}

function round(t: number, unit: string, up: boolean, off: number): number {
  const d = new Date(t + off);
  switch (unit) {
    case 'y':
      d.setUTCMonth(0, 1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'M':
      d.setUTCDate(1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'w': {
      const dow = (d.getUTCDay() + 6) % 7;
      d.setUTCDate(d.getUTCDate() - dow);
      d.setUTCHours(0, 0, 0, 0);
      break;
    }
    case 'd':
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'h':
    case 'H':
      d.setUTCMinutes(0, 0, 0);
      break;
    case 'm':
      d.setUTCSeconds(0, 0);
      break;
    case 's':
      d.setUTCMilliseconds(0);
      break;
  }
  const floor = d.getTime() - off;
  return up ? addUnits(floor, 1, unit, off) - 1 : floor;
}

/** The last nanosecond of a millisecond: where rounding up ends, as ES's JavaDateMathParser (999 999 999 of the second). */
const LAST_NANOS = 999_999;

/**
 * ES date math: `now`, `now-1d/d`, `2024-01-01||+1M/M`, or a date in `format`, to the nanosecond
 * of that date. `roundUp` (for gt and lte) rounds to the last nanosecond of the unit, as ES's
 * JavaDateMathParser does; `date` fields keep the millisecond of it, `date_nanos` fields all.
 */
export function dateMathInstant(value: string | number, format: string | undefined, roundUp: boolean, timeZone: string | undefined, now: number): Instant {
  const fail = () => new EsError(400, 'parse_exception', `failed to parse date field [${String(value)}] with format [${format ?? 'strict_date_optional_time||epoch_millis'}]`);
  if (typeof value === 'number') {
    const epoch = parseInstant(value, 'epoch_millis');
    if (epoch === undefined) throw fail();
    return epoch;
  }
  const off = zoneOffsetMs(timeZone);
  let t: number;
  let nanos = 0;
  let math: string;
  if (value.startsWith('now')) {
    t = now;
    math = value.slice(3);
  } else {
    const i = value.indexOf('||');
    const datePart = i < 0 ? value : value.slice(0, i);
    math = i < 0 ? '' : value.slice(i + 2);
    const parsed = parseInstant(datePart, format);
    if (parsed === undefined) throw fail();
    const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(datePart) || /^\d+$/.test(datePart);
    t = hasZone ? parsed.millis : parsed.millis - off;
    nanos = parsed.nanos;
    if (!math && roundUp && /^\d{4}-\d{2}-\d{2}$/.test(datePart)) return { millis: t + 86_400_000 - 1, nanos: LAST_NANOS };
  }
  let i = 0;
  while (i < math.length) {
    const op = math[i++];
    if (op === '/') {
      const unit = math[i++];
      if (!unit || !(unit in UNIT_MS || unit === 'y' || unit === 'M')) throw fail();
      t = round(t, unit, roundUp, off);
      nanos = roundUp ? LAST_NANOS : 0;
    } else if (op === '+' || op === '-') {
      const m = /^(\d*)([yMwdhHms])/.exec(math.slice(i));
      if (!m) throw fail();
      i += m[0].length;
      t = addUnits(t, (m[1] ? Number(m[1]) : 1) * (op === '-' ? -1 : 1), m[2], off);
    } else throw fail();
  }
  return { millis: t, nanos };
}

/** `dateMathInstant` to the millisecond: epoch millis. */
export function parseDateMath(value: string | number, format: string | undefined, roundUp: boolean, timeZone: string | undefined, now: number): number {
  return dateMathInstant(value, format, roundUp, timeZone, now).millis;
}
