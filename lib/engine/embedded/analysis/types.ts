/**
 * The shapes every analysis component agrees on.
 *
 * A pipeline works on arrays of `AnalysisToken` (cheaper in V8 than Lucene's attribute streams):
 * a tokenizer fills the array, each token filter maps it to a new one, and the analyzer turns
 * position increments into absolute positions at the end.
 */

/** One token as `_analyze` returns it. */
export interface Token {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
  positionLength?: number;
}

export interface Analyzer {
  readonly name: string;
  /**
   * False when a filter marks its output as no token graph for queries to follow (ES's
   * DisableGraphAttribute): query builders then ignore `positionLength`.
   */
  readonly graphQueries?: boolean;
  analyze(text: string): Token[];
  /**
   * The analyzer's shingle filter, when it has one (ES's ShingleTokenFilterFactory, which the
   * phrase suggester reads for its default gram size and to refuse a field without unigrams).
   */
  readonly shingle?: ShingleShape;
  /** Each token's term and position of one value (what `analyze` gives, without Token objects). */
  indexTerms?(text: string): IndexTerms;
  /**
   * `indexTerms` a stretch at a time, yielding between stretches so that the caller can give the
   * event loop a turn (an analysis that expands a value into hundreds of thousands of terms).
   */
  indexTermsSteps?(text: string): Generator<void, IndexTerms, void>;
}

/** What a shingle filter emits: token n-grams of these sizes, and the single tokens or not. */
export interface ShingleShape {
  minShingleSize: number;
  maxShingleSize: number;
  outputUnigrams: boolean;
}

/** The terms of one analysed value and their positions (parallel arrays, owned by the caller). */
export interface IndexTerms {
  terms: string[];
  positions: number[];
}

export interface AnalysisRegistry {
  /** Throws EsError 400 when the analyzer does not exist. */
  analyzer(name: string): Analyzer;
  /** A keyword normalizer (single token out); throws EsError 400 when unknown. */
  normalizer(name: string): Analyzer;
  hasAnalyzer(name: string): boolean;
}

/**
 * A token inside a pipeline, as Lucene's attributes describe it: `posInc` is the distance from
 * the previous token's position (0 = stacked on it), `posLen` how many positions it spans.
 * `keyword` marks tokens that stemmers must leave alone (keyword_marker).
 */
export interface AnalysisToken {
  term: string;
  start: number;
  end: number;
  type: string;
  posInc: number;
  posLen: number;
  keyword: boolean;
}

export function makeToken(term: string, start: number, end: number, type: string, posInc = 1): AnalysisToken {
  return { term, start, end, type, posInc, posLen: 1, keyword: false };
}

/** Splits (char-filtered) text into tokens; offsets are positions in that text. */
export interface Tokenizer {
  tokenize(text: string): AnalysisToken[];
  /**
   * The same tokens as `tokenize`, each given to `onToken` as its offsets and type instead of an
   * object, for tokenizers whose every token has a position increment of 1 and a length of 1
   * (indexing's allocation-free path).
   */
  scan?(text: string, onToken: (start: number, end: number, type: string) => void): void;
}

/**
 * What flows between token filters: the tokens, the position increment left after the last
 * token (removed trailing tokens, Lucene's end() increment) and the final offset (the length of
 * the tokenizer's input), which some filters need.
 */
export interface TokenStream {
  tokens: AnalysisToken[];
  endPosInc: number;
  finalOffset: number;
}

/** Rewrites a stream in place (replacing `tokens` when it needs a new array). */
export interface TokenFilter {
  filter(stream: TokenStream): void;
  /** True for per-character filters that ES allows in normalizers. */
  readonly normalizing?: boolean;
  /**
   * For a filter that only rewrites each token's term (same tokens, same positions): that
   * rewrite, so that indexing can apply it without token objects. `filter` must equal it.
   */
  readonly mapTerm?: (term: string) => string;
  /**
   * For a filter that replaces each token by terms derived from its term alone, the first taking
   * the token's position increment (carried on when it gives none) and the others stacked on it:
   * those terms, in order. `filter` must equal it.
   */
  readonly expandTerm?: (term: string, emit: (term: string) => void) => void;
  /** `expandTerm` a stretch at a time, yielding between stretches (for a filter whose expansion can be large). */
  readonly expandTermSteps?: (term: string, emit: (term: string) => void) => Generator<void, void, void>;
  /** True when the filter's positionLength must not be read as a token graph by queries (see Analyzer.graphQueries). */
  readonly disablesGraph?: boolean;
}

/**
 * Text rewritten by a char filter, with a way back to the input's offsets: `correct(offset)`
 * maps an offset in `text` to the offset of the same place in the filter's input
 * (Lucene's BaseCharFilter.correctOffset).
 */
export interface FilteredText {
  text: string;
  correct(offset: number): number;
}

export interface CharFilter {
  apply(text: string): FilteredText;
  readonly normalizing?: boolean;
}
