/**
 * The full-text query types: match, match_phrase, match_phrase_prefix, match_bool_prefix,
 * multi_match, combined_fields and intervals. Each is rewritten against the field's analysis into term,
 * phrase and pattern clauses (rewrite-query.ts, analyzed-query.ts), which the executor and the
 * matcher run; each one object with every pass over the query tree (query-type.ts), code moved
 * from each pass as it was.
 */
import { keepPieces, piecesOf, type ReadableText } from '../../../../cooperative/index.js';
import { lowerCombinedFields, parseCombinedFieldsQuery } from './combined-fields.js';
import { evaluate, type Evaluated } from './document-matcher.js';
import { runQuery, type Exec } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { parseIntervalsQuery } from './intervals.js';
import { intervalsRuleDecides, unlessIndex } from './matcher-decides.js';
import { checkKeys, enumOf, fullTextOptions, illegal, isObject, MATCH_KEYS, MULTI_MATCH_TYPES, num, parseFieldQuery, parsingError, scalar, zeroTerms } from './parse-query.js';
import { boostOf } from './query-fields.js';
import { intervalTexts, wordCount } from './query-limits.js';
import { addAnalyzed, targets, visitIntervals } from './query-terms-for-highlight.js';
import type { Query } from './query.js';
import type { QueryOf, QueryType } from './query-type.js';
import { indexNameMatches } from './term-patterns.js';
import { expandFields, rewriteBoolPrefix, rewriteIntervals, rewriteMatch, rewriteMultiMatch, rewritePhrase, rewriteQuery } from './rewrite-query.js';

type FullText = 'match' | 'match_phrase' | 'match_phrase_prefix' | 'match_bool_prefix' | 'multi_match' | 'combined_fields' | 'intervals';

/**
 * What every full-text type answers the same: no children; run, matched and explained as the
 * clauses it is rewritten to; printed by name in explanations (which read the rewritten tree) and
 * as its rewritten clauses by _validate/query (lucene-string.ts); one clause per word of its text.
 */
/**
 * The query, with its text's pieces kept beside it where the body's parse kept them (a long text):
 * the clause count reads the first words from them, not the whole text copied flat.
 */
function withPieces<Q extends object>(q: Q, pieces: ReadableText | undefined): Q {
  if (pieces !== undefined && 'query' in q && typeof q.query === 'string') keepPieces(q, 'query', q.query, pieces);
  return q;
}

const fullText = <T extends FullText>(name: T) => ({
  name,
  children: () => [],
  withChildren: (q: QueryOf<T>) => q,
  *execute(q: Query, x: Exec, scoring: boolean) {
    // never reached from a search: rewriteQuery lowered it
    return yield* runQuery(rewriteQuery(q, x), x, scoring);
  },
  matches: (q: Query, e: Evaluated) => evaluate(rewriteQuery(q, e), e),
  explain: explainByScore,
  print: () => name,
  // a phrase's every position is a term it must find and keep positions for: bounded as clauses
  // are, so a 20 MB phrase is refused before it is analysed (not after minutes of matching)
  clauses: (q: { query: unknown }, left: number) => Math.max(1, wordCount(q.query, left, piecesOf(q, 'query'))),
});

export const matchQuery: QueryType<'match'> = {
  ...fullText('match'),
  matchesIndexName: (q, name) => indexNameMatches(q.query, name),
  parse(body) {
    const name = 'match';
    const { field, spec, pieces } = parseFieldQuery(name, body, MATCH_KEYS);
    return withPieces({ type: 'match', field, query: scalar(name, spec.query), options: fullTextOptions(name, spec), boost: boostOf(name, spec.boost) }, pieces);
  },
  rewrite: (q, ctx) => rewriteMatch(q.field, q.query, q.options, q.boost, ctx),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) addAnalyzed(ctx, String(q.query), { analyzer: q.options.analyzer, fuzziness: q.options.fuzziness });
  },
  // which terms a limited expansion keeps depends on the index's dictionary
  scope: (q) => unlessIndex(q.options.fuzziness === undefined),
};

/** match_phrase and match_phrase_prefix share their body. */
function parsePhrase(name: 'match_phrase' | 'match_phrase_prefix', body: unknown): Query {
  const { field, spec, pieces } = parseFieldQuery(name, body, ['query', 'analyzer', 'slop', 'zero_terms_query', 'max_expansions', 'boost', '_name']);
  const common = {
    field, query: String(scalar(name, spec.query)), slop: num(name, 'slop', spec.slop, 0),
    analyzer: typeof spec.analyzer === 'string' ? spec.analyzer : undefined, zeroTermsQuery: zeroTerms(name, spec.zero_terms_query), boost: boostOf(name, spec.boost),
  };
  if (name === 'match_phrase') return withPieces<Query>({ type: 'match_phrase', ...common }, pieces);
  return withPieces<Query>({ type: 'match_phrase_prefix', ...common, maxExpansions: num(name, 'max_expansions', spec.max_expansions, 50) }, pieces);
}

export const matchPhraseQuery: QueryType<'match_phrase'> = {
  ...fullText('match_phrase'),
  parse: (body) => parsePhrase('match_phrase', body) as QueryOf<'match_phrase'>,
  rewrite: (q, ctx) => rewritePhrase(q.field, q.query, q.slop, q.analyzer, q.zeroTermsQuery, q.boost, ctx),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) addAnalyzed(ctx, q.query, { analyzer: q.analyzer });
  },
  scope: () => 'document',
};

export const matchPhrasePrefixQuery: QueryType<'match_phrase_prefix'> = {
  ...fullText('match_phrase_prefix'),
  parse: (body) => parsePhrase('match_phrase_prefix', body) as QueryOf<'match_phrase_prefix'>,
  rewrite: (q, ctx) => rewritePhrase(q.field, q.query, q.slop, q.analyzer, q.zeroTermsQuery, q.boost, ctx, q.maxExpansions),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) addAnalyzed(ctx, q.query, { analyzer: q.analyzer, lastIsPrefix: true });
  },
  scope: () => 'index',
};

export const matchBoolPrefixQuery: QueryType<'match_bool_prefix'> = {
  ...fullText('match_bool_prefix'),
  parse(body) {
    const name = 'match_bool_prefix';
    const { field, spec, pieces } = parseFieldQuery(name, body, MATCH_KEYS);
    return withPieces({ type: 'match_bool_prefix', field, query: String(scalar(name, spec.query)), options: fullTextOptions(name, spec), boost: boostOf(name, spec.boost) }, pieces);
  },
  rewrite: (q, ctx) => rewriteBoolPrefix(q.field, q.query, q.options, q.boost, ctx),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) addAnalyzed(ctx, q.query, { analyzer: q.options.analyzer, lastIsPrefix: true, fuzziness: q.options.fuzziness });
  },
  scope: (q) => unlessIndex(q.options.fuzziness === undefined),
};

export const multiMatchQuery: QueryType<'multi_match'> = {
  ...fullText('multi_match'),
  parse(body) {
    const name = 'multi_match';
    if (!isObject(body)) throw parsingError('[multi_match] query malformed, no start_object after query name');
    checkKeys(name, body, [...MATCH_KEYS, 'fields', 'type', 'tie_breaker', 'slop']);
    if (body.query === undefined) throw illegal('[multi_match] requires query value');
    const fields = body.fields === undefined ? ['*'] : (Array.isArray(body.fields) ? body.fields : [body.fields]).map(String);
    if (body.type === 'bool_prefix') {
      for (const k of ['slop', 'cutoff_frequency']) if (body[k] !== undefined) throw illegal(`[${k}] not allowed for type [bool_prefix]`);
    }
    return withPieces({
      type: 'multi_match', fields, query: scalar(name, body.query),
      matchType: enumOf(name, 'type', body.type, MULTI_MATCH_TYPES, 'best_fields'),
      tieBreaker: body.tie_breaker === undefined ? undefined : num(name, 'tie_breaker', body.tie_breaker, 0),
      slop: num(name, 'slop', body.slop, 0), options: fullTextOptions(name, body), boost: boostOf(name, body.boost),
    }, piecesOf(body, 'query'));
  },
  rewrite: (q, ctx) => rewriteMultiMatch(q, ctx),
  highlightTerms(q, ctx) {
    if (q.fields.some((f) => targets(ctx, f)) || (q.fields.length === 0 && !ctx.requireFieldMatch)) {
      addAnalyzed(ctx, String(q.query), {
        analyzer: q.options.analyzer,
        lastIsPrefix: q.matchType === 'phrase_prefix' || q.matchType === 'bool_prefix',
        fuzziness: q.options.fuzziness,
      });
    }
  },
  scope: (q) => unlessIndex(q.options.fuzziness === undefined && q.matchType !== 'phrase_prefix' && q.matchType !== 'bool_prefix'),
  // each word on each field
  clauses(q, left) {
    const fields = Math.max(1, q.fields.length);
    return Math.max(1, wordCount(q.query, Math.ceil(left / fields), piecesOf(q, 'query'))) * fields;
  },
};

export const combinedFieldsQuery: QueryType<'combined_fields'> = {
  ...fullText('combined_fields'),
  parse: (body) => ({ type: 'combined_fields', ...parseCombinedFieldsQuery(body) }),
  rewrite: (q, ctx) => lowerCombinedFields(q, ctx.mappings, ctx.registry, (patterns) => expandFields(patterns, ctx.mappings)),
  highlightTerms(q, ctx) {
    if (q.fields.some((f) => targets(ctx, f.pattern))) addAnalyzed(ctx, q.query, {});
  },
  scope: () => 'document',
};

/** Ordered/unordered proximity rules over a text field's positions (intervals.ts). */
export const intervalsQuery: QueryType<'intervals'> = {
  ...fullText('intervals'),
  parse: (body) => ({ type: 'intervals', ...parseIntervalsQuery(body) }),
  rewrite: (q, ctx) => rewriteIntervals(q, ctx),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) visitIntervals(q.rule, ctx);
  },
  scope: (q) => unlessIndex(intervalsRuleDecides(q.rule)),
  // each word of each text its rules analyse
  clauses(q, left) {
    let n = 0;
    for (const text of intervalTexts(q.rule, [])) n += Math.max(1, wordCount(text, left - n));
    return n;
  },
};
