/**
 * The compound word filters, Lucene's CompoundWordTokenFilterBase family: a token of at least
 * `min_word_size` is followed, at its position (increment 0) and with its offsets and type, by
 * the subwords found in it that are in the word list (`word_list` or `word_list_path`, matched
 * exactly unless `word_list_case: true`).
 *
 * - `dictionary_decompounder` (DictionaryCompoundWordTokenFilter) tries every substring between
 *   `min_subword_size` and `max_subword_size` long; with `only_longest_match`, the longest one
 *   starting at each place.
 * - `hyphenation_decompounder` (HyphenationCompoundWordTokenFilter) only tries the parts between
 *   the hyphenation points of an FOP XML grammar (`hyphenation_patterns_path`, in the engine's
 *   config directory), longest first from each point; a part that misses is tried again without
 *   its last character (a binding `s`, as in Lucene).
 */
import { EsError } from '../../../../errors/index.js';
import { ConfigFileError, type ConfigFiles } from '../config-files.js';
import { GrammarError, parseFopGrammar, type HyphenationTree } from '../hyphenation/index.js';
import { illegalArgument, boolSetting, intSetting, stringSetting, type Definition } from '../settings.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';
import { wordSetSetting, type WordSet } from '../word-list.js';

/** A hyphenation grammar is read up to this size (OFFO's largest grammars are a few hundred kB). */
export const MAX_HYPHENATION_GRAMMAR_BYTES = 8 * 1024 * 1024;

interface CompoundSizes {
  minWordSize: number;
  minSubwordSize: number;
  maxSubwordSize: number;
  onlyLongestMatch: boolean;
}

/** The original token, then each subword at its position with its offsets. */
function decompounding(stream: TokenStream, minWordSize: number, subwords: (term: string) => string[]): void {
  const out: AnalysisToken[] = [];
  for (const t of stream.tokens) {
    out.push(t);
    if (t.term.length < minWordSize) continue;
    for (const part of subwords(t.term)) out.push({ ...t, term: part, posInc: 0, posLen: 1 });
  }
  stream.tokens = out;
}

export class DictionaryDecompounderFilter implements TokenFilter {
  constructor(
    private readonly words: WordSet,
    private readonly sizes: CompoundSizes,
  ) {}

  filter(stream: TokenStream): void {
    decompounding(stream, this.sizes.minWordSize, (term) => this.subwords(term));
  }

  private subwords(term: string): string[] {
    const { minSubwordSize, maxSubwordSize, onlyLongestMatch } = this.sizes;
    const parts: string[] = [];
    for (let i = 0; i <= term.length - minSubwordSize; i++) {
      let longest: string | undefined;
      for (let j = minSubwordSize; j <= maxSubwordSize && i + j <= term.length; j++) {
        const part = term.slice(i, i + j);
        if (!this.words.has(part)) continue;
        if (onlyLongestMatch) {
          if (longest === undefined || longest.length < j) longest = part;
        } else parts.push(part);
      }
      if (longest !== undefined) parts.push(longest);
    }
    return parts;
  }
}

export class HyphenationDecompounderFilter implements TokenFilter {
  constructor(
    private readonly hyphenator: HyphenationTree,
    private readonly words: WordSet,
    private readonly sizes: CompoundSizes,
    /** Lucene's noSubMatches / noOverlappingMatches: ES 8.15 does not expose them (always false). */
    private readonly noSubMatches = false,
    private readonly noOverlappingMatches = false,
  ) {}

  filter(stream: TokenStream): void {
    decompounding(stream, this.sizes.minWordSize, (term) => this.subwords(term));
  }

  private subwords(term: string): string[] {
    const { minSubwordSize, onlyLongestMatch } = this.sizes;
    // Only the longest match from each point unless every match is wanted.
    const allMatches = !onlyLongestMatch && !this.noSubMatches && !this.noOverlappingMatches;
    const has = (from: number, length: number) => length > 0 && this.words.has(term.slice(from, from + length));
    // A token that is itself a word (perhaps with a binding character) is kept whole then.
    if (!allMatches && (has(0, term.length) || (term.length > 1 && has(0, term.length - 1)))) return [];
    const points = this.hyphenator.hyphenate(term);
    if (!points) return [];
    // The whole token is never one of its own subwords.
    const maxSubwordSize = Math.min(this.sizes.maxSubwordSize, term.length - 1);
    const parts: string[] = [];
    let consumed = -1;
    for (let i = 0; i < points.length; i++) {
      if (this.noOverlappingMatches) i = Math.max(i, consumed);
      const start = points[i];
      const until = this.noSubMatches ? Math.max(consumed, i) : i;
      for (let j = points.length - 1; j > until; j--) {
        const length = points[j] - start;
        if (length > maxSubwordSize) continue;
        if (length < minSubwordSize) break;
        const found = has(start, length) ? length : has(start, length - 1) ? length - 1 : 0;
        if (found === 0) continue;
        parts.push(term.slice(start, start + found));
        consumed = j;
        if (!allMatches) break;
      }
    }
    return parts;
  }
}

function compoundSizes(def: Definition): CompoundSizes {
  const sizes = {
    minWordSize: intSetting(def, 'min_word_size', 5),
    minSubwordSize: intSetting(def, 'min_subword_size', 2),
    maxSubwordSize: intSetting(def, 'max_subword_size', 15),
    onlyLongestMatch: boolSetting(def, 'only_longest_match', false),
  };
  if (sizes.minWordSize < 0) throw illegalArgument('minWordSize cannot be negative');
  if (sizes.minSubwordSize < 0) throw illegalArgument('minSubwordSize cannot be negative');
  if (sizes.maxSubwordSize < 0) throw illegalArgument('maxSubwordSize cannot be negative');
  return sizes;
}

/** Why a grammar could not be read, as the `caused_by` of ES's error (the Java exception's words). */
function grammarCause(err: unknown): { type: string; reason: string } {
  if (err instanceof ConfigFileError) {
    const type = { not_found: 'no_such_file_exception', access_denied: 'access_control_exception', too_large: 'i_o_exception', unreadable: 'i_o_exception' }[err.problem];
    return { type, reason: err.message };
  }
  if (err instanceof GrammarError) return { type: 'i_o_exception', reason: err.message };
  throw err;
}

function hyphenationGrammar(def: Definition, files: ConfigFiles | undefined): HyphenationTree {
  const file = stringSetting(def, 'hyphenation_patterns_path');
  if (file === undefined) throw illegalArgument('hyphenation_patterns_path is a required setting.');
  try {
    if (!files) throw new ConfigFileError('not_found', file, file);
    return files.parsed('fop-grammar', file, MAX_HYPHENATION_GRAMMAR_BYTES, parseFopGrammar);
  } catch (err) {
    throw new EsError(400, 'illegal_argument_exception', 'Exception while reading hyphenation_patterns_path.', { caused_by: grammarCause(err) });
  }
}

/** `files`: the engine's config directory (none: every file setting fails to read). */
export function decompounderFromDefinition(type: string, name: string, def: Definition, files: ConfigFiles | undefined): TokenFilter {
  // ES's order: sizes and the word list first, then the grammar.
  const sizes = compoundSizes(def);
  const words = wordSetSetting(def, 'word_list', files);
  if (words === undefined) throw illegalArgument(`word_list must be provided for [${name}], either as a path to a file, or directly`);
  if (type === 'hyphenation_decompounder') return new HyphenationDecompounderFilter(hyphenationGrammar(def, files), words, sizes);
  return new DictionaryDecompounderFilter(words, sizes);
}
