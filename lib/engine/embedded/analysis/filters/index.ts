/** Token filter types by name: building one from a definition (ES `analysis.filter` entries). */
import { illegalArgument, boolSetting, intSetting, stringSetting, type Definition } from '../settings.js';
import { ngramSizes, type ComponentLimits } from '../tokenizers/index.js';
import type { TokenFilter } from '../types.js';
import { AsciiFoldingFilter } from './ascii-folding.js';
import { lowercaseFilter, uppercaseFilter } from './case.js';
import { LengthFilter } from './length.js';
import { LimitFilter, removeDuplicatesFilter, reverseFilter, TruncateFilter } from './misc.js';
import { NGramFilter } from './ngram.js';
import { ShingleFilter } from './shingle.js';
import { keywordMarkerFromDefinition, porterStemFilter, snowballFromDefinition, stemFilter, stemmerFromDefinition, stemmerOverrideFromDefinition } from './stem.js';
import { SNOWBALL_STEMMERS, STEMMERS, arabicStem, persianStem } from '../stemmers/index.js';
import { cjkBigramFromDefinition } from './cjk-bigram.js';
import { conditionFromDefinition, predicateFromDefinition } from './conditional.js';
import type { ConfigFiles } from '../config-files.js';
import { decompounderFromDefinition } from './decompounder.js';
import { fingerprintFromDefinition } from './fingerprint.js';
import { minHashFromDefinition } from './min-hash.js';
import {
  apostropheFilter, arabicNormalizationFilter, cjkWidthFilter, classicFilter, decimalDigitFilter, elisionFilter, FRENCH_ARTICLES, elisionFromDefinition,
  lowercaseForLanguage, persianNormalizationFilter, hindiNormalizationFilter, indicNormalizationFilter, bengaliNormalizationFilter, soraniNormalizationFilter, scandinavianFoldingFilter, scandinavianNormalizationFilter, serbianNormalizationFilter,
} from './language.js';
import { stopFilterFromDefinition } from './stop.js';
import { germanNormalizationFilter } from './german.js';
import { keywordRepeatFilter } from './keyword-repeat.js';
import { SynonymFilter } from './synonym.js';
import { SynonymGraphFilter } from './synonym-graph.js';
import { synonymMapFromDefinition, type PhraseAnalyzer, type SynonymsSource } from './synonym-map.js';
import { trimFilter } from './trim.js';
import { UniqueFilter } from './unique.js';
import { WordDelimiterFilter } from './word-delimiter.js';

export { foldToAscii } from './ascii-folding.js';
export { PorterStemmer } from './porter-stemmer.js';
export { StopFilter } from './stop.js';
export { ENGLISH_STOP_WORDS } from './stop-words.js';
export { stopWordsSetting } from './stop.js';
export { englishPossessiveFilter } from './english.js';
export { lowercaseFilter } from './case.js';
export { porterStemFilter, snowballFromDefinition, stemFilter, StemmerOverrideFilter } from './stem.js';
export { LANGUAGE_STOP_WORDS } from './stop-word-lists.js';
export { GERMAN_STOP_WORDS } from './stop-words.js';
export { germanLightStemFilter, germanNormalizationFilter } from './german.js';
export type { PhraseAnalyzer, SynonymsSource } from './synonym-map.js';
export { splitRule as splitSynonymRule, synonymsSetOf } from './synonym-map.js';

/** `synonyms`: where `synonyms_set` rules come from (none: every `synonyms_set` is missing). */
/** Resolves a filter named inside another filter's definition (`condition`'s `filter`). */
export type FilterResolver = (name: string) => TokenFilter | undefined;

export function createTokenFilter(
  type: string, def: Definition, limits: ComponentLimits, name: string, precedingChain: () => PhraseAnalyzer, synonyms?: SynonymsSource, resolve?: FilterResolver,
  files?: ConfigFiles,
): TokenFilter {
  switch (type) {
    case 'lowercase':
      return lowercaseForLanguage(stringSetting(def, 'language'));
    case 'uppercase':
      return uppercaseFilter;
    case 'asciifolding':
      return new AsciiFoldingFilter(boolSetting(def, 'preserve_original', false));
    case 'ngram':
    case 'edge_ngram': {
      const { minGram, maxGram } = ngramSizes(def, type, limits);
      if (type === 'edge_ngram' && (stringSetting(def, 'side') ?? 'front') !== 'front') throw illegalArgument('side=back is not supported anymore. Please fix your analysis chain');
      return new NGramFilter(minGram, maxGram, type === 'edge_ngram', boolSetting(def, 'preserve_original', false));
    }
    case 'stop':
      return stopFilterFromDefinition(def);
    case 'trim':
      return trimFilter;
    case 'unique':
      return new UniqueFilter(boolSetting(def, 'only_on_same_position', false));
    case 'length':
      return new LengthFilter(intSetting(def, 'min', 0), intSetting(def, 'max', 2147483647));
    case 'synonym':
      return new SynonymFilter(synonymMapFromDefinition(def, precedingChain(), synonyms, files));
    case 'synonym_graph':
      return new SynonymGraphFilter(synonymMapFromDefinition(def, precedingChain(), synonyms, files));
    case 'shingle': {
      const max = intSetting(def, 'max_shingle_size', 2);
      const min = intSetting(def, 'min_shingle_size', 2);
      const outputUnigrams = boolSetting(def, 'output_unigrams', true);
      const diff = max - min + (outputUnigrams ? 1 : 0);
      if (diff > limits.maxShingleDiff) {
        throw illegalArgument(
          `In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [${limits.maxShingleDiff}] but was [${diff}]. This limit can be set by changing the [index.max_shingle_diff] index level setting.`,
        );
      }
      if (max < 2) throw illegalArgument('Max shingle size must be >= 2');
      if (min < 2) throw illegalArgument('Min shingle size must be >= 2');
      if (min > max) throw illegalArgument('Min shingle size must be <= max shingle size');
      return new ShingleFilter({
        minShingleSize: min,
        maxShingleSize: max,
        outputUnigrams,
        outputUnigramsIfNoShingles: boolSetting(def, 'output_unigrams_if_no_shingles', false),
        tokenSeparator: stringSetting(def, 'token_separator') ?? ' ',
        fillerToken: stringSetting(def, 'filler_token') ?? '_',
      });
    }
    case 'porter_stem':
      return porterStemFilter;
    case 'stemmer':
      return stemmerFromDefinition(def);
    case 'keyword_marker':
      return keywordMarkerFromDefinition(def);
    case 'snowball':
      return snowballFromDefinition(def);
    case 'stemmer_override':
      return stemmerOverrideFromDefinition(def);
    case 'dutch_stem':
      return stemFilter(SNOWBALL_STEMMERS.Dutch);
    case 'french_stem':
      return stemFilter(SNOWBALL_STEMMERS.French);
    case 'russian_stem':
      return stemFilter(SNOWBALL_STEMMERS.Russian);
    case 'kstem':
      return stemFilter(STEMMERS.kstem);
    case 'brazilian_stem':
      return stemFilter(STEMMERS.brazilian);
    case 'czech_stem':
      return stemFilter(STEMMERS.czech);
    case 'arabic_stem':
      return stemFilter(arabicStem);
    case 'persian_stem':
      return stemFilter(persianStem);
    case 'elision':
      // The pre-built `elision` is French's, case-insensitive; a defined one names its articles.
      if (def.type === undefined) return elisionFilter(FRENCH_ARTICLES, true);
      if (def.articles === undefined && def.articles_path === undefined) throw illegalArgument('elision filter requires [articles] or [articles_path] setting');
      if (def.articles_path !== undefined) throw illegalArgument(`IOException while reading articles_path: ${String(def.articles_path)}`);
      return elisionFromDefinition(def);
    case 'apostrophe':
      return apostropheFilter;
    case 'decimal_digit':
      return decimalDigitFilter;
    case 'cjk_width':
      return cjkWidthFilter;
    case 'cjk_bigram':
      return cjkBigramFromDefinition(def);
    case 'arabic_normalization':
      return arabicNormalizationFilter;
    case 'persian_normalization':
      return persianNormalizationFilter;
    case 'hindi_normalization':
      return hindiNormalizationFilter;
    case 'indic_normalization':
      return indicNormalizationFilter;
    case 'bengali_normalization':
      return bengaliNormalizationFilter;
    case 'sorani_normalization':
      return soraniNormalizationFilter;
    case 'scandinavian_normalization':
      return scandinavianNormalizationFilter;
    case 'scandinavian_folding':
      return scandinavianFoldingFilter;
    case 'serbian_normalization':
      return serbianNormalizationFilter;
    case 'classic':
      return classicFilter;
    case 'fingerprint':
      return fingerprintFromDefinition(def);
    case 'min_hash':
      return minHashFromDefinition(def);
    case 'dictionary_decompounder':
    case 'hyphenation_decompounder':
      return decompounderFromDefinition(type, name, def, files);
    case 'condition':
      return conditionFromDefinition(def, name, resolve ?? (() => undefined));
    case 'predicate_token_filter':
      return predicateFromDefinition(def);
    case 'keyword_repeat':
      return keywordRepeatFilter;
    case 'german_normalization':
      return germanNormalizationFilter;
    case 'remove_duplicates':
      return removeDuplicatesFilter;
    case 'truncate':
      return new TruncateFilter(intSetting(def, 'length', 10));
    case 'reverse':
      return reverseFilter;
    case 'limit':
      return new LimitFilter(intSetting(def, 'max_token_count', 1));
    case 'word_delimiter':
    case 'word_delimiter_graph':
      return new WordDelimiterFilter({
        generateWordParts: boolSetting(def, 'generate_word_parts', true),
        generateNumberParts: boolSetting(def, 'generate_number_parts', true),
        catenateWords: boolSetting(def, 'catenate_words', false),
        catenateNumbers: boolSetting(def, 'catenate_numbers', false),
        catenateAll: boolSetting(def, 'catenate_all', false),
        splitOnCaseChange: boolSetting(def, 'split_on_case_change', true),
        splitOnNumerics: boolSetting(def, 'split_on_numerics', true),
        preserveOriginal: boolSetting(def, 'preserve_original', false),
        stemEnglishPossessive: boolSetting(def, 'stem_english_possessive', true),
      });
    default:
      throw illegalArgument(`Unknown filter type [${type}] for [${name}]`);
  }
}

/** Filters usable by bare name without a definition (ES's pre-built token filters). */
export const PREBUILT_FILTERS = new Set([
  'lowercase', 'uppercase', 'asciifolding', 'ngram', 'edge_ngram', 'stop', 'trim', 'unique', 'length', 'shingle',
  'porter_stem', 'stemmer', 'remove_duplicates', 'truncate', 'reverse', 'limit', 'word_delimiter', 'word_delimiter_graph',
  'keyword_repeat', 'german_normalization', 'snowball', 'kstem', 'brazilian_stem', 'czech_stem', 'dutch_stem', 'french_stem', 'russian_stem', 'arabic_stem', 'persian_stem', 'elision',
  'apostrophe', 'decimal_digit', 'cjk_width', 'cjk_bigram', 'arabic_normalization', 'persian_normalization', 'scandinavian_normalization',
  'scandinavian_folding', 'serbian_normalization', 'classic', 'fingerprint', 'min_hash', 'hindi_normalization', 'indic_normalization', 'bengali_normalization',
  'sorani_normalization',
]);
