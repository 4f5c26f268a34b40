/** Lucene's HungarianLightStemmer (Savoy's), ported. */
import { bufferStemmer, endsWith, foldTable, mapUnits } from './chars.js';

const FOLD = foldTable({ a: 'á', e: 'ëé', i: 'í', o: 'óőõö', u: 'úűũûü' });
const isVowel = (ch: string | undefined) => ch !== undefined && ch.length === 1 && 'aeiouy'.includes(ch);
const endsWithAny = (s: string[], len: number, suffixes: readonly string[]) => suffixes.some((x) => endsWith(s, len, x));

function stem(s: string[], len: number): number {
  mapUnits(s, len, FOLD);
  len = removeCase(s, len);
  len = removePossessive(s, len);
  len = removePlural(s, len);
  return normalize(s, len);
}

function removeCase(s: string[], len: number): number {
  if (len > 6 && endsWith(s, len, 'kent')) return len - 4;
  if (len > 5) {
    if (endsWithAny(s, len, ['nak', 'nek', 'val', 'vel', 'ert', 'rol', 'ban', 'ben', 'bol', 'nal', 'nel', 'hoz', 'hez', 'tol'])) return len - 3;
    if ((endsWith(s, len, 'al') || endsWith(s, len, 'el')) && !isVowel(s[len - 3]) && s[len - 3] === s[len - 4]) return len - 3;
  }
  if (len > 4) {
    if (endsWithAny(s, len, ['at', 'et', 'ot', 'va', 've', 'ra', 're', 'ba', 'be', 'ul', 'ig'])) return len - 2;
    if ((endsWith(s, len, 'on') || endsWith(s, len, 'en')) && !isVowel(s[len - 3])) return len - 2;
    switch (s[len - 1]) {
      case 't':
      case 'n':
        return len - 1;
      case 'a':
      case 'e':
        if (s[len - 2] === s[len - 3] && !isVowel(s[len - 2])) return len - 2;
    }
  }
  return len;
}

function removePossessive(s: string[], len: number): number {
  if (len > 6) {
    if (!isVowel(s[len - 5]) && endsWithAny(s, len, ['atok', 'otok', 'etek'])) return len - 4;
    if (endsWith(s, len, 'itek') || endsWith(s, len, 'itok')) return len - 4;
  }
  if (len > 5) {
    if (!isVowel(s[len - 4]) && endsWithAny(s, len, ['unk', 'tok', 'tek'])) return len - 3;
    if (isVowel(s[len - 4]) && endsWith(s, len, 'juk')) return len - 3;
    if (endsWith(s, len, 'ink')) return len - 3;
  }
  if (len > 4) {
    if (!isVowel(s[len - 3]) && endsWithAny(s, len, ['am', 'em', 'om', 'ad', 'ed', 'od', 'uk'])) return len - 2;
    if (isVowel(s[len - 3]) && endsWithAny(s, len, ['nk', 'ja', 'je'])) return len - 2;
    if (endsWithAny(s, len, ['im', 'id', 'ik'])) return len - 2;
  }
  if (len > 3) {
    switch (s[len - 1]) {
      case 'a':
      case 'e':
        if (!isVowel(s[len - 2])) return len - 1;
        break;
      case 'm':
      case 'd':
        if (isVowel(s[len - 2])) return len - 1;
        break;
      case 'i':
        return len - 1;
    }
  }
  return len;
}

function removePlural(s: string[], len: number): number {
  if (len > 3 && s[len - 1] === 'k') {
    const before = s[len - 2];
    if ((before === 'a' || before === 'o' || before === 'e') && len > 4) return len - 2;
    return len - 1;
  }
  return len;
}

function normalize(s: string[], len: number): number {
  if (len > 3 && 'aeio'.includes(s[len - 1])) return len - 1;
  return len;
}

export const hungarianLightStem = bufferStemmer(stem);
