/**
 * The compound query types (Elasticsearch's "compound queries"): bool (required, optional and
 * excluded clauses, scores summed), boosting (the positive query's documents, those the negative
 * one matches demoted), constant_score (its filter's documents, one score), dis_max (any clause's
 * documents, the best clause's score plus a tie-breaker share of the others') and function_score
 * (its query's documents rescored by functions). Each one object with every pass over the query
 * tree (query-type.ts); the passes recurse through their own entry points.
 */
import { boolMatches, evaluate, functionScoreMatches } from './document-matcher.js';
import { boolQuery, boostingQuery, disMax, functionScore, runQuery } from './execute-query.js';
import { boosted, describe, explainBool, explainByScore, explainDisMax, node, scoreOf } from './explain-query.js';
import { luceneClause } from './lucene-string.js';
import { constantScoreDecides, matchScope, unlessIndex, widestScope, widestScopeOf } from './matcher-decides.js';
import { BOOL_KEYS, checkKeys, clauses, enumOf, isObject, num, parseFunction, parseQuery, parsingError } from './parse-query.js';
import type { Query, ScoreFunction } from './query.js';
import { boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import { parseHybrid } from './hybrid-query.js';
import type { QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';

export const boolQueryType: QueryType<'bool'> = {
  name: 'bool',
  parse(body, name) {
    if (!isObject(body)) throw parsingError('[bool] query malformed, no start_object after query name');
    for (const k of Object.keys(body)) if (!BOOL_KEYS.has(k)) throw parsingError(`[bool] query does not support [${k}]`);
    const msm = body.minimum_should_match;
    if (msm !== undefined && typeof msm !== 'number' && typeof msm !== 'string') throw parsingError('[bool] query does not support [minimum_should_match]');
    return {
      type: 'bool',
      must: clauses(body.must).map(parseQuery),
      filter: clauses(body.filter).map(parseQuery),
      should: clauses(body.should).map(parseQuery),
      mustNot: clauses(body.must_not).map(parseQuery),
      minimumShouldMatch: msm as string | number | undefined,
      boost: boostOf(name, body.boost),
    };
  },
  children: (q) => [...q.must, ...q.filter, ...q.should, ...q.mustNot],
  withChildren: (q, f) => ({ ...q, must: q.must.map(f), filter: q.filter.map(f), should: q.should.map(f), mustNot: q.mustNot.map(f) }),
  rewrite: (q, ctx) => boolQueryType.withChildren(q, (c) => rewriteQuery(c, ctx)),
  *execute(q, x, scoring) {
    return yield* boolQuery(q, x, scoring);
  },
  matches: boolMatches,
  explain: explainBool,
  print(q, p) {
    const { lucene } = p;
    // `_validate/query` parenthesises a bool clause and prints minimum_should_match; explanations parenthesise the whole
    const clause = lucene ? (c: Query) => luceneClause(c, lucene) : p.child;
    const parts = [
      ...q.must.map((c) => `+${clause(c)}`),
      ...q.filter.map((c) => `#${clause(c)}`),
      ...q.should.map((c) => clause(c)),
      ...q.mustNot.map((c) => `-${clause(c)}`),
    ];
    if (!lucene) return `(${parts.join(' ')})`;
    const msm = q.minimumShouldMatch;
    return msm !== undefined && Number(msm) > 0 ? `(${parts.join(' ')})~${msm}` : parts.join(' ');
  },
  highlightTerms: (q, ctx) => [...q.must, ...q.should, ...q.filter].forEach((c) => collectHighlightTerms(c, ctx)),
  scope: (q) => widestScopeOf([...q.must, ...q.filter, ...q.should, ...q.mustNot]),
  scoredChildren: (q, scoring) => [
    ...q.must.map((c): [Query, boolean] => [c, scoring]), ...q.mustNot.map((c): [Query, boolean] => [c, false]),
    ...q.should.map((c): [Query, boolean] => [c, scoring]), ...q.filter.map((c): [Query, boolean] => [c, false]),
  ],
};

export const boostingQueryType: QueryType<'boosting'> = {
  name: 'boosting',
  parse(body, name) {
    if (!isObject(body)) throw parsingError('[boosting] query malformed');
    if (body.positive === undefined) throw parsingError('[boosting] query requires \'positive\' query to be set\'');
    if (body.negative === undefined) throw parsingError('[boosting] query requires \'negative\' query to be set\'');
    if (body.negative_boost === undefined) throw parsingError('[boosting] query requires \'negative_boost\' to be set to be a positive value\'');
    return {
      type: 'boosting', positive: parseQuery(body.positive), negative: parseQuery(body.negative),
      negativeBoost: num(name, 'negative_boost', body.negative_boost, 0), boost: boostOf(name, body.boost),
    };
  },
  children: (q) => [q.positive, q.negative],
  withChildren: (q, f) => ({ ...q, positive: f(q.positive), negative: f(q.negative) }),
  rewrite: (q, ctx) => boostingQueryType.withChildren(q, (c) => rewriteQuery(c, ctx)),
  *execute(q, x, scoring) {
    return yield* boostingQuery(q, x, scoring);
  },
  matches: (q, doc) => evaluate(q.positive, doc),
  explain: explainByScore,
  print: () => 'boosting',
  highlightTerms: (q, ctx) => collectHighlightTerms(q.positive, ctx),
  scope: (q) => widestScopeOf([q.positive, q.negative]),
  scoredChildren: (q, scoring) => [[q.positive, scoring], [q.negative, false]],
};

export const functionScoreQuery: QueryType<'function_score'> = {
  name: 'function_score',
  parse(body, name) {
    if (!isObject(body)) throw parsingError('[function_score] malformed query');
    const functions: ScoreFunction[] = [];
    const single: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if (['query', 'functions', 'score_mode', 'boost_mode', 'max_boost', 'min_score', 'boost', '_name'].includes(k)) continue;
      single[k] = v;
    }
    if (Object.keys(single).length) functions.push(parseFunction(single));
    if (Array.isArray(body.functions)) for (const f of body.functions) functions.push(parseFunction(f as Record<string, unknown>));
    return {
      type: 'function_score', query: body.query === undefined ? { type: 'match_all', boost: 1 } : parseQuery(body.query), functions,
      scoreMode: enumOf(name, 'score_mode', body.score_mode, ['multiply', 'sum', 'avg', 'first', 'max', 'min'] as const, 'multiply'),
      boostMode: enumOf(name, 'boost_mode', body.boost_mode, ['multiply', 'replace', 'sum', 'avg', 'max', 'min'] as const, 'multiply'),
      maxBoost: num(name, 'max_boost', body.max_boost, Number.MAX_VALUE),
      minScore: body.min_score === undefined ? undefined : num(name, 'min_score', body.min_score, 0),
      boost: boostOf(name, body.boost),
    };
  },
  // the functions' filters only select what a function applies to: they count for no clause limit
  children: (q) => [q.query],
  withChildren: (q, f) => ({ ...q, query: f(q.query), functions: q.functions.map((fn) => (fn.filter ? { ...fn, filter: f(fn.filter) } : fn)) }),
  rewrite: (q, ctx) => functionScoreQuery.withChildren(q, (c) => rewriteQuery(c, ctx)),
  *execute(q, x, scoring) {
    return yield* functionScore(q, x, scoring);
  },
  matches: functionScoreMatches,
  explain: explainByScore,
  print: () => 'function score, product of:',
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: (q) => widestScope([
    matchScope(q.query), widestScopeOf(q.functions.flatMap((f) => (f.filter ? [f.filter] : []))),
    unlessIndex(q.minScore === undefined || constantScoreDecides(q)),
  ]),
};

export const constantScore: QueryType<'constant_score'> = {
  name: 'constant_score',
  parse(body) {
    if (!isObject(body) || body.filter === undefined) throw parsingError('[constant_score] requires a \'filter\' element');
    checkKeys('constant_score', body, ['filter', 'boost', '_name']);
    return { type: 'constant_score', filter: parseQuery(body.filter), boost: boostOf('constant_score', body.boost) };
  },
  children: (q) => [q.filter],
  withChildren: (q, f) => ({ ...q, filter: f(q.filter) }),
  rewrite: (q, ctx) => ({ ...q, filter: rewriteQuery(q.filter, ctx) }),
  *execute(q, x, scoring) {
    return (yield* runQuery(q.filter, x, false)).withScore(scoring ? q.boost : 0);
  },
  matches: (q, doc) => evaluate(q.filter, doc),
  explain(q, ord, c, scoring) {
    if (scoreOf(q.filter, ord, c, false) === undefined) return undefined;
    return node(scoring ? q.boost : 0, boosted(`ConstantScore(${describe(q.filter)})`, q.boost));
  },
  print: (q, p) => `ConstantScore(${p.child(q.filter)})`,
  highlightTerms: (q, ctx) => collectHighlightTerms(q.filter, ctx),
  scope: (q) => matchScope(q.filter),
  scoredChildren: (q) => [[q.filter, false]],
};

export const disMaxQuery: QueryType<'dis_max'> = {
  name: 'dis_max',
  // OpenSearch's hybrid query runs as a dis_max of its sub-queries (hybrid-query.ts)
  parsedFrom: ['dis_max', 'hybrid'],
  parse(body, name) {
    if (name === 'hybrid') return parseHybrid(body);
    if (!isObject(body)) throw parsingError('[dis_max] query malformed');
    checkKeys('dis_max', body, ['queries', 'tie_breaker', 'boost', '_name']);
    if (!Array.isArray(body.queries)) throw parsingError('[dis_max] requires \'queries\' field with at least one clause');
    return { type: 'dis_max', queries: body.queries.map(parseQuery), tieBreaker: num('dis_max', 'tie_breaker', body.tie_breaker, 0), boost: boostOf('dis_max', body.boost) };
  },
  children: (q) => q.queries,
  withChildren: (q, f) => ({ ...q, queries: q.queries.map(f) }),
  rewrite: (q, ctx) => ({ ...q, queries: q.queries.map((c) => rewriteQuery(c, ctx)) }),
  *execute(q, x, scoring) {
    return yield* disMax(q, x, scoring);
  },
  matches: (q, doc) => q.queries.some((c) => evaluate(c, doc)),
  explain: (q, ord, c, scoring) => explainDisMax(q, ord, c, scoring),
  print: (q, p) => `(${q.queries.map((c) => p.child(c)).join(' | ')})${q.tieBreaker ? `~${p.float(q.tieBreaker)}` : ''}`,
  highlightTerms: (q, ctx) => q.queries.forEach((c) => collectHighlightTerms(c, ctx)),
  scope: (q) => widestScope(q.queries.map(matchScope)),
};
