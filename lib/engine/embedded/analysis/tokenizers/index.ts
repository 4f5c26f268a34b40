/** Tokenizer types by name: building one from a definition (ES `analysis.tokenizer` entries). */
import { cachedPredicate, isDigit, isLetter, isPunctuation, isSymbol, isWhitespace, type CodePointPredicate } from '../char-classes.js';
import { illegalArgument, intSetting, listSetting, stringSetting, type Definition } from '../settings.js';
import type { Tokenizer } from '../types.js';
import { letterTokenizer, lowercaseTokenizer, whitespaceTokenizer } from './char-tokenizer.js';
import { keywordTokenizer } from './keyword.js';
import { NGramTokenizer } from './ngram.js';
import { compileJavaPattern, PatternTokenizer } from './pattern.js';
import { StandardTokenizer } from './standard.js';
import { ClassicTokenizer } from './classic.js';
import { PathHierarchyTokenizer } from './path-hierarchy.js';
import { SimplePatternTokenizer } from './simple-pattern.js';
import { thaiTokenizer } from './thai.js';
import { UaxUrlEmailTokenizer } from './uax-url-email.js';

export { StandardTokenizer } from './standard.js';

export interface ComponentLimits {
  /** index.max_ngram_diff (default 1). */
  maxNgramDiff: number;
  /** index.max_shingle_diff (default 3). */
  maxShingleDiff: number;
}

export const TOKENIZER_TYPES = [
  'standard', 'whitespace', 'keyword', 'letter', 'lowercase', 'ngram', 'edge_ngram', 'pattern', 'simple_pattern', 'simple_pattern_split',
  'path_hierarchy', 'PathHierarchy', 'thai', 'classic', 'uax_url_email',
] as const;

/**
 * `min_gram` / `max_gram` of an ngram or edge_ngram tokenizer or filter, checked as Elasticsearch
 * checks them (the spread limit, index.max_ngram_diff, applies to ngram only).
 */
export function ngramSizes(def: Definition, type: 'ngram' | 'edge_ngram', limits: ComponentLimits): { minGram: number; maxGram: number } {
  const minGram = intSetting(def, 'min_gram', 1);
  const maxGram = intSetting(def, 'max_gram', 2);
  if (type === 'ngram' && maxGram - minGram > limits.maxNgramDiff) {
    throw illegalArgument(
      `The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [${limits.maxNgramDiff}] but was [${maxGram - minGram}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.`,
    );
  }
  if (minGram < 1) throw illegalArgument('minGram must be greater than zero');
  if (minGram > maxGram) throw illegalArgument('minGram must not be greater than maxGram');
  return { minGram, maxGram };
}

function maxTokenLength(def: Definition, fallback = 255): number {
  const n = intSetting(def, 'max_token_length', fallback);
  if (n < 1 || n > 1024 * 1024) throw illegalArgument(`maxTokenLen must be greater than 0 and less than 1048576 passed: ${n}`);
  return n;
}

/** ES's token_chars classes, plus `custom` characters from custom_token_chars. */
function tokenChars(def: Definition): CodePointPredicate | null {
  const classes = listSetting(def, 'token_chars') ?? [];
  if (classes.length === 0) return null;
  const tests: CodePointPredicate[] = [];
  for (const c of classes) {
    switch (c.toLowerCase()) {
      case 'letter':
        tests.push(isLetter);
        break;
      case 'digit':
        tests.push(isDigit);
        break;
      case 'whitespace':
        tests.push(isWhitespace);
        break;
      case 'punctuation':
        tests.push(isPunctuation);
        break;
      case 'symbol':
        tests.push(isSymbol);
        break;
      case 'custom': {
        const custom = stringSetting(def, 'custom_token_chars');
        if (custom === undefined) throw illegalArgument('Token type: [custom] requires setting [custom_token_chars]');
        const set = new Set(Array.from(custom, (ch) => ch.codePointAt(0)!));
        tests.push((cp) => set.has(cp));
        break;
      }
      default:
        throw illegalArgument(`Unknown token type: '${c}', must be one of [symbol, private_use, paragraph_separator, start_punctuation, unassigned, enclosing_mark, connector_punctuation, letter_number, other_number, math_symbol, lowercase_letter, space_separator, surrogate, initial_quote_punctuation, decimal_digit_number, digit, other_punctuation, dash_punctuation, currency_symbol, non_spacing_mark, format, modifier_letter, control, uppercase_letter, other_symbol, modifier_symbol, other_letter, line_separator, titlecase_letter, letter, punctuation, combining_spacing_mark, final_quote_punctuation, custom, other_letter, whitespace]`);
    }
  }
  return cachedPredicate((_ch, cp) => tests.some((t) => t(cp)));
}

export function createTokenizer(type: string, def: Definition, limits: ComponentLimits, name: string): Tokenizer {
  switch (type) {
    case 'standard':
      return new StandardTokenizer(maxTokenLength(def));
    case 'whitespace':
      return whitespaceTokenizer(maxTokenLength(def));
    case 'letter':
      return letterTokenizer();
    case 'lowercase':
      return lowercaseTokenizer();
    case 'keyword':
      return keywordTokenizer;
    case 'ngram':
    case 'edge_ngram': {
      const { minGram, maxGram } = ngramSizes(def, type, limits);
      return new NGramTokenizer(minGram, maxGram, type === 'edge_ngram', tokenChars(def));
    }
    case 'pattern': {
      const pattern = stringSetting(def, 'pattern') ?? '\\W+';
      const re = compileJavaPattern(pattern, stringSetting(def, 'flags'), (m) => illegalArgument(`Invalid pattern [${pattern}] for tokenizer [${name}]: ${m}`));
      return new PatternTokenizer(re, intSetting(def, 'group', -1));
    }
    case 'simple_pattern':
    case 'simple_pattern_split':
      return new SimplePatternTokenizer(stringSetting(def, 'pattern') ?? '', name, type === 'simple_pattern_split');
    case 'path_hierarchy':
    case 'PathHierarchy': {
      const delimiter = stringSetting(def, 'delimiter') ?? '/';
      if (delimiter.length !== 1) throw illegalArgument('delimiter must be a one char value');
      const replacement = stringSetting(def, 'replacement') ?? delimiter;
      if (replacement.length !== 1) throw illegalArgument('replacement must be a one char value');
      const skip = intSetting(def, 'skip', 0);
      return new PathHierarchyTokenizer(delimiter, replacement, skip, stringSetting(def, 'reverse') === 'true' || def.reverse === true);
    }
    case 'thai':
      return thaiTokenizer;
    case 'classic':
      return new ClassicTokenizer(maxTokenLength(def));
    case 'uax_url_email':
      return new UaxUrlEmailTokenizer(maxTokenLength(def));
    default:
      throw illegalArgument(`Unknown tokenizer type [${type}] for [${name}]`);
  }
}
