/** The `keyword` tokenizer: the whole input is one token (even when empty, as in Lucene). */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

export const keywordTokenizer: Tokenizer = {
  tokenize: (text: string): AnalysisToken[] => [makeToken(text, 0, text.length, 'word')],
  scan: (text: string, onToken: (start: number, end: number, type: string) => void): void => onToken(0, text.length, 'word'),
};
