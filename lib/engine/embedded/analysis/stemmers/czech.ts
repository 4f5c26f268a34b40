/** Lucene's CzechStemmer (Dolamic and Savoy's light stemmer), ported. */
import { bufferStemmer, endsWith } from './chars.js';

const CASE_3 = [
  'ech', 'ich', 'ích', 'ého', 'ěmi', 'emi', 'ému', 'ěte', 'ete', 'ěti', 'eti', 'ího', 'iho', 'ími', 'ímu', 'imu', 'ách', 'ata', 'aty', 'ých', 'ama', 'ami',
  'ové', 'ovi', 'ými',
];
const CASE_2 = ['em', 'es', 'ém', 'ím', 'ům', 'at', 'ám', 'os', 'us', 'ým', 'mi', 'ou'];

function stem(s: string[], len: number): number {
  len = removeCase(s, len);
  len = removePossessives(s, len);
  return len > 0 ? normalize(s, len) : len;
}

function removeCase(s: string[], len: number): number {
  if (len > 7 && endsWith(s, len, 'atech')) return len - 5;
  if (len > 6 && (endsWith(s, len, 'ětem') || endsWith(s, len, 'etem') || endsWith(s, len, 'atům'))) return len - 4;
  if (len > 5 && CASE_3.some((x) => endsWith(s, len, x))) return len - 3;
  if (len > 4 && CASE_2.some((x) => endsWith(s, len, x))) return len - 2;
  if (len > 3 && 'aeiouůyáéíýě'.includes(s[len - 1])) return len - 1;
  return len;
}

function removePossessives(s: string[], len: number): number {
  if (len > 5 && (endsWith(s, len, 'ov') || endsWith(s, len, 'in') || endsWith(s, len, 'ův'))) return len - 2;
  return len;
}

function normalize(s: string[], len: number): number {
  if (endsWith(s, len, 'čt')) {
    s[len - 2] = 'c';
    s[len - 1] = 'k';
    return len;
  }
  if (endsWith(s, len, 'št')) {
    s[len - 2] = 's';
    s[len - 1] = 'k';
    return len;
  }
  switch (s[len - 1]) {
    case 'c':
    case 'č':
      s[len - 1] = 'k';
      return len;
    case 'z':
    case 'ž':
      s[len - 1] = 'h';
      return len;
  }
  if (len > 1 && s[len - 2] === 'e') {
    s[len - 2] = s[len - 1];
    return len - 1;
  }
  if (len > 2 && s[len - 2] === 'ů') {
    s[len - 2] = 'o';
    return len;
  }
  return len;
}

export const czechStem = bufferStemmer(stem);
