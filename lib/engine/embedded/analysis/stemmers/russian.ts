/** Lucene's RussianLightStemmer (Savoy's), ported. */
import { bufferStemmer, endsWith } from './chars.js';

const ENDINGS_3 = ['иям', 'иях', 'оях', 'ями', 'оям', 'оьв', 'ами', 'его', 'ему', 'ери', 'ими', 'ого', 'ому', 'ыми', 'оев'];
const ENDINGS_2 = [
  'ая', 'яя', 'ях', 'юю', 'ах', 'ею', 'их', 'ия', 'ию', 'ьв', 'ою', 'ую', 'ям', 'ых', 'ея', 'ам', 'ем', 'ей', 'ём', 'ев', 'ий', 'им', 'ое', 'ой',
  'ом', 'ов', 'ые', 'ый', 'ым', 'ми',
];

function stem(s: string[], len: number): number {
  return normalize(s, removeCase(s, len));
}

function normalize(s: string[], len: number): number {
  if (len > 3) {
    const last = s[len - 1];
    if (last === 'ь' || last === 'и') return len - 1;
    if (last === 'н' && s[len - 2] === 'н') return len - 1;
  }
  return len;
}

function removeCase(s: string[], len: number): number {
  if (len > 6 && (endsWith(s, len, 'иями') || endsWith(s, len, 'оями'))) return len - 4;
  if (len > 5 && ENDINGS_3.some((x) => endsWith(s, len, x))) return len - 3;
  if (len > 4 && ENDINGS_2.some((x) => endsWith(s, len, x))) return len - 2;
  if (len > 3 && 'аеиоуйыяь'.includes(s[len - 1])) return len - 1;
  return len;
}

export const russianLightStem = bufferStemmer(stem);
