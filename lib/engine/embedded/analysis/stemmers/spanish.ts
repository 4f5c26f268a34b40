/** Lucene's SpanishLightStemmer (Savoy's), ported. */
import { bufferStemmer, foldTable, mapUnits } from './chars.js';

const ACCENTS = foldTable({ a: 'àáâä', o: 'òóôö', e: 'èéêë', u: 'ùúûü', i: 'ìíîï' });

function stem(s: string[], len: number): number {
  if (len < 5) return len;
  mapUnits(s, len, ACCENTS);
  switch (s[len - 1]) {
    case 'o':
    case 'a':
    case 'e':
      return len - 1;
    case 's':
      if (s[len - 2] === 'e' && s[len - 3] === 's' && s[len - 4] === 'e') return len - 2;
      if (s[len - 2] === 'e' && s[len - 3] === 'c') {
        s[len - 3] = 'z';
        return len - 2;
      }
      if (s[len - 2] === 'o' || s[len - 2] === 'a' || s[len - 2] === 'e') return len - 2;
      return len;
    default:
      return len;
  }
}

export const spanishLightStem = bufferStemmer(stem);
