/** Lucene's IndonesianStemmer (Tala's algorithm: particles, possessives, then derivational affixes), ported. */
import { bufferStemmer, deleteN, endsWith, startsWith } from './chars.js';

const REMOVED_KE = 1, REMOVED_PENG = 2, REMOVED_DI = 4, REMOVED_MENG = 8, REMOVED_TER = 16, REMOVED_BER = 32, REMOVED_PE = 64;
const isVowel = (ch: string | undefined) => ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u';

function stem(s: string[], len: number): number {
  let flags = 0;
  let syllables = 0;
  for (let i = 0; i < len; i++) if (isVowel(s[i])) syllables++;

  const removeParticle = () => {
    if (endsWith(s, len, 'kah') || endsWith(s, len, 'lah') || endsWith(s, len, 'pun')) {
      syllables--;
      len -= 3;
    }
  };
  const removePossessive = () => {
    if (endsWith(s, len, 'ku') || endsWith(s, len, 'mu')) {
      syllables--;
      len -= 2;
    } else if (endsWith(s, len, 'nya')) {
      syllables--;
      len -= 3;
    }
  };
  /** Removes `n` leading units when `prefix` starts the word (and `when` holds), setting `flag`; true when it did. */
  const prefix = (p: string, n: number, flag: number, when = true, rewrite?: () => void): boolean => {
    if (!startsWith(s, len, p) || !when) return false;
    flags |= flag;
    rewrite?.();
    syllables--;
    len = deleteN(s, 0, len, n);
    return true;
  };
  const removeFirstOrderPrefix = () =>
    prefix('meng', 4, REMOVED_MENG) ||
    prefix('meny', 3, REMOVED_MENG, len > 4 && isVowel(s[4]), () => (s[3] = 's')) ||
    prefix('men', 3, REMOVED_MENG) ||
    prefix('mem', 3, REMOVED_MENG) ||
    prefix('me', 2, REMOVED_MENG) ||
    prefix('peng', 4, REMOVED_PENG) ||
    prefix('peny', 3, REMOVED_PENG, len > 4 && isVowel(s[4]), () => (s[3] = 's')) ||
    prefix('peny', 4, REMOVED_PENG) ||
    prefix('pen', 2, REMOVED_PENG, len > 3 && isVowel(s[3]), () => (s[2] = 't')) ||
    prefix('pen', 3, REMOVED_PENG) ||
    prefix('pem', 3, REMOVED_PENG) ||
    prefix('di', 2, REMOVED_DI) ||
    prefix('ter', 3, REMOVED_TER) ||
    prefix('ke', 2, REMOVED_KE);
  const removeSecondOrderPrefix = () =>
    prefix('ber', 3, REMOVED_BER) ||
    prefix('belajar', 3, REMOVED_BER, len === 7) ||
    prefix('be', 2, REMOVED_BER, len > 4 && !isVowel(s[2]) && s[3] === 'e' && s[4] === 'r') ||
    prefix('per', 3, 0) ||
    prefix('pelajar', 3, 0, len === 7) ||
    prefix('pe', 2, REMOVED_PE);
  const removeSuffix = () => {
    if (endsWith(s, len, 'kan') && (flags & (REMOVED_KE | REMOVED_PENG | REMOVED_PE)) === 0) {
      syllables--;
      len -= 3;
    } else if (endsWith(s, len, 'an') && (flags & (REMOVED_DI | REMOVED_MENG | REMOVED_TER)) === 0) {
      syllables--;
      len -= 2;
    } else if (endsWith(s, len, 'i') && !endsWith(s, len, 'si') && (flags & (REMOVED_BER | REMOVED_KE | REMOVED_PENG)) === 0) {
      syllables--;
      len -= 1;
    }
  };

  if (syllables > 2) removeParticle();
  if (syllables > 2) removePossessive();
  // Derivational affixes: a first-order prefix, then a suffix, then a second-order prefix (each
  // only when the one before fired); failing the first, a second-order prefix, then a suffix.
  let before = len;
  if (syllables > 2) removeFirstOrderPrefix();
  if (before !== len) {
    before = len;
    if (syllables > 2) removeSuffix();
    if (before !== len && syllables > 2) removeSecondOrderPrefix();
  } else {
    if (syllables > 2) removeSecondOrderPrefix();
    if (syllables > 2) removeSuffix();
  }
  return len;
}

export const indonesianStem = bufferStemmer(stem);
