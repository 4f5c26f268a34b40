/**
 * `thai`: words of Thai text by dictionary-based segmentation, as Lucene's ThaiTokenizer does
 * with the JDK's BreakIterator; here ICU's, through Intl.Segmenter. Spaces and punctuation are
 * not tokens.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

const segmenter = new Intl.Segmenter('th', { granularity: 'word' });

export const thaiTokenizer: Tokenizer = {
  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    for (const s of segmenter.segment(text)) {
      if (!s.isWordLike) continue;
      out.push(makeToken(s.segment, s.index, s.index + s.segment.length, 'word'));
    }
    return out;
  },
};
