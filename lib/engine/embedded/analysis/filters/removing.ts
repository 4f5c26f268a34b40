/**
 * Removing tokens the way Lucene's FilteringTokenFilter does: a dropped token's position
 * increment moves to the next kept token (so removals leave position gaps), and increments
 * left over at the end go to the stream's end increment.
 */
import type { AnalysisToken, TokenStream } from '../types.js';

export function keepTokens(stream: TokenStream, accept: (t: AnalysisToken, index: number) => boolean): void {
  const kept: AnalysisToken[] = [];
  let skipped = 0;
  const tokens = stream.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (accept(t, i)) {
      if (skipped) t.posInc += skipped;
      skipped = 0;
      kept.push(t);
    } else {
      skipped += t.posInc;
    }
  }
  stream.tokens = kept;
  stream.endPosInc += skipped;
}
