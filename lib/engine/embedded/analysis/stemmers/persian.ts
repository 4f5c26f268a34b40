/**
 * Lucene's PersianNormalizer (farsi yeh and yeh barree → yeh, keheh → kaf, heh-yeh and heh goal →
 * heh, hamza above removed) and PersianStemmer (Lucene 9.4+: common suffixes removed in turn, each
 * leaving at least two letters), ported.
 */
import { bufferStemmer, deleteAt, deleteN, endsWith } from './chars.js';

const REPLACE: Record<string, string> = { '\u06cc': '\u064a', '\u06d2': '\u064a', '\u06a9': '\u0643', '\u06c0': '\u0647', '\u06c1': '\u0647' };
const HAMZA_ABOVE = '\u0654';

function normalize(s: string[], len: number): number {
  for (let i = 0; i < len; i++) {
    const r = REPLACE[s[i]];
    if (r !== undefined) s[i] = r;
    else if (s[i] === HAMZA_ABOVE) len = deleteAt(s, i--, len);
  }
  return len;
}

// alef-teh, alef-noon, teh-reh-yeh-noon, teh-reh, yeh-yeh, yeh, heh-alef, zero-width non-joiner
const SUFFIXES = ['\u0627\u062a', '\u0627\u0646', '\u062a\u0631\u064a\u0646', '\u062a\u0631', '\u064a\u064a', '\u064a', '\u0647\u0627', '\u200c'];

function stem(s: string[], len: number): number {
  for (const suffix of SUFFIXES) {
    if (len >= suffix.length + 2 && endsWith(s, len, suffix)) len = deleteN(s, len - suffix.length, len, suffix.length);
  }
  return len;
}

export const persianNormalize = bufferStemmer(normalize);
export const persianStem = bufferStemmer(stem);
