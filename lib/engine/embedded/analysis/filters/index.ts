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
import { keywordMarkerFromDefinition, porterStemFilter, stemmerFromDefinition } from './stem.js';
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
export { porterStemFilter } from './stem.js';
export { GERMAN_STOP_WORDS } from './stop-words.js';
export { germanLightStemFilter, germanNormalizationFilter } from './german.js';
export type { PhraseAnalyzer, SynonymsSource } from './synonym-map.js';
export { splitRule as splitSynonymRule, synonymsSetOf } from './synonym-map.js';

/** `synonyms`: where `synonyms_set` rules come from (none: every `synonyms_set` is missing). */
export function createTokenFilter(type: string, def: Definition, limits: ComponentLimits, name: string, precedingChain: () => PhraseAnalyzer, synonyms?: SynonymsSource): TokenFilter {
  switch (type) {
    case 'lowercase':
      return lowercaseFilter;
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
      return new SynonymFilter(synonymMapFromDefinition(def, precedingChain(), synonyms));
    case 'synonym_graph':
      return new SynonymGraphFilter(synonymMapFromDefinition(def, precedingChain(), synonyms));
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
  'keyword_repeat', 'german_normalization',
]);
