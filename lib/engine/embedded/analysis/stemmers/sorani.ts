/**
 * Lucene's SoraniNormalizer (Arabic-script variants to Sorani's letters, harakat and format
 * characters removed) and SoraniStemmer (postpositions, possessives, then one of the
 * (in)definite/plural/ezafe endings), ported.
 */
import { bufferStemmer, deleteAt, endsWith } from './chars.js';

const HEH = '\u0647';
const AE = '\u06d5';
const FORMAT = /^\p{Cf}$/u;
const HARAKAT_AND_TATWEEL = new Set(['\u0640', '\u064b', '\u064c', '\u064d', '\u064e', '\u064f', '\u0650', '\u0651', '\u0652']);

function normalize(s: string[], len: number): number {
  for (let i = 0; i < len; i++) {
    const c = s[i];
    switch (c) {
      case '\u064a': // yeh, dotless yeh → farsi yeh
      case '\u0649':
        s[i] = '\u06cc';
        break;
      case '\u0643': // kaf → keheh
        s[i] = '\u06a9';
        break;
      case '\u200c': // zero-width non-joiner: heh before it is ae; removed
        if (i > 0 && s[i - 1] === HEH) s[i - 1] = AE;
        len = deleteAt(s, i--, len);
        break;
      case HEH: // final heh → ae
        if (i === len - 1) s[i] = AE;
        break;
      case '\u0629': // teh marbuta → ae
        s[i] = AE;
        break;
      case '\u06be': // heh doachashmee → heh
        s[i] = HEH;
        break;
      case '\u0631': // initial reh → rreh
        if (i === 0) s[i] = '\u0695';
        break;
      case '\u0692': // reh with small v above → rreh
        s[i] = '\u0695';
        break;
      default:
        if (HARAKAT_AND_TATWEEL.has(c) || FORMAT.test(c)) len = deleteAt(s, i--, len);
    }
  }
  return len;
}

function stem(s: string[], len: number): number {
  const ends = (x: string) => endsWith(s, len, x);
  // postposition
  if (len > 5 && ends('دا')) len -= 2;
  else if (len > 4 && ends('نا')) len--;
  else if (len > 6 && ends('ەوە')) len -= 3;
  // possessive pronoun
  if (len > 6 && (ends('مان') || ends('یان') || ends('تان'))) len -= 3;
  // indefinite singular ezafe
  if (len > 6 && ends('ێکی')) return len - 3;
  if (len > 7 && ends('یەکی')) return len - 4;
  // indefinite singular
  if (len > 5 && ends('ێک')) return len - 2;
  if (len > 6 && ends('یەک')) return len - 3;
  // definite singular
  if (len > 6 && ends('ەکە')) return len - 3;
  if (len > 5 && ends('کە')) return len - 2;
  // definite plural
  if (len > 7 && ends('ەکان')) return len - 4;
  if (len > 6 && ends('کان')) return len - 3;
  // indefinite plural ezafe
  if (len > 7 && ends('یانی')) return len - 4;
  if (len > 6 && ends('انی')) return len - 3;
  // indefinite plural
  if (len > 6 && ends('یان')) return len - 3;
  if (len > 5 && ends('ان')) return len - 2;
  // demonstrative plural
  if (len > 7 && ends('یانە')) return len - 4;
  if (len > 6 && ends('انە')) return len - 3;
  // demonstrative singular
  if (len > 5 && (ends('ایە') || ends('ەیە'))) return len - 2;
  if (len > 4 && ends('ە')) return len - 1;
  // absolute singular ezafe
  if (len > 4 && ends('ی')) return len - 1;
  return len;
}

export const soraniNormalize = bufferStemmer(normalize);
export const soraniStem = bufferStemmer(stem);
