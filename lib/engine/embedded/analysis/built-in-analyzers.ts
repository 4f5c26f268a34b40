/**
 * ES's built-in analyzer types, usable by name with their defaults or configured under
 * `analysis.analyzer` with `type` and their parameters:
 * standard (standard tokenizer, lowercase, stop with no words by default), simple (letters,
 * lowercased), whitespace, keyword, stop (simple + `_english_` stop words), english (standard,
 * english possessive, lowercase, english stop words, stem exclusions, Porter stemmer), german
 * (standard, lowercase, german stop words, stem exclusions, german normalization, light German
 * stemmer), pattern (pattern tokenizer `\W+`, lowercase, no stop words) and the other language
 * analyzers (./language-analyzers.ts).
 */
import { PipelineAnalyzer } from './analyzer.js';
import { createLanguageAnalyzer, LANGUAGE_ANALYZERS } from './language-analyzers.js';
import { StopFilter } from './filters/stop.js';
import {
  englishPossessiveFilter, ENGLISH_STOP_WORDS, GERMAN_STOP_WORDS, germanLightStemFilter, germanNormalizationFilter, lowercaseFilter, porterStemFilter,
  stopWordsSetting,
} from './filters/index.js';
import { KeywordMarkerFilter } from './filters/stem.js';
import { boolSetting, illegalArgument, intSetting, listSetting, stringSetting, type Definition } from './settings.js';
import { letterTokenizer, whitespaceTokenizer } from './tokenizers/char-tokenizer.js';
import { StandardTokenizer } from './tokenizers/index.js';
import { keywordTokenizer } from './tokenizers/keyword.js';
import { compileJavaPattern, PatternTokenizer } from './tokenizers/pattern.js';
import type { TokenFilter } from './types.js';

export const BUILT_IN_ANALYZERS: readonly string[] = ['standard', 'simple', 'whitespace', 'keyword', 'stop', 'english', 'german', 'pattern', ...LANGUAGE_ANALYZERS];

/** Builds analyzer `name` of built-in `type`; returns undefined when the type is not built in. */
export function createBuiltInAnalyzer(type: string, def: Definition, name: string): PipelineAnalyzer | undefined {
  const gap = intSetting(def, 'position_increment_gap', 100);
  const stop = (fallback: readonly string[]): TokenFilter[] => {
    const words = stopWordsSetting(def, 'stopwords', fallback);
    return words.length > 0 ? [new StopFilter(words)] : [];
  };
  // The language analyzers' `stem_exclusion`: words marked as keywords, which their stemmer skips.
  const stemExclusion = (): TokenFilter[] => {
    const exclusions = listSetting(def, 'stem_exclusion', false) ?? [];
    return exclusions.length > 0 ? [new KeywordMarkerFilter(new Set(exclusions), null, false)] : [];
  };
  switch (type) {
    case 'standard':
      return new PipelineAnalyzer(name, [], new StandardTokenizer(intSetting(def, 'max_token_length', 255)), [lowercaseFilter, ...stop([])], gap);
    case 'simple':
      return new PipelineAnalyzer(name, [], letterTokenizer(), [lowercaseFilter], gap);
    case 'whitespace':
      return new PipelineAnalyzer(name, [], whitespaceTokenizer(intSetting(def, 'max_token_length', 255)), [], gap);
    case 'keyword':
      return new PipelineAnalyzer(name, [], keywordTokenizer, [], gap);
    case 'stop':
      return new PipelineAnalyzer(name, [], letterTokenizer(), [lowercaseFilter, ...stop(ENGLISH_STOP_WORDS)], gap);
    case 'english': {
      const filters = [englishPossessiveFilter, lowercaseFilter, ...stop(ENGLISH_STOP_WORDS), ...stemExclusion(), porterStemFilter];
      return new PipelineAnalyzer(name, [], new StandardTokenizer(), filters, gap);
    }
    case 'german': {
      const filters = [lowercaseFilter, ...stop(GERMAN_STOP_WORDS), ...stemExclusion(), germanNormalizationFilter, germanLightStemFilter];
      return new PipelineAnalyzer(name, [], new StandardTokenizer(), filters, gap);
    }
    case 'pattern': {
      const pattern = stringSetting(def, 'pattern') ?? '\\W+';
      const re = compileJavaPattern(pattern, stringSetting(def, 'flags'), (m) => illegalArgument(`Invalid pattern [${pattern}] for analyzer [${name}]: ${m}`));
      const filters: TokenFilter[] = boolSetting(def, 'lowercase', true) ? [lowercaseFilter] : [];
      return new PipelineAnalyzer(name, [], new PatternTokenizer(re, -1), [...filters, ...stop([])], gap);
    }
    default:
      return createLanguageAnalyzer(type, def, name, gap);
  }
}
