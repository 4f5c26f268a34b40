import type { Readable } from 'node:stream';
import { stringify as stringifyExactly } from 'lossless-json';
import { jsonStream } from '../cooperative/index.js';

/** An answer holding an array longer than this (`_bulk` items, hits, docs, responses) is large. */
const LARGE_ARRAY = 1000;
/** …or strings of more characters than this, together, among its first members. */
const LARGE_STRINGS = 1024 * 1024;
/** How many members of an answer are looked at to tell. */
const LOOKED_AT = 256;

/**
 * Whether an answer is large enough to be written in pieces: a bounded look at its first levels
 * (arrays by length, strings by length), never a walk over all of it.
 */
export function isLargeAnswer(value: unknown): boolean {
  let budget = LOOKED_AT;
  let chars = 0;
  const look = (v: unknown, depth: number): boolean => {
    if (--budget < 0) return false;
    if (typeof v === 'string') return (chars += v.length) > LARGE_STRINGS;
    if (typeof v !== 'object' || v === null) return false;
    if (Array.isArray(v)) {
      if (v.length > LARGE_ARRAY) return true;
      if (depth >= 3) return false;
      for (let i = 0; i < v.length && budget > 0; i++) if (look(v[i], depth + 1)) return true;
      return false;
    }
    if (depth >= 3) return false;
    for (const k in v) {
      if (budget <= 0) break;
      if (look((v as Record<string, unknown>)[k], depth + 1)) return true;
    }
    return false;
  };
  return look(value, 0);
}

/**
 * A JSON answer's body: a small one serialized at once (a Buffer, with its length); a large one a
 * stream serialized as it is read, in pieces that give the event loop turns (see
 * lib/cooperative's jsonStream), so that a 50 MB `_bulk` answer does not hold other requests back.
 * BigInts (date_nanos sort values) are written as the integers they are.
 */
export function jsonBody(value: unknown, pretty: boolean): Buffer | Readable {
  const space = pretty ? 2 : undefined;
  if (!pretty && isLargeAnswer(value) && !writtenWhole(value)) return jsonStream(value);
  return Buffer.from(pretty ? stringifyLeaf(value, space) + '\n' : stringifyLeaf(value, space));
}

/** Answer members (hits, documents) the engine put BigInts in: integers past 2^53 of a `_source`. */
const HOLDING_BIGINTS = new WeakSet<object>();

/** Marks an answer, or a hit or document of one, as holding BigInts (see `writtenWhole`); returns it. */
export function holdingBigInts<T extends object>(member: T): T {
  HOLDING_BIGINTS.add(member);
  return member;
}

/**
 * Whether an answer holds BigInts where the engine puts them — sort values (date_nanos, an
 * unsigned_long past 2^53), a hit's or document's exact `_source`, bucket keys — which the native
 * serializer refuses: such an answer is written whole (by lossless-json's serializer).
 */
function writtenWhole(value: unknown): boolean {
  const answer = value as { hits?: { hits?: unknown }; docs?: unknown; aggregations?: unknown } | undefined;
  if (answer !== null && typeof answer === 'object' && HOLDING_BIGINTS.has(answer)) return true;
  const hits = answer?.hits?.hits;
  if (Array.isArray(hits) && hits.some((h: { sort?: unknown[] } | null) => HOLDING_BIGINTS.has(h ?? {}) || (Array.isArray(h?.sort) && h.sort.some((v) => typeof v === 'bigint')))) return true;
  if (Array.isArray(answer?.docs) && answer.docs.some((d: unknown) => HOLDING_BIGINTS.has((d ?? {}) as object))) return true;
  return answer?.aggregations !== undefined && holdsBigInt(answer.aggregations);
}

/** A walk over a value's members (aggregations: small), without recursion. */
export function holdsBigInt(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'bigint') return true;
    if (v !== null && typeof v === 'object') for (const k in v) stack.push((v as Record<string, unknown>)[k]);
  }
  return false;
}

/** JSON.stringify, or lossless-json's for a value holding a BigInt (which JSON.stringify refuses). */
function stringifyLeaf(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space) ?? '';
  } catch (err) {
    if (!(err instanceof TypeError) || !err.message.includes('BigInt')) throw err;
    return stringifyExactly(value, null, space) ?? '';
  }
}
