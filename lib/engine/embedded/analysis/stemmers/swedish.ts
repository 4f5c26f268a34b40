/** Lucene's SwedishLightStemmer (Savoy's), ported. */
import { bufferStemmer, endsWith } from './chars.js';

function stem(s: string[], len: number): number {
  const ends = (...xs: string[]) => xs.some((x) => endsWith(s, len, x));
  if (len > 4 && s[len - 1] === 's') len--;
  if (len > 7 && ends('elser', 'heten')) return len - 5;
  if (len > 6 && ends('arne', 'erna', 'ande', 'else', 'aste', 'orna', 'aren')) return len - 4;
  if (len > 5 && ends('are', 'ast', 'het')) return len - 3;
  if (len > 4 && ends('ar', 'er', 'or', 'en', 'at', 'te', 'et')) return len - 2;
  if (len > 3 && 'taen'.includes(s[len - 1])) return len - 1;
  return len;
}

export const swedishLightStem = bufferStemmer(stem);
