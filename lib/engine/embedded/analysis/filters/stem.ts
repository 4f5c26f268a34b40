/**
 * Stemming filters: `porter_stem`, `stemmer` (english/porter → Porter, minimal_english,
 * possessive_english, light_german) and `keyword_marker`, which protects tokens from them.
 */
import type { LinearRegex } from '../../regex/index.js';
import { lowerCase } from '../char-classes.js';
import { illegalArgument, boolSetting, listSetting, stringSetting, type Definition } from '../settings.js';
import { compileJavaPattern } from '../tokenizers/pattern.js';
import type { TokenFilter, TokenStream } from '../types.js';
import { englishPossessiveFilter, minimalEnglishStemFilter } from './english.js';
import { germanLightStemFilter } from './german.js';
import { PorterStemmer } from './porter-stemmer.js';

export const porterStemFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    const stemmer = new PorterStemmer();
    for (const t of stream.tokens) if (!t.keyword) t.term = stemmer.stem(t.term);
  },
};

export function stemmerFromDefinition(def: Definition): TokenFilter {
  const language = stringSetting(def, 'language') ?? stringSetting(def, 'name') ?? 'porter';
  switch (language) {
    case 'english':
    case 'porter':
      return porterStemFilter;
    case 'minimal_english':
      return minimalEnglishStemFilter;
    case 'possessive_english':
      return englishPossessiveFilter;
    case 'light_german':
    case 'lightGerman':
      return germanLightStemFilter;
    default:
      throw illegalArgument(`stemmer language [${language}] is not supported by this engine`);
  }
}

export class KeywordMarkerFilter implements TokenFilter {
  constructor(
    private readonly keywords: Set<string>,
    private readonly pattern: LinearRegex | null,
    private readonly ignoreCase: boolean,
  ) {}

  filter(stream: TokenStream): void {
    for (const t of stream.tokens) {
      const term = this.ignoreCase ? lowerCase(t.term) : t.term;
      if (this.keywords.has(term) || (this.pattern && this.pattern.testExact(t.term))) t.keyword = true;
    }
  }
}

export function keywordMarkerFromDefinition(def: Definition): KeywordMarkerFilter {
  const ignoreCase = boolSetting(def, 'ignore_case', false);
  const keywords = listSetting(def, 'keywords', false);
  const pattern = stringSetting(def, 'keywords_pattern');
  if (keywords && pattern) throw illegalArgument('cannot specify both `keywords_pattern` and `keywords` or `keywords_path`');
  if (!keywords && !pattern) throw illegalArgument('keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured');
  const re = pattern ? compileJavaPattern(pattern, undefined, (m) => illegalArgument(m)) : null;
  return new KeywordMarkerFilter(new Set((keywords ?? []).map((k) => (ignoreCase ? lowerCase(k) : k))), re, ignoreCase);
}
