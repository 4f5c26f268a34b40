/** Lucene's PortugueseLightStemmer (Savoy's), ported. */
import { bufferStemmer, endsWith, foldTable, mapUnits } from './chars.js';

const ACCENTS = foldTable({ a: 'àáâäã', o: 'òóôöõ', e: 'èéêë', u: 'ùúûü', i: 'ìíîï', c: 'ç' });

function stem(s: string[], len: number): number {
  if (len < 4) return len;
  len = removeSuffix(s, len);
  if (len > 3 && s[len - 1] === 'a') len = normFeminine(s, len);
  if (len > 4 && (s[len - 1] === 'e' || s[len - 1] === 'a' || s[len - 1] === 'o')) len--;
  mapUnits(s, len, ACCENTS);
  return len;
}

function removeSuffix(s: string[], len: number): number {
  if (len > 4 && endsWith(s, len, 'es') && 'rslz'.includes(s[len - 3])) return len - 2;
  if (len > 3 && endsWith(s, len, 'ns')) {
    s[len - 2] = 'm';
    return len - 1;
  }
  if (len > 4 && (endsWith(s, len, 'eis') || endsWith(s, len, 'éis'))) {
    s[len - 3] = 'e';
    s[len - 2] = 'l';
    return len - 1;
  }
  if (len > 4 && endsWith(s, len, 'ais')) {
    s[len - 2] = 'l';
    return len - 1;
  }
  if (len > 4 && endsWith(s, len, 'óis')) {
    s[len - 3] = 'o';
    s[len - 2] = 'l';
    return len - 1;
  }
  if (len > 4 && endsWith(s, len, 'is')) {
    s[len - 1] = 'l';
    return len;
  }
  if (len > 3 && (endsWith(s, len, 'ões') || endsWith(s, len, 'ães'))) {
    len--;
    s[len - 2] = 'ã';
    s[len - 1] = 'o';
    return len;
  }
  if (len > 6 && endsWith(s, len, 'mente')) return len - 5;
  if (len > 3 && s[len - 1] === 's') return len - 1;
  return len;
}

function normFeminine(s: string[], len: number): number {
  if (len > 7 && (endsWith(s, len, 'inha') || endsWith(s, len, 'iaca') || endsWith(s, len, 'eira'))) {
    s[len - 1] = 'o';
    return len;
  }
  if (len > 6) {
    if (['osa', 'ica', 'ida', 'ada', 'iva', 'ama'].some((x) => endsWith(s, len, x))) {
      s[len - 1] = 'o';
      return len;
    }
    if (endsWith(s, len, 'ona')) {
      s[len - 3] = 'ã';
      s[len - 2] = 'o';
      return len - 1;
    }
    if (endsWith(s, len, 'ora')) return len - 1;
    if (endsWith(s, len, 'esa')) {
      s[len - 3] = 'ê';
      return len - 1;
    }
    if (endsWith(s, len, 'na')) {
      s[len - 1] = 'o';
      return len;
    }
  }
  return len;
}

export const portugueseLightStem = bufferStemmer(stem);
