import {
  assertNever, fieldType, isRangeType, queryTerm, rangeBounds, requiredShouldMatches, resolveFieldMapping, type MatchContext, type Query, type RangeBounds,
} from '../../engine/embedded/index.js';

/** One condition on a document, each one the document matcher's own test for a clause. */
export type Atom =
  | { readonly kind: 'id'; readonly id: string }
  /** The field has this indexed term. */
  | { readonly kind: 'term'; readonly field: string; readonly term: string }
  /** One of the field's indexed terms starts with this. */
  | { readonly kind: 'prefix'; readonly field: string; readonly prefix: string }
  /** One of the field's range operands (`rangeOperands`) lies within the bounds. */
  | { readonly kind: 'range'; readonly field: string; readonly bounds: RangeBounds; readonly booleanField: boolean }
  /** The field, or one under it, has a value (`fieldExists`). */
  | { readonly kind: 'exists'; readonly field: string }
  /** The atom does not hold (a must_not clause): tested on candidates, never what they are found by. */
  | { readonly kind: 'not'; readonly atom: Atom };

/** Atoms that must all hold. */
export type Conjunction = readonly Atom[];

/**
 * What a document must satisfy for a query to match it, as Elasticsearch's percolator extracts
 * it: one of the alternatives. No alternative: nothing can match; an empty one: every document
 * may match (match_all, scripts, and every clause this extraction does not know).
 * A necessary condition, so leaving a clause out is always safe. When it is also sufficient
 * (`exact`, the percolator's "verified" extraction), a document that satisfies it matches
 * without asking the matcher.
 */
export interface Requirement {
  readonly alternatives: readonly Conjunction[];
  readonly exact: boolean;
}

/** Nothing can be said: the matcher is asked about every document. */
export const ANY: Requirement = { alternatives: [[]], exact: false };

/**
 * An AND of ORs is spread into an OR of ANDs only up to this many alternatives (or the largest
 * part's count): past it, the part is left out, which only makes the search a candidate more often.
 */
const MAX_ALTERNATIVES = 16;

const STRING_TERM_TYPES = new Set(['keyword', 'text', 'match_only_text', 'constant_keyword', 'wildcard', 'search_as_you_type']);

/** Two instants far apart: range bounds computed at both are the same when they do not depend on `now`. */
const NOW_A = 0;
const NOW_B = Date.UTC(2100, 0, 1);

const requirement = (alternatives: readonly Conjunction[], exact = true): Requirement => ({ alternatives, exact });
const single = (atom: Atom, exact = true): Requirement => requirement([[atom]], exact);

function anyOf(parts: Requirement[]): Requirement {
  const exact = parts.every((p) => p.exact);
  if (parts.some((p) => p.alternatives.some((c) => c.length === 0))) return requirement([[]], exact);
  return requirement(parts.flatMap((p) => p.alternatives), exact);
}

function allOf(parts: Requirement[]): Requirement {
  let exact = parts.every((p) => p.exact);
  const sorted = [...parts].sort((a, b) => a.alternatives.length - b.alternatives.length);
  let out: readonly Conjunction[] = [[]];
  for (const { alternatives } of sorted) {
    if (out.length * alternatives.length > Math.max(out.length, alternatives.length, MAX_ALTERNATIVES)) {
      exact = false;
      continue;
    }
    out = out.flatMap((c) => alternatives.map((d) => [...c, ...d]));
  }
  return requirement(out, exact);
}

function exactTerms(field: string, values: Array<string | number | boolean>, ctx: MatchContext): Requirement {
  if (field === '_id') return requirement(values.map((v) => [{ kind: 'id', id: String(v) }]));
  const mapping = resolveFieldMapping(ctx.mappings, field);
  // an unmapped field matches nothing until a document maps it (and the searches are indexed again)
  if (!mapping) return requirement([], false);
  if (!STRING_TERM_TYPES.has(String(mapping.type ?? 'object'))) return ANY;
  const out: Conjunction[] = [];
  for (const v of values) {
    const term = queryTerm(mapping, v, ctx.registry);
    if (term !== undefined) out.push([{ kind: 'term', field, term }]);
  }
  return requirement(out);
}

/**
 * A range whose bounds are fixed once the mappings are: bounds that move with `now` (date math),
 * that cannot be computed (the matcher then fails the same way for every document) or are not
 * ordered (NaN), or on a field the mappings do not know yet (a document may bring its mapping)
 * give no requirement.
 */
function rangeRequirement(q: Extract<Query, { type: 'range' }>, ctx: MatchContext): Requirement {
  const mapping = resolveFieldMapping(ctx.mappings, q.field);
  // a range field's values are intervals related by the query's relation: the matcher decides
  if (!mapping || isRangeType(fieldType(mapping))) return ANY;
  let bounds: RangeBounds;
  try {
    bounds = rangeBounds(q, mapping, ctx.registry, NOW_A);
    const later = rangeBounds(q, mapping, ctx.registry, NOW_B);
    if (later.lo !== bounds.lo || later.hi !== bounds.hi || Number.isNaN(bounds.lo) || Number.isNaN(bounds.hi)) return ANY;
  } catch {
    return ANY;
  }
  return single({ kind: 'range', field: q.field, bounds, booleanField: fieldType(mapping) === 'boolean' });
}

/** A phrase: on one of its paths, every position has one of its terms (a prefix at a prefix position); where they stand is the matcher's. */
function phraseRequirement(q: Extract<Query, { type: 'phrase' }>): Requirement {
  const paths = anyOf(q.paths.map(({ terms }) => allOf(terms.map((alternatives, i) => {
    const prefixes = q.prefixExpansions !== undefined && i === terms.length - 1;
    return requirement(alternatives.map((t) => [prefixes ? { kind: 'prefix', field: q.field, prefix: t } : { kind: 'term', field: q.field, term: t }]));
  }))));
  return requirement(paths.alternatives, false);
}

/**
 * What must_not clauses leave: none of them may match. Exact when each clause is exactly one of
 * some atoms (a term, a range…): then none of those atoms may hold; otherwise the matcher decides.
 */
function noneOf(parts: Requirement[]): Requirement | undefined {
  const atoms: Atom[] = [];
  for (const { alternatives, exact } of parts) {
    if (!exact || alternatives.some((c) => c.length > 1)) return undefined;
    // a clause that every document matches leaves none
    if (alternatives.some((c) => c.length === 0)) return requirement([]);
    for (const [atom] of alternatives) atoms.push({ kind: 'not', atom });
  }
  return requirement([atoms]);
}

/** `query` must already be rewritten against the index's mappings (`rewriteQuery`). */
export function requirementOf(query: Query, ctx: MatchContext): Requirement {
  switch (query.type) {
    case 'match_none':
      return requirement([]);
    case 'match_all':
      return requirement([[]]);
    case 'indexed_term':
      return single({ kind: 'term', field: query.field, term: query.term });
    case 'term':
      return query.caseInsensitive ? ANY : exactTerms(query.field, [query.value], ctx);
    case 'terms':
      return exactTerms(query.field, query.values, ctx);
    case 'ids':
      return requirement(query.values.map((id) => [{ kind: 'id', id }]));
    case 'exists':
      return single({ kind: 'exists', field: query.field });
    case 'range':
      return rangeRequirement(query, ctx);
    case 'term_pattern':
      // every term the pattern accepts starts with its literal prefix (what the executor walks the dictionary by)
      return query.pattern.prefix ? single({ kind: 'prefix', field: query.field, prefix: query.pattern.prefix }, false) : ANY;
    case 'phrase':
      return phraseRequirement(query);
    case 'combined_term':
      return requirement(query.fields.flatMap(({ field }) => query.terms.map((term) => [{ kind: 'term', field, term } as const])));
    case 'bool': {
      const parts = [...query.must, ...query.filter].map((q) => requirementOf(q, ctx));
      const needed = requiredShouldMatches(query.minimumShouldMatch, query.should.length, parts.length > 0);
      if (needed > 0) {
        const should = anyOf(query.should.map((q) => requirementOf(q, ctx)));
        // one matching should clause is enough only when one is all it takes
        parts.push(needed === 1 ? should : requirement(should.alternatives, false));
      }
      if (query.mustNot.length === 0) return allOf(parts);
      const excluded = noneOf(query.mustNot.map((q) => requirementOf(q, ctx)));
      if (excluded) return allOf([...parts, excluded]);
      const all = allOf(parts);
      return requirement(all.alternatives, false);
    }
    case 'constant_score':
      return requirementOf(query.filter, ctx);
    case 'dis_max':
      return anyOf(query.queries.map((q) => requirementOf(q, ctx)));
    case 'boosting':
      return requirementOf(query.positive, ctx);
    case 'function_score': {
      const inner = requirementOf(query.query, ctx);
      return query.minScore === undefined ? inner : requirement(inner.alternatives, false);
    }
    case 'capped_score':
      return requirementOf(query.query, ctx);
    case 'script_score':
      // a script decides too (min_score, or a script that fails on a document): the matcher is asked
      return requirement(requirementOf(query.query, ctx).alternatives, false);
    case 'match': case 'match_phrase': case 'match_phrase_prefix': case 'match_bool_prefix': case 'multi_match': case 'prefix':
    case 'wildcard': case 'regexp': case 'fuzzy': case 'nested': case 'geo_distance': case 'geo_bounding_box':
    case 'geo_shape': case 'span': case 'intervals': case 'terms_set': case 'distance_feature': case 'rank_feature':
    case 'combined_fields': case 'more_like_this': case 'pinned': case 'rule': case 'script': case 'interval_source': case 'knn':
    case 'parent_id': case 'has_child': case 'has_parent': case 'percolate':
      return ANY;
    default:
      return assertNever(query);
  }
}
