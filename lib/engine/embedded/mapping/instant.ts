/**
 * A point in time to the nanosecond, as date parsing gives it: epoch millis (a safe integer for
 * every date ES accepts) plus the nanoseconds within that millisecond, 0 to 999 999. A JS number
 * alone cannot hold epoch nanoseconds exactly (2018 is already 1.5e18, past 2^53), hence the pair.
 */
export interface Instant {
  millis: number;
  nanos: number;
}

/**
 * A date value as the index keeps it: epoch millis for `date` fields (a number), epoch
 * nanoseconds for `date_nanos` fields (a BigInt). The JS type alone tells the two apart.
 */
export type EpochTime = number | bigint;

const NANOS_PER_MILLI = 1_000_000n;

export function instantOf(value: EpochTime): Instant {
  if (typeof value === 'number') return { millis: value, nanos: 0 };
  let millis = value / NANOS_PER_MILLI;
  if (value < 0n && millis * NANOS_PER_MILLI !== value) millis -= 1n;
  return { millis: Number(millis), nanos: Number(value - millis * NANOS_PER_MILLI) };
}

export function epochNanosOf(instant: Instant): bigint {
  return BigInt(instant.millis) * NANOS_PER_MILLI + BigInt(instant.nanos);
}

/** Epoch nanoseconds → the epoch millis they fall in (ES's DateUtils.toMilliSeconds, what aggregations read). */
export function millisOfNanos(nanos: bigint): number {
  return instantOf(nanos).millis;
}
