/**
 * `unique` token filter (ES UniqueTokenFilter): drops a token whose text was already seen (or,
 * with only_on_same_position, seen at the same position). Unlike stop, it leaves no gap.
 */
import type { TokenFilter, TokenStream } from '../types.js';

export class UniqueFilter implements TokenFilter {
  constructor(private readonly onlyOnSamePosition: boolean) {}

  filter(stream: TokenStream): void {
    const seen = new Set<string>();
    stream.tokens = stream.tokens.filter((t) => {
      if (this.onlyOnSamePosition && t.posInc > 0) seen.clear();
      const duplicate = this.onlyOnSamePosition ? t.posInc === 0 && seen.has(t.term) : seen.has(t.term);
      seen.add(t.term);
      return !duplicate;
    });
  }
}
