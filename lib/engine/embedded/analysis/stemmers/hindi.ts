/**
 * Lucene's HindiNormalizer (Chaudhari's orthographic normalization: nukta, candrabindu, virama,
 * ZWJ/ZWNJ, long vowels folded to short) and HindiStemmer (Ramanathan and Rao's light stemmer:
 * the longest matching suffix in five groups, each needing a longer word), ported.
 */
import { bufferStemmer, deleteAt, endsWith } from './chars.js';

const REPLACE: Record<string, string> = {
  '\u0901': '\u0902', '\u0929': '\u0928', '\u0931': '\u0930', '\u0934': '\u0933', '\u0958': '\u0915', '\u0959': '\u0916', '\u095a': '\u0917',
  '\u095b': '\u091c', '\u095c': '\u0921', '\u095d': '\u0922', '\u095e': '\u092b', '\u095f': '\u092f', '\u0945': '\u0947', '\u0946': '\u0947',
  '\u0949': '\u094b', '\u094a': '\u094b', '\u090d': '\u090f', '\u090e': '\u090f', '\u0911': '\u0913', '\u0912': '\u0913', '\u0972': '\u0905',
  '\u0906': '\u0905', '\u0908': '\u0907', '\u090a': '\u0909', '\u0960': '\u090b', '\u0961': '\u090c', '\u0910': '\u090f', '\u0914': '\u0913',
  '\u0940': '\u093f', '\u0942': '\u0941', '\u0944': '\u0943', '\u0963': '\u0962', '\u0948': '\u0947', '\u094c': '\u094b',
};
/** Nukta, ZWJ, ZWNJ and virama are removed. */
const REMOVE = new Set(['\u093c', '\u200d', '\u200c', '\u094d']);

function normalize(s: string[], len: number): number {
  for (let i = 0; i < len; i++) {
    const c = s[i];
    // dead n (na + virama) → anusvara
    if (c === '\u0928') {
      if (i + 1 < len && s[i + 1] === '\u094d') {
        s[i] = '\u0902';
        len = deleteAt(s, i + 1, len);
      }
      continue;
    }
    const r = REPLACE[c];
    if (r !== undefined) s[i] = r;
    else if (REMOVE.has(c)) len = deleteAt(s, i--, len);
  }
  return len;
}

/** [the word must be longer than, units removed, suffixes]. */
const SUFFIX_GROUPS: ReadonlyArray<readonly [number, number, readonly string[]]> = [
  [6, 5, ['\u093e\u090f\u0902\u0917\u0940', '\u093e\u090f\u0902\u0917\u0947', '\u093e\u090a\u0902\u0917\u0940', '\u093e\u090a\u0902\u0917\u093e', '\u093e\u0907\u092f\u093e\u0901', '\u093e\u0907\u092f\u094b\u0902', '\u093e\u0907\u092f\u093e\u0902']],
  [5, 4, ['\u093e\u090f\u0917\u0940', '\u093e\u090f\u0917\u093e', '\u093e\u0913\u0917\u0940', '\u093e\u0913\u0917\u0947', '\u090f\u0902\u0917\u0940', '\u0947\u0902\u0917\u0940', '\u090f\u0902\u0917\u0947', '\u0947\u0902\u0917\u0947', '\u0942\u0902\u0917\u0940', '\u0942\u0902\u0917\u093e', '\u093e\u0924\u0940\u0902', '\u0928\u093e\u0913\u0902', '\u0928\u093e\u090f\u0902', '\u0924\u093e\u0913\u0902', '\u0924\u093e\u090f\u0902', '\u093f\u092f\u093e\u0901', '\u093f\u092f\u094b\u0902', '\u093f\u092f\u093e\u0902']],
  [4, 3, ['\u093e\u0915\u0930', '\u093e\u0907\u090f', '\u093e\u0908\u0902', '\u093e\u092f\u093e', '\u0947\u0917\u0940', '\u0947\u0917\u093e', '\u094b\u0917\u0940', '\u094b\u0917\u0947', '\u093e\u0928\u0947', '\u093e\u0928\u093e', '\u093e\u0924\u0947', '\u093e\u0924\u0940', '\u093e\u0924\u093e', '\u0924\u0940\u0902', '\u093e\u0913\u0902', '\u093e\u090f\u0902', '\u0941\u0913\u0902', '\u0941\u090f\u0902', '\u0941\u0906\u0902']],
  [3, 2, ['\u0915\u0930', '\u093e\u0913', '\u093f\u090f', '\u093e\u0908', '\u093e\u090f', '\u0928\u0947', '\u0928\u0940', '\u0928\u093e', '\u0924\u0947', '\u0940\u0902', '\u0924\u0940', '\u0924\u093e', '\u093e\u0901', '\u093e\u0902', '\u094b\u0902', '\u0947\u0902']],
  [2, 1, ['\u094b', '\u0947', '\u0942', '\u0941', '\u0940', '\u093f', '\u093e']],
];

function stem(s: string[], len: number): number {
  for (const [longerThan, remove, suffixes] of SUFFIX_GROUPS) {
    if (len > longerThan && suffixes.some((x) => endsWith(s, len, x))) return len - remove;
  }
  return len;
}

export const hindiNormalize = bufferStemmer(normalize);
export const hindiStem = bufferStemmer(stem);
