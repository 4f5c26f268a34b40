import { EsError } from '../../../errors/index.js';

/**
 * A time zone as ES accepts it in `time_zone`: `Z`/`UTC`, a fixed offset (`+01:00`, `-0800`) or an
 * IANA name (`Europe/Paris`), turned into offset lookups so calendar arithmetic can run in local time.
 */
export interface TimeZone {
  id: string;
  /** Offset in ms of local time from UTC at this instant. */
  offsetAt(utcMs: number): number;
  /** The instant whose local wall time is `localMs` (the earlier one in an overlap). */
  toUtc(localMs: number): number;
  fixed: boolean;
}

const OFFSET = /^([+-])(\d{1,2})(?::?(\d{2}))?$/;
const cache = new Map<string, TimeZone>();

function fixedZone(id: string, offset: number): TimeZone {
  return { id, fixed: true, offsetAt: () => offset, toUtc: (local) => local - offset };
}

function ianaZone(id: string): TimeZone {
  let dtf: Intl.DateTimeFormat;
  try {
    dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: id, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    throw new EsError(400, 'illegal_argument_exception', `Unknown time-zone ID: ${id}`);
  }
  const offsetAt = (utc: number): number => {
    const parts = dtf.formatToParts(new Date(utc));
    const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return local - (utc - (((utc % 1000) + 1000) % 1000));
  };
  return {
    id,
    fixed: false,
    offsetAt,
    toUtc(local) {
      const first = local - offsetAt(local);
      const second = local - offsetAt(first);
      return Math.min(first, second) === first && offsetAt(first) + first === local ? first : second;
    },
  };
}

export const UTC = fixedZone('Z', 0);

export function parseTimeZone(raw: unknown): TimeZone {
  if (raw === undefined || raw === null) return UTC;
  const id = String(raw);
  const hit = cache.get(id);
  if (hit) return hit;
  let tz: TimeZone;
  if (id === 'Z' || id === 'UTC' || id === 'utc' || id === 'GMT' || id === 'Etc/UTC') tz = fixedZone(id, 0);
  else {
    const m = OFFSET.exec(id);
    if (m) {
      const off = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3_600_000 + Number(m[3] ?? 0) * 60_000);
      tz = fixedZone(id, off);
    } else tz = ianaZone(id);
  }
  cache.set(id, tz);
  return tz;
}
