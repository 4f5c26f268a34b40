/** `trim` token filter: strips leading/trailing Java whitespace; offsets stay (Lucene ≥ 4.4). */
import { isWhitespace } from '../char-classes.js';
import type { TokenFilter, TokenStream } from '../types.js';

export const trimFilter: TokenFilter = {
  normalizing: true,
  filter(stream: TokenStream): void {
    for (const t of stream.tokens) {
      const s = t.term;
      let a = 0;
      let b = s.length;
      while (a < b && isWhitespace(s.charCodeAt(a))) a++;
      while (b > a && isWhitespace(s.charCodeAt(b - 1))) b--;
      if (a > 0 || b < s.length) t.term = s.slice(a, b);
    }
  },
};
