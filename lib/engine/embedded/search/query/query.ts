/** The query DSL, parsed and validated: what both the index executor and the document matcher run. */
import type { CombinedFieldsOptions } from './combined-fields.js';
import type { RankFeatureFunction } from './feature-queries.js';
import type { GeoRelation, GeoShape } from './geo-shape.js';
import type { IntervalSource, IntervalsRule } from './intervals.js';
import type { MoreLikeThis } from './more-like-this.js';
import type { ScriptSpec } from '../../painless/index.js';
import type { SpanQuery } from './span-queries.js';
import type { TermPattern } from './term-patterns.js';
import type { TermsSetMinimum } from './terms-set.js';

export type Scalar = string | number | boolean;

/** `fuzziness`: an edit distance, or AUTO[:low,high]. */
export type Fuzziness = { kind: 'fixed'; edits: number } | { kind: 'auto'; low: number; high: number };

export interface FullTextOptions {
  analyzer?: string;
  operator: 'or' | 'and';
  minimumShouldMatch?: string | number;
  fuzziness?: Fuzziness;
  prefixLength: number;
  maxExpansions: number;
  transpositions: boolean;
  zeroTermsQuery: 'none' | 'all';
  lenient: boolean;
  /** Whether a multi-word synonym (a side path of a token graph) becomes a phrase (default) or a conjunction. */
  autoGenerateSynonymsPhraseQuery: boolean;
  /** `fuzzy_rewrite`: how a fuzzy term's expansions score (top_terms_blended_freqs_{max_expansions} when not given). */
  fuzzyRewrite?: MultiTermRewrite;
}

export type MultiMatchType = 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';

export interface DecayFunction {
  kind: 'gauss' | 'exp' | 'linear';
  field: string;
  origin: unknown;
  scale: unknown;
  offset: unknown;
  decay: number;
  multiValueMode: 'min' | 'max' | 'avg' | 'sum';
}

export interface ScoreFunction {
  filter?: Query;
  weight?: number;
  fieldValueFactor?: { field: string; factor: number; modifier: string; missing?: number };
  decay?: DecayFunction;
  randomScore?: { seed?: number; field?: string };
  /** `script_score`: a score script (`_score` is the query's score). */
  script?: ScriptSpec;
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

/**
 * A multi-term query's `rewrite` (Elasticsearch's rewrite parameter, Lucene's rewrite methods):
 * how the terms it matches score. `constant_score` (and `constant_score_boolean`): the query's boost;
 * `scoring_boolean`: each term's BM25 score times its boost, summed; `top_terms_N`: the same over
 * the N best terms; `top_terms_boost_N`: their boosts, summed; `top_terms_blended_freqs_N`: BM25
 * with every term's document frequency blended to the highest (fuzzy's default, N max_expansions).
 * A term's boost is 1, or for fuzzy its similarity to the query's term.
 */
export type MultiTermRewrite =
  | { kind: 'constant_score' }
  | { kind: 'scoring_boolean' }
  | { kind: 'top_terms'; size: number; scores: 'bm25' | 'boost' | 'blended_freqs' };

export type Query =
  | { type: 'match_all'; boost: number }
  | { type: 'match_none' }
  | { type: 'term'; field: string; value: Scalar; boost: number; caseInsensitive: boolean }
  | { type: 'terms'; field: string; values: Scalar[]; boost: number }
  | { type: 'ids'; values: string[]; boost: number }
  | { type: 'exists'; field: string; boost: number }
  /** k nearest neighbours of a vector, exact (knn.ts): Elasticsearch's knn option and query, OpenSearch's knn query. */
  | {
      type: 'knn'; dialect: 'es' | 'opensearch'; field: string; vector: number[]; k?: number; numCandidates?: number; filter: Query[]; similarity?: number; minScore?: number; maxDistance?: number; ignoreUnmapped?: boolean; boost: number;
      /** OpenSearch's `expand_nested_docs`: in a nested query, every matching object of the k nearest documents, not only the nearest. */
      expandNested?: boolean;
      /** Set on a search's `knn` option, whose k is over every searched index (the query's is per index). */
      option?: boolean;
      /** The option's global k nearest, by index name: its documents are only these (search/knn-option.ts). */
      nearest?: ReadonlyMap<string, ReadonlySet<number>>;
    }
  | { type: 'bool'; must: Query[]; filter: Query[]; should: Query[]; mustNot: Query[]; minimumShouldMatch?: string | number; boost: number }
  | { type: 'match'; field: string; query: Scalar; options: FullTextOptions; boost: number }
  | { type: 'match_phrase'; field: string; query: string; slop: number; analyzer?: string; zeroTermsQuery: 'none' | 'all'; boost: number }
  | { type: 'match_phrase_prefix'; field: string; query: string; slop: number; maxExpansions: number; analyzer?: string; zeroTermsQuery: 'none' | 'all'; boost: number }
  | { type: 'match_bool_prefix'; field: string; query: string; options: FullTextOptions; boost: number }
  | {
      type: 'multi_match'; fields: string[]; query: Scalar; matchType: MultiMatchType; tieBreaker?: number; slop: number;
      options: FullTextOptions; boost: number;
    }
  | { type: 'prefix'; field: string; value: string; caseInsensitive: boolean; boost: number; rewrite?: MultiTermRewrite }
  | { type: 'wildcard'; field: string; value: string; caseInsensitive: boolean; boost: number; rewrite?: MultiTermRewrite }
  | { type: 'regexp'; field: string; value: string; caseInsensitive: boolean; flags: string; boost: number; rewrite?: MultiTermRewrite }
  | { type: 'fuzzy'; field: string; value: string; fuzziness: Fuzziness; prefixLength: number; maxExpansions: number; transpositions: boolean; boost: number; rewrite?: MultiTermRewrite }
  | {
      type: 'range'; field: string; gt?: Scalar; gte?: Scalar; lt?: Scalar; lte?: Scalar; format?: string; timeZone?: string;
      /** How a range field's interval relates to the query's (ignored on other fields); intersects when not given. */
      relation?: 'intersects' | 'contains' | 'within'; boost: number;
    }
  | { type: 'constant_score'; filter: Query; boost: number }
  | { type: 'dis_max'; queries: Query[]; tieBreaker: number; boost: number }
  | { type: 'boosting'; positive: Query; negative: Query; negativeBoost: number; boost: number }
  | {
      type: 'function_score'; query: Query; functions: ScoreFunction[]; scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
      boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min'; maxBoost: number; minScore?: number; boost: number;
    }
  | {
      type: 'nested'; path: string; query: Query; scoreMode: 'avg' | 'sum' | 'min' | 'max' | 'none'; ignoreUnmapped: boolean; boost: number;
      /** `inner_hits` as written (read by the search, search/nested-inner-hits.ts). */
      innerHits?: Record<string, unknown>;
    }
  /**
   * The stored queries (a `percolator` field) that match one of these documents (percolate-query.ts);
   * `name` tells its hits' slot field from another percolate query's.
   */
  | { type: 'percolate'; field: string; documents: Array<Record<string, unknown>>; name?: string; boost: number }
  /** The children of one parent (parent-join-queries.ts): rewritten into term filters on the join field. */
  | { type: 'parent_id'; childType: string; id: string; ignoreUnmapped: boolean; boost: number }
  | {
      type: 'has_child'; childType: string; query: Query; scoreMode: 'none' | 'avg' | 'sum' | 'min' | 'max'; minChildren: number; maxChildren: number;
      ignoreUnmapped: boolean; boost: number; innerHits?: Record<string, unknown>;
      /** Set by the rewrite: the join field and the child type's parent relation (`query` then filters on the child type). */
      join?: { field: string; parent: string };
    }
  | {
      type: 'has_parent'; parentType: string; query: Query; score: boolean; ignoreUnmapped: boolean; boost: number; innerHits?: Record<string, unknown>;
      /** Set by the rewrite: the join field and the parent type's child relations (`query` then filters on the parent type). */
      join?: { field: string; children: string[] };
    }
  | { type: 'geo_distance'; field: string; center: GeoPoint; distanceMeters: number; ignoreUnmapped: boolean; boost: number }
  | { type: 'geo_bounding_box'; field: string; top: number; left: number; bottom: number; right: number; ignoreUnmapped: boolean; boost: number }
  /** A geo_point field's points related to a shape (geo_shape; geo_polygon is its polygon with `intersects`; OpenSearch's xy_shape the same over xy_point and xy_shape fields). */
  | { type: 'geo_shape'; field: string; shape: GeoShape; relation: GeoRelation; ignoreUnmapped: boolean; query: 'geo_shape' | 'geo_polygon' | 'xy_shape'; boost: number }
  /** A span query (span-queries.ts), lowered to an interval source against the mappings; `field` is the one it reports. */
  | { type: 'span'; field: string; span: SpanQuery; boost: number }
  /** Ordered/unordered proximity rules over a text field's positions (intervals.ts). */
  | { type: 'intervals'; field: string; rule: IntervalsRule; boost: number }
  /** Documents with at least their required number of the terms (terms-set.ts); no minimum given matches nothing it can check. */
  | { type: 'terms_set'; field: string; terms: Scalar[]; minimum?: TermsSetMinimum; boost: number }
  /** Scores `boost · pivot / (pivot + distance)` from a date or geo_point origin (feature-queries.ts). */
  | { type: 'distance_feature'; field: string; origin: unknown; pivot: unknown; boost: number }
  /** Scores a rank_feature field's value (or a feature of a rank_features field) through a function. */
  | { type: 'rank_feature'; field: string; fn: RankFeatureFunction; boost: number }
  /** BM25F over several text fields sharing an analyzer (combined-fields.ts). */
  | { type: 'combined_fields'; fields: Array<{ pattern: string; weight: number }>; query: string; options: CombinedFieldsOptions; boost: number }
  /** Documents like the given texts and documents (more-like-this.ts); lowered by the executor, which knows term statistics. */
  | { type: 'more_like_this'; mlt: MoreLikeThis; boost: number }
  /** Promotes `documents`, in their order, above every hit of `organic` (pinned-query.ts). */
  | { type: 'pinned'; organic: Query; documents: PinnedDocument[]; boost: number }
  /**
   * Applies query rulesets to `organic` (rule-query.ts): resolved, before the search runs, into the
   * pinned and excluded documents of the rules `matchCriteria` meets.
   */
  | { type: 'rule'; rulesetIds: string[]; matchCriteria: Record<string, unknown>; organic: Query; boost: number }
  /** The documents a filter script accepts (`doc`, `params`), scored `boost`. */
  | { type: 'script'; script: ScriptSpec; boost: number }
  /** `query`'s documents scored by a score script (`_score`, `doc`, `params`); below `minScore` they are left out. */
  | { type: 'script_score'; query: Query; script: ScriptSpec; minScore?: number; boost: number }
  | LoweredQuery;

/** A document a `pinned` query promotes: by id on every index searched, or only on the indices `index` names. */
export interface PinnedDocument {
  id: string;
  index?: string;
}

/**
 * What full-text and multi-term queries are rewritten to against a mapping (rewrite-query.ts),
 * so that the executor and the document matcher run the same primitive clauses.
 */
export type LoweredQuery =
  /** An already-analyzed term: BM25-scored on text and keyword fields, constant on others. */
  | { type: 'indexed_term'; field: string; term: string; boost: number; constant: boolean }
  /** Terms of the field's dictionary that pass a test: constant score, or fuzzy (per-term boost, BM25). */
  | { type: 'term_pattern'; field: string; pattern: TermPattern; scoring: 'constant' | 'fuzzy'; maxExpansions: number; boost: number; rewrite?: MultiTermRewrite }
  /**
   * Analyzed phrase: each path is a way through the analyzed text (one, unless the text was a token
   * graph), with alternatives per position and offsets; a document matches when one path lines up
   * within `slop`. With `prefixExpansions`, the last position's terms of each path are prefixes.
   */
  | { type: 'phrase'; field: string; paths: PhrasePath[]; slop: number; prefixExpansions?: number; boost: number }
  /** `query`'s scores, none above `cap`, times `boost` (Lucene's CappedScoreQuery in a BoostQuery). */
  | { type: 'capped_score'; query: Query; cap: number; boost: number }
  /** An intervals query resolved against the field's analysis (intervals.ts). */
  | {
      type: 'interval_source'; field: string; source: IntervalSource; boost: number;
      /** `span`: scored as Lucene's span queries (BM25 over the sloppy frequency, idf summed over the terms); else the intervals scorer. */
      scoring?: 'span';
    }
  /** One position of a combined_fields query: its terms scored over the fields as one (BM25F). */
  | { type: 'combined_term'; fields: Array<{ field: string; weight: number }>; terms: string[]; boost: number };

/** One way through an analyzed phrase: the terms that may stand at each position, and the positions' offsets from the first. */
export interface PhrasePath {
  terms: string[][];
  offsets: number[];
}

/**
 * How many should clauses must match (ES's minimum_should_match, integers, percentages and
 * combinations). Without must or filter clauses at least one must, whatever the spec says: ES sets
 * no minimum when the spec comes to 0 or less, and a Lucene BooleanQuery without required clauses
 * is a disjunction of its should clauses.
 */
export function requiredShouldMatches(spec: string | number | undefined, shouldCount: number, hasMustOrFilter: boolean): number {
  if (shouldCount === 0) return 0;
  const floor = hasMustOrFilter ? 0 : 1;
  if (spec === undefined) return floor;
  return Math.max(floor, Math.min(minimumShouldMatchOf(spec, shouldCount), shouldCount));
}

/** ES's Queries.calculateMinShouldMatch: `3`, `-2`, `75%`, `-25%`, `3<90%`, `2<-25% 9<-3`. */
export function minimumShouldMatchOf(spec: string | number, optionalCount: number): number {
  const s = String(spec).trim();
  if (s.includes('<')) {
    let result = optionalCount;
    for (const part of s.split(/\s+/)) {
      const [upper, value] = part.split('<');
      if (optionalCount <= Number(upper)) break;
      result = minimumShouldMatchOf(value, optionalCount);
    }
    return result;
  }
  let n: number;
  if (s.endsWith('%')) {
    const pct = Number(s.slice(0, -1));
    n = Math.trunc((optionalCount * pct) / 100);
    if (pct < 0) n = optionalCount + n;
  } else {
    const v = Number(s);
    n = v < 0 ? optionalCount + v : v;
  }
  return n < 0 ? 0 : n;
}

/** For the `default:` of a switch over query types: the compiler names the type a pass forgot. */
export function assertNever(q: never): never {
  throw new Error(`query type not handled: ${(q as { type?: string }).type}`);
}
