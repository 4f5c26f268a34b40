import { assertNever, type Query, type ScoreFunction } from './query.js';
import { queryTypeOf } from './query-type.js';
import type { SpanQuery } from './span-queries.js';
import type { IntervalsFilter, IntervalsRule } from './intervals.js';

/**
 * Who can decide whether a document matches a live search, as the index executor would:
 *
 * - `document`: the one-document matcher, from a changed document's source alone;
 * - `engine`: the engine, asked about the changed document — the answer depends on what the source
 *   does not carry (the `_routing` a document was written with) or on stored rulesets (rule), but
 *   a write changes the verdict of the document it writes only;
 * - `index`: the engine, for every document at every change — the answer depends on the rest of
 *   the index: term expansions limited by `max_expansions` (which terms are kept depends on the
 *   dictionary), document frequencies (more_like_this), a `min_score` over a score that reads index
 *   statistics. A write to one document can make another one match or leave: the stream runs the
 *   search again after every change.
 *
 * The stream asks the engine what the matcher cannot decide, never guesses.
 */
export type MatchScope = 'document' | 'engine' | 'index';

const NOT_IN_SOURCE = new Set(['_routing']);
const RANK: Record<MatchScope, number> = { document: 0, engine: 1, index: 2 };

/** The widest of the scopes (an empty list: the matcher decides). */
export const widestScope = (scopes: MatchScope[]): MatchScope => scopes.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'document' as MatchScope);
/** The widest scope of these queries'. */
export const widestScopeOf = (qs: Query[]): MatchScope => widestScope(qs.map(matchScope));
/** `document` when the test holds, else `index` (the verdict depends on the index's dictionary or statistics). */
export const unlessIndex = (decides: boolean): MatchScope => (decides ? 'document' : 'index');

export function matchScope(q: Query): MatchScope {
  if ('field' in q && typeof q.field === 'string' && NOT_IN_SOURCE.has(q.field)) return 'engine';
  return queryTypeOf(q).scope(q);
}

/** Whether the one-document matcher decides the query from a changed document's source alone (matchScope). */
export const matcherDecides = (q: Query): boolean => matchScope(q) === 'document';

/**
 * A `min_score` the matcher can check: decay functions and weights over match_all, multiplied
 * (the "near me" case) — every score then comes from the document alone.
 */
export function constantScoreDecides(q: Extract<Query, { type: 'function_score' }>): boolean {
  const plain = (f: ScoreFunction) => f.fieldValueFactor === undefined && f.randomScore === undefined && f.script === undefined;
  return q.query.type === 'match_all' && q.query.boost === 1 && q.boost === 1 && q.scoreMode === 'multiply'
    && (q.boostMode === 'multiply' || q.boostMode === 'replace') && q.functions.every(plain) && q.maxBoost === Number.MAX_VALUE;
}

export function spanDecides(s: SpanQuery): boolean {
  switch (s.kind) {
    case 'span_term': case 'span_gap':
      return true;
    case 'span_multi':
      return false;
    case 'span_near': case 'span_or':
      return s.clauses.every(spanDecides);
    case 'span_not':
      return spanDecides(s.include) && spanDecides(s.exclude);
    case 'span_first':
      return spanDecides(s.match);
    case 'span_containing': case 'span_within':
      return spanDecides(s.big) && spanDecides(s.little);
    case 'field_masking_span':
      return spanDecides(s.query);
    default:
      return assertNever(s);
  }
}

export function intervalsRuleDecides(r: IntervalsRule): boolean {
  switch (r.kind) {
    case 'match':
      return filterDecides(r.filter);
    case 'prefix': case 'wildcard': case 'fuzzy':
      return false;
    case 'all_of': case 'any_of':
      return r.rules.every(intervalsRuleDecides) && filterDecides(r.filter);
    default:
      return assertNever(r);
  }
}

/** A script filter runs on the interval alone; a rule filter is decided as any rule. */
function filterDecides(f: IntervalsFilter | undefined): boolean {
  return f === undefined || !('rule' in f) || intervalsRuleDecides(f.rule);
}
