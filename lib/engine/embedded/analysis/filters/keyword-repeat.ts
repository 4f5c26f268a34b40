/**
 * `keyword_repeat` token filter (Lucene KeywordRepeatFilter): emits every token twice at the same
 * position, first marked as a keyword (so stemmers leave it as it is), then unmarked. With a
 * stemmer after it, a query finds both the word as written and its stem; `unique` with
 * `only_on_same_position` then drops the copy when stemming did not change the word.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

export const keywordRepeatFilter: TokenFilter = {
  filter(stream: TokenStream): void {
    const out: AnalysisToken[] = [];
    for (const t of stream.tokens) out.push({ ...t, keyword: true }, { ...t, posInc: 0, keyword: false });
    stream.tokens = out;
  },
};
