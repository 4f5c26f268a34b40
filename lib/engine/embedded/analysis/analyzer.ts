/**
 * An analyzer as a pipeline: char filters → tokenizer → token filters, then positions.
 *
 * Positions follow Lucene's convention: they start at -1 and each token adds its increment,
 * so a stop word removed from the front leaves the first kept token at position 1. Several
 * values of one field (an array) continue from the previous value's last position plus the
 * end increment plus `positionIncrementGap`, and offsets continue after the previous value's
 * final offset plus `offsetGap`, as ES's _analyze and indexing do.
 */
import { ShingleFilter } from './filters/shingle.js';
import type { AnalysisToken, Analyzer, CharFilter, IndexTerms, ShingleShape, Token, TokenFilter, Tokenizer, TokenStream } from './types.js';

export class PipelineAnalyzer implements Analyzer {
  /**
   * Indexing without token objects, when the pipeline allows it: no char filters, a tokenizer
   * that can `scan`, filters that each map a term (lowercase, asciifolding…) but for an optional
   * last one that expands it (ngram, edge_ngram). Undefined otherwise.
   */
  private readonly streaming: { scan: NonNullable<Tokenizer['scan']>; maps: Array<(term: string) => string>; expand: TokenFilter['expandTerm'] } | undefined;
  readonly graphQueries: boolean;
  readonly shingle: ShingleShape | undefined;

  constructor(
    readonly name: string,
    private readonly charFilters: readonly CharFilter[],
    private readonly tokenizer: Tokenizer,
    private readonly filters: readonly TokenFilter[],
    readonly positionIncrementGap = 100,
    readonly offsetGap = 1,
  ) {
    const maps: Array<(term: string) => string> = [];
    let expand: TokenFilter['expandTerm'];
    let ok = charFilters.length === 0 && tokenizer.scan !== undefined;
    for (let i = 0; ok && i < filters.length; i++) {
      const f = filters[i];
      if (f.mapTerm) maps.push(f.mapTerm);
      else if (f.expandTerm && i === filters.length - 1) expand = f.expandTerm;
      else ok = false;
    }
    this.streaming = ok ? { scan: tokenizer.scan!.bind(tokenizer), maps, expand } : undefined;
    this.graphQueries = !filters.some((f) => f.disablesGraph);
    this.shingle = filters.find((f): f is ShingleFilter => f instanceof ShingleFilter)?.options;
  }

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

  /**
   * What indexing needs of one value: each token's term and position (as `analyze` gives them),
   * in two arrays of the right size, without a Token object per token.
   */
  indexTerms(text: string): IndexTerms {
    if (this.streaming) return this.streamTerms(text, this.streaming);
    const tokens = this.stream(text).tokens;
    const n = tokens.length;
    const terms = new Array<string>(n);
    const positions = new Array<number>(n);
    let position = -1;
    for (let i = 0; i < n; i++) {
      const t = tokens[i];
      position += t.posInc;
      terms[i] = t.term;
      positions[i] = position;
    }
    return { terms, positions };
  }

  // State of `streamTerms` (one value at a time: the callbacks below are made once, not per value).
  private scratchTerms: string[] = [];
  private scratchPositions: number[] = [];
  private count = 0;
  private position = -1;
  /** Increment waiting for the next emitted term (an expanded token that gave no term passes its own on). */
  private pending = 0;
  private text = '';

  private readonly emitTerm = (term: string): void => {
    this.position += this.pending;
    this.pending = 0;
    this.scratchTerms[this.count] = term;
    this.scratchPositions[this.count++] = this.position;
  };

  private readonly onToken = (start: number, end: number): void => {
    const p = this.streaming!;
    let term = this.text.slice(start, end);
    for (let i = 0; i < p.maps.length; i++) term = p.maps[i](term);
    this.pending += 1;
    if (p.expand) p.expand(term, this.emitTerm);
    else this.emitTerm(term);
  };

  /** `indexTerms` for a streaming pipeline: what `stream` gives, term by term (see the TokenFilter hooks). */
  private streamTerms(text: string, p: NonNullable<PipelineAnalyzer['streaming']>): IndexTerms {
    this.text = text;
    this.count = 0;
    this.position = -1;
    this.pending = 0;
    p.scan(text, this.onToken);
    this.text = '';
    const n = this.count;
    return { terms: this.scratchTerms.slice(0, n), positions: this.scratchPositions.slice(0, n) };
  }

  /**
   * `indexTerms` a stretch at a time, for a streaming pipeline whose expanding filter can yield
   * (an ngram filter over a wide range); any other pipeline in one go. The same terms and
   * positions as `indexTerms`, in arrays of its own (another value may be analysed in between).
   */
  *indexTermsSteps(text: string): Generator<void, IndexTerms, void> {
    const p = this.streaming;
    const expanding = this.filters[this.filters.length - 1];
    if (!p?.expand || !expanding?.expandTermSteps) return this.indexTerms(text);
    const starts: number[] = [];
    const ends: number[] = [];
    p.scan(text, (start, end) => {
      starts.push(start);
      ends.push(end);
    });
    const terms: string[] = [];
    const positions: number[] = [];
    let position = -1;
    let pending = 0;
    const emit = (term: string) => {
      position += pending;
      pending = 0;
      terms.push(term);
      positions.push(position);
    };
    for (let i = 0; i < starts.length; i++) {
      let term = text.slice(starts[i], ends[i]);
      for (const map of p.maps) term = map(term);
      pending += 1;
      yield* expanding.expandTermSteps(term, emit);
      if ((i & 1023) === 1023) yield;
    }
    return { terms, positions };
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
