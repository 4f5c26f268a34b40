/**
 * Lucene's CharTokenizer family: a token is a maximal run of code points accepted by a
 * predicate, cut every `maxTokenLength` chars (255 by default). `letter` keeps letters,
 * `whitespace` keeps non-whitespace, `lowercase` is `letter` that lowercases as it goes.
 */
import { codePointAt, isLetter, isWhitespace, lowerCodePoint, type CodePointPredicate } from '../char-classes.js';
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export class CharTokenizer implements Tokenizer {
  constructor(
    private readonly isTokenChar: CodePointPredicate,
    private readonly maxTokenLength = 255,
    private readonly normalize?: (cp: number) => number,
  ) {}

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    const n = text.length;
    let start = -1;
    let term = '';
    let length = 0;
    const flush = (end: number) => {
      out.push(makeToken(this.normalize ? term : text.slice(start, end), start, end, 'word'));
      start = -1;
      term = '';
      length = 0;
    };
    for (let i = 0; i < n; ) {
      const cp = codePointAt(text, i);
      const width = cp > 0xffff ? 2 : 1;
      if (this.isTokenChar(cp)) {
        if (start < 0) start = i;
        if (this.normalize) term += String.fromCodePoint(this.normalize(cp));
        length += width;
        i += width;
        // Lucene checks the buffer after appending: a full buffer ends the token here.
        if (length >= this.maxTokenLength) flush(i);
      } else {
        if (start >= 0) flush(i);
        i += width;
      }
    }
    if (start >= 0) flush(n);
    return out;
  }
}

export const letterTokenizer = (max?: number) => new CharTokenizer(isLetter, max);
export const whitespaceTokenizer = (max?: number) => new CharTokenizer((cp) => !isWhitespace(cp), max);
export const lowercaseTokenizer = (max?: number) => new CharTokenizer(isLetter, max, lowerCodePoint);
