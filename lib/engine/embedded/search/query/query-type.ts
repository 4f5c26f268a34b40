import type { Mappings } from '../../mapping/index.js';
import type { Work } from '../work-budget.js';
import { exists, ids, matchAll, matchNone } from './basic-queries.js';
import { boolQueryType, boostingQueryType, constantScore, disMaxQuery, functionScoreQuery } from './compound-queries.js';
import { combinedFieldsQuery, intervalsQuery, matchBoolPrefixQuery, matchPhrasePrefixQuery, matchPhraseQuery, matchQuery, multiMatchQuery } from './full-text-queries.js';
import { geoBoundingBox, geoDistance, geoShape } from './geo-queries.js';
import { knnQueryType } from './knn.js';
import { nestedQueryType } from './joining-queries.js';
import { hasChildQuery, hasParentQuery, parentIdQuery } from './parent-join-queries.js';
import { percolateQuery } from './percolate-query.js';
import { cappedScoreQuery, combinedTermQuery, indexedTermQuery, intervalSourceQuery, phraseQuery, termPatternQuery } from './lowered-queries.js';
import { distanceFeature, moreLikeThis, pinned, rankFeature, rule, scriptQueryType, scriptScore } from './specialized-queries.js';
import { spanQuery } from './span-query.js';
import { fuzzyQuery, prefixQuery, rangeQueryType, regexpQuery, termQuery, termsQuery, termsSetQuery, wildcardQuery } from './term-level-queries.js';
import type { ScoredDocs } from './doc-set.js';
import type { Evaluated } from './document-matcher.js';
import type { Exec } from './execute-query.js';
import type { ExplainContext, Explanation } from './explain-query.js';
import type { MatchScope } from './matcher-decides.js';
import type { Query } from './query.js';
import type { HighlightContext } from './query-terms-for-highlight.js';
import type { RewriteContext } from './rewrite-query.js';

/** The query nodes of one type. */
export type QueryOf<T extends Query['type']> = Extract<Query, { type: T }>;

/**
 * One query type with every pass over the query tree that concerns it, in one object (Lucene's
 * Query with its Weight, Scorer, explain and toString; as aggregation types and ingest processors
 * are registered in this engine): the types of the DSL and the clauses the rewrite lowers them to.
 * A pass looks a node's type up here (`queryTypeOf`); the registry is typed over every `Query`
 * type, so the compiler names a type that is missing, or a pass a type does not answer.
 *
 * Passes not here: the live searches' requirement (streams/search-index/requirement.ts, another
 * layer, a switch ending in `assertNever`) and the metadata-field rewrites that apply to every field
 * query before its type's own rewrite (rewrite-query.ts).
 */
export interface QueryType<T extends Query['type']> {
  readonly name: T;
  /** The DSL names it is parsed from (geo_shape and geo_polygon; span_term, span_near…); its own name when absent. */
  readonly parsedFrom?: readonly string[];
  /** The DSL body under the query's name (`name`, or one of its aliases) → the node; throws Elasticsearch's 400s (parse-query). */
  parse(body: unknown, name: string): QueryOf<T>;
  /** The queries directly inside it (query limits, rule resolution). */
  children(q: QueryOf<T>): Query[];
  /** The node with `f` applied to each of its children (rule resolution); the node itself without children. */
  withChildren(q: QueryOf<T>, f: (child: Query) => Query): QueryOf<T>;
  /** Lowered against one index's mappings, for the executor and the matcher alike (rewrite-query). */
  rewrite(q: QueryOf<T>, ctx: RewriteContext): Query;
  /** Its documents in one index, ascending, scored (BM25, similarity.ts) or not (filter context) (execute-query). */
  execute(q: QueryOf<T>, x: Exec, scoring: boolean): Work<ScoredDocs>;
  /** Whether one document, from its source alone, matches it (document-matcher: live search streams). */
  matches(q: QueryOf<T>, doc: Evaluated): boolean;
  /** Why one document got its score; undefined when it does not match (explain-query). */
  explain(q: QueryOf<T>, ord: number, c: ExplainContext, scoring: boolean): Explanation | undefined;
  /**
   * Lucene's Query.toString without the boost (explanations, `_validate/query?explain`), its
   * clauses printed by `p.child` and its numbers by `p.float` (each printer's own).
   */
  print(q: QueryOf<T>, p: Printer): string;
  /** Adds the terms it contributes to highlighting `ctx.field` (query-terms-for-highlight). */
  highlightTerms(q: QueryOf<T>, ctx: HighlightContext): void;
  /** Who can decide whether a changed document matches it in a live search (matcher-decides). */
  scope(q: QueryOf<T>): MatchScope;
  /**
   * The clauses a leaf counts for against `indices.query.bool.max_clause_count` (query-limits),
   * counted no further than `left`; one when absent.
   */
  clauses?(q: QueryOf<T>, left: number): number;
  /**
   * The queries its Lucene query holds, each with whether it is scored, in Lucene's order
   * (query-profile); `children`, scored as the node is, when absent.
   */
  scoredChildren?(q: QueryOf<T>, scoring: boolean): Array<[Query, boolean]>;
  /**
   * Whether it matches every document of the index named `name` when it queries the `_index`
   * metadata field (Elasticsearch rewrites such a query per shard into match_all or match_none;
   * an unknown name: none); absent, the field is queried as any other (rewrite-query).
   */
  matchesIndexName?(q: QueryOf<T>, name: string | undefined): boolean;
  /**
   * Why `search.allow_expensive_queries: false` refuses it on indices with these mappings, or
   * undefined when it is not expensive there; absent, it never is (expensive-queries).
   */
  expensive?(q: QueryOf<T>, mappings: Mappings[]): string | undefined;
}

/** How one printer (explanations, or `_validate/query`'s Lucene strings) prints a node's clauses and numbers. */
export interface Printer {
  child(c: Query): string;
  float(n: number): string;
  /** Set for `_validate/query`'s printer, which prints some queries as they read against the mappings (a term on a number as a range). */
  lucene?: RewriteContext;
}

type Registry = { [T in Query['type']]: QueryType<T> };
let built: Registry | undefined;

/**
 * Every type by name. Built on first use: the types import the passes that look them up here, so
 * it must not be read while modules are still being evaluated.
 */
function registry(): Registry {
  built ??= {
    match_all: matchAll, match_none: matchNone, ids, exists,
    bool: boolQueryType, boosting: boostingQueryType, constant_score: constantScore, dis_max: disMaxQuery, function_score: functionScoreQuery,
    geo_distance: geoDistance, geo_bounding_box: geoBoundingBox, geo_shape: geoShape,
    term: termQuery, terms: termsQuery, range: rangeQueryType, prefix: prefixQuery, wildcard: wildcardQuery, regexp: regexpQuery, fuzzy: fuzzyQuery,
    match: matchQuery, match_phrase: matchPhraseQuery, match_phrase_prefix: matchPhrasePrefixQuery, match_bool_prefix: matchBoolPrefixQuery,
    multi_match: multiMatchQuery, combined_fields: combinedFieldsQuery, intervals: intervalsQuery, terms_set: termsSetQuery,
    nested: nestedQueryType, parent_id: parentIdQuery, has_child: hasChildQuery, has_parent: hasParentQuery, percolate: percolateQuery, span: spanQuery,
    distance_feature: distanceFeature, rank_feature: rankFeature, more_like_this: moreLikeThis, script: scriptQueryType, script_score: scriptScore,
    pinned, rule, knn: knnQueryType,
    indexed_term: indexedTermQuery, term_pattern: termPatternQuery, phrase: phraseQuery, capped_score: cappedScoreQuery,
    interval_source: intervalSourceQuery, combined_term: combinedTermQuery,
  };
  return built;
}

let dslNames: Map<string, Query['type']> | undefined;

/** The type a DSL query name parses into (parsedFrom), or undefined (parse-query looks the DSL's names up). */
export function queryTypeOfName(name: string): QueryType<Query['type']> | undefined {
  const type = dslNamesOf().get(name);
  return type === undefined ? undefined : queryTypeOf(type);
}

/** Every query name the DSL parses through the registry (what a misspelt one is compared with). */
export function registeredQueryNames(): Iterable<string> {
  return dslNamesOf().keys();
}

function dslNamesOf(): Map<string, Query['type']> {
  if (!dslNames) {
    dslNames = new Map();
    for (const t of Object.values(registry()) as Array<{ name: Query['type']; parsedFrom?: readonly string[] }>) {
      for (const name of t.parsedFrom ?? [t.name]) dslNames.set(name, t.name);
    }
  }
  return dslNames;
}

/** Whether a name is a query type's (an object of the parsed tree with this `type` is a query node). */
export const isQueryType = (name: string): name is Query['type'] => Object.hasOwn(registry(), name);

/** The type of a node, or of a type name. */
export function queryTypeOf(q: Query | Query['type']): QueryType<Query['type']> {
  return registry()[typeof q === 'string' ? q : q.type] as QueryType<Query['type']>;
}
