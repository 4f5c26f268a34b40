/**
 * `shingle` token filter (Lucene ShingleFilter): token n-grams joined by `token_separator`,
 * typed "shingle", at the position of their first token and spanning (positionLength) the
 * tokens they join; unigrams come first at each position. Position gaps (removed stop words)
 * are filled with `filler_token` so a shingle never joins words that were not adjacent.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

export interface ShingleOptions {
  minShingleSize: number;
  maxShingleSize: number;
  outputUnigrams: boolean;
  outputUnigramsIfNoShingles: boolean;
  tokenSeparator: string;
  fillerToken: string;
}

interface WindowItem {
  token: AnalysisToken;
  position: number;
  filler: boolean;
}

export class ShingleFilter implements TokenFilter {
  /**
   * Shingles of several sizes, or with unigrams, are not aligned on positions: ES marks such a
   * stream so that queries do not read it as a token graph (DisableGraphAttribute).
   */
  readonly disablesGraph: boolean;

  constructor(readonly options: ShingleOptions) {
    this.disablesGraph = options.outputUnigrams || options.minShingleSize !== options.maxShingleSize;
  }

  filter(stream: TokenStream): void {
    const { minShingleSize, maxShingleSize, outputUnigrams, outputUnigramsIfNoShingles, tokenSeparator, fillerToken } = this.options;
    const window: WindowItem[] = [];
    let position = -1;
    for (const t of stream.tokens) {
      // At most max-1 fillers: every shingle must hold at least one real token.
      const fillers = Math.min(t.posInc - 1, maxShingleSize - 1);
      for (let f = fillers; f >= 1; f--) {
        window.push({ token: { ...t, term: fillerToken, end: t.start, posLen: 1 }, position: position + t.posInc - f, filler: true });
      }
      position += t.posInc;
      window.push({ token: t, position, filler: false });
    }
    const emitted: Array<{ token: AnalysisToken; position: number }> = [];
    let shingles = 0;
    for (let w = 0; w < window.length; w++) {
      const item = window[w];
      if (outputUnigrams && !item.filler) emitted.push({ token: item.token, position: item.position });
      let term = item.token.term;
      for (let size = 2; size <= maxShingleSize && w + size <= window.length; size++) {
        const last = window[w + size - 1];
        term += tokenSeparator + last.token.term;
        if (size < minShingleSize) continue;
        shingles++;
        emitted.push({
          token: { term, start: item.token.start, end: last.token.end, type: 'shingle', posInc: 0, posLen: size, keyword: false },
          position: item.position,
        });
      }
    }
    if (!outputUnigrams && shingles === 0 && outputUnigramsIfNoShingles) return;
    let previous = -1;
    stream.tokens = emitted.map(({ token, position: p }) => {
      const out = token.posInc === p - previous ? token : { ...token, posInc: p - previous };
      previous = p;
      return out;
    });
  }
}
