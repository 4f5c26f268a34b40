/**
 * Bytes a character of a string takes in the heap: 1 when every string in question is Latin-1
 * (V8 then stores it one byte a character), else 2. Whoever asks for the bytes of an index knows
 * which (a point-in-time view tests its documents' sources as it reads them: holdsWideCharacters).
 */
export type CharBytes = 1 | 2;

/** What a string takes in the heap: V8's header, and its characters. */
export function stringBytes(s: string, charBytes: CharBytes): number {
  return 24 + charBytes * s.length;
}

/** Whether a string holds a character past Latin-1 (V8 stores it two bytes a character); fast on one-byte strings. */
export function holdsWideCharacters(s: string): boolean {
  return WIDE.test(s);
}
const WIDE = /[\u0100-\uffff]/;

/** A JS array's slots (8 bytes each, the pointer or small integer) and header. */
export function arraySlotBytes(length: number): number {
  return 16 + 8 * length;
}

/** A Map's entry: its key and value slots, chain link and hash table share (V8's OrderedHashMap). */
export const MAP_ENTRY_BYTES = 40;
