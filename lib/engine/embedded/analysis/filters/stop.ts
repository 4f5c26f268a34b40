/**
 * `stop` token filter (Lucene StopFilter; SuggestStopFilter when remove_trailing is false, which
 * keeps a final stop word that the text does not end after, as while typing a query).
 */
import { lowerCase } from '../char-classes.js';
import { illegalArgument, boolSetting, listSetting, type Definition } from '../settings.js';
import type { TokenFilter, TokenStream } from '../types.js';
import { keepTokens } from './removing.js';
import { ENGLISH_STOP_WORDS, NAMED_STOP_WORDS } from './stop-words.js';

export class StopFilter implements TokenFilter {
  private readonly words: Set<string>;

  constructor(
    words: readonly string[],
    private readonly ignoreCase = false,
    private readonly removeTrailing = true,
  ) {
    this.words = new Set(ignoreCase ? words.map(lowerCase) : words);
  }

  filter(stream: TokenStream): void {
    const last = stream.tokens.length - 1;
    keepTokens(stream, (t, i) => {
      if (!this.words.has(this.ignoreCase ? lowerCase(t.term) : t.term)) return true;
      if (!this.removeTrailing && i === last && t.end === stream.finalOffset) {
        t.keyword = true;
        return true;
      }
      return false;
    });
  }
}

/** Resolves `stopwords` (a list, or a predefined list name); `_english_` when absent. */
export function stopWordsSetting(def: Definition, key = 'stopwords', fallback: readonly string[] = ENGLISH_STOP_WORDS): readonly string[] {
  if (def[`${key}_path`] !== undefined) throw illegalArgument(`IOException while reading ${key}_path: ${String(def[`${key}_path`])}`);
  const raw = def[key];
  if (raw === undefined || raw === null) return fallback;
  const list = listSetting(def, key, false) ?? [];
  if (list.length === 1 && list[0].startsWith('_') && list[0].endsWith('_')) {
    const named = NAMED_STOP_WORDS[list[0]];
    if (!named) throw illegalArgument(`invalid stopwords list [${list[0]}]`);
    return named;
  }
  return list.flatMap((w) => (NAMED_STOP_WORDS[w] ? NAMED_STOP_WORDS[w] : [w]));
}

export function stopFilterFromDefinition(def: Definition): StopFilter {
  return new StopFilter(stopWordsSetting(def), boolSetting(def, 'ignore_case', false), boolSetting(def, 'remove_trailing', true));
}
