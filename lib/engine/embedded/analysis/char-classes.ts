/**
 * Java's character predicates (Character.isLetter, isDigit, isWhitespace…) and the `token_chars`
 * classes of ES's ngram tokenizers, cached per code point so tokenizers test a table, not a regex.
 */

export type CodePointPredicate = (cp: number) => boolean;

/** Caches a predicate: a BMP table (0 unknown, 1 false, 2 true) plus a map for the rest. */
export function cachedPredicate(test: (ch: string, cp: number) => boolean): CodePointPredicate {
  const bmp = new Uint8Array(0x10000);
  const astral = new Map<number, boolean>();
  return (cp) => {
    if (cp < 0x10000) {
      const v = bmp[cp];
      if (v !== 0) return v === 2;
      const r = test(String.fromCharCode(cp), cp);
      bmp[cp] = r ? 2 : 1;
      return r;
    }
    let r = astral.get(cp);
    if (r === undefined) astral.set(cp, (r = test(String.fromCodePoint(cp), cp)));
    return r;
  };
}

const LETTER_RE = /^\p{L}$/u;
const DIGIT_RE = /^\p{Nd}$/u;
const SPACE_RE = /^[\p{Zs}\p{Zl}\p{Zp}]$/u;
const PUNCTUATION_RE = /^\p{P}$/u;
const SYMBOL_RE = /^\p{S}$/u;

export const isLetter = cachedPredicate((ch) => LETTER_RE.test(ch));
export const isDigit = cachedPredicate((ch) => DIGIT_RE.test(ch));
/** Java's Character.isWhitespace: separators except the no-break spaces, plus \t\n\v\f\r and FS/GS/RS/US. */
export const isWhitespace = cachedPredicate(
  (ch, cp) => (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f) || (SPACE_RE.test(ch) && cp !== 0xa0 && cp !== 0x2007 && cp !== 0x202f),
);
export const isPunctuation = cachedPredicate((ch) => PUNCTUATION_RE.test(ch));
export const isSymbol = cachedPredicate((ch) => SYMBOL_RE.test(ch));

export function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Java's Character.toLowerCase / toUpperCase for one code point (simple case mapping). */
export function lowerCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp === 0x130) return 0x69; // İ: the full mapping adds a combining dot, the simple one does not
  const lower = String.fromCodePoint(cp).toLowerCase();
  const l = lower.codePointAt(0)!;
  return lower.length === (l > 0xffff ? 2 : 1) ? l : cp;
}

export function upperCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  const upper = String.fromCodePoint(cp).toUpperCase();
  const u = upper.codePointAt(0)!;
  return upper.length === (u > 0xffff ? 2 : 1) ? u : cp;
}

const NEEDS_PER_CHAR_LOWER = /[\u03a3\u0130]/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Lucene's LowerCaseFilter: per code point, without context-sensitive rules (final sigma). */
export function lowerCase(term: string): string {
  if (ASCII_ONLY.test(term) || !NEEDS_PER_CHAR_LOWER.test(term)) return term.toLowerCase();
  let out = '';
  for (const ch of term) out += String.fromCodePoint(lowerCodePoint(ch.codePointAt(0)!));
  return out;
}

/** Lucene's UpperCaseFilter: per code point; characters whose uppercase is longer stay (ß). */
export function upperCase(term: string): string {
  if (ASCII_ONLY.test(term)) return term.toUpperCase();
  let out = '';
  for (const ch of term) out += String.fromCodePoint(upperCodePoint(ch.codePointAt(0)!));
  return out;
}
