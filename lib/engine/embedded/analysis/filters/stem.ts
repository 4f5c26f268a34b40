/**
 * Stemming filters: `porter_stem`, `stemmer` (every `language` of ../stemmers), `snowball`,
 * `stemmer_override`, and `keyword_marker`, which protects tokens from them.
 */
import type { LinearRegex } from '../../regex/index.js';
import { lowerCase } from '../char-classes.js';
import { illegalArgument, boolSetting, listSetting, stringSetting, type Definition } from '../settings.js';
import { SNOWBALL_STEMMERS, STEMMERS, type Stem } from '../stemmers/index.js';
import { compileJavaPattern } from '../tokenizers/pattern.js';
import type { TokenFilter, TokenStream } from '../types.js';
import { englishPossessiveFilter } from './english.js';
import { PorterStemmer } from './porter-stemmer.js';

/** Stems remembered per stemmer, up to this many (then forgotten at once): text repeats its words. */
const MEMO_SIZE = 20000;

function memoized(stem: Stem): Stem {
  const memo = new Map<string, string>();
  return (term) => {
    let out = memo.get(term);
    if (out === undefined) {
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(term, (out = stem(term)));
    }
    return out;
  };
}

/** A filter that stems every token not marked as a keyword. */
export function stemFilter(stem: Stem): TokenFilter {
  const cached = memoized(stem);
  return {
    // Indexing's term-only path never sees keywords (a keyword marker has no such path).
    mapTerm: cached,
    filter(stream: TokenStream): void {
      for (const t of stream.tokens) if (!t.keyword) t.term = cached(t.term);
    },
  };
}

const porter = new PorterStemmer();
export const porterStemFilter: TokenFilter = stemFilter((t) => porter.stem(t));

const stemFilters = new Map<string, TokenFilter>();

/** Java's Strings.capitalize, as ES applies it to the language before naming a Snowball class. */
const capitalize = (s: string) => (s.length > 0 ? s[0].toUpperCase() + s.slice(1) : s);

export function stemmerFromDefinition(def: Definition): TokenFilter {
  const language = stringSetting(def, 'language') ?? stringSetting(def, 'name') ?? 'porter';
  const key = language.toLowerCase();
  if (key === 'possessive_english' || key === 'possessiveenglish') return englishPossessiveFilter;
  // ES's older camel-case names: lightGerman, minimalEnglish, possessiveEnglish…
  const alias = key.replace(/^(light|minimal)(?=[a-z]+$)/, '$1_');
  const stem = STEMMERS[alias];
  if (stem) {
    let f = stemFilters.get(alias);
    if (!f) stemFilters.set(alias, (f = stemFilter(stem)));
    return f;
  }
  // ES falls back to the Snowball class of that name (org.tartarus.snowball.ext.{Language}Stemmer).
  const snowball = SNOWBALL_STEMMERS[capitalize(language)];
  if (snowball) return stemFilter(snowball);
  throw illegalArgument(`Invalid stemmer class specified: ${capitalize(language)}`);
}

/** `snowball`: the Snowball stemmer `language` names (its Lucene class name; English by default). */
export function snowballFromDefinition(def: Definition): TokenFilter {
  const language = capitalize(stringSetting(def, 'language') ?? stringSetting(def, 'name') ?? 'English');
  const stem = SNOWBALL_STEMMERS[language];
  if (stem) return stemFilter(stem);
  throw illegalArgument(`Invalid stemmer class specified: ${language}`);
}

/**
 * `stemmer_override` (Lucene's StemmerOverrideFilter): a term found among the rules' left-hand
 * sides is replaced by the right-hand side and marked as a keyword, so later stemmers skip it.
 */
export class StemmerOverrideFilter implements TokenFilter {
  constructor(private readonly overrides: ReadonlyMap<string, string>) {}

  filter(stream: TokenStream): void {
    for (const t of stream.tokens) {
      if (t.keyword) continue;
      const to = this.overrides.get(t.term);
      if (to !== undefined) {
        t.term = to;
        t.keyword = true;
      }
    }
  }
}

export function stemmerOverrideFromDefinition(def: Definition): StemmerOverrideFilter {
  if (def.rules_path !== undefined) throw illegalArgument(`IOException while reading rules_path: ${String(def.rules_path)}`);
  const rules = listSetting(def, 'rules', false);
  if (rules === undefined) throw illegalArgument('stemmer override filter requires either `rules` or `rules_path` to be configured');
  const overrides = new Map<string, string>();
  for (const rule of rules) {
    const sides = rule.split(/=>/);
    if (sides.length !== 2 || sides[1].trim() === '') throw illegalArgument(`Invalid Keyword override Rule:${rule}`);
    const to = sides[1].trim();
    for (const from of sides[0].split(',').map((w) => w.trim())) {
      if (from === '') throw illegalArgument(`Invalid Keyword override Rule:${rule}`);
      if (!overrides.has(from)) overrides.set(from, to);
    }
  }
  return new StemmerOverrideFilter(overrides);
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
