/**
 * ES's built-in analyzer types, usable by name with their defaults or configured under
 * `analysis.analyzer` with `type` and their parameters:
 * standard (standard tokenizer, lowercase, stop with no words by default), simple (letters,
 * lowercased), whitespace, keyword, stop (simple + `_english_` stop words), english (standard,
 * english possessive, lowercase, english stop words, stem exclusions, Porter stemmer), german
 * (standard, lowercase, german stop words, stem exclusions, german normalization, light German
 * stemmer), pattern (pattern tokenizer `\W+`, lowercase, no stop words), snowball (Elasticsearch's
 * SnowballAnalyzer: standard tokenizer, english possessive for English/Porter/Lovins, lowercase —
 * Turkish's own for Turkish —, stop words — by default English's, Dutch's or German's for those
 * languages, none for the others —, the language's Snowball stemmer; by name: English) and the
 * other language analyzers (./language-analyzers.ts), and fingerprint (standard tokenizer,
 * lowercase, ASCII folding, stop words — none by default —, then the fingerprint filter's one
 * token: `separator`, `max_output_size`), and chinese (kept for old indices: standard with English
 * stop words).
 */
import { PipelineAnalyzer } from './analyzer.js';
import { createLanguageAnalyzer, LANGUAGE_ANALYZERS } from './language-analyzers.js';
import { AsciiFoldingFilter } from './filters/ascii-folding.js';
import { fingerprintFromDefinition } from './filters/fingerprint.js';
import { StopFilter } from './filters/stop.js';
import {
  englishPossessiveFilter, ENGLISH_STOP_WORDS, GERMAN_STOP_WORDS, germanLightStemFilter, germanNormalizationFilter, LANGUAGE_STOP_WORDS, lowercaseFilter,
  porterStemFilter, snowballFromDefinition, stopWordsSetting,
} from './filters/index.js';
import { turkishLowercaseFilter } from './filters/language.js';
import { KeywordMarkerFilter } from './filters/stem.js';
import { boolSetting, illegalArgument, intSetting, listSetting, stringSetting, type Definition } from './settings.js';
import { letterTokenizer, whitespaceTokenizer } from './tokenizers/char-tokenizer.js';
import { StandardTokenizer } from './tokenizers/index.js';
import { keywordTokenizer } from './tokenizers/keyword.js';
import { compileJavaPattern, PatternTokenizer } from './tokenizers/pattern.js';
import type { TokenFilter } from './types.js';

export const BUILT_IN_ANALYZERS: readonly string[] = ['standard', 'simple', 'whitespace', 'keyword', 'stop', 'english', 'german', 'pattern', 'snowball', 'fingerprint', 'chinese', ...LANGUAGE_ANALYZERS];

/** SnowballAnalyzerProvider's default stop words by language; the other languages have none. */
const SNOWBALL_DEFAULT_STOP_WORDS: Readonly<Record<string, readonly string[]>> = {
  English: ENGLISH_STOP_WORDS, Dutch: LANGUAGE_STOP_WORDS.dutch, German: GERMAN_STOP_WORDS, German2: GERMAN_STOP_WORDS,
};

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
    case 'snowball': {
      const language = stringSetting(def, 'language') ?? stringSetting(def, 'name') ?? 'English';
      const stemmer = snowballFromDefinition(def);
      const possessive = language === 'English' || language === 'Porter' || language === 'Lovins' ? [englishPossessiveFilter] : [];
      const lowercase = language === 'Turkish' ? turkishLowercaseFilter : lowercaseFilter;
      const filters = [...possessive, lowercase, ...stop(SNOWBALL_DEFAULT_STOP_WORDS[language] ?? []), stemmer];
      return new PipelineAnalyzer(name, [], new StandardTokenizer(), filters, gap);
    }
    case 'fingerprint': {
      // FingerprintAnalyzer: lower-cased, folded to ASCII, no stop words by default, then one token of the distinct terms
      const filters = [lowercaseFilter, new AsciiFoldingFilter(false), ...stop([]), fingerprintFromDefinition(def)];
      return new PipelineAnalyzer(name, [], new StandardTokenizer(), filters, gap);
    }
    case 'chinese':
      // ChineseAnalyzerProvider ("old index: best effort"): the standard analyzer with English's stop words, no setting read
      return new PipelineAnalyzer(name, [], new StandardTokenizer(), [lowercaseFilter, new StopFilter(ENGLISH_STOP_WORDS)], gap);
    default:
      return createLanguageAnalyzer(type, def, name, gap);
  }
}
