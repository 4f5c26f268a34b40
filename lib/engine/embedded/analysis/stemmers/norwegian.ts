/**
 * Lucene's NorwegianLightStemmer and NorwegianMinimalStemmer, ported, for Bokmål or Nynorsk
 * (ES's light_norwegian / minimal_norwegian are Bokmål, light_nynorsk / minimal_nynorsk Nynorsk).
 */
import { bufferStemmer, endsWith } from './chars.js';

export type NorwegianVariant = 'bokmaal' | 'nynorsk';

function light(variant: NorwegianVariant) {
  const bokmaal = variant === 'bokmaal';
  const nynorsk = variant === 'nynorsk';
  return (s: string[], len: number): number => {
    const ends = (x: string) => endsWith(s, len, x);
    if (len > 4 && s[len - 1] === 's') len--;
    if (len > 7 && ((ends('heter') && bokmaal) || (ends('heten') && bokmaal) || (ends('heita') && nynorsk))) return len - 5;
    if (len > 8 && nynorsk && (ends('heiter') || ends('leiken') || ends('leikar'))) return len - 6;
    if (len > 5 && (ends('dom') || (ends('het') && bokmaal))) return len - 3;
    if (len > 6 && nynorsk && (ends('heit') || ends('semd') || ends('leik'))) return len - 4;
    if (len > 7 && (ends('elser') || ends('elsen'))) return len - 5;
    if (
      len > 6 &&
      ((ends('ende') && bokmaal) || (ends('ande') && nynorsk) || ends('else') || (ends('este') && bokmaal) || (ends('aste') && nynorsk) ||
        (ends('eren') && bokmaal) || (ends('aren') && nynorsk))
    ) {
      return len - 4;
    }
    if (len > 5 && ((ends('ere') && bokmaal) || (ends('are') && nynorsk) || (ends('est') && bokmaal) || (ends('ast') && nynorsk) || ends('ene') || (ends('ane') && nynorsk))) {
      return len - 3;
    }
    if (len > 4 && (ends('er') || ends('en') || ends('et') || (ends('ar') && nynorsk) || (ends('st') && bokmaal) || ends('te'))) return len - 2;
    if (len > 3 && (s[len - 1] === 'a' || s[len - 1] === 'e' || s[len - 1] === 'n')) return len - 1;
    return len;
  };
}

function minimal(variant: NorwegianVariant) {
  const nynorsk = variant === 'nynorsk';
  return (s: string[], len: number): number => {
    if (len > 4 && s[len - 1] === 's') len--;
    if (len > 5 && (endsWith(s, len, 'ene') || (endsWith(s, len, 'ane') && nynorsk))) return len - 3;
    if (len > 4 && (endsWith(s, len, 'er') || endsWith(s, len, 'en') || endsWith(s, len, 'et') || (endsWith(s, len, 'ar') && nynorsk))) return len - 2;
    if (len > 3 && (s[len - 1] === 'a' || s[len - 1] === 'e')) return len - 1;
    return len;
  };
}

export const norwegianLightStem = (variant: NorwegianVariant) => bufferStemmer(light(variant));
export const norwegianMinimalStem = (variant: NorwegianVariant) => bufferStemmer(minimal(variant));
