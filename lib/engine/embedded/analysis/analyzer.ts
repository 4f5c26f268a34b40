/**
 * An analyzer as a pipeline: char filters → tokenizer → token filters, then positions.
 *
 * Positions follow Lucene's convention: they start at -1 and each token adds its increment,
 * so a stop word removed from the front leaves the first kept token at position 1. Several
 * values of one field (an array) continue from the previous value's last position plus the
 * end increment plus `positionIncrementGap`, and offsets continue after the previous value's
 * final offset plus `offsetGap`, as ES's _analyze and indexing do.
 */
import type { AnalysisToken, Analyzer, CharFilter, Token, TokenFilter, Tokenizer, TokenStream } from './types.js';

export class PipelineAnalyzer implements Analyzer {
  constructor(
    readonly name: string,
    private readonly charFilters: readonly CharFilter[],
    private readonly tokenizer: Tokenizer,
    private readonly filters: readonly TokenFilter[],
    readonly positionIncrementGap = 100,
    readonly offsetGap = 1,
  ) {}

  /** The text after the char filters (what `_analyze` explain shows as `filtered_text`). */
  charFiltered(text: string): string {
    let filtered = text;
    for (const cf of this.charFilters) filtered = cf.apply(filtered).text;
    return filtered;
  }

  /** The token stream of one value, offsets already mapped back through the char filters. */
  stream(text: string): TokenStream {
    let filtered = text;
    let correct: ((o: number) => number) | null = null;
    if (this.charFilters.length > 0) {
      const corrections: Array<(o: number) => number> = [];
      for (const cf of this.charFilters) {
        const r = cf.apply(filtered);
        filtered = r.text;
        corrections.push(r.correct);
      }
      correct = (o) => {
        for (let i = corrections.length - 1; i >= 0; i--) o = corrections[i](o);
        return o;
      };
    }
    const tokens = this.tokenizer.tokenize(filtered);
    if (correct) {
      for (const t of tokens) {
        t.start = correct(t.start);
        t.end = correct(t.end);
      }
    }
    const stream: TokenStream = { tokens, endPosInc: 0, finalOffset: correct ? correct(filtered.length) : filtered.length };
    for (const f of this.filters) f.filter(stream);
    return stream;
  }

  analyze(text: string): Token[] {
    const out: Token[] = [];
    appendTokens(out, this.stream(text).tokens, -1, 0);
    return out;
  }

  /** Tokens of several values of one field, positions and offsets continuing across them. */
  analyzeValues(texts: readonly string[]): Token[] {
    const out: Token[] = [];
    let lastPosition = -1;
    let lastOffset = 0;
    for (const text of texts) {
      const stream = this.stream(text);
      lastPosition = appendTokens(out, stream.tokens, lastPosition, lastOffset);
      lastOffset += stream.finalOffset + this.offsetGap;
      lastPosition += stream.endPosInc + this.positionIncrementGap;
    }
    return out;
  }
}

function appendTokens(out: Token[], tokens: readonly AnalysisToken[], lastPosition: number, offsetBase: number): number {
  let position = lastPosition;
  for (const t of tokens) {
    position += t.posInc;
    const token: Token = { token: t.term, start_offset: offsetBase + t.start, end_offset: offsetBase + t.end, type: t.type, position };
    if (t.posLen > 1) token.positionLength = t.posLen;
    out.push(token);
  }
  return position;
}
