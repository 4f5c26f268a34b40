/** Lucene's FrenchLightStemmer and FrenchMinimalStemmer (Savoy's algorithms), ported. */
import { bufferStemmer, deleteAt, endsWith, isLetterUnit } from './chars.js';

function lightStem(s: string[], len: number): number {
  if (len > 5 && s[len - 1] === 'x') {
    if (s[len - 3] === 'a' && s[len - 2] === 'u' && s[len - 4] !== 'e') s[len - 2] = 'l';
    len--;
  }
  if (len > 3 && s[len - 1] === 'x') len--;
  if (len > 3 && s[len - 1] === 's') len--;
  if (len > 9 && endsWith(s, len, 'issement')) {
    len -= 6;
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 8 && endsWith(s, len, 'issant')) {
    len -= 4;
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 6 && endsWith(s, len, 'ement')) {
    len -= 4;
    if (len > 3 && endsWith(s, len, 'ive')) {
      len--;
      s[len - 1] = 'f';
    }
    return norm(s, len);
  }
  if (len > 11 && endsWith(s, len, 'ficatrice')) {
    len -= 5;
    s[len - 2] = 'e';
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 10 && endsWith(s, len, 'ficateur')) {
    len -= 4;
    s[len - 2] = 'e';
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 9 && endsWith(s, len, 'catrice')) {
    len -= 3;
    s[len - 4] = 'q';
    s[len - 3] = 'u';
    s[len - 2] = 'e';
    return norm(s, len);
  }
  if (len > 8 && endsWith(s, len, 'cateur')) {
    len -= 2;
    s[len - 4] = 'q';
    s[len - 3] = 'u';
    s[len - 2] = 'e';
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 8 && endsWith(s, len, 'atrice')) {
    len -= 4;
    s[len - 2] = 'e';
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 7 && endsWith(s, len, 'ateur')) {
    len -= 3;
    s[len - 2] = 'e';
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 6 && endsWith(s, len, 'trice')) {
    len--;
    s[len - 3] = 'e';
    s[len - 2] = 'u';
    s[len - 1] = 'r';
  }
  if (len > 5 && endsWith(s, len, 'ième')) return norm(s, len - 4);
  if (len > 7 && endsWith(s, len, 'teuse')) {
    len -= 2;
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 6 && endsWith(s, len, 'teur')) {
    len--;
    s[len - 1] = 'r';
    return norm(s, len);
  }
  if (len > 5 && endsWith(s, len, 'euse')) return norm(s, len - 2);
  if (len > 8 && endsWith(s, len, 'ère')) {
    len--;
    s[len - 2] = 'e';
    return norm(s, len);
  }
  if (len > 7 && endsWith(s, len, 'ive')) {
    len--;
    s[len - 1] = 'f';
    return norm(s, len);
  }
  if (len > 4 && (endsWith(s, len, 'folle') || endsWith(s, len, 'molle'))) {
    len -= 2;
    s[len - 1] = 'u';
    return norm(s, len);
  }
  if (len > 9 && endsWith(s, len, 'nnelle')) return norm(s, len - 5);
  if (len > 9 && endsWith(s, len, 'nnel')) return norm(s, len - 3);
  if (len > 4 && endsWith(s, len, 'ète')) {
    len--;
    s[len - 2] = 'e';
  }
  if (len > 8 && endsWith(s, len, 'ique')) len -= 4;
  if (len > 8 && endsWith(s, len, 'esse')) return norm(s, len - 3);
  if (len > 7 && endsWith(s, len, 'inage')) return norm(s, len - 3);
  if (len > 9 && endsWith(s, len, 'isation')) {
    len -= 7;
    if (len > 5 && endsWith(s, len, 'ual')) s[len - 2] = 'e';
    return norm(s, len);
  }
  if (len > 9 && endsWith(s, len, 'isateur')) return norm(s, len - 7);
  if (len > 8 && endsWith(s, len, 'ation')) return norm(s, len - 5);
  if (len > 8 && endsWith(s, len, 'ition')) return norm(s, len - 5);
  return norm(s, len);
}

const NORM: Record<string, string> = { à: 'a', á: 'a', â: 'a', ô: 'o', è: 'e', é: 'e', ê: 'e', ù: 'u', û: 'u', î: 'i', ç: 'c' };

function norm(s: string[], len: number): number {
  if (len > 4) {
    for (let i = 0; i < len; i++) {
      const r = NORM[s[i]];
      if (r !== undefined) s[i] = r;
    }
    let ch = s[0];
    for (let i = 1; i < len; i++) {
      if (s[i] === ch && isLetterUnit(ch)) len = deleteAt(s, i--, len);
      else ch = s[i];
    }
  }
  if (len > 4 && endsWith(s, len, 'ie')) len -= 2;
  if (len > 4) {
    if (s[len - 1] === 'r') len--;
    if (s[len - 1] === 'e') len--;
    if (s[len - 1] === 'e') len--;
    if (s[len - 1] === s[len - 2] && isLetterUnit(s[len - 1])) len--;
  }
  return len;
}

function minimalStem(s: string[], len: number): number {
  if (len < 6) return len;
  if (s[len - 1] === 'x') {
    if (s[len - 3] === 'a' && s[len - 2] === 'u') s[len - 2] = 'l';
    return len - 1;
  }
  if (s[len - 1] === 's') len--;
  if (s[len - 1] === 'r') len--;
  if (s[len - 1] === 'e') len--;
  if (s[len - 1] === 'é') len--;
  if (s[len - 1] === s[len - 2] && isLetterUnit(s[len - 1])) len--;
  return len;
}

export const frenchLightStem = bufferStemmer(lightStem);
export const frenchMinimalStem = bufferStemmer(minimalStem);
