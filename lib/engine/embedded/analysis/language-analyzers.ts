/**
 * Elasticsearch's language analyzers (the "Language analyzers" reference; Lucene's analyzers of
 * the same names): each a standard tokenizer (thai: the thai tokenizer) and the chain of filters
 * the reference rebuilds it with. `stopwords` replaces the language's stop words, `stem_exclusion`
 * adds a keyword marker in front of the stemmer.
 */
import { PipelineAnalyzer } from './analyzer.js';
import { lowercaseFilter } from './filters/case.js';
import {
  apostropheFilter, arabicNormalizationFilter, bengaliNormalizationFilter, hindiNormalizationFilter, indicNormalizationFilter, soraniNormalizationFilter, cjkWidthFilter, decimalDigitFilter, elisionFilter, FRENCH_ARTICLES, greekLowercaseFilter,
  irishLowercaseFilter, persianNormalizationFilter, romanianCommaBelow, romanianNormalizationFilter, turkishLowercaseFilter,
} from './filters/language.js';
import { CjkBigramFilter } from './filters/cjk-bigram.js';
import { KeywordMarkerFilter, StemmerOverrideFilter, stemFilter } from './filters/stem.js';
import { StopFilter, stopWordsSetting } from './filters/stop.js';
import { LANGUAGE_STOP_WORDS } from './filters/stop-word-lists.js';
import { listSetting, type Definition } from './settings.js';
import { STEMMERS, type Stem } from './stemmers/index.js';
import { StandardTokenizer, TYPE_HANGUL, TYPE_HIRAGANA, TYPE_IDEOGRAPHIC, TYPE_KATAKANA } from './tokenizers/standard.js';
import { thaiTokenizer } from './tokenizers/thai.js';
import type { CharFilter, TokenFilter, Tokenizer } from './types.js';

/** What a language's chain is built from: its parts before and after the stop words and the stemmer. */
interface LanguageChain {
  /** Filters in front of the stop filter (and of the keyword marker when `keywordsFirst`). */
  before: readonly TokenFilter[];
  /** The keyword marker right after `before` (Hindi, Bengali: normalization must not touch excluded words). */
  keywordsFirst?: boolean;
  /** Filters right in front of the stop filter, after a first keyword marker. */
  beforeStop?: readonly TokenFilter[];
  /** Filters between the stop filter and the keyword marker (normalization that sees stop-filtered tokens). */
  afterStop?: readonly TokenFilter[];
  /** The stemmer (none: no keyword marker either). */
  stem?: Stem;
  /** Filters between the keyword marker and the stemmer. */
  beforeStem?: readonly TokenFilter[];
  /** Another tokenizer than the standard one. */
  tokenizer?: () => Tokenizer;
  charFilters?: readonly CharFilter[];
}

const stem = (language: string): Stem => STEMMERS[language];
const elision = (articles: readonly string[]) => elisionFilter(articles, true);

/** Persian's char filter: zero-width non-joiners become spaces (Lucene's PersianCharFilter). */
const zeroWidthNonJoiner: CharFilter = { apply: (text) => ({ text: text.replace(/\u200c/g, ' '), correct: (o) => o }) };

const CHAINS: Readonly<Record<string, LanguageChain>> = {
  arabic: { before: [lowercaseFilter, decimalDigitFilter], afterStop: [arabicNormalizationFilter], stem: stem('arabic') },
  armenian: { before: [lowercaseFilter], stem: stem('armenian') },
  basque: { before: [lowercaseFilter], stem: stem('basque') },
  bengali: {
    before: [lowercaseFilter, decimalDigitFilter],
    keywordsFirst: true,
    beforeStop: [indicNormalizationFilter, bengaliNormalizationFilter],
    stem: stem('bengali'),
  },
  brazilian: { before: [lowercaseFilter], stem: stem('brazilian') },
  bulgarian: { before: [lowercaseFilter], stem: stem('bulgarian') },
  catalan: { before: [elision(['d', 'l', 'm', 'n', 's', 't']), lowercaseFilter], stem: stem('catalan') },
  cjk: {
    before: [cjkWidthFilter, lowercaseFilter, new CjkBigramFilter(new Set([TYPE_IDEOGRAPHIC, TYPE_HIRAGANA, TYPE_KATAKANA, TYPE_HANGUL]), false)],
  },
  czech: { before: [lowercaseFilter], stem: stem('czech') },
  danish: { before: [lowercaseFilter], stem: stem('danish') },
  dutch: {
    before: [lowercaseFilter],
    stem: stem('dutch'),
    beforeStem: [new StemmerOverrideFilter(new Map([['fiets', 'fiets'], ['bromfiets', 'bromfiets'], ['ei', 'eier'], ['kind', 'kinder']]))],
  },
  estonian: { before: [lowercaseFilter], stem: stem('estonian') },
  finnish: { before: [lowercaseFilter], stem: stem('finnish') },
  french: { before: [elision(FRENCH_ARTICLES), lowercaseFilter], stem: stem('light_french') },
  galician: { before: [lowercaseFilter], stem: stem('galician') },
  greek: { before: [greekLowercaseFilter], stem: stem('greek') },
  hindi: {
    before: [lowercaseFilter, decimalDigitFilter],
    keywordsFirst: true,
    beforeStop: [indicNormalizationFilter, hindiNormalizationFilter],
    stem: stem('hindi'),
  },
  hungarian: { before: [lowercaseFilter], stem: stem('hungarian') },
  indonesian: { before: [lowercaseFilter], stem: stem('indonesian') },
  irish: {
    before: [new StopFilter(['h', 'n', 't'], true), elision(['d', 'm', 'b']), irishLowercaseFilter],
    stem: stem('irish'),
  },
  italian: {
    before: [
      elision(['c', 'l', 'all', 'dall', 'dell', 'nell', 'sull', 'coll', 'pell', 'gl', 'agl', 'dagl', 'degl', 'negl', 'sugl', 'un', 'm', 't', 's', 'v', 'd']),
      lowercaseFilter,
    ],
    stem: stem('light_italian'),
  },
  latvian: { before: [lowercaseFilter], stem: stem('latvian') },
  lithuanian: { before: [lowercaseFilter], stem: stem('lithuanian') },
  norwegian: { before: [lowercaseFilter], stem: stem('norwegian') },
  persian: {
    charFilters: [zeroWidthNonJoiner],
    before: [lowercaseFilter, decimalDigitFilter, arabicNormalizationFilter, persianNormalizationFilter],
    stem: stem('persian'),
  },
  portuguese: { before: [lowercaseFilter], stem: stem('light_portuguese') },
  // the cedilla forms as comma-below ones, in the text and in the stop words alike
  romanian: { before: [lowercaseFilter, romanianNormalizationFilter], stem: stem('romanian') },
  russian: { before: [lowercaseFilter], stem: stem('russian') },
  sorani: { before: [soraniNormalizationFilter, lowercaseFilter, decimalDigitFilter], stem: stem('sorani') },
  spanish: { before: [lowercaseFilter], stem: stem('light_spanish') },
  swedish: { before: [lowercaseFilter], stem: stem('swedish') },
  thai: { tokenizer: () => thaiTokenizer, before: [lowercaseFilter, decimalDigitFilter] },
  turkish: { before: [apostropheFilter, turkishLowercaseFilter], stem: stem('turkish') },
};

export const LANGUAGE_ANALYZERS: readonly string[] = Object.keys(CHAINS);

/** Romanian's stop words as its analyzer compares them: after the normalization of its tokens. */
const ROMANIAN_STOP_WORDS = [...new Set(LANGUAGE_STOP_WORDS.romanian.map(romanianCommaBelow))];

/** Builds language analyzer `type` as `name` with `def`'s parameters; undefined when `type` is no language analyzer here. */
export function createLanguageAnalyzer(type: string, def: Definition, name: string, positionIncrementGap: number): PipelineAnalyzer | undefined {
  const chain = CHAINS[type];
  if (!chain) return undefined;
  const words = stopWordsSetting(def, 'stopwords', type === 'romanian' ? ROMANIAN_STOP_WORDS : LANGUAGE_STOP_WORDS[type]);
  const exclusions = listSetting(def, 'stem_exclusion', false) ?? [];
  const keywords = chain.stem && exclusions.length > 0 ? [new KeywordMarkerFilter(new Set(exclusions), null, false)] : [];
  const filters: TokenFilter[] = [...chain.before];
  if (chain.keywordsFirst) filters.push(...keywords);
  filters.push(...(chain.beforeStop ?? []));
  if (words.length > 0) filters.push(new StopFilter(words));
  filters.push(...(chain.afterStop ?? []));
  if (chain.stem) {
    if (!chain.keywordsFirst) filters.push(...keywords);
    filters.push(...(chain.beforeStem ?? []), stemFilter(chain.stem));
  }
  const tokenizer = chain.tokenizer?.() ?? new StandardTokenizer();
  return new PipelineAnalyzer(name, chain.charFilters ?? [], tokenizer, filters, positionIncrementGap);
}
