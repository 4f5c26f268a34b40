/** `length` token filter (Lucene LengthFilter): keeps tokens of min..max UTF-16 chars; gaps remain. */
import type { TokenFilter, TokenStream } from '../types.js';
import { keepTokens } from './removing.js';

export class LengthFilter implements TokenFilter {
  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {}

  filter(stream: TokenStream): void {
    keepTokens(stream, (t) => t.term.length >= this.min && t.term.length <= this.max);
  }
}
