/**
 * `min_hash`: Lucene's MinHashFilter, ported. Every term is hashed (MurmurHash3 x64 128 of its
 * UTF-16LE bytes, combined with a hash of each of `hash_count` seeds); per seed, the hashes are
 * spread over `bucket_count` buckets by their top 32 bits and each bucket keeps its
 * `hash_set_size` smallest. The output is those minimum hashes, each as a token of type MIN_HASH
 * spanning the whole text (its characters: 16-bit pieces of the hash, the seed in front when
 * there are several). With `with_rotation` (default when there is more than one bucket) an
 * empty bucket takes the smallest hash of the next non-empty one.
 */
import { illegalArgument, boolSetting, intSetting, type Definition } from '../settings.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

const MASK64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

const u64 = (x: bigint) => x & MASK64;
const rotl = (x: bigint, r: bigint) => u64((x << r) | (x >> (64n - r)));

function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = u64(k * 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = u64(k * 0xc4ceb9fe1a85ec53n);
  k ^= k >> 33n;
  return k;
}

function littleEndian(key: Uint8Array, at: number, n: number): bigint {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(key[at + i]);
  return v;
}

/** MurmurHash3 x64 128 (seed 0): [low, high] as unsigned 64-bit values. */
function murmur3(key: Uint8Array): [bigint, bigint] {
  const len = key.length;
  let h1 = 0n;
  let h2 = 0n;
  const roundedEnd = len & ~15;
  for (let i = 0; i < roundedEnd; i += 16) {
    let k1 = littleEndian(key, i, 8);
    let k2 = littleEndian(key, i + 8, 8);
    k1 = u64(rotl(u64(k1 * C1), 31n) * C2);
    h1 ^= k1;
    h1 = u64(u64(rotl(h1, 27n) + h2) * 5n + 0x52dce729n);
    k2 = u64(rotl(u64(k2 * C2), 33n) * C1);
    h2 ^= k2;
    h2 = u64(u64(rotl(h2, 31n) + h1) * 5n + 0x38495ab5n);
  }
  const tail = len & 15;
  if (tail > 8) {
    const k2 = u64(rotl(u64(littleEndian(key, roundedEnd + 8, tail - 8) * C2), 33n) * C1);
    h2 ^= k2;
  }
  if (tail > 0) {
    const k1 = u64(rotl(u64(littleEndian(key, roundedEnd, Math.min(tail, 8)) * C1), 31n) * C2);
    h1 ^= k1;
  }
  h1 ^= BigInt(len);
  h2 ^= BigInt(len);
  h1 = u64(h1 + h2);
  h2 = u64(h2 + h1);
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = u64(h1 + h2);
  h2 = u64(h2 + h1);
  return [h1, h2];
}

interface LongPair {
  low: bigint;
  high: bigint;
}

/** Unsigned order on the high half, then the low half (Lucene's LongPair.compareTo). */
const compare = (a: LongPair, b: LongPair) => (a.high !== b.high ? (a.high < b.high ? -1 : 1) : a.low < b.low ? -1 : a.low > b.low ? 1 : 0);

function intHash(i: number): LongPair {
  const [low, high] = murmur3(new Uint8Array([(i >>> 24) & 0xff, (i >>> 16) & 0xff, (i >>> 8) & 0xff, i & 0xff]));
  return { low, high };
}

function utf16le(term: string): Uint8Array {
  const out = new Uint8Array(term.length * 2);
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
  return out;
}

/** A bucket keeping its `capacity` smallest distinct hashes, in order (Lucene's FixedSizeTreeSet). */
function addToBucket(bucket: LongPair[], hash: LongPair, capacity: number): void {
  let i = 0;
  while (i < bucket.length && compare(bucket[i], hash) < 0) i++;
  if (i < bucket.length && compare(bucket[i], hash) === 0) return;
  if (bucket.length >= capacity) {
    if (i >= bucket.length) return;
    bucket.pop();
  }
  bucket.splice(i, 0, hash);
}

const piece = (x: bigint, shift: bigint) => String.fromCharCode(Number((x >> shift) & 0xffffn));

export class MinHashFilter implements TokenFilter {
  private readonly seeds: LongPair[];
  private readonly bucketSize: bigint;

  constructor(
    private readonly hashCount: number,
    private readonly bucketCount: number,
    private readonly hashSetSize: number,
    private readonly withRotation: boolean,
  ) {
    this.seeds = Array.from({ length: hashCount }, (_, i) => intHash(i));
    this.bucketSize = (1n << 32n) / BigInt(bucketCount) + ((1n << 32n) % BigInt(bucketCount) === 0n ? 0n : 1n);
  }

  filter(stream: TokenStream): void {
    if (stream.tokens.length === 0) return;
    const sets: LongPair[][][] = Array.from({ length: this.hashCount }, () => Array.from({ length: this.bucketCount }, () => []));
    let endOffset = 0;
    for (const t of stream.tokens) {
      const [low, high] = murmur3(utf16le(t.term));
      for (let i = 0; i < this.hashCount; i++) {
        // Lucene's combineOrdered(hash, seed): hash * 37 + seed, per half.
        const rehashed = { low: u64(low * 37n + this.seeds[i].low), high: u64(high * 37n + this.seeds[i].high) };
        addToBucket(sets[i][Number((rehashed.high >> 32n) / this.bucketSize)], rehashed, this.hashSetSize);
      }
      endOffset = t.end;
    }
    if (this.withRotation && this.hashSetSize === 1) {
      for (const buckets of sets) {
        for (let b = 0; b < this.bucketCount; b++) {
          if (buckets[b].length > 0) continue;
          for (let offset = 1; offset < this.bucketCount; offset++) {
            const next = buckets[(b + offset) % this.bucketCount];
            if (next.length > 0) {
              addToBucket(buckets[b], next[0], this.hashSetSize);
              break;
            }
          }
        }
      }
    }
    const out: AnalysisToken[] = [];
    sets.forEach((buckets, seed) => {
      for (const bucket of buckets) {
        for (const hash of bucket) {
          let term = this.hashCount > 1 ? String.fromCharCode((seed >> 16) & 0xffff, seed & 0xffff) : '';
          term += piece(hash.high, 48n) + piece(hash.high, 32n) + piece(hash.high, 16n) + piece(hash.high, 0n) + piece(hash.low, 48n) + piece(hash.low, 32n);
          if (this.hashCount === 1) term += piece(hash.low, 16n) + piece(hash.low, 0n);
          out.push({ term, start: 0, end: endOffset, type: 'MIN_HASH', posInc: out.length === 0 ? 1 : 0, posLen: 1, keyword: false });
        }
      }
    });
    stream.tokens = out;
  }
}

export function minHashFromDefinition(def: Definition): MinHashFilter {
  const hashCount = intSetting(def, 'hash_count', 1);
  const bucketCount = intSetting(def, 'bucket_count', 512);
  const hashSetSize = intSetting(def, 'hash_set_size', 1);
  if (hashCount <= 0) throw illegalArgument('hashCount must be greater than zero');
  if (bucketCount <= 0) throw illegalArgument('bucketCount must be greater than zero');
  if (hashSetSize <= 0) throw illegalArgument('hashSetSize must be greater than zero');
  return new MinHashFilter(hashCount, bucketCount, hashSetSize, boolSetting(def, 'with_rotation', bucketCount > 1));
}
