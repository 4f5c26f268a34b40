/**
 * The buffer Lucene's light stemmers edit: a term's UTF-16 units and a length (Java's `char[]`
 * and `len`), with StemmerUtil's helpers, so that a port reads like its original.
 */
import { isLetter } from '../char-classes.js';

/** Runs a Lucene-style `stem(char[] s, int len): int` over a term. */
export function bufferStemmer(stem: (s: string[], len: number) => number): (term: string) => string {
  return (term) => {
    if (term.length === 0) return term;
    const s = term.split('');
    const len = stem(s, s.length);
    return s.length === len ? s.join('') : s.slice(0, len).join('');
  };
}

export function endsWith(s: readonly string[], len: number, suffix: string): boolean {
  const n = suffix.length;
  if (n > len) return false;
  for (let i = 0; i < n; i++) if (s[len - n + i] !== suffix[i]) return false;
  return true;
}

export function startsWith(s: readonly string[], len: number, prefix: string): boolean {
  const n = prefix.length;
  if (n > len) return false;
  for (let i = 0; i < n; i++) if (s[i] !== prefix[i]) return false;
  return true;
}

/** Deletes the unit at `pos`; returns the new length. */
export function deleteAt(s: string[], pos: number, len: number): number {
  s.splice(pos, 1);
  return len - 1;
}

/** Deletes `n` units from `pos`; returns the new length. */
export function deleteN(s: string[], pos: number, len: number, n: number): number {
  s.splice(pos, n);
  return len - n;
}

/** Java's Character.isLetter for one UTF-16 unit. */
export function isLetterUnit(ch: string | undefined): boolean {
  return ch !== undefined && isLetter(ch.charCodeAt(0));
}

/** Replaces units by a table (accents folded…), in place over the first `len`. */
export function mapUnits(s: string[], len: number, table: Readonly<Record<string, string>>): void {
  for (let i = 0; i < len; i++) {
    const r = table[s[i]];
    if (r !== undefined) s[i] = r;
  }
}

/** A folding table from groups: `{ a: 'àáâä' }` maps each of those to `a`. */
export function foldTable(groups: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [to, from] of Object.entries(groups)) for (const ch of from) out[ch] = to;
  return out;
}
