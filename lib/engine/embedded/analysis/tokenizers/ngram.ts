/**
 * `ngram` and `edge_ngram` tokenizers (Lucene's NGramTokenizer / EdgeNGramTokenizer).
 *
 * Grams are made of code points and never span a character outside `token_chars` (all
 * characters count when the list is empty). For each start position, sizes go from min_gram
 * to max_gram; the edge variant only starts where a run of token characters starts. Every
 * gram takes a new position.
 */
import { codePointAt, type CodePointPredicate } from '../char-classes.js';
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export class NGramTokenizer implements Tokenizer {
  constructor(
    private readonly minGram: number,
    private readonly maxGram: number,
    private readonly edgesOnly: boolean,
    private readonly isTokenChar: CodePointPredicate | null,
  ) {}

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    // Char offset of each code point, plus the end.
    const offsets: number[] = [];
    let runStart = 0; // index into offsets where the current run of token chars starts
    const n = text.length;
    for (let i = 0; i < n; ) {
      const cp = codePointAt(text, i);
      if (this.isTokenChar && !this.isTokenChar(cp)) {
        offsets.push(i);
        this.emitRun(text, offsets, runStart, offsets.length - 1, out);
        runStart = offsets.length;
      } else {
        offsets.push(i);
      }
      i += cp > 0xffff ? 2 : 1;
    }
    offsets.push(n);
    this.emitRun(text, offsets, runStart, offsets.length - 1, out);
    return out;
  }

  /** Grams of the code points [from, to). */
  private emitRun(text: string, offsets: number[], from: number, to: number, out: AnalysisToken[]): void {
    const lastStart = this.edgesOnly ? Math.min(from, to - 1) : to - 1;
    for (let s = from; s <= lastStart; s++) {
      const maxSize = Math.min(this.maxGram, to - s);
      for (let size = this.minGram; size <= maxSize; size++) {
        const start = offsets[s];
        const end = offsets[s + size];
        out.push(makeToken(text.slice(start, end), start, end, 'word'));
      }
    }
  }
}
