import { fieldType, NUMERIC_TYPES, resolveFieldMapping } from '../../mapping/index.js';
import { executeQuery, luceneString, queryTypeOf, rewriteQuery, type ExecutionContext, type Query } from '../query/index.js';

/**
 * The query section of a shard's profile (Elasticsearch's QueryProfileShardResult): the rewritten
 * query tree, each node named by the Lucene class Elasticsearch would have built for it, with its
 * description (Lucene's toString), time and breakdown. The profiler runs beside the search, never
 * inside the executor: each node of the rewritten tree is run again on its own, once without and
 * once with scores, so its times are measured, not estimated (`profile` is a debugging tool; it
 * costs about twice the query per level of the tree, as Elasticsearch warns its profiler costs).
 */
export interface QueryProfile {
  type: string;
  description: string;
  time_in_nanos: number;
  breakdown: Record<string, number>;
  children?: QueryProfile[];
}

/** Lucene's timers of a query node (QueryTimingType), each with its `_count`. */
const QUERY_TIMERS = [
  'create_weight', 'build_scorer', 'next_doc', 'advance', 'match', 'score', 'shallow_advance', 'compute_max_score',
  'set_min_competitive_score', 'count_weight',
] as const;

type Timer = (typeof QUERY_TIMERS)[number];

function breakdownOf(times: Partial<Record<Timer, number>>, counts: Partial<Record<Timer, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of QUERY_TIMERS) {
    out[t] = times[t] ?? 0;
    out[`${t}_count`] = counts[t] ?? 0;
  }
  return out;
}

/** The Lucene class a query node stands for once Elasticsearch built it (a boost other than 1 wraps it in a BoostQuery). */
const QUERY_CLASSES: { [T in Query['type']]: string | ((q: Extract<Query, { type: T }>, ctx: ExecutionContext) => string) } = {
  match_all: 'MatchAllDocsQuery',
  match_none: 'MatchNoDocsQuery',
  term: (q, ctx) => (isPointField(q.field, ctx) ? 'IndexOrDocValuesQuery' : 'TermQuery'),
  terms: (q, ctx) => (isPointField(q.field, ctx) ? 'IndexOrDocValuesQuery' : 'TermInSetQuery'),
  ids: 'TermInSetQuery',
  exists: 'FieldExistsQuery',
  bool: 'BooleanQuery',
  match: 'BooleanQuery',
  match_phrase: 'PhraseQuery',
  match_phrase_prefix: 'MultiPhrasePrefixQuery',
  match_bool_prefix: 'BooleanQuery',
  multi_match: 'DisjunctionMaxQuery',
  prefix: 'MultiTermQueryConstantScoreBlendedWrapper',
  wildcard: 'MultiTermQueryConstantScoreBlendedWrapper',
  regexp: 'MultiTermQueryConstantScoreBlendedWrapper',
  fuzzy: 'BooleanQuery',
  range: (q, ctx) => (isPointField(q.field, ctx) ? 'IndexOrDocValuesQuery' : 'TermRangeQuery'),
  constant_score: 'ConstantScoreQuery',
  dis_max: 'DisjunctionMaxQuery',
  boosting: 'FunctionScoreQuery',
  function_score: 'FunctionScoreQuery',
  nested: 'ESToParentBlockJoinQuery',
  parent_id: 'BooleanQuery',
  has_child: 'HasChildQuery',
  percolate: 'PercolateQuery',
  has_parent: 'HasParentQuery',
  geo_distance: 'IndexOrDocValuesQuery',
  geo_bounding_box: 'IndexOrDocValuesQuery',
  geo_shape: 'IndexOrDocValuesQuery',
  span: (q) => SPAN_CLASSES[q.span.kind],
  intervals: 'IntervalQuery',
  terms_set: 'CoveringQuery',
  distance_feature: 'LongDistanceFeatureQuery',
  rank_feature: 'FeatureQuery',
  knn: 'KnnScoreDocQuery',
  combined_fields: 'CombinedFieldQuery',
  more_like_this: 'BooleanQuery',
  pinned: 'BooleanQuery',
  rule: 'BooleanQuery',
  script: 'ScriptQuery',
  script_score: 'ScriptScoreQuery',
  indexed_term: 'TermQuery',
  term_pattern: (q) => (q.scoring === 'fuzzy' ? 'BooleanQuery' : 'MultiTermQueryConstantScoreBlendedWrapper'),
  phrase: (q) => (q.prefixExpansions !== undefined ? 'MultiPhrasePrefixQuery' : q.paths.length > 1 || q.paths[0]?.terms.some((t) => t.length > 1) ? 'MultiPhraseQuery' : 'PhraseQuery'),
  capped_score: 'CappedScoreQuery',
  interval_source: (q) => (q.scoring === 'span' ? 'SpanNearQuery' : 'IntervalQuery'),
  combined_term: 'CombinedFieldQuery',
};

const SPAN_CLASSES: Record<Extract<Query, { type: 'span' }>['span']['kind'], string> = {
  span_term: 'SpanTermQuery', span_near: 'SpanNearQuery', span_or: 'SpanOrQuery', span_not: 'SpanNotQuery', span_first: 'SpanFirstQuery',
  span_multi: 'SpanMultiTermQueryWrapper', span_containing: 'SpanContainingQuery', span_within: 'SpanWithinQuery',
  field_masking_span: 'FieldMaskingSpanQuery', span_gap: 'SpanNearQuery',
};

/** Numeric, date and ip fields are points with doc values: Elasticsearch's term and range queries on them are IndexOrDocValuesQuery. */
function isPointField(field: string, ctx: ExecutionContext): boolean {
  const m = resolveFieldMapping(ctx.mappings, field);
  if (!m) return false;
  const type = fieldType(m);
  return NUMERIC_TYPES.has(type) || type === 'date' || type === 'date_nanos' || type === 'ip';
}

export function queryClassOf(q: Query, ctx: ExecutionContext): string {
  const entry = QUERY_CLASSES[q.type] as string | ((q: Query, ctx: ExecutionContext) => string);
  return typeof entry === 'string' ? entry : entry(q, ctx);
}

/** The sub-queries a node's Lucene query holds, with whether each is scored (bool's order: must, must_not, should, filter). */
function childrenOf(q: Query, scoring: boolean): Array<[Query, boolean]> {
  const type = queryTypeOf(q);
  return type.scoredChildren?.(q, scoring) ?? type.children(q).map((c): [Query, boolean] => [c, scoring]);
}

function boostOf(q: Query): number {
  return 'boost' in q && typeof q.boost === 'number' ? q.boost : 1;
}

function describe(q: Query, ctx: ExecutionContext): string {
  const text = luceneString(q, ctx);
  // A node the printer does not know is printed by its name; its field says what it reads.
  return text === q.type && 'field' in q && typeof q.field === 'string' ? `${q.field}:${q.type}` : text;
}

function nanosSince(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0);
}

/** One run of a node alone: how long matching took, and, when scored, how much longer scoring took. */
function measure(q: Query, ctx: ExecutionContext, scoring: boolean): { matches: number; matchNanos: number; scoreNanos: number } {
  let t0 = process.hrtime.bigint();
  let matches = 0;
  try {
    matches = executeQuery(q, ctx, false).length;
  } catch {
    return { matches: 0, matchNanos: nanosSince(t0), scoreNanos: 0 };
  }
  const matchNanos = nanosSince(t0);
  if (!scoring) return { matches, matchNanos, scoreNanos: 0 };
  t0 = process.hrtime.bigint();
  try {
    executeQuery(q, ctx, true);
  } catch {
    return { matches, matchNanos, scoreNanos: 0 };
  }
  return { matches, matchNanos, scoreNanos: Math.max(0, nanosSince(t0) - matchNanos) };
}

function profileNode(q: Query, ctx: ExecutionContext, scoring: boolean): QueryProfile {
  const boost = boostOf(q);
  if (boost !== 1 && q.type !== 'match_none') {
    // Elasticsearch wraps a boosted query in a BoostQuery whose only child is the query itself.
    const inner = profileNode({ ...q, boost: 1 } as Query, ctx, scoring);
    return {
      type: 'BoostQuery', description: describe(q, ctx), time_in_nanos: inner.time_in_nanos,
      breakdown: breakdownOf({ create_weight: 1 }, { create_weight: 1 }), children: [inner],
    };
  }
  const t0 = process.hrtime.bigint();
  rewriteQuery(q, ctx);
  // A weight is created even when rewriting has nothing to do: at least a nanosecond.
  const createWeight = Math.max(1, nanosSince(t0));
  const { matches, matchNanos, scoreNanos } = measure(q, ctx, scoring);
  const times: Partial<Record<Timer, number>> = { create_weight: createWeight, build_scorer: 0, next_doc: matchNanos, score: scoreNanos };
  const counts: Partial<Record<Timer, number>> = { create_weight: 1, build_scorer: 1, next_doc: matches + 1, score: scoring ? matches : 0 };
  const node: QueryProfile = {
    type: queryClassOf(q, ctx), description: describe(q, ctx),
    time_in_nanos: createWeight + matchNanos + scoreNanos, breakdown: breakdownOf(times, counts),
  };
  const children = childrenOf(q, scoring).map(([c, s]) => profileNode(c, ctx, s));
  if (children.length) node.children = children;
  return node;
}

/** The query section of one index's profile, and the time its rewrite took (`rewrite_time`). */
export function profileQuery(q: Query, ctx: ExecutionContext, scoring: boolean): { query: QueryProfile[]; rewriteNanos: number } {
  const t0 = process.hrtime.bigint();
  const rewritten = rewriteQuery(q, ctx);
  const rewriteNanos = nanosSince(t0);
  return { query: [profileNode(rewritten, ctx, scoring)], rewriteNanos };
}
