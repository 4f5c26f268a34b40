/**
 * The term-level query types: exact values (term, terms), ranges, and the multi-term queries the
 * rewrite lowers to a test over a field's terms (prefix, wildcard, regexp, fuzzy), and terms_set. Each one object
 * with every pass over the query tree (query-type.ts); code moved from each pass as it was.
 */
import { fieldType, keywordTerm, resolveFieldMapping, INTEGER_TYPES, isRangeType, rangeQueryInterval, rangeValuesRelate } from '../../mapping/index.js';
import { compileWildcardQuery } from '../../../../wildcard/index.js';
import { ScoredDocs } from './doc-set.js';
import { evaluate, hasTerm, rangeOperands, termMatches } from './document-matcher.js';
import { numericDocValue, termsSetThreshold } from './field-features.js';
import { parseTermsSetQuery } from './terms-set.js';
import { indexedTerm, rangeQuery, runQuery, termPattern, termsSetQuery as termsSetDocs, unionConstant } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { unlessIndex } from './matcher-decides.js';
import { prefixRefused, rangeRefused, refusedAlways } from './expensive-queries.js';
import { inRange, rangeBounds } from './field-rules.js';
import { isNumeric as isNumericField } from './lucene-string.js';
import { checkKeys, fieldAndBody, illegal, isObject, num, parsingError, scalar } from './parse-query.js';
import { booleanValue, boostOf, parseFuzziness, parseRewrite } from './query-fields.js';
import { editDistanceAtMost, fuzzyEdits, targets } from './query-terms-for-highlight.js';
import { queryTerm } from './query-terms.js';
import type { MultiTermRewrite, Query } from './query.js';
import type { Printer, QueryOf, QueryType } from './query-type.js';
import { keywordValue, rewriteQuery } from './rewrite-query.js';
import { scoredByBm25 } from './similarity.js';
import { fuzzyPattern, indexNameMatches, prefixPattern, regexpPattern, wildcardPattern } from './term-patterns.js';

type TermLevel = 'term' | 'terms' | 'range' | 'prefix' | 'wildcard' | 'regexp' | 'fuzzy' | 'terms_set';

/** What every term-level type answers the same: no children, explained by its score. */
const termLevel = <T extends TermLevel>(name: T) => ({
  name,
  children: () => [],
  withChildren: (q: QueryOf<T>) => q,
  explain: explainByScore,
});

/** Explanations print a multi-term query by its name (they explain the rewritten tree, where it is a term pattern). */
const explainedByName = (name: string, p: Printer, lucene: () => string) => (p.lucene ? lucene() : name);

const withRewrite = (rewrite: MultiTermRewrite | undefined) => (rewrite ? { rewrite } : {});

/** prefix, wildcard and regexp: `{ field: value }` or `{ field: { value, … } }`. */
function parseMultiTerm(name: 'prefix' | 'wildcard' | 'regexp', body: unknown): Query {
  const [field, raw] = fieldAndBody(name, body);
  const spec = isObject(raw) ? raw : { value: raw };
  const valueKey = name === 'wildcard' && spec.value === undefined && spec.wildcard !== undefined ? 'wildcard' : 'value';
  checkKeys(name, spec, ['value', 'wildcard', 'boost', 'case_insensitive', 'rewrite', 'flags', 'flags_value', 'max_determinized_states', '_name']);
  const value = String(scalar(name, spec[valueKey]));
  const caseInsensitive = spec.case_insensitive === true;
  const boost = boostOf(name, spec.boost);
  const rewrite = parseRewrite(spec.rewrite);
  if (name === 'regexp') return { type: 'regexp', field, value, caseInsensitive, flags: typeof spec.flags === 'string' ? spec.flags : 'ALL', boost, ...withRewrite(rewrite) };
  return { type: name, field, value, caseInsensitive, boost, ...withRewrite(rewrite) };
}

/** The node itself (parse-query's shared prefix/wildcard/regexp reader answers the type it was given). */
const asType = <T extends TermLevel>(q: Query) => q as QueryOf<T>;

export const termQuery: QueryType<'term'> = {
  ...termLevel('term'),
  matchesIndexName: (q, name) => indexNameMatches(q.value, name, q.caseInsensitive),
  parse(body) {
    const name = 'term';
    const [field, spec] = fieldAndBody(name, body);
    if (isObject(spec)) {
      checkKeys(name, spec, ['value', 'boost', 'case_insensitive', '_name']);
      return { type: 'term', field, value: scalar(name, spec.value), boost: boostOf(name, spec.boost), caseInsensitive: spec.case_insensitive === true };
    }
    return { type: 'term', field, value: scalar(name, spec), boost: boostOf(name, isObject(body) ? body.boost : undefined), caseInsensitive: false };
  },
  rewrite: (q) => q,
  *execute(q, x, scoring) {
    if (q.field === '_id') {
      const ord = x.index.ordOf(String(q.value));
      return ord === undefined ? ScoredDocs.empty() : new ScoredDocs(Int32Array.of(ord), Float64Array.of(scoring ? q.boost : 0), 1);
    }
    const mapping = resolveFieldMapping(x.mappings, q.field);
    if (!mapping) return ScoredDocs.empty();
    const term = queryTerm(mapping, q.value, x.registry);
    if (term === undefined) return ScoredDocs.empty();
    if (q.caseInsensitive) {
      const lower = term.toLowerCase();
      return yield* termPattern({ type: 'term_pattern', field: q.field, pattern: { prefix: '', test: (t) => t.toLowerCase() === lower }, scoring: 'constant', maxExpansions: Infinity, boost: q.boost }, x, scoring);
    }
    return yield* indexedTerm(q.field, term, q.boost, !scoredByBm25(fieldType(mapping)), x, scoring);
  },
  matches: (q, e) => termMatches(e, q.field, q.value, q.caseInsensitive),
  print(q, p) {
    if (p.lucene && isNumericField(q.field, p.lucene)) return `${q.field}:[${String(q.value)} TO ${String(q.value)}]`;
    return `${q.field}:${String(q.value)}`;
  },
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) {
      const t = fieldType(ctx.mapping) === 'keyword' ? keywordTerm(ctx.mapping, String(q.value), ctx.registry) : String(q.value);
      if (q.caseInsensitive) ctx.out.predicates.push((x) => x.toLowerCase() === t.toLowerCase());
      else ctx.out.terms.add(t);
    }
  },
  scope: () => 'document',
};

export const termsQuery: QueryType<'terms'> = {
  ...termLevel('terms'),
  matchesIndexName: (q, name) => q.values.some((v) => indexNameMatches(v, name)),
  parse(body) {
    const name = 'terms';
    const [field, values] = fieldAndBody(name, body);
    if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${field}]`);
    return { type: 'terms', field, values: values.map((v) => scalar(name, v)), boost: boostOf(name, (body as Record<string, unknown>).boost) };
  },
  rewrite: (q) => q,
  *execute(q, x, scoring) {
    if (q.field === '_id') return yield* runQuery({ type: 'ids', values: q.values.map(String), boost: q.boost }, x, scoring);
    const mapping = resolveFieldMapping(x.mappings, q.field);
    const fi = x.index.field(q.field);
    if (!mapping || !fi) return ScoredDocs.empty();
    const tids = new Set<number>();
    for (const v of q.values) {
      const term = queryTerm(mapping, v, x.registry);
      const tid = term === undefined ? -1 : fi.termId(term);
      if (tid >= 0) tids.add(tid);
    }
    return tids.size ? yield* unionConstant(fi, [...tids], x, scoring ? q.boost : 0) : ScoredDocs.empty();
  },
  matches: (q, e) => q.values.some((v) => termMatches(e, q.field, v)),
  print: (q) => `${q.field}:(${q.values.map(String).join(' ')})`,
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) for (const v of q.values) ctx.out.terms.add(fieldType(ctx.mapping) === 'keyword' ? keywordTerm(ctx.mapping, String(v), ctx.registry) : String(v));
  },
  scope: () => 'document',
};

export const rangeQueryType: QueryType<'range'> = {
  ...termLevel('range'),
  expensive: (q, mappings) => rangeRefused(q.field, mappings),
  parse(body) {
    const name = 'range';
    const [field, raw] = fieldAndBody(name, body);
    if (!isObject(raw)) throw parsingError(`[range] query does not support [${field}]`);
    checkKeys(name, raw, ['gt', 'gte', 'lt', 'lte', 'from', 'to', 'include_lower', 'include_upper', 'format', 'time_zone', 'relation', 'boost', '_name']);
    const q: QueryOf<'range'> = { type: 'range', field, boost: boostOf(name, raw.boost) };
    const bound = (v: unknown) => (v === undefined || v === null ? undefined : scalar(name, v));
    if (raw.from !== undefined && raw.from !== null) q[raw.include_lower === false ? 'gt' : 'gte'] = bound(raw.from);
    if (raw.to !== undefined && raw.to !== null) q[raw.include_upper === false ? 'lt' : 'lte'] = bound(raw.to);
    if (raw.gt !== undefined) q.gt = bound(raw.gt);
    if (raw.gte !== undefined) q.gte = bound(raw.gte);
    if (raw.lt !== undefined) q.lt = bound(raw.lt);
    if (raw.lte !== undefined) q.lte = bound(raw.lte);
    if (typeof raw.format === 'string') q.format = raw.format;
    if (typeof raw.time_zone === 'string') q.timeZone = raw.time_zone;
    if (raw.relation !== undefined && raw.relation !== null) {
      const relation = String(raw.relation).toLowerCase();
      if (relation === 'disjoint') throw illegal('[range] query does not support relation [disjoint]');
      if (relation !== 'intersects' && relation !== 'contains' && relation !== 'within') throw illegal(`Unknown relation [${String(raw.relation)}]`);
      q.relation = relation;
    }
    return q;
  },
  rewrite: (q) => q,
  *execute(q, x, scoring) {
    return yield* rangeQuery(q, x, scoring);
  },
  matches(q, e) {
    const mapping = resolveFieldMapping(e.mappings, q.field);
    const field = e.fields.get(q.field);
    if (!mapping || !field) return false;
    if (isRangeType(fieldType(mapping))) return rangeValuesRelate(field.values, rangeQueryInterval(mapping, q, e.now), q.relation ?? 'intersects');
    const b = rangeBounds(q, mapping, e.registry, e.now);
    return rangeOperands(field, b.numeric, fieldType(mapping) === 'boolean').some((v) => inRange(v, b));
  },
  print(q, p) {
    if (!p.lucene) return `${q.field}:[${String(q.gte ?? q.gt ?? '*')} TO ${String(q.lte ?? q.lt ?? '*')}]`;
    const m = resolveFieldMapping(p.lucene.mappings, q.field);
    if (m && INTEGER_TYPES.has(fieldType(m))) {
      // integer points: Lucene makes exclusive bounds inclusive ones
      const low = q.gt !== undefined ? Number(q.gt) + 1 : q.gte;
      const high = q.lt !== undefined ? Number(q.lt) - 1 : q.lte;
      return `${q.field}:[${low === undefined ? '*' : String(low)} TO ${high === undefined ? '*' : String(high)}]`;
    }
    const low = q.gt ?? q.gte;
    const high = q.lt ?? q.lte;
    return `${q.field}:${q.gt !== undefined ? '{' : '['}${low === undefined ? '*' : String(low)} TO ${high === undefined ? '*' : String(high)}${q.lt !== undefined ? '}' : ']'}`;
  },
  highlightTerms: () => {},
  scope: () => 'document',
};

/** The multi-term types run and match as what the rewrite lowers them to (a term pattern). */
const lowered = {
  *execute(q: Query, x: Parameters<QueryType<'prefix'>['execute']>[1], scoring: boolean) {
    return yield* runQuery(rewriteQuery(q, x), x, scoring);
  },
  matches: (q: Query, e: Parameters<QueryType<'prefix'>['matches']>[1]) => evaluate(rewriteQuery(q, e), e),
};

export const prefixQuery: QueryType<'prefix'> = {
  ...termLevel('prefix'),
  ...lowered,
  matchesIndexName: (q, name) => name !== undefined && prefixPattern(String(q.value), q.caseInsensitive).test(name),
  expensive: (q, mappings) => prefixRefused(q.field, mappings),
  parse: (body) => asType<'prefix'>(parseMultiTerm('prefix', body)),
  rewrite: (q, ctx) => ({ type: 'term_pattern', field: q.field, pattern: prefixPattern(keywordValue(q.field, q.value, ctx), q.caseInsensitive), scoring: 'constant', maxExpansions: Infinity, boost: q.boost, ...withRewrite(q.rewrite) }),
  print: (q, p) => explainedByName('prefix', p, () => `${q.field}:${q.value}*`),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) ctx.out.predicates.push(q.caseInsensitive ? (x) => x.toLowerCase().startsWith(q.value.toLowerCase()) : (x) => x.startsWith(q.value));
  },
  scope: (q) => unlessIndex(q.rewrite?.kind !== 'top_terms'),
};

export const wildcardQuery: QueryType<'wildcard'> = {
  ...termLevel('wildcard'),
  ...lowered,
  matchesIndexName: (q, name) => name !== undefined && wildcardPattern(String(q.value), q.caseInsensitive).test(name),
  expensive: () => refusedAlways('wildcard'),
  parse: (body) => asType<'wildcard'>(parseMultiTerm('wildcard', body)),
  rewrite: (q, ctx) => ({ type: 'term_pattern', field: q.field, pattern: wildcardPattern(keywordValue(q.field, q.value, ctx), q.caseInsensitive), scoring: 'constant', maxExpansions: Infinity, boost: q.boost, ...withRewrite(q.rewrite) }),
  print: (q, p) => explainedByName('wildcard', p, () => `${q.field}:${q.value}`),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) {
      const { test } = compileWildcardQuery(q.value, q.caseInsensitive);
      ctx.out.predicates.push(test);
    }
  },
  scope: (q) => unlessIndex(q.rewrite?.kind !== 'top_terms'),
};

export const regexpQuery: QueryType<'regexp'> = {
  ...termLevel('regexp'),
  ...lowered,
  matchesIndexName: (q, name) => name !== undefined && regexpPattern(q.value, q.caseInsensitive).test(name),
  expensive: () => refusedAlways('regexp'),
  parse: (body) => asType<'regexp'>(parseMultiTerm('regexp', body)),
  rewrite: (q) => ({ type: 'term_pattern', field: q.field, pattern: regexpPattern(q.value, q.caseInsensitive), scoring: 'constant', maxExpansions: Infinity, boost: q.boost, ...withRewrite(q.rewrite) }),
  print: (q, p) => explainedByName('regexp', p, () => `${q.field}:/${q.value}/`),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) {
      try {
        ctx.out.predicates.push(regexpPattern(q.value, q.caseInsensitive).test);
      } catch {
        /* the query itself answers the invalid pattern: nothing highlighted */
      }
    }
  },
  scope: (q) => unlessIndex(q.rewrite?.kind !== 'top_terms'),
};

export const fuzzyQuery: QueryType<'fuzzy'> = {
  ...termLevel('fuzzy'),
  ...lowered,
  expensive: () => refusedAlways('fuzzy'),
  parse(body) {
    const name = 'fuzzy';
    const [field, raw] = fieldAndBody(name, body);
    const spec = isObject(raw) ? raw : { value: raw };
    checkKeys(name, spec, ['value', 'fuzziness', 'prefix_length', 'max_expansions', 'transpositions', 'rewrite', 'boost', '_name']);
    return {
      type: 'fuzzy', field, value: String(scalar(name, spec.value)), fuzziness: parseFuzziness(spec.fuzziness) ?? { kind: 'auto', low: 3, high: 6 },
      prefixLength: num(name, 'prefix_length', spec.prefix_length, 0), maxExpansions: num(name, 'max_expansions', spec.max_expansions, 50),
      transpositions: booleanValue(spec.transpositions, true), boost: boostOf(name, spec.boost), ...withRewrite(parseRewrite(spec.rewrite)),
    };
  },
  rewrite(q, ctx) {
    const mapping = resolveFieldMapping(ctx.mappings, q.field);
    if (!mapping) return { type: 'match_none' };
    const pattern = fuzzyPattern(keywordValue(q.field, q.value, ctx), q.fuzziness, q.prefixLength, q.transpositions);
    return { type: 'term_pattern', field: q.field, pattern, scoring: 'fuzzy', maxExpansions: q.maxExpansions, boost: q.boost, ...withRewrite(q.rewrite) };
  },
  print: (q, p) => explainedByName('fuzzy', p, () => {
    const f = q.fuzziness;
    const edits = f.kind === 'fixed' ? f.edits : q.value.length < f.low ? 0 : q.value.length < f.high ? 1 : 2;
    return `${q.field}:${q.value}~${edits}`;
  }),
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) {
      const edits = fuzzyEdits(q.fuzziness, q.value);
      ctx.out.predicates.push((x) => editDistanceAtMost(x, q.value, edits));
    }
  },
  // which terms a limited expansion keeps depends on the index's dictionary
  scope: () => 'index',
};

/** Documents with at least their required number of the terms (terms-set.ts). */
export const termsSetQuery: QueryType<'terms_set'> = {
  ...termLevel('terms_set'),
  parse: (body) => ({ type: 'terms_set', ...parseTermsSetQuery(body, (v) => boostOf('terms_set', v)) }),
  rewrite: (q) => q,
  *execute(q, x, scoring) {
    return yield* termsSetDocs(q, x, scoring);
  },
  matches(q, e) {
    const mapping = resolveFieldMapping(e.mappings, q.field);
    if (!mapping || q.terms.length === 0) return false;
    const required = termsSetThreshold(q, e.mappings);
    const terms = new Set(q.terms.map((v) => queryTerm(mapping, v, e.registry)).filter((t): t is string => t !== undefined));
    let count = 0;
    for (const t of terms) if (hasTerm(e, q.field, t)) count++;
    return count >= required((field) => numericDocValue(e.fields.get(field)?.values));
  },
  print: () => 'terms_set',
  highlightTerms(q, ctx) {
    if (targets(ctx, q.field)) for (const v of q.terms) ctx.out.terms.add(fieldType(ctx.mapping) === 'keyword' ? keywordTerm(ctx.mapping, String(v), ctx.registry) : String(v));
  },
  scope: () => 'document',
};
