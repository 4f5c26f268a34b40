/**
 * The span query family (span_term, span_near, span_or, span_not, span_first, span_multi,
 * span_containing, span_within, field_masking_span), parsed and refused as Elasticsearch's span
 * query builders do, and lowered to interval sources (intervals.ts): a span is an interval of
 * positions, so the executor and the live-stream document matcher run spans through the same
 * interval algebra. Scores are the interval scorer's (sloppy frequency), not Lucene's span weights.
 */
import { EsError } from '../../../../errors/index.js';
import { tokenName } from '../../../../ndjson/index.js';
import type { IntervalSource } from './intervals.js';
import { boostOf, isObject } from './query-fields.js';
import { javaFloat } from './explain-query.js';
import type { Query } from './query.js';
import { fuzzyPattern, prefixPattern, regexpPattern, wildcardPattern } from './term-patterns.js';

/** A span query as the request gives it; `field` is the field it reports (field_masking_span's). */
export type SpanQuery =
  | { kind: 'span_term'; field: string; value: string; boost: number }
  | { kind: 'span_near'; clauses: SpanQuery[]; slop: number; inOrder: boolean; boost: number }
  | { kind: 'span_or'; clauses: SpanQuery[]; boost: number }
  | { kind: 'span_not'; include: SpanQuery; exclude: SpanQuery; pre: number; post: number; boost: number }
  | { kind: 'span_first'; match: SpanQuery; end: number; boost: number }
  | { kind: 'span_multi'; match: Query; boost: number }
  | { kind: 'span_containing'; big: SpanQuery; little: SpanQuery; boost: number }
  | { kind: 'span_within'; big: SpanQuery; little: SpanQuery; boost: number }
  | { kind: 'field_masking_span'; query: SpanQuery; field: string; boost: number }
  /** `span_gap` (only among span_near's clauses): `width` positions that must lie between its neighbours. */
  | { kind: 'span_gap'; field: string; width: number; boost: number };

export const SPAN_QUERY_NAMES = new Set([
  'span_term', 'span_near', 'span_or', 'span_not', 'span_first', 'span_multi', 'span_containing', 'span_within', 'field_masking_span',
]);

/** Lucene's default for a multi-term span rewrite (indices.query.bool.max_clause_count). */
export const MAX_SPAN_MULTI_EXPANSIONS = 4096;

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function intOf(name: string, key: string, v: unknown, dflt?: number): number {
  if (v === undefined || v === null) {
    if (dflt === undefined) throw parsing(`[${name}] must include [${key}]`);
    return dflt;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw parsing(`[${name}] failed to parse field [${key}]`);
  return n;
}

function checkKeys(name: string, body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw parsing(`[${name}] query does not support [${k}]`);
}

/**
 * A clause that must itself be a span query (`{ "span_term": … }`), without a boost of its own:
 * Elasticsearch's messages (`span_near [clauses] must be of type span query`, checkNoBoost's).
 */
function spanClause(owner: string, key: string, raw: unknown, parseQuery: (q: unknown) => Query): SpanQuery {
  const notSpan = owner === 'field_masking_span' ? '[field_masking_span] query must be of type span query' : `${owner} [${key}] must be of type span query`;
  if (!isObject(raw)) throw parsing(notSpan);
  const names = Object.keys(raw);
  if (names.length !== 1 || !SPAN_QUERY_NAMES.has(names[0])) throw parsing(notSpan);
  const clause = parseSpanQuery(names[0], raw[names[0]], parseQuery);
  if (clause.boost !== 1) throw parsing(`${owner} [${key}] as a nested span clause can't have non-default boost value [${javaFloat(clause.boost)}]`);
  return clause;
}

/** Parses one span query (its name and body). */
export function parseSpanQuery(name: string, body: unknown, parseQuery: (q: unknown) => Query): SpanQuery {
  if (!isObject(body)) throw parsing(`[${name}] query malformed, no start_object after query name`);
  switch (name) {
    case 'span_term': {
      const fields = Object.keys(body).filter((k) => k !== 'boost' && k !== '_name');
      if (fields.length === 0) throw new EsError(400, 'illegal_argument_exception', 'field name is null or empty');
      if (fields.length > 1) throw parsing(`[span_term] query doesn't support multiple fields, found [${fields[0]}] and [${fields[1]}]`);
      const field = fields[0];
      const spec = body[field];
      if (isObject(spec)) {
        checkKeys(name, spec, ['value', 'term', 'boost', '_name']);
        const value = spec.value ?? spec.term;
        if (value === undefined || value === null || typeof value === 'object') throw parsing('[span_term] query requires a [value]');
        return { kind: 'span_term', field, value: String(value), boost: boostOf(name, spec.boost) };
      }
      if (spec === null || spec === undefined || Array.isArray(spec)) throw parsing(`[span_term] unexpected token [${tokenName(spec)}]`);
      return { kind: 'span_term', field, value: String(spec), boost: boostOf(name, body.boost) };
    }
    case 'span_near': {
      checkKeys(name, body, ['clauses', 'slop', 'in_order', 'collect_payloads', 'boost', '_name']);
      if (!Array.isArray(body.clauses) || body.clauses.length === 0) throw parsing('span_near must include [clauses]');
      const clauses = body.clauses.map((c) => (isObject(c) && Object.keys(c).length === 1 && 'span_gap' in c ? spanGap(c.span_gap) : spanClause(name, 'clauses', c, parseQuery)));
      if (clauses.some((c) => c.kind === 'span_gap') && (body.in_order === false || body.in_order === 'false')) {
        throw new EsError(400, 'illegal_argument_exception', 'Gaps can only be added to ordered near queries');
      }
      return {
        kind: 'span_near', clauses,
        slop: intOf(name, 'slop', body.slop, 0), inOrder: body.in_order !== false && body.in_order !== 'false', boost: boostOf(name, body.boost),
      };
    }
    case 'span_or': {
      checkKeys(name, body, ['clauses', 'boost', '_name']);
      if (!Array.isArray(body.clauses) || body.clauses.length === 0) throw parsing('span_or must include [clauses]');
      return { kind: 'span_or', clauses: body.clauses.map((c) => spanClause(name, 'clauses', c, parseQuery)), boost: boostOf(name, body.boost) };
    }
    case 'span_not': {
      checkKeys(name, body, ['include', 'exclude', 'pre', 'post', 'dist', 'boost', '_name']);
      if (body.include === undefined) throw parsing('span_not must have [include] span query clause');
      if (body.exclude === undefined) throw parsing('span_not must have [exclude] span query clause');
      if (body.dist !== undefined && (body.pre !== undefined || body.post !== undefined)) {
        throw parsing('span_not can either use [dist] or [pre] & [post] (or none)');
      }
      const dist = body.dist === undefined ? undefined : intOf(name, 'dist', body.dist);
      return {
        kind: 'span_not', include: spanClause(name, 'include', body.include, parseQuery), exclude: spanClause(name, 'exclude', body.exclude, parseQuery),
        pre: dist ?? intOf(name, 'pre', body.pre, 0), post: dist ?? intOf(name, 'post', body.post, 0), boost: boostOf(name, body.boost),
      };
    }
    case 'span_first': {
      checkKeys(name, body, ['match', 'end', 'boost', '_name']);
      if (body.match === undefined) throw parsing('span_first must have [match] span query clause');
      if (body.end === undefined) throw parsing('span_first must have [end] set for it');
      return { kind: 'span_first', match: spanClause(name, 'match', body.match, parseQuery), end: intOf(name, 'end', body.end), boost: boostOf(name, body.boost) };
    }
    case 'span_multi': {
      checkKeys(name, body, ['match', 'boost', '_name']);
      if (body.match === undefined) throw parsing('span_multi must have [match] multi term query clause');
      const match = parseQuery(body.match);
      if (!['prefix', 'wildcard', 'regexp', 'fuzzy', 'range'].includes(match.type)) throw parsing('[span_multi] [match] must be of type multi term query');
      return { kind: 'span_multi', match, boost: boostOf(name, body.boost) };
    }
    case 'span_containing':
    case 'span_within': {
      checkKeys(name, body, ['big', 'little', 'boost', '_name']);
      // Elasticsearch's builder refuses a missing clause
      if (body.big === undefined) throw new EsError(400, 'illegal_argument_exception', 'inner clause [big] cannot be null.');
      if (body.little === undefined) throw new EsError(400, 'illegal_argument_exception', 'inner clause [little] cannot be null.');
      return {
        kind: name, big: spanClause(name, 'big', body.big, parseQuery), little: spanClause(name, 'little', body.little, parseQuery), boost: boostOf(name, body.boost),
      };
    }
    case 'field_masking_span': {
      checkKeys(name, body, ['query', 'field', 'boost', '_name']);
      if (body.query === undefined) throw parsing('field_masking_span must have [query] span query clause');
      if (typeof body.field !== 'string') throw parsing('field_masking_span must have [field] set for it');
      return { kind: 'field_masking_span', query: spanClause(name, 'query', body.query, parseQuery), field: body.field, boost: boostOf(name, body.boost) };
    }
    default:
      throw parsing(`unknown query [${name}]`);
  }
}

/** `{"span_gap": {"field": width}}`. */
function spanGap(body: unknown): SpanQuery {
  if (!isObject(body) || Object.keys(body).length !== 1) throw parsing('[span_gap] must include a single field and its width');
  const [field, width] = Object.entries(body)[0];
  return { kind: 'span_gap', field, width: intOf('span_gap', field, width), boost: 1 };
}

/** The field a span reports (the one a field_masking_span names, else its terms' field). */
export function spanField(span: SpanQuery): string {
  switch (span.kind) {
    case 'span_term':
    case 'field_masking_span':
    case 'span_gap':
      return span.field;
    case 'span_multi':
      return 'field' in span.match ? span.match.field : '';
    case 'span_near':
    case 'span_or':
      return spanField(span.clauses[0]);
    case 'span_not':
      return spanField(span.include);
    case 'span_first':
      return spanField(span.match);
    case 'span_containing':
    case 'span_within':
      return spanField(span.big);
  }
}

function sameField(owner: string, spans: SpanQuery[]): void {
  const fields = new Set(spans.map(spanField));
  if (fields.size > 1) throw new EsError(400, 'illegal_argument_exception', owner === 'span_near' || owner === 'span_or' ? 'Clauses must have same field.' : `[${owner}] clauses must have same field`);
}

/** What lowering needs of the mappings: the term a span_term value is (keyword normalizers), how multi-term patterns read. */
export interface SpanAnalysis {
  term(field: string, value: string): string;
  /** A multi-term query's pattern (prefix, wildcard, regexp, fuzzy, range) over the field's terms. */
  multiTerm(match: Query): IntervalSource;
}

/** A span query as an interval source. */
export function lowerSpan(span: SpanQuery, a: SpanAnalysis): IntervalSource {
  switch (span.kind) {
    case 'span_term':
      return { kind: 'term', field: span.field, term: a.term(span.field, span.value) };
    case 'span_near': {
      sameField('span_near', span.clauses);
      // a gap widens the clause after it by its width (that many positions must come first)
      const subs: IntervalSource[] = [];
      let gap = 0;
      for (const c of span.clauses) {
        if (c.kind === 'span_gap') {
          gap += c.width;
          continue;
        }
        const source = lowerSpan(c, a);
        subs.push(gap > 0 && subs.length > 0 ? { kind: 'extend', source, before: gap } : source);
        gap = 0;
      }
      if (subs.length === 1) return subs[0];
      if (span.slop === 0 && span.inOrder) return { kind: 'phrase', subs };
      return { kind: span.inOrder ? 'ordered' : 'unordered', subs, maxGaps: span.slop };
    }
    case 'span_or': {
      sameField('span_or', span.clauses);
      const subs = span.clauses.map((c) => lowerSpan(c, a));
      return subs.length === 1 ? subs[0] : { kind: 'or', subs };
    }
    case 'span_not':
      sameField('span_not', [span.include, span.exclude]);
      return { kind: 'not', source: lowerSpan(span.include, a), exclude: lowerSpan(span.exclude, a), pre: span.pre, post: span.post };
    case 'span_first':
      return { kind: 'first', source: lowerSpan(span.match, a), end: span.end };
    case 'span_multi':
      return a.multiTerm(span.match);
    case 'span_containing':
      sameField('span_containing', [span.big, span.little]);
      return { kind: 'filtered', source: lowerSpan(span.big, a), relation: 'containing', filter: lowerSpan(span.little, a) };
    case 'span_within':
      sameField('span_within', [span.big, span.little]);
      return { kind: 'filtered', source: lowerSpan(span.little, a), relation: 'contained_by', filter: lowerSpan(span.big, a) };
    case 'field_masking_span':
      // The inner span keeps reading its own field's positions; only the reported field changes.
      return lowerSpan(span.query, a);
    case 'span_gap':
      return { kind: 'none' };
  }
}

/** The patterns of span_multi's multi-term queries (their text as given, lowercased when case_insensitive). */
export function multiTermSource(match: Query, normalize: (field: string, value: string) => string, rangeTest?: (field: string) => ((t: string) => boolean) | undefined): IntervalSource {
  switch (match.type) {
    case 'prefix':
      return { kind: 'pattern', field: match.field, pattern: prefixPattern(normalize(match.field, match.value), match.caseInsensitive), maxExpansions: MAX_SPAN_MULTI_EXPANSIONS };
    case 'wildcard':
      return { kind: 'pattern', field: match.field, pattern: wildcardPattern(normalize(match.field, match.value), match.caseInsensitive), maxExpansions: MAX_SPAN_MULTI_EXPANSIONS };
    case 'regexp':
      return { kind: 'pattern', field: match.field, pattern: regexpPattern(match.value, match.caseInsensitive), maxExpansions: MAX_SPAN_MULTI_EXPANSIONS };
    case 'fuzzy':
      return {
        kind: 'pattern', field: match.field, pattern: fuzzyPattern(normalize(match.field, match.value), match.fuzziness, match.prefixLength, match.transpositions),
        maxExpansions: match.maxExpansions,
      };
    case 'range': {
      const test = rangeTest?.(match.field);
      return test ? { kind: 'pattern', field: match.field, pattern: { prefix: '', test }, maxExpansions: MAX_SPAN_MULTI_EXPANSIONS } : { kind: 'none' };
    }
    default:
      throw parsing('[span_multi] [match] must be of type multi term query');
  }
}

/** The boost of the outermost span (what the lowered interval query scores with). */
export function spanBoost(span: SpanQuery): number {
  return span.boost;
}
