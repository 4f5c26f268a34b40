/**
 * `classic`: Lucene's ClassicTokenizer (the pre-UAX#29 English grammar): words with inner
 * apostrophes (<APOSTROPHE>), acronyms with dots (<ACRONYM>), company names with & or @
 * (<COMPANY>), e-mail addresses (<EMAIL>), host names (<HOST>), numbers and codes with inner
 * punctuation that contain a digit (<NUM>), and other letter/digit runs (<ALPHANUM>). An acronym
 * keeps its dots, as in Lucene.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';

const AN = String.raw`[\p{L}\p{N}]`;
const RULES: Array<[string, string]> = [
  ['<EMAIL>', String.raw`${AN}+(?:[._-]${AN}+)*@${AN}+(?:[.-]${AN}+)+`],
  ['<ACRONYM>', String.raw`\p{L}\.(?:\p{L}\.)+`],
  ['<HOST>', String.raw`${AN}+(?:\.${AN}+)+`],
  ['<COMPANY>', String.raw`\p{L}+[&@]\p{L}+`],
  ['<APOSTROPHE>', String.raw`\p{L}+(?:'\p{L}+)+`],
  ['<NUM>', String.raw`${AN}*\p{N}${AN}*(?:[_\-/.,]${AN}+)+|${AN}+(?:[_\-/.,]${AN}*\p{N}${AN}*)+`],
  ['<ALPHANUM>', String.raw`${AN}+`],
];
const RE = new RegExp(RULES.map(([, r]) => `(${r})`).join('|'), 'gu');

export class ClassicTokenizer implements Tokenizer {
  constructor(private readonly maxTokenLength = 255) {}

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    RE.lastIndex = 0;
    for (let m = RE.exec(text); m; m = RE.exec(text)) {
      let type = '<ALPHANUM>';
      for (let g = 1; g <= RULES.length; g++) {
        if (m[g] !== undefined) {
          type = RULES[g - 1][0];
          break;
        }
      }
      // An acronym keeps its dots (I.B.M.): the `classic` token filter removes them.
      const term = m[0];
      if (term.length > this.maxTokenLength) continue;
      out.push(makeToken(term, m.index, m.index + m[0].length, type));
    }
    return out;
  }
}
