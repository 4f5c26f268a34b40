import { queryTerm, resolveFieldMapping, type MatchContext, type Query } from '../engine/embedded/matching.js';

/**
 * What a document must contain for a query to match it, as Elasticsearch's percolator extracts
 * it: a set of (field, term) keys of which at least one must be present, `any` when no such set
 * can be given (ranges, patterns, match_all…), or `none` when nothing can match.
 * The extraction is a necessary condition only; candidates are then tested with the matcher.
 */
export type RequiredTerms = Set<string> | 'any' | 'none';

export const termKey = (field: string, term: string) => `${field}\u0000${term}`;
export const idKey = (id: string) => termKey('\u0001_id', id);

const STRING_TERM_TYPES = new Set(['keyword', 'text', 'match_only_text', 'constant_keyword', 'wildcard', 'search_as_you_type']);

function union(parts: RequiredTerms[]): RequiredTerms {
  const out = new Set<string>();
  for (const p of parts) {
    if (p === 'any') return 'any';
    if (p === 'none') continue;
    for (const k of p) out.add(k);
  }
  return out.size ? out : 'none';
}

/** Of several conditions that must all hold, the most selective one (smallest key set). */
function bestOf(parts: RequiredTerms[]): RequiredTerms {
  let best: RequiredTerms = 'any';
  for (const p of parts) {
    if (p === 'none') return 'none';
    if (p === 'any') continue;
    if (best === 'any' || p.size < best.size) best = p;
  }
  return best;
}

function exactTerms(field: string, values: Array<string | number | boolean>, ctx: MatchContext): RequiredTerms {
  if (field === '_id') return new Set(values.map((v) => idKey(String(v))));
  const mapping = resolveFieldMapping(ctx.mappings, field);
  if (!mapping) return 'none';
  if (!STRING_TERM_TYPES.has(String(mapping.type ?? 'object'))) return 'any';
  const keys = new Set<string>();
  for (const v of values) {
    const term = queryTerm(mapping, v, ctx.registry);
    if (term !== undefined) keys.add(termKey(field, term));
  }
  return keys.size ? keys : 'none';
}

/** `query` must already be rewritten against the index's mappings (`rewriteQuery`). */
export function requiredTerms(query: Query, ctx: MatchContext): RequiredTerms {
  switch (query.type) {
    case 'match_none':
      return 'none';
    case 'indexed_term':
      return new Set([termKey(query.field, query.term)]);
    case 'term':
      return query.caseInsensitive ? 'any' : exactTerms(query.field, [query.value], ctx);
    case 'terms':
      return exactTerms(query.field, query.values, ctx);
    case 'ids':
      return query.values.length ? new Set(query.values.map(idKey)) : 'none';
    case 'phrase': {
      // every position of one path must be present; the paths' first positions' alternatives are a
      // sufficient set, unless a path's first position is itself a prefix (a one-word phrase prefix)
      if (!query.paths.length) return 'none';
      const firsts = query.paths.map(({ terms }) => (query.prefixExpansions !== undefined && terms.length === 1 ? undefined : terms[0]));
      if (firsts.some((first) => first === undefined)) return 'any';
      return new Set(firsts.flatMap((first) => first!.map((t) => termKey(query.field, t))));
    }
    case 'bool': {
      const conditions = [...query.must, ...query.filter].map((q) => requiredTerms(q, ctx));
      const msm = query.minimumShouldMatch;
      // should clauses are required when nothing else is, or when minimum_should_match asks for at
      // least one (unsure → not required: that only makes the search a candidate more often)
      const shouldRequired = query.should.length > 0 && (msm !== undefined ? requiresOneShould(msm, query.should.length) : conditions.length === 0);
      if (shouldRequired) conditions.push(union(query.should.map((q) => requiredTerms(q, ctx))));
      return conditions.length ? bestOf(conditions) : 'any';
    }
    case 'constant_score':
      return requiredTerms(query.filter, ctx);
    case 'dis_max':
      return union(query.queries.map((q) => requiredTerms(q, ctx)));
    case 'boosting':
      return requiredTerms(query.positive, ctx);
    case 'function_score':
    case 'script_score':
      return requiredTerms(query.query, ctx);
    default:
      return 'any';
  }
}

/** Does a minimum_should_match value require at least one of `count` should clauses? */
function requiresOneShould(msm: string | number, count: number): boolean {
  const text = String(msm).trim();
  const n = Number(text.replace(/%$/, ''));
  if (!Number.isFinite(n)) return false;
  if (text.endsWith('%')) return n > 0 ? Math.trunc((count * n) / 100) > 0 : count + Math.trunc((count * n) / 100) > 0;
  return n > 0 || (n < 0 && count + n > 0);
}
