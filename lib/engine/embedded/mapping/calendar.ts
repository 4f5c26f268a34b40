import { EsError } from '../../../errors/index.js';
import type { TimeZone } from './time-zone.js';

/**
 * Calendar arithmetic on epoch millis in a time zone, as java.time's ZonedDateTime does it: what
 * date math and date histograms count with. Units: `y` years, `q` quarters, `M` months, `w` weeks,
 * `d` days, `h`/`H` hours, `m` minutes, `s` seconds. Years to days move the local date and keep the
 * wall time (a day across a DST change is 23 or 25 hours; Jan 31 plus a month is the last day of
 * February); hours, minutes and seconds move the instant.
 */

const MONTHS_PER_UNIT: Readonly<Record<string, number>> = { y: 12, q: 3, M: 1 };
const DAYS_PER_UNIT: Readonly<Record<string, number>> = { w: 7, d: 1 };
const MILLIS_PER_UNIT: Readonly<Record<string, number>> = { h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000 };

function unsupported(unit: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `unit [${unit}] not supported for date math`);
}

/** The wall time of an instant in the zone, held in a Date read and written with its UTC accessors. */
function wallClock(utc: number, zone: TimeZone): Date {
  return new Date(utc + zone.offsetAt(utc));
}

/** The start of the unit that holds the instant: its local time truncated to the unit, weeks starting on Monday. */
export function roundDown(utc: number, unit: string, zone: TimeZone): number {
  const wall = wallClock(utc, zone);
  switch (unit) {
    case 'y':
      wall.setUTCMonth(0, 1);
      break;
    case 'q':
      wall.setUTCMonth(wall.getUTCMonth() - (wall.getUTCMonth() % 3), 1);
      break;
    case 'M':
      wall.setUTCDate(1);
      break;
    case 'w':
      wall.setUTCDate(wall.getUTCDate() - ((wall.getUTCDay() + 6) % 7));
      break;
    case 'd':
      break;
    case 'h':
    case 'H':
      wall.setUTCMinutes(0, 0, 0);
      return zone.toUtc(wall.getTime());
    case 'm':
      wall.setUTCSeconds(0, 0);
      return zone.toUtc(wall.getTime());
    case 's':
      wall.setUTCMilliseconds(0);
      return zone.toUtc(wall.getTime());
    default:
      throw unsupported(unit);
  }
  wall.setUTCHours(0, 0, 0, 0);
  return zone.toUtc(wall.getTime());
}

/** The instant `n` units after (or before, when negative) this one. */
export function addUnits(utc: number, unit: string, n: number, zone: TimeZone): number {
  if (Object.hasOwn(MILLIS_PER_UNIT, unit)) return utc + n * MILLIS_PER_UNIT[unit];
  const wall = wallClock(utc, zone);
  if (Object.hasOwn(DAYS_PER_UNIT, unit)) {
    wall.setUTCDate(wall.getUTCDate() + n * DAYS_PER_UNIT[unit]);
  } else if (Object.hasOwn(MONTHS_PER_UNIT, unit)) {
    const day = wall.getUTCDate();
    wall.setUTCDate(1);
    wall.setUTCMonth(wall.getUTCMonth() + n * MONTHS_PER_UNIT[unit]);
    const lastOfMonth = new Date(wall.getTime());
    lastOfMonth.setUTCMonth(lastOfMonth.getUTCMonth() + 1, 0);
    wall.setUTCDate(Math.min(day, lastOfMonth.getUTCDate()));
  } else {
    throw unsupported(unit);
  }
  return zone.toUtc(wall.getTime());
}
