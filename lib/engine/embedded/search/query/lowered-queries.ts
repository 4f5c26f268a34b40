/**
 * The clauses the rewrite lowers full-text, multi-term, span, intervals, combined_fields and pinned
 * queries to against one index's mappings (query.ts's LoweredQuery): already-analyzed terms,
 * term patterns, phrases, capped scores, interval sources and combined_fields positions. They are
 * never parsed from the DSL; the executor, the matcher, explain and highlighting run them. Each one
 * object with every pass over the query tree (query-type.ts); code moved from each pass as it was.
 */
import { anyTerm, combinedTermMatches, evaluate, hasTerm, intervalSourceMatches, phraseMatches } from './document-matcher.js';
import { cappedScore, combinedTerm, indexedTerm, intervalQuery, phrase, termPattern } from './execute-query.js';
import { explainByScore, explainCapped, explainPhrase, explainTerm } from './explain-query.js';
import { holdsPattern } from './intervals.js';
import { matchScope, unlessIndex } from './matcher-decides.js';
import type { LoweredQuery } from './query.js';
import { collectHighlightTerms, phraseHighlightTerms, targets, visitSource } from './query-terms-for-highlight.js';
import type { QueryOf, QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';

/** What every lowered clause answers the same: parsed from no DSL name; a leaf already lowered. */
const lowered = <T extends LoweredQuery['type']>(name: T) => ({
  name,
  parsedFrom: [],
  parse(): never {
    throw new Error(`[${name}] is not a query of the DSL`);
  },
  children: () => [],
  withChildren: (q: QueryOf<T>) => q,
  rewrite: (q: QueryOf<T>) => q,
});

export const indexedTermQuery: QueryType<'indexed_term'> = {
  ...lowered('indexed_term'),
  *execute(q, x, scoring) {
    return yield* indexedTerm(q.field, q.term, q.boost, q.constant, x, scoring);
  },
  matches: (q, e) => hasTerm(e, q.field, q.term),
  explain: explainTerm,
  print: (q) => `${q.field}:${q.term}`,
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) ctx.out.terms.add(q.term);
  },
  scope: () => 'document',
};

export const termPatternQuery: QueryType<'term_pattern'> = {
  ...lowered('term_pattern'),
  *execute(q, x, scoring) {
    return yield* termPattern(q, x, scoring);
  },
  matches: (q, e) => anyTerm(e, q.field, (t) => q.pattern.test(t)),
  explain: explainByScore,
  print: (q) => `${q.field}:${q.pattern.prefix ?? ''}*`,
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) ctx.out.predicates.push(q.pattern.test);
  },
  // which terms a limited expansion keeps depends on the index's dictionary
  scope: (q) => unlessIndex(q.maxExpansions === Infinity && q.rewrite?.kind !== 'top_terms'),
};

export const phraseQuery: QueryType<'phrase'> = {
  ...lowered('phrase'),
  *execute(q, x, scoring) {
    return yield* phrase(q, x, scoring);
  },
  matches: phraseMatches,
  explain: explainPhrase,
  print(q, p) {
    if (p.lucene) {
      // `_validate/query` prints the first path, its last terms as prefixes
      const path = q.paths[0];
      const terms = path ? path.terms.map((alts, i) => {
        const t = alts.length > 1 ? `(${alts.join(' ')})` : alts[0];
        return q.prefixExpansions !== undefined && i === path.terms.length - 1 ? `${t}*` : t;
      }) : [];
      return `${q.field}:"${terms.join(' ')}"${q.slop ? `~${q.slop}` : ''}`;
    }
    const phrases = q.paths.map(({ terms }) =>
      `${q.field}:"${terms.map((alts) => (alts.length === 1 ? alts[0] : `(${alts.join(' ')})`)).join(' ')}${q.prefixExpansions !== undefined ? '*' : ''}"${q.slop ? `~${q.slop}` : ''}`);
    return phrases.length === 1 ? phrases[0] : `(${phrases.join(' ')})`;
  },
  highlightTerms: phraseHighlightTerms,
  scope: (q) => unlessIndex(q.prefixExpansions === undefined),
};

export const cappedScoreQuery: QueryType<'capped_score'> = {
  ...lowered('capped_score'),
  children: (q) => [q.query],
  withChildren: (q, f) => ({ ...q, query: f(q.query) }),
  rewrite: (q, ctx) => ({ ...q, query: rewriteQuery(q.query, ctx) }),
  *execute(q, x, scoring) {
    return yield* cappedScore(q, x, scoring);
  },
  matches: (q, e) => evaluate(q.query, e),
  explain: explainCapped,
  print: (q, p) => `CappedScore(${p.child(q.query)})`,
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: (q) => matchScope(q.query),
};

export const intervalSourceQuery: QueryType<'interval_source'> = {
  ...lowered('interval_source'),
  *execute(q, x, scoring) {
    return yield* intervalQuery(q, x, scoring);
  },
  matches: intervalSourceMatches,
  explain: explainByScore,
  print: () => 'interval_source',
  highlightTerms: (q, ctx) => visitSource(q.source, ctx),
  scope: (q) => unlessIndex(!holdsPattern(q.source)),
};

export const combinedTermQuery: QueryType<'combined_term'> = {
  ...lowered('combined_term'),
  *execute(q, x, scoring) {
    return yield* combinedTerm(q, x, scoring);
  },
  matches: combinedTermMatches,
  explain: explainByScore,
  print: () => 'combined_term',
  highlightTerms(q, ctx) {
    if (q.fields.some((f) => targets(ctx, f.field))) for (const t of q.terms) ctx.out.terms.add(t);
  },
  scope: () => 'document',
};
