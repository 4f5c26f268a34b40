/**
 * `dictionary_decompounder`: Lucene's DictionaryCompoundWordTokenFilter. A token of at least
 * `min_word_size` is followed, at its position and offsets, by every word of `word_list` found
 * inside it (between `min_subword_size` and `max_subword_size` long; with `only_longest_match`,
 * the longest one starting at each place). `hyphenation_decompounder` needs a hyphenation
 * grammar file (`hyphenation_patterns_path`), which this engine cannot read: refused.
 */
import { illegalArgument, boolSetting, intSetting, listSetting, type Definition } from '../settings.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

export class DictionaryDecompounderFilter implements TokenFilter {
  constructor(
    private readonly words: ReadonlySet<string>,
    private readonly minWordSize: number,
    private readonly minSubwordSize: number,
    private readonly maxSubwordSize: number,
    private readonly onlyLongestMatch: boolean,
  ) {}

  filter(stream: TokenStream): void {
    const out: AnalysisToken[] = [];
    for (const t of stream.tokens) {
      out.push(t);
      const term = t.term;
      if (term.length < this.minWordSize) continue;
      for (let i = 0; i <= term.length - this.minSubwordSize; i++) {
        let longest: string | undefined;
        for (let j = this.minSubwordSize; j <= this.maxSubwordSize && i + j <= term.length; j++) {
          const part = term.slice(i, i + j);
          if (!this.words.has(part)) continue;
          if (this.onlyLongestMatch) {
            if (longest === undefined || longest.length < j) longest = part;
          } else out.push({ ...t, term: part, posInc: 0, posLen: 1 });
        }
        if (longest !== undefined) out.push({ ...t, term: longest, posInc: 0, posLen: 1 });
      }
    }
    stream.tokens = out;
  }
}

export function decompounderFromDefinition(type: string, def: Definition): TokenFilter {
  if (type === 'hyphenation_decompounder') {
    if (def.hyphenation_patterns_path === undefined) throw illegalArgument('hyphenation_patterns_path is a required setting.');
    throw illegalArgument('Exception while reading hyphenation_patterns_path.');
  }
  if (def.word_list_path !== undefined) throw illegalArgument(`IOException while reading word_list_path: ${String(def.word_list_path)}`);
  const words = listSetting(def, 'word_list', false);
  if (words === undefined) throw illegalArgument('word_list must be provided for [dictionary_decompounder], either as a path to a file, or directly');
  return new DictionaryDecompounderFilter(
    new Set(words),
    intSetting(def, 'min_word_size', 5),
    intSetting(def, 'min_subword_size', 2),
    intSetting(def, 'max_subword_size', 15),
    boolSetting(def, 'only_longest_match', false),
  );
}
