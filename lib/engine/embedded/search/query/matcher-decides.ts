/**
 * Whether the one-document matcher (live search streams) can decide a query from a changed
 * document's source alone, exactly as the index executor would. It cannot when the answer depends
 * on the rest of the index — term expansions limited by `max_expansions` (which terms are kept
 * depends on the dictionary), document frequencies (more_like_this), a `min_score` over a score
 * that needs index statistics — or on what the source does not carry (the `_routing` a document
 * was written with), or on stored rulesets (rule). The stream then asks the engine, never guesses.
 */
import { assertNever, type Query, type ScoreFunction } from './query.js';
import type { SpanQuery } from './span-queries.js';
import type { IntervalsFilter, IntervalsRule } from './intervals.js';

const NOT_IN_SOURCE = new Set(['_routing']);

export function matcherDecides(q: Query): boolean {
  if ('field' in q && typeof q.field === 'string' && NOT_IN_SOURCE.has(q.field)) return false;
  switch (q.type) {
    case 'match_all': case 'match_none': case 'term': case 'terms': case 'ids': case 'exists': case 'range':
    case 'prefix': case 'wildcard': case 'regexp': case 'match_phrase':
    case 'geo_distance': case 'geo_bounding_box': case 'geo_shape': case 'terms_set': case 'distance_feature': case 'rank_feature':
    case 'script': case 'indexed_term': case 'combined_fields': case 'combined_term':
      return true;
    case 'match': case 'match_bool_prefix':
      return q.options.fuzziness === undefined;
    case 'multi_match':
      return q.options.fuzziness === undefined && q.matchType !== 'phrase_prefix' && q.matchType !== 'bool_prefix';
    // which terms a limited expansion keeps depends on the index's dictionary
    case 'fuzzy': case 'match_phrase_prefix':
      return false;
    case 'term_pattern':
      return q.maxExpansions === Infinity;
    case 'phrase':
      return q.prefixExpansions === undefined;
    case 'interval_source':
      return !JSON.stringify(q.source, (k, v) => (k === 'pattern' ? 'PATTERN' : v)).includes('"PATTERN"');
    case 'span':
      return spanDecides(q.span);
    case 'intervals':
      return intervalsRuleDecides(q.rule);
    // document frequencies, stored rulesets
    case 'more_like_this': case 'rule':
      return false;
    case 'bool':
      return [...q.must, ...q.filter, ...q.should, ...q.mustNot].every(matcherDecides);
    case 'constant_score':
      return matcherDecides(q.filter);
    case 'dis_max':
      return q.queries.every(matcherDecides);
    case 'boosting':
      return matcherDecides(q.positive) && matcherDecides(q.negative);
    case 'capped_score': case 'nested':
      return matcherDecides(q.query);
    case 'pinned':
      return matcherDecides(q.organic);
    case 'script_score':
      return q.minScore === undefined && matcherDecides(q.query);
    case 'function_score':
      return matcherDecides(q.query) && q.functions.every((f) => f.filter === undefined || matcherDecides(f.filter))
        && (q.minScore === undefined || constantScoreDecides(q));
    default:
      return assertNever(q);
  }
}

/**
 * A `min_score` the matcher can check: decay functions and weights over match_all, multiplied
 * (the "near me" case) — every score then comes from the document alone.
 */
function constantScoreDecides(q: Extract<Query, { type: 'function_score' }>): boolean {
  const plain = (f: ScoreFunction) => f.fieldValueFactor === undefined && f.randomScore === undefined && f.script === undefined;
  return q.query.type === 'match_all' && q.query.boost === 1 && q.boost === 1 && q.scoreMode === 'multiply'
    && (q.boostMode === 'multiply' || q.boostMode === 'replace') && q.functions.every(plain) && q.maxBoost === Number.MAX_VALUE;
}

function spanDecides(s: SpanQuery): boolean {
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

function intervalsRuleDecides(r: IntervalsRule): boolean {
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
