/**
 * Stemmers by the names Elasticsearch's `stemmer` filter takes as `language` (its
 * StemmerTokenFilterFactory), each a function from a term to its stem: Snowball ones
 * (./snowball.ts: libraries, and Lucene's classes no library has) and Lucene's own stemmers and
 * normalizers, ported here (each checked against Lucene's output on dictionary word lists).
 */
import { PorterStemmer } from '../filters/porter-stemmer.js';
import { germanLightStem } from '../filters/german.js';
import { minimalEnglishStem } from '../filters/english.js';
import { arabicStem } from './arabic.js';
import { bengaliStem } from './bengali.js';
import { brazilianStem } from './brazilian.js';
import { bulgarianStem } from './bulgarian.js';
import { czechStem } from './czech.js';
import { finnishLightStem } from './finnish.js';
import { frenchLightStem, frenchMinimalStem } from './french.js';
import { germanMinimalStem } from './german.js';
import { greekStem } from './greek.js';
import { hindiStem } from './hindi.js';
import { hungarianLightStem } from './hungarian.js';
import { indonesianStem } from './indonesian.js';
import { italianLightStem } from './italian.js';
import { kstem } from './kstem.js';
import { latvianStem } from './latvian.js';
import { norwegianLightStem, norwegianMinimalStem } from './norwegian.js';
import { persianStem } from './persian.js';
import { portugueseLightStem } from './portuguese.js';
import { galicianMinimalStem, galicianRslpStem, portugueseMinimalStem, portugueseRslpStem } from './rslp.js';
import { russianLightStem } from './russian.js';
import { SNOWBALL_STEMMERS } from './snowball.js';
import { soraniStem } from './sorani.js';
import { spanishLightStem } from './spanish.js';
import { swedishLightStem } from './swedish.js';

export type Stem = (term: string) => string;

export { SNOWBALL_STEMMERS } from './snowball.js';
export { arabicNormalize, arabicStem } from './arabic.js';
export { persianNormalize, persianStem } from './persian.js';
export { bengaliNormalize } from './bengali.js';
export { hindiNormalize } from './hindi.js';
export { indicNormalize } from './indic.js';
export { soraniNormalize } from './sorani.js';

const porter = new PorterStemmer();
const sb = SNOWBALL_STEMMERS;

/** `stemmer` languages (lower case, as ES compares them) → stem function. */
export const STEMMERS: Readonly<Record<string, Stem>> = {
  arabic: arabicStem,
  armenian: sb.Armenian,
  basque: sb.Basque,
  bengali: bengaliStem,
  brazilian: brazilianStem,
  bulgarian: bulgarianStem,
  catalan: sb.Catalan,
  czech: czechStem,
  danish: sb.Danish,
  dutch: sb.Dutch,
  dutch_kp: sb.Kp,
  kp: sb.Kp,
  english: (t) => porter.stem(t),
  porter: (t) => porter.stem(t),
  porter2: sb.English,
  minimal_english: minimalEnglishStem,
  light_english: kstem,
  kstem,
  lovins: sb.Lovins,
  estonian: sb.Estonian,
  finnish: sb.Finnish,
  light_finish: finnishLightStem,
  light_finnish: finnishLightStem,
  french: sb.French,
  light_french: frenchLightStem,
  minimal_french: frenchMinimalStem,
  galician: galicianRslpStem,
  minimal_galician: galicianMinimalStem,
  german: sb.German,
  german2: sb.German2,
  light_german: germanLightStem,
  minimal_german: germanMinimalStem,
  greek: greekStem,
  hindi: hindiStem,
  hungarian: sb.Hungarian,
  light_hungarian: hungarianLightStem,
  indonesian: indonesianStem,
  irish: sb.Irish,
  italian: sb.Italian,
  light_italian: italianLightStem,
  latvian: latvianStem,
  lithuanian: sb.Lithuanian,
  norwegian: sb.Norwegian,
  light_norwegian: norwegianLightStem('bokmaal'),
  minimal_norwegian: norwegianMinimalStem('bokmaal'),
  light_nynorsk: norwegianLightStem('nynorsk'),
  minimal_nynorsk: norwegianMinimalStem('nynorsk'),
  persian: persianStem,
  portuguese: sb.Portuguese,
  light_portuguese: portugueseLightStem,
  minimal_portuguese: portugueseMinimalStem,
  portuguese_rslp: portugueseRslpStem,
  romanian: sb.Romanian,
  russian: sb.Russian,
  light_russian: russianLightStem,
  serbian: sb.Serbian,
  sorani: soraniStem,
  spanish: sb.Spanish,
  light_spanish: spanishLightStem,
  swedish: sb.Swedish,
  light_swedish: swedishLightStem,
  turkish: sb.Turkish,
};
