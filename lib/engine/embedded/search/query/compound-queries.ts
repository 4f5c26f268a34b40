/**
 * The compound query types that combine their clauses' matches without changing them:
 * constant_score (its filter's documents, one score) and dis_max (any clause's documents, the best
 * clause's score plus a tie-breaker share of the others'). Each one object with every pass over
 * the query tree (query-type.ts); the passes recurse through their own entry points.
 */
import { evaluate } from './document-matcher.js';
import { disMax, runQuery } from './execute-query.js';
import { boosted, describe, explainDisMax, node, scoreOf } from './explain-query.js';
import { matchScope, widestScope } from './matcher-decides.js';
import { checkKeys, isObject, num, parseQuery, parsingError } from './parse-query.js';
import { boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import type { QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';

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
};

export const disMaxQuery: QueryType<'dis_max'> = {
  name: 'dis_max',
  parse(body) {
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
