/** Lucene's GermanMinimalStemmer (Savoy's plural stemmer), ported; the light one is in filters/german.ts. */
import { bufferStemmer, foldTable, mapUnits } from './chars.js';

const UMLAUTS = foldTable({ a: 'ä', o: 'ö', u: 'ü' });

function stem(s: string[], len: number): number {
  if (len < 5) return len;
  mapUnits(s, len, UMLAUTS);
  if (len > 6 && s[len - 3] === 'n' && s[len - 2] === 'e' && s[len - 1] === 'n') return len - 3;
  if (len > 5) {
    const last = s[len - 1];
    if (last === 'n' && s[len - 2] === 'e') return len - 2;
    if (last === 'e' && s[len - 2] === 's') return len - 2;
    if (last === 's' && s[len - 2] === 'e') return len - 2;
    if (last === 'r' && s[len - 2] === 'e') return len - 2;
  }
  return 'nesr'.includes(s[len - 1]) ? len - 1 : len;
}

export const germanMinimalStem = bufferStemmer(stem);
