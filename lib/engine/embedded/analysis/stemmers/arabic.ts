/**
 * Lucene's ArabicNormalizer (hamza-carrying alefs → alef, dotless yeh → yeh, teh marbuta → heh;
 * tatweel and harakat removed) and ArabicStemmer (Larkey's light10: one prefix, then each suffix in
 * turn), ported.
 */
import { bufferStemmer, deleteAt, deleteN, endsWith, startsWith } from './chars.js';

const REPLACE: Record<string, string> = { '\u0622': '\u0627', '\u0623': '\u0627', '\u0625': '\u0627', '\u0649': '\u064a', '\u0629': '\u0647' };
/** Tatweel and the harakat (fathatan … sukun). */
const REMOVE = new Set(['\u0640', '\u064b', '\u064c', '\u064d', '\u064e', '\u064f', '\u0650', '\u0651', '\u0652']);

function normalize(s: string[], len: number): number {
  for (let i = 0; i < len; i++) {
    const r = REPLACE[s[i]];
    if (r !== undefined) s[i] = r;
    else if (REMOVE.has(s[i])) len = deleteAt(s, i--, len);
  }
  return len;
}

// alef-lam, waw-alef-lam, beh-alef-lam, kaf-alef-lam, feh-alef-lam, lam-lam, waw
const PREFIXES = ['\u0627\u0644', '\u0648\u0627\u0644', '\u0628\u0627\u0644', '\u0643\u0627\u0644', '\u0641\u0627\u0644', '\u0644\u0644', '\u0648'];
// heh-alef, alef-noon, alef-teh, waw-noon, yeh-noon, yeh-heh, yeh-teh marbuta, heh, teh marbuta, yeh
const SUFFIXES = ['\u0647\u0627', '\u0627\u0646', '\u0627\u062a', '\u0648\u0646', '\u064a\u0646', '\u064a\u0647', '\u064a\u0629', '\u0647', '\u0629', '\u064a'];

function stem(s: string[], len: number): number {
  for (const prefix of PREFIXES) {
    // The waw prefix needs a word of at least 4 letters, the others 2 letters left.
    const enough = prefix.length === 1 ? len >= 4 : len >= prefix.length + 2;
    if (enough && startsWith(s, len, prefix)) {
      len = deleteN(s, 0, len, prefix.length);
      break;
    }
  }
  for (const suffix of SUFFIXES) {
    if (len >= suffix.length + 2 && endsWith(s, len, suffix)) len = deleteN(s, len - suffix.length, len, suffix.length);
  }
  return len;
}

export const arabicNormalize = bufferStemmer(normalize);
export const arabicStem = bufferStemmer(stem);
