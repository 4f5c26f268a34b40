/** Lucene's ItalianLightStemmer (Savoy's), ported. */
import { bufferStemmer, foldTable, mapUnits } from './chars.js';

const ACCENTS = foldTable({ a: 'àáâä', o: 'òóôö', e: 'èéêë', u: 'ùúûü', i: 'ìíîï' });

function stem(s: string[], len: number): number {
  if (len < 6) return len;
  mapUnits(s, len, ACCENTS);
  switch (s[len - 1]) {
    case 'e':
      return s[len - 2] === 'i' || s[len - 2] === 'h' ? len - 2 : len - 1;
    case 'i':
      return s[len - 2] === 'h' || s[len - 2] === 'i' ? len - 2 : len - 1;
    case 'a':
    case 'o':
      return s[len - 2] === 'i' ? len - 2 : len - 1;
    default:
      return len;
  }
}

export const italianLightStem = bufferStemmer(stem);
