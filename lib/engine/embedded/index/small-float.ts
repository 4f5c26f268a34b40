/**
 * Lucene's SmallFloat one-byte encoding of field lengths (norms): exact up to 23, then 4
 * significant bits. BM25 scores are computed from the decoded length, so scores only equal
 * Lucene's when lengths go through the same lossy round trip.
 */
function longToInt4(i: number): number {
  const numBits = i === 0 ? 0 : 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4;

/** A non-negative int → its one-byte norm (0..255). */
export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

/** A one-byte norm (0..255) → the length it stands for. */
export function byte4ToInt(b: number): number {
  if (b < NUM_FREE_VALUES) return b;
  return NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES);
}

/** Decoded length of every norm byte (Lucene's BM25Similarity.LENGTH_TABLE). */
export const LENGTH_TABLE: Float64Array = Float64Array.from({ length: 256 }, (_, i) => byte4ToInt(i));
