/**
 * Lucene's BengaliNormalizer (Paik and Parui's orthographic normalization) and BengaliStemmer
 * (suffix groups from longest to shortest, each needing a longer word; the units removed are the
 * group's, as in Lucene, even where a suffix of the group is shorter), ported.
 */
import { bufferStemmer, deleteAt, endsWith } from './chars.js';

const HASANTA = '\u09cd';

function normalize(s: string[], len: number): number {
  for (let i = 0; i < len; i++) {
    switch (s[i]) {
      case '\u0981': // chandrabindu: removed
        len = deleteAt(s, i--, len);
        break;
      case '\u09c0': // dirgho i kar → rossho i kar
        s[i] = '\u09bf';
        break;
      case '\u09c2': // dirgho u kar → rossho u kar
        s[i] = '\u09c1';
        break;
      case '\u0995': // khio (ka + hasanta + …)
        if (i + 2 < len && s[i + 1] === HASANTA && s[i + 2] === '\u09bf') {
          if (i === 0) {
            s[i] = '\u0996';
            len = deleteAt(s, i + 2, len);
            len = deleteAt(s, i + 1, len);
          } else {
            s[i + 1] = '\u0996';
            len = deleteAt(s, i + 2, len);
          }
        }
        break;
      case '\u0999': // nga → anusvara
        s[i] = '\u0982';
        break;
      case '\u09af': // ja phala
        if (i - 2 === 0 && s[i - 1] === HASANTA) {
          s[i - 1] = '\u09c7';
          if (i + 1 < len && s[i + 1] === '\u09be') len = deleteAt(s, i + 1, len);
          len = deleteAt(s, i, len);
          i--;
        } else if (i - 1 >= 0 && s[i - 1] === HASANTA) {
          len = deleteAt(s, i, len);
          len = deleteAt(s, i - 1, len);
          i -= 2;
        }
        break;
      case '\u09ac': // ba phala
        if ((i >= 1 && s[i - 1] !== HASANTA) || i === 0) break;
        if (i - 2 === 0) {
          len = deleteAt(s, i, len);
          len = deleteAt(s, i - 1, len);
          i -= 2;
        } else if (i - 5 >= 0 && s[i - 3] === HASANTA) {
          len = deleteAt(s, i, len);
          len = deleteAt(s, i - 1, len);
          i -= 2;
        } else if (i - 2 >= 0) {
          s[i - 1] = s[i - 2];
          len = deleteAt(s, i, len);
          i--;
        }
        break;
      case '\u0983': // visarga
        if (i === len - 1) {
          if (len <= 3) s[i] = '\u09b9';
          else len = deleteAt(s, i, len);
        } else s[i] = s[i + 1];
        break;
      case '\u09b6': // all sh → sa
      case '\u09b7':
        s[i] = '\u09b8';
        break;
      case '\u09a3': // nna → na
        s[i] = '\u09a8';
        break;
      case '\u09dc': // rra, rha → ra
      case '\u09dd':
        s[i] = '\u09b0';
        break;
      case '\u09ce': // khanda ta → ta
        s[i] = '\u09a4';
        break;
    }
  }
  return len;
}

/** [the word must be longer than, units removed, suffixes]. */
const SUFFIX_GROUPS: ReadonlyArray<readonly [number, number, readonly string[]]> = [
  [9, 8, ['\u09bf\u09df\u09be\u099b\u09bf\u09b2\u09be\u09ae', '\u09bf\u09a4\u09c7\u099b\u09bf\u09b2\u09be\u09ae', '\u09bf\u09a4\u09c7\u099b\u09bf\u09b2\u09c7\u09a8', '\u0987\u09a4\u09c7\u099b\u09bf\u09b2\u09c7\u09a8', '\u09bf\u09df\u09be\u099b\u09bf\u09b2\u09c7\u09a8', '\u0987\u09df\u09be\u099b\u09bf\u09b2\u09c7\u09a8']],
  [8, 7, ['\u09bf\u09a4\u09c7\u099b\u09bf\u09b2\u09bf', '\u09bf\u09a4\u09c7\u099b\u09bf\u09b2\u09c7', '\u09bf\u09df\u09be\u099b\u09bf\u09b2\u09be', '\u09bf\u09df\u09be\u099b\u09bf\u09b2\u09c7', '\u09bf\u09a4\u09c7\u099b\u09bf\u09b2\u09be', '\u09bf\u09df\u09be\u099b\u09bf\u09b2\u09bf', '\u09df\u09c7\u09a6\u09c7\u09b0\u0995\u09c7']],
  [7, 6, ['\u09bf\u09a4\u09c7\u099b\u09bf\u09b8', '\u09bf\u09a4\u09c7\u099b\u09c7\u09a8', '\u09bf\u09df\u09be\u099b\u09bf\u09b8', '\u09bf\u09df\u09be\u099b\u09c7\u09a8', '\u09c7\u099b\u09bf\u09b2\u09be\u09ae', '\u09c7\u099b\u09bf\u09b2\u09c7\u09a8', '\u09c7\u09a6\u09c7\u09b0\u0995\u09c7']],
  [6, 5, ['\u09bf\u09a4\u09c7\u099b\u09bf', '\u09bf\u09a4\u09c7\u099b\u09be', '\u09bf\u09a4\u09c7\u099b\u09c7', '\u099b\u09bf\u09b2\u09be\u09ae', '\u099b\u09bf\u09b2\u09c7\u09a8', '\u09bf\u09df\u09be\u099b\u09bf', '\u09bf\u09df\u09be\u099b\u09be', '\u09bf\u09df\u09be\u099b\u09c7', '\u09c7\u099b\u09bf\u09b2\u09c7', '\u09c7\u099b\u09bf\u09b2\u09be', '\u09df\u09c7\u09a6\u09c7\u09b0', '\u09a6\u09c7\u09b0\u0995\u09c7']],
  [5, 4, ['\u09bf\u09b2\u09be\u09ae', '\u09bf\u09b2\u09c7\u09a8', '\u09bf\u09a4\u09be\u09ae', '\u09bf\u09a4\u09c7\u09a8', '\u09bf\u09ac\u09c7\u09a8', '\u099b\u09bf\u09b2\u09bf', '\u099b\u09bf\u09b2\u09c7', '\u099b\u09bf\u09b2\u09be', '\u09a4\u09c7\u099b\u09c7', '\u09bf\u09a4\u09c7\u099b', '\u0996\u09be\u09a8\u09be', '\u0996\u09be\u09a8\u09bf', '\u0997\u09c1\u09b2\u09cb', '\u0997\u09c1\u09b2\u09bf', '\u09df\u09c7\u09b0\u09be', '\u09c7\u09a6\u09c7\u09b0']],
  [4, 3, ['\u09b2\u09be\u09ae', '\u09bf\u09b2\u09bf', '\u0987\u09b2\u09bf', '\u09bf\u09b2\u09c7', '\u0987\u09b2\u09c7', '\u09b2\u09c7\u09a8', '\u09bf\u09b2\u09be', '\u0987\u09b2\u09be', '\u09a4\u09be\u09ae', '\u09bf\u09a4\u09bf', '\u0987\u09a4\u09bf', '\u09bf\u09a4\u09c7', '\u0987\u09a4\u09c7', '\u09a4\u09c7\u09a8', '\u09bf\u09a4\u09be', '\u09bf\u09ac\u09be', '\u0987\u09ac\u09be', '\u09bf\u09ac\u09bf', '\u0987\u09ac\u09bf', '\u09ac\u09c7\u09a8', '\u09bf\u09ac\u09c7', '\u0987\u09ac\u09c7', '\u099b\u09c7\u09a8', '\u09df\u09cb\u09a8', '\u09df\u09c7\u09b0', '\u09c7\u09b0\u09be', '\u09a6\u09c7\u09b0']],
  [3, 2, ['\u09bf\u09b8', '\u09c7\u09a8', '\u09b2\u09bf', '\u09b2\u09c7', '\u09b2\u09be', '\u09a4\u09bf', '\u09a4\u09c7', '\u09a4\u09be', '\u09ac\u09bf', '\u09ac\u09c7', '\u09ac\u09be', '\u099b\u09bf', '\u099b\u09be', '\u099b\u09c7', '\u09c1\u09a8', '\u09c1\u0995', '\u099f\u09be', '\u099f\u09bf', '\u09a8\u09bf', '\u09c7\u09b0', '\u09a4\u09c7', '\u09b0\u09be', '\u0995\u09c7']],
  [2, 1, ['\u09bf', '\u09c0', '\u09be', '\u09cb', '\u09c7', '\u09ac', '\u09a4']],
];

function stem(s: string[], len: number): number {
  for (const [longerThan, remove, suffixes] of SUFFIX_GROUPS) {
    if (len > longerThan && suffixes.some((x) => endsWith(s, len, x))) return len - remove;
  }
  return len;
}

export const bengaliNormalize = bufferStemmer(normalize);
export const bengaliStem = bufferStemmer(stem);
