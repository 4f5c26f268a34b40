import type { ReadableText } from './piece-text.js';

/**
 * Long string values as the pieces they were decoded in, by the object (or array) holding them and
 * their key there. A long string a cooperative parse made is a concatenation of those pieces, which
 * V8 copies whole into one flat string the first time anything reads it (~0.1 s for 20 MB on a
 * loaded machine); a reader that needs only part of it (the first few thousand words) reads the
 * pieces instead.
 *
 * Contract: `piecesOf(holder, key)` reads exactly as `String(holder[key])` as long as that member
 * has not been assigned another value since it was kept; undefined where no pieces were kept (the
 * caller reads the string itself). Nothing is kept longer than its holder.
 */
const kept = new WeakMap<object, Map<PropertyKey, { value: string; pieces: ReadableText }>>();

export function keepPieces(holder: object, key: PropertyKey, value: string, pieces: ReadableText): void {
  let members = kept.get(holder);
  if (!members) kept.set(holder, (members = new Map()));
  members.set(key, { value, pieces });
}

export function piecesOf(holder: object, key: PropertyKey): ReadableText | undefined {
  const member = kept.get(holder)?.get(key);
  // the same string (compared by reference first, so the string is not read) or nothing
  return member !== undefined && (holder as Record<PropertyKey, unknown>)[key] === member.value ? member.pieces : undefined;
}
