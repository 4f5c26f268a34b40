/**
 * `ngram` and `edge_ngram` token filters (Lucene 9 NGramTokenFilter / EdgeNGramTokenFilter).
 *
 * Grams are code point substrings of each token, all at the token's position (the first takes
 * the token's increment, the rest 0) and all with the token's offsets and type. ngram order is
 * by start, then size. With preserve_original the token itself is also emitted when it is
 * shorter than min_gram (first) or longer than max_gram (last).
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

/** Grams between two yields of `expandTermSteps`, at most… */
const EXPANSION_STEP = 4096;
/**
 * …and characters of grams: whoever takes a gram may read all of it (the index hashes it), and
 * one start of a 1,040-character term through 1..100000 gives 1,040 grams of 541,320 characters.
 */
const EXPANSION_CHARS = 1 << 18;

export class NGramFilter implements TokenFilter {
  constructor(
    private readonly minGram: number,
    private readonly maxGram: number,
    private readonly edgesOnly: boolean,
    private readonly preserveOriginal: boolean,
  ) {}

  /** The grams of one term, in order (with the original when preserve_original asks for it). */
  readonly expandTerm = (term: string, emit: (gram: string) => void): void => {
    for (const _ of this.expandTermSteps(term, emit));
  };

  /**
   * `expandTerm`, yielding after EXPANSION_STEP grams or EXPANSION_CHARS characters of grams: a
   * long term through a wide min..max range gives hundreds of thousands (1,040 characters through
   * 1..100000: 541,320, of 188 million characters).
   */
  *expandTermSteps(term: string, emit: (gram: string) => void): Generator<void, void, void> {
    const astral = /[\ud800-\udfff]/.test(term);
    const cps = astral ? Array.from(term) : null;
    const count = cps ? cps.length : term.length;
    if (this.preserveOriginal && count < this.minGram) emit(term);
    const lastStart = this.edgesOnly ? 0 : count - this.minGram;
    let emitted = 0;
    let chars = 0;
    for (let s = 0; s <= lastStart; s++) {
      const maxSize = Math.min(this.maxGram, count - s);
      for (let size = this.minGram; size <= maxSize; size++) {
        emit(cps ? cps.slice(s, s + size).join('') : term.slice(s, s + size));
        chars += size;
        if (++emitted >= EXPANSION_STEP || chars >= EXPANSION_CHARS) {
          emitted = 0;
          chars = 0;
          yield;
        }
      }
    }
    if (this.preserveOriginal && count > this.maxGram) emit(term);
  }

  filter(stream: TokenStream): void {
    const out: AnalysisToken[] = [];
    let carry = 0; // increment of a token that produced nothing
    for (const t of stream.tokens) {
      let posInc = t.posInc + carry;
      this.expandTerm(t.term, (text) => {
        out.push({ term: text, start: t.start, end: t.end, type: t.type, posInc, posLen: t.posLen, keyword: t.keyword });
        posInc = 0;
      });
      carry = posInc === 0 ? 0 : posInc;
    }
    stream.tokens = out;
    stream.endPosInc += carry;
  }
}
