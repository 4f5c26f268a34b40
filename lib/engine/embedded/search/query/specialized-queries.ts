/**
 * Elasticsearch's "specialized queries": distance_feature and rank_feature (a score from one value
 * of the document, feature-queries.ts), more_like_this (more-like-this.ts), script and
 * script_score (painless over doc values), pinned (pinned-query.ts) and rule (rule-query.ts). Each
 * one object with every pass over the query tree (query-type.ts); code moved from each pass as it was.
 */
import { parseScriptSpec } from '../../painless/index.js';
import {
  distanceFeatureMatches, evaluate, moreLikeThisMatches, rankFeatureMatches, scriptMatches,
} from './document-matcher.js';
import { distanceFeatureQuery, moreLikeThisQuery, rankFeatureQuery, runQuery, scriptQuery, scriptScoreQuery } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { clauseless } from './clauseless.js';
import { refusedAlways } from './expensive-queries.js';
import { parseDistanceFeatureQuery, parseRankFeatureQuery } from './feature-queries.js';
import { matchScope, unlessIndex, widestScope } from './matcher-decides.js';
import { parseMoreLikeThis } from './more-like-this.js';
import { checkKeys, isObject, num, parseQuery, parsingError } from './parse-query.js';
import { lowerPinnedQuery, parsePinnedQuery } from './pinned-query.js';
import type { Query } from './query.js';
import { boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import type { QueryOf, QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';
import { parseRuleQuery } from './rule-query.js';

/** What a type without clauses answers the same: nothing to rewrite, no terms to highlight, explained by its score and printed by its name. */
const leaf = <T extends 'distance_feature' | 'rank_feature' | 'more_like_this' | 'script'>(name: T) => ({
  name,
  ...clauseless<T>(),
  explain: explainByScore,
  print: () => name,
});

/** Runs (and matches) as what it is rewritten to: never reached from a search, which runs the rewritten tree. */
function* asRewritten(q: Query, x: Parameters<typeof runQuery>[1], scoring: boolean) {
  return yield* runQuery(rewriteQuery(q, x), x, scoring);
}

export const distanceFeature: QueryType<'distance_feature'> = {
  ...leaf('distance_feature'),
  parse: (body, name) => ({ type: 'distance_feature', ...parseDistanceFeatureQuery(body, (v) => boostOf(name, v)) }),
  *execute(q, x, scoring) {
    return yield* distanceFeatureQuery(q, x, scoring);
  },
  matches: distanceFeatureMatches,
  scope: () => 'document',
};

export const rankFeature: QueryType<'rank_feature'> = {
  ...leaf('rank_feature'),
  parse: (body, name) => ({ type: 'rank_feature', ...parseRankFeatureQuery(body, (v) => boostOf(name, v)) }),
  *execute(q, x, scoring) {
    return yield* rankFeatureQuery(q, x, scoring);
  },
  matches: rankFeatureMatches,
  scope: () => 'document',
};

export const moreLikeThis: QueryType<'more_like_this'> = {
  ...leaf('more_like_this'),
  parse: (body) => ({ type: 'more_like_this', ...parseMoreLikeThis(body) }),
  // lowered here, where term statistics are known
  *execute(q, x, scoring) {
    return yield* moreLikeThisQuery(q, x, scoring);
  },
  matches: moreLikeThisMatches,
  // the terms kept are chosen by document frequency
  scope: () => 'index',
};

export const scriptQueryType: QueryType<'script'> = {
  ...leaf('script'),
  expensive: () => refusedAlways('script'),
  parse(body, name) {
    if (!isObject(body)) throw parsingError('[script] query malformed, no start_object after query name');
    checkKeys(name, body, ['script', 'boost', '_name']);
    if (body.script === undefined) throw parsingError('script must be provided with a [script] query');
    return { type: 'script', script: parseScriptSpec(body.script), boost: boostOf(name, body.boost) };
  },
  *execute(q, x, scoring) {
    return yield* scriptQuery(q, x, scoring);
  },
  matches: scriptMatches,
  scope: () => 'document',
};

export const scriptScore: QueryType<'script_score'> = {
  name: 'script_score',
  expensive: () => refusedAlways('script score'),
  parse(body, name) {
    if (!isObject(body)) throw parsingError('[script_score] query malformed, no start_object after query name');
    checkKeys(name, body, ['query', 'script', 'min_score', 'boost', '_name']);
    if (body.query === undefined) throw parsingError("[script_score] requires 'query' field");
    if (body.script === undefined) throw parsingError("[script_score] requires 'script' field");
    return {
      type: 'script_score', query: parseQuery(body.query), script: parseScriptSpec(body.script),
      minScore: body.min_score === undefined || body.min_score === null ? undefined : num(name, 'min_score', body.min_score, 0),
      boost: boostOf(name, body.boost),
    };
  },
  children: (q) => [q.query],
  withChildren: (q, f) => ({ ...q, query: f(q.query) }),
  rewrite: (q, ctx) => ({ ...q, query: rewriteQuery(q.query, ctx) }),
  *execute(q, x, scoring) {
    return yield* scriptScoreQuery(q, x, scoring);
  },
  // Like function_score's min_score: the score depends on index statistics; the matcher checks the query.
  matches: (q, e) => evaluate(q.query, e),
  explain: explainByScore,
  print: () => 'script_score',
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: (q) => widestScope([matchScope(q.query), unlessIndex(q.minScore === undefined)]),
};

export const pinned: QueryType<'pinned'> = {
  name: 'pinned',
  parse: (body) => parsePinnedQuery(body, parseQuery),
  children: (q) => [q.organic],
  withChildren: (q, f) => ({ ...q, organic: f(q.organic) }),
  rewrite: (q, ctx) => rewriteQuery(lowerPinnedQuery(q, ctx.indexName), ctx),
  execute: asRewritten,
  matches: (q, e) => evaluate(rewriteQuery(q, e), e),
  explain: explainByScore,
  print: () => 'pinned',
  highlightTerms: (q, ctx) => collectHighlightTerms(q.organic, ctx),
  scope: (q) => matchScope(q.organic),
};

export const rule: QueryType<'rule'> = {
  name: 'rule',
  parsedFrom: ['rule', 'rule_query'],
  parse: (body, name) => parseRuleQuery(name, body, parseQuery),
  children: (q) => [q.organic],
  withChildren: (q, f) => ({ ...q, organic: f(q.organic) }),
  // Not resolved against its rulesets (a filter aggregation's, a live stream's): its organic
  // query, as Elasticsearch runs a rule query it did not rewrite.
  rewrite: (q, ctx) => rewriteQuery(q.organic, ctx),
  execute: asRewritten,
  matches: (q, e) => evaluate(rewriteQuery(q, e), e),
  explain: explainByScore,
  print: () => 'rule',
  highlightTerms: (q, ctx) => collectHighlightTerms(q.organic, ctx),
  // stored rulesets pin and exclude: a write to this index changes no other document's verdict through them
  scope: (q) => widestScope(['engine', matchScope(q.organic)]),
};
