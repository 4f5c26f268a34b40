import { EsError } from '../../../errors/index.js';
import { formatDate } from './date-printer.js';
import { epochNanosOf, type Instant } from './instant.js';

/**
 * The bounds of `date_nanos`, with ES's checks and messages (its DateUtils): the field keeps epoch
 * nanoseconds in a signed long, so it holds dates from 1970-01-01T00:00:00Z to
 * 2262-04-11T23:47:16.854775807Z.
 */
const MAX_EPOCH_NANOS = 2n ** 63n - 1n;
const MAX_EPOCH_MILLIS = Number(MAX_EPOCH_NANOS / 1_000_000n);

/** An instant as Java's Instant.toString prints it: the fraction in groups of three digits, none when zero. */
function javaInstantText(i: Instant): string {
  const nanoOfSecond = (((i.millis % 1000) + 1000) % 1000) * 1_000_000 + i.nanos;
  let fraction = '';
  if (nanoOfSecond !== 0) {
    const digits = String(nanoOfSecond).padStart(9, '0');
    fraction = '.' + (digits.endsWith('000000') ? digits.slice(0, 3) : digits.endsWith('000') ? digits.slice(0, 6) : digits);
  }
  return `${formatDate(i.millis, "uuuu-MM-dd'T'HH:mm:ss")}${fraction}Z`;
}

/** Why a date cannot be a date_nanos value (the reason ES gives when indexing it); undefined when it can. */
export function nanosRangeProblem(i: Instant): string | undefined {
  if (i.millis < 0) return `date[${javaInstantText(i)}] is before the epoch in 1970 and cannot be stored in nanosecond resolution`;
  if (epochNanosOf(i) > MAX_EPOCH_NANOS) {
    return `date[${javaInstantText(i)}] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution`;
  }
  return undefined;
}

/** A range bound on a date_nanos field: a date beyond what the field holds stands for its nearest end. */
export function clampedEpochNanos(i: Instant): bigint {
  if (i.millis < 0) return 0n;
  const nanos = epochNanosOf(i);
  return nanos > MAX_EPOCH_NANOS ? MAX_EPOCH_NANOS : nanos;
}

/** Epoch millis of a `date` value → epoch nanos, when a sort asks for `numeric_type: date_nanos`; ES's errors outside the range. */
export function nanosOfMillis(millis: number): bigint {
  if (millis < 0) {
    throw new EsError(400, 'illegal_argument_exception', `milliSeconds [${millis}] are before the epoch in 1970 and cannot be converted to nanoseconds`);
  }
  if (millis > MAX_EPOCH_MILLIS) {
    throw new EsError(400, 'illegal_argument_exception', `milliSeconds [${millis}] are after 2262-04-11T23:47:16.854775807 and cannot be converted to nanoseconds`);
  }
  return BigInt(Math.trunc(millis)) * 1_000_000n;
}
