/**
 * `uax_url_email`: the standard tokenizer, except that e-mail addresses and URLs are one token
 * each (types <EMAIL> and <URL>), as Lucene's UAX29URLEmailTokenizer. URLs are recognised with a
 * scheme (`http://…`) or as a `www.` host; Lucene also accepts bare hosts with a known top-level
 * domain, which this approximates by requiring a path after such a host.
 */
import { makeToken, type AnalysisToken, type Tokenizer } from '../types.js';
import { StandardTokenizer } from './standard.js';

const EMAIL = String.raw`[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}`;
const URL = String.raw`(?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.)[^\s<>"'()\[\]{}]*[^\s<>"'()\[\]{}.,;:!?]`;
const SPECIAL = new RegExp(`(${EMAIL})|(${URL})`, 'gu');

export class UaxUrlEmailTokenizer implements Tokenizer {
  private readonly standard: StandardTokenizer;
  constructor(private readonly maxTokenLength = 255) {
    this.standard = new StandardTokenizer(maxTokenLength);
  }

  tokenize(text: string): AnalysisToken[] {
    const out: AnalysisToken[] = [];
    let start = 0;
    const words = (end: number) => {
      if (end <= start) return;
      for (const t of this.standard.tokenize(text.slice(start, end))) {
        t.start += start;
        t.end += start;
        out.push(t);
      }
    };
    SPECIAL.lastIndex = 0;
    for (let m = SPECIAL.exec(text); m; m = SPECIAL.exec(text)) {
      words(m.index);
      const end = m.index + Math.min(m[0].length, this.maxTokenLength);
      out.push(makeToken(text.slice(m.index, end), m.index, end, m[1] !== undefined ? '<EMAIL>' : '<URL>'));
      start = m.index + m[0].length;
    }
    words(text.length);
    return out;
  }
}
