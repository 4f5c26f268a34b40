/** Lucene's LatvianStemmer (Kreslins' light stemmer: one affix, by vowel count, then unpalatalization), ported. */
import { bufferStemmer, endsWith } from './chars.js';

/** [affix, vowels the word must have more of, whether the stem before it is palatalized]. */
const AFFIXES: ReadonlyArray<readonly [string, number, boolean]> = [
  ['ajiem', 3, false], ['ajai', 3, false], ['ajam', 2, false], ['ajām', 2, false], ['ajos', 2, false], ['ajās', 2, false], ['iem', 2, true],
  ['ajā', 2, false], ['ais', 2, false], ['ai', 2, false], ['ei', 2, false], ['ām', 1, false], ['am', 1, false], ['ēm', 1, false], ['īm', 1, false],
  ['im', 1, false], ['um', 1, false], ['us', 1, true], ['as', 1, false], ['ās', 1, false], ['es', 1, false], ['os', 1, true], ['ij', 1, false],
  ['īs', 1, false], ['ēs', 1, false], ['is', 1, false], ['ie', 1, false], ['u', 1, true], ['a', 1, true], ['i', 1, true], ['e', 1, false],
  ['ā', 1, false], ['ē', 1, false], ['ī', 1, false], ['ū', 1, false], ['o', 1, false], ['s', 0, false], ['š', 0, false],
];

function stem(s: string[], len: number): number {
  let vowels = 0;
  for (let i = 0; i < len; i++) if ('aeiouāīēū'.includes(s[i])) vowels++;
  for (const [affix, vc, palatalizes] of AFFIXES) {
    if (vowels > vc && len >= affix.length + 3 && endsWith(s, len, affix)) {
      len -= affix.length;
      return palatalizes ? unpalatalize(s, len) : len;
    }
  }
  return len;
}

const PAIRS: ReadonlyArray<readonly [string, string]> = [['šņ', 'sn'], ['žņ', 'zn'], ['šļ', 'sl'], ['žļ', 'zl'], ['ļņ', 'ln'], ['ļļ', 'll']];

function unpalatalize(s: string[], len: number): number {
  // A removed -u marks a genitive plural (2nd, 5th, 6th declension): only then these two.
  if (s[len] === 'u') {
    if (endsWith(s, len, 'kš')) {
      len++;
      s[len - 2] = 's';
      s[len - 1] = 't';
      return len;
    }
    if (endsWith(s, len, 'ņņ')) {
      s[len - 2] = 'n';
      s[len - 1] = 'n';
      return len;
    }
  }
  if (['pj', 'bj', 'mj', 'vj'].some((x) => endsWith(s, len, x))) return len - 1;
  for (const [from, to] of PAIRS) {
    if (endsWith(s, len, from)) {
      s[len - 2] = to[0];
      s[len - 1] = to[1];
      return len;
    }
  }
  const last = s[len - 1];
  if (last === 'č') s[len - 1] = 'c';
  else if (last === 'ļ') s[len - 1] = 'l';
  else if (last === 'ņ') s[len - 1] = 'n';
  return len;
}

export const latvianStem = bufferStemmer(stem);
