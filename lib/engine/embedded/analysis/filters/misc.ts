/** Small single-purpose token filters: `remove_duplicates`, `truncate`, `reverse`, `limit`. */
import type { TokenFilter, TokenStream } from '../types.js';

/** Drops a token identical to one already at the same position (Lucene RemoveDuplicatesTokenFilter). */
export const removeDuplicatesFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    const seen = new Set<string>();
    stream.tokens = stream.tokens.filter((t) => {
      if (t.posInc > 0) seen.clear();
      if (seen.has(t.term)) return false;
      seen.add(t.term);
      return true;
    });
  },
};

export class TruncateFilter implements TokenFilter {
  constructor(private readonly length: number) {}
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) if (!t.keyword && t.term.length > this.length) t.term = t.term.slice(0, this.length);
  }
}

export const reverseFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) t.term = Array.from(t.term).reverse().join('');
  },
};

export class LimitFilter implements TokenFilter {
  constructor(private readonly maxTokenCount: number) {}
  filter(stream: TokenStream): void {
    if (stream.tokens.length > this.maxTokenCount) stream.tokens = stream.tokens.slice(0, this.maxTokenCount);
  }
}
