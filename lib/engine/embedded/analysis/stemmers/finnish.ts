/** Lucene's FinnishLightStemmer (Savoy's), ported. */
import { bufferStemmer, deleteAt, endsWith, foldTable, mapUnits } from './chars.js';

const FOLD = foldTable({ a: 'äå', o: 'ö' });
const isVowel = (ch: string) => 'aeiouy'.includes(ch) && ch.length === 1;
const endsWithAny = (s: string[], len: number, suffixes: readonly string[]) => suffixes.some((x) => endsWith(s, len, x));

function stem(s: string[], len: number): number {
  if (len < 4) return len;
  mapUnits(s, len, FOLD);
  len = step1(s, len);
  len = step2(s, len);
  len = step3(s, len);
  len = norm1(s, len);
  return norm2(s, len);
}

function step1(s: string[], len: number): number {
  if (len > 8) {
    if (endsWith(s, len, 'kin')) return step1(s, len - 3);
    if (endsWith(s, len, 'ko')) return step1(s, len - 2);
  }
  if (len > 11) {
    if (endsWith(s, len, 'dellinen')) return len - 8;
    if (endsWith(s, len, 'dellisuus')) return len - 9;
  }
  return len;
}

function step2(s: string[], len: number): number {
  if (len > 5) {
    if (endsWithAny(s, len, ['lla', 'tse', 'sti'])) return len - 3;
    if (endsWith(s, len, 'ni')) return len - 2;
    if (endsWith(s, len, 'aa')) return len - 1;
  }
  return len;
}

function step3(s: string[], len: number): number {
  if (len > 8) {
    if (endsWith(s, len, 'nnen')) {
      s[len - 4] = 's';
      return len - 3;
    }
    if (endsWith(s, len, 'ntena')) {
      s[len - 5] = 's';
      return len - 4;
    }
    if (endsWith(s, len, 'tten')) return len - 4;
    if (endsWith(s, len, 'eiden')) return len - 5;
  }
  if (len > 6) {
    if (endsWithAny(s, len, ['neen', 'niin', 'seen', 'teen', 'inen'])) return len - 4;
    if (s[len - 3] === 'h' && isVowel(s[len - 2]) && s[len - 1] === 'n') return len - 3;
    if (endsWith(s, len, 'den')) {
      s[len - 3] = 's';
      return len - 2;
    }
    if (endsWith(s, len, 'ksen')) {
      s[len - 4] = 's';
      return len - 3;
    }
    if (endsWithAny(s, len, ['ssa', 'sta', 'lla', 'lta', 'tta', 'ksi', 'lle'])) return len - 3;
  }
  if (len > 5) {
    if (endsWith(s, len, 'na') || endsWith(s, len, 'ne')) return len - 2;
    if (endsWith(s, len, 'nei')) return len - 3;
  }
  if (len > 4) {
    if (endsWith(s, len, 'ja') || endsWith(s, len, 'ta')) return len - 2;
    if (s[len - 1] === 'a') return len - 1;
    if (s[len - 1] === 'n' && isVowel(s[len - 2])) return len - 2;
    if (s[len - 1] === 'n') return len - 1;
  }
  return len;
}

function norm1(s: string[], len: number): number {
  if (len > 5 && endsWith(s, len, 'hde')) {
    s[len - 3] = 'k';
    s[len - 2] = 's';
    s[len - 1] = 'i';
  }
  if (len > 4 && (endsWith(s, len, 'ei') || endsWith(s, len, 'at'))) return len - 2;
  if (len > 3 && 'tsjeai'.includes(s[len - 1])) return len - 1;
  return len;
}

function norm2(s: string[], len: number): number {
  if (len > 8 && (s[len - 1] === 'e' || s[len - 1] === 'o' || s[len - 1] === 'u')) len--;
  if (len > 4) {
    if (s[len - 1] === 'i') len--;
    if (len > 4) {
      let ch = s[0];
      for (let i = 1; i < len; i++) {
        if (s[i] === ch && (ch === 'k' || ch === 'p' || ch === 't')) len = deleteAt(s, i--, len);
        else ch = s[i];
      }
    }
  }
  return len;
}

export const finnishLightStem = bufferStemmer(stem);
