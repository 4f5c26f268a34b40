import { EsError } from '../../../../errors/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import type { AnalysisRegistry, Token } from '../../analysis/index.js';
import { NUMERIC_TYPES, RANGE_TYPES, bigIntToIp, cidrBounds, fieldType, isRangeType, resolveFieldMapping, type FieldMapping, type Mappings } from '../../mapping/index.js';
import { boolPrefixQuery, matchQuery, phraseQuery, positionGroups, synonymClause, termClause } from './analyzed-query.js';
import { intervalsUseFields, lowerIntervals, type IntervalsAnalysis } from './intervals.js';
import { inRange, rangeBounds } from './field-rules.js';
import { lowerSpan, multiTermSource, type SpanAnalysis } from './span-queries.js';
import { prefixPattern } from './term-patterns.js';
import { queryTerm } from './query-terms.js';
import type { FullTextOptions, Query, Scalar } from './query.js';
import { queryTypeOf } from './query-type.js';

export interface RewriteContext {
  mappings: Mappings;
  registry: AnalysisRegistry;
  /**
   * The concrete index the query runs on, for queries on the `_index` metadata field (which
   * Elasticsearch rewrites per shard into match_all or match_none); unknown: they match nothing.
   */
  indexName?: string;
}

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);
const NONE: Query = { type: 'match_none' };

/** The analyzer a full-text query uses on a field: query's, search_analyzer, analyzer, index defaults. */
function searchAnalyzer(mapping: FieldMapping, registry: AnalysisRegistry, override?: string): string {
  if (override) return override;
  if (typeof mapping.search_analyzer === 'string') return mapping.search_analyzer;
  if (typeof mapping.analyzer === 'string') return mapping.analyzer;
  if (registry.hasAnalyzer('default_search')) return 'default_search';
  return registry.hasAnalyzer('default') ? 'default' : 'standard';
}

/**
 * The query text as the field's search analyzer (or the query's) tokenizes it; without the
 * position lengths when the analyzer disables graph queries (shingles), as ES does.
 */
function analyze(mapping: FieldMapping, registry: AnalysisRegistry, text: string, analyzer?: string): Token[] {
  const chosen = registry.analyzer(searchAnalyzer(mapping, registry, analyzer));
  const tokens = chosen.analyze(text);
  return chosen.graphQueries === false ? tokens.map(({ positionLength: _, ...token }) => token) : tokens;
}

/** A non-text field's match: the value as a term (keyword normalizer, number, date…); lenient swallows bad values. */
function valueMatch(field: string, mapping: FieldMapping, value: Scalar, boost: number, ctx: RewriteContext, lenient: boolean): Query {
  try {
    const term = queryTerm(mapping, value, ctx.registry);
    return term === undefined ? NONE : termClause(field, mapping, term, boost, undefined);
  } catch (err) {
    if (lenient) return NONE;
    throw err;
  }
}

function zeroTerms(kind: 'none' | 'all'): Query {
  return kind === 'all' ? { type: 'match_all', boost: 1 } : NONE;
}

/**
 * A full-text query on `_id`: the document with that id. Elasticsearch's `_id` field type is
 * term-based (its analyzer keeps the text whole), so match, match_phrase, query_string and
 * simple_query_string find the id as term does; undefined for any other field.
 */
function idMatch(field: string, text: Scalar, boost: number): Query | undefined {
  return field === '_id' ? { type: 'ids', values: [String(text)], boost } : undefined;
}

export function rewriteMatch(field: string, text: Scalar, o: FullTextOptions, boost: number, ctx: RewriteContext): Query {
  const mapping = resolveFieldMapping(ctx.mappings, field);
  if (!mapping) return idMatch(field, text, boost) ?? NONE;
  if (!TEXT_TYPES.has(fieldType(mapping))) return valueMatch(field, mapping, text, boost, ctx, o.lenient);
  const tokens = analyze(mapping, ctx.registry, String(text), o.analyzer);
  return tokens.length ? matchQuery(field, mapping, tokens, o, boost) : zeroTerms(o.zeroTermsQuery);
}

export function rewritePhrase(field: string, text: string, slop: number, analyzer: string | undefined, zero: 'none' | 'all', boost: number, ctx: RewriteContext, prefixExpansions?: number): Query {
  const mapping = resolveFieldMapping(ctx.mappings, field);
  if (!mapping) return (prefixExpansions === undefined ? idMatch(field, text, boost) : undefined) ?? NONE;
  if (!TEXT_TYPES.has(fieldType(mapping))) {
    if (prefixExpansions !== undefined) return { type: 'term_pattern', field, pattern: prefixPattern(String(text), false), scoring: 'constant', maxExpansions: prefixExpansions, boost };
    return valueMatch(field, mapping, text, boost, ctx, false);
  }
  const tokens = analyze(mapping, ctx.registry, text, analyzer);
  return tokens.length ? phraseQuery(field, mapping, tokens, slop, boost, prefixExpansions) : zeroTerms(zero);
}

export function rewriteBoolPrefix(field: string, text: string, o: FullTextOptions, boost: number, ctx: RewriteContext): Query {
  const mapping = resolveFieldMapping(ctx.mappings, field);
  if (!mapping) return NONE;
  if (!TEXT_TYPES.has(fieldType(mapping))) return valueMatch(field, mapping, text, boost, ctx, o.lenient);
  const tokens = analyze(mapping, ctx.registry, text, o.analyzer);
  return tokens.length ? boolPrefixQuery(field, mapping, tokens, o, boost) : zeroTerms(o.zeroTermsQuery);
}

/** Leaf field paths of the mappings (objects walked, multi-fields included), for field patterns. */
function leafFields(mappings: Mappings): Array<[string, FieldMapping]> {
  const out: Array<[string, FieldMapping]> = [];
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      const path = prefix + name;
      const type = fieldType(m);
      if (type === 'object' || type === 'nested') walk(m.properties, path + '.');
      else {
        out.push([path, m]);
        for (const [sub, sm] of Object.entries(m.fields ?? {})) out.push([`${path}.${sub}`, sm]);
      }
    }
  };
  walk(mappings.properties, '');
  return out;
}

/** `name^3`, `title.*`, `*` → concrete fields with boosts. */
export function expandFields(specs: string[], mappings: Mappings): Array<{ field: string; boost: number }> {
  const out: Array<{ field: string; boost: number }> = [];
  for (const spec of specs) {
    const caret = spec.lastIndexOf('^');
    const pattern = caret > 0 ? spec.slice(0, caret) : spec;
    const boost = caret > 0 ? Number(spec.slice(caret + 1)) : 1;
    if (!pattern.includes('*')) {
      out.push({ field: aliasTarget(pattern, mappings), boost });
      continue;
    }
    for (const [path, m] of leafFields(mappings)) {
      const type = fieldType(m);
      if (pattern === '*' && !TEXT_TYPES.has(type) && type !== 'keyword') continue;
      const field = aliasTarget(path, mappings);
      if (simpleMatch(pattern, path) && !out.some((o) => o.field === field)) out.push({ field, boost });
    }
  }
  return out;
}

export function rewriteMultiMatch(q: Extract<Query, { type: 'multi_match' }>, ctx: RewriteContext): Query {
  const fields = expandFields(q.fields, ctx.mappings);
  if (!fields.length) return NONE;
  const o = q.options;
  const lenient = { ...o, lenient: o.lenient || q.fields.some((f) => f.includes('*')) };
  const perField = fields.map(({ field, boost }) => {
    switch (q.matchType) {
      case 'phrase':
        return rewritePhrase(field, String(q.query), q.slop, o.analyzer, o.zeroTermsQuery, boost, ctx);
      case 'phrase_prefix':
        return rewritePhrase(field, String(q.query), q.slop, o.analyzer, o.zeroTermsQuery, boost, ctx, o.maxExpansions);
      case 'bool_prefix':
        return rewriteBoolPrefix(field, String(q.query), lenient, boost, ctx);
      default:
        return rewriteMatch(field, q.query, lenient, boost, ctx);
    }
  });
  if (q.matchType === 'cross_fields') return rewriteCrossFields(q, fields, ctx);
  if (perField.length === 1) return { type: 'bool', must: [perField[0]], filter: [], should: [], mustNot: [], boost: q.boost };
  if (q.matchType === 'most_fields' || q.matchType === 'bool_prefix') {
    return { type: 'bool', must: [], filter: [], should: perField, mustNot: [], boost: q.boost };
  }
  return { type: 'dis_max', queries: perField, tieBreaker: q.tieBreaker ?? 0, boost: q.boost };
}

/** cross_fields: each term must be found in any field (dis_max per term over the fields). Term statistics are not blended. */
function rewriteCrossFields(q: Extract<Query, { type: 'multi_match' }>, fields: Array<{ field: string; boost: number }>, ctx: RewriteContext): Query {
  const perPosition: Query[][] = [];
  for (const { field, boost } of fields) {
    const mapping = resolveFieldMapping(ctx.mappings, field);
    if (!mapping) continue;
    if (!TEXT_TYPES.has(fieldType(mapping))) {
      (perPosition[0] ??= []).push(valueMatch(field, mapping, q.query, boost, ctx, true));
      continue;
    }
    positionGroups(analyze(mapping, ctx.registry, String(q.query), q.options.analyzer)).groups.forEach((g, i) => {
      (perPosition[i] ??= []).push(synonymClause(field, mapping, g, boost, q.options));
    });
  }
  if (!perPosition.length) return zeroTerms(q.options.zeroTermsQuery);
  const clauses: Query[] = perPosition.map((qs) => ({ type: 'dis_max', queries: qs, tieBreaker: q.tieBreaker ?? 0, boost: 1 }));
  if (q.options.operator === 'and') return { type: 'bool', must: clauses, filter: [], should: [], mustNot: [], boost: q.boost };
  return { type: 'bool', must: [], filter: [], should: clauses, mustNot: [], minimumShouldMatch: q.options.minimumShouldMatch, boost: q.boost };
}

/**
 * An intervals query against the field's analysis; as in Elasticsearch, it matches nothing when
 * its field or a `use_field` is unmapped, and is refused on fields without positions.
 */
export function rewriteIntervals(q: Extract<Query, { type: 'intervals' }>, ctx: RewriteContext): Query {
  const fields = [q.field, ...intervalsUseFields(q.rule)];
  if (fields.some((field) => !resolveFieldMapping(ctx.mappings, field))) return NONE;
  const mappingOf = (field: string): FieldMapping => {
    const m = resolveFieldMapping(ctx.mappings, field)!;
    const type = fieldType(m);
    if (!TEXT_TYPES.has(type)) throw new EsError(400, 'illegal_argument_exception', `Can only use interval queries on text fields - not on [${field}] which is of type [${type}]`);
    return m;
  };
  mappingOf(q.field);
  const analysis: IntervalsAnalysis = {
    analyze: (field, text, analyzer) => analyze(mappingOf(field), ctx.registry, text, analyzer),
    normalize: (field, text, analyzer) => {
      // Analyzers have no normalize step here: a term is lowercased when the analyzer lowercases.
      const chosen = ctx.registry.analyzer(searchAnalyzer(mappingOf(field), ctx.registry, analyzer));
      return chosen.analyze('Xx').some((t) => t.token === 'xx') ? text.toLowerCase() : text;
    },
  };
  return { type: 'interval_source', field: q.field, source: lowerIntervals(q.rule, q.field, analysis), boost: q.boost };
}

/** A span query as an interval query: matches nothing when its field is unmapped (as Lucene's span queries on a missing field). */
export function rewriteSpan(q: Extract<Query, { type: 'span' }>, ctx: RewriteContext): Query {
  if (!resolveFieldMapping(ctx.mappings, q.field)) return NONE;
  const analysis: SpanAnalysis = {
    term: (field, value) => {
      // ES's SpanTermQueryBuilder refuses a field indexed without positions
      if (resolveFieldMapping(ctx.mappings, field)?.type === 'match_only_text') throw new EsError(400, 'illegal_argument_exception', `Span term query requires position data, but field ${field} was indexed without position data`);
      return keywordValue(field, value, ctx);
    },
    multiTerm: (match) => multiTermSource(match, (field, value) => keywordValue(field, value, ctx), (field) => {
      const mapping = resolveFieldMapping(ctx.mappings, field);
      if (!mapping || match.type !== 'range') return undefined;
      const bounds = rangeBounds(match, mapping, ctx.registry, Date.now());
      return bounds.numeric ? undefined : (t) => inRange(t, bounds);
    }),
  };
  return { type: 'interval_source', field: q.field, source: lowerSpan(q.span, analysis), boost: q.boost, scoring: 'span' };
}

export function keywordValue(field: string, value: string, ctx: RewriteContext): string {
  const mapping = resolveFieldMapping(ctx.mappings, field);
  if (!mapping) return value;
  const type = fieldType(mapping);
  if (type === 'keyword' && typeof mapping.normalizer === 'string') return queryTerm(mapping, value, ctx.registry) ?? value;
  return value;
}

/**
 * Rewrites a query against the mappings and analyzers: full-text queries become analyzed term,
 * phrase and pattern clauses; compound queries are rewritten recursively. Deterministic, so the
 * executor and the document matcher see the same clauses.
 */
/**
 * A query on the `_index` metadata field, decided against the index it runs on: every document
 * (a constant score of its boost) or none. Undefined for any other query.
 */
function indexFieldQuery(q: Query, ctx: RewriteContext): Query | undefined {
  if (!('field' in q) || q.field !== '_index') return undefined;
  const type = queryTypeOf(q);
  if (!type.matchesIndexName) return undefined;
  return type.matchesIndexName(q, ctx.indexName) ? { type: 'match_all', boost: 'boost' in q && typeof q.boost === 'number' ? q.boost : 1 } : NONE;
}

/** Metadata fields every document has (ES: exists matches all; `_source` is not searchable at all). */
// (`_primary_term` is doc values without a field type: exists finds nothing, as on an unmapped field)
const ALWAYS_PRESENT = new Set(['_id', '_index', '_seq_no', '_version', '_type']);

/**
 * A query on a metadata field other than `_index`, as Elasticsearch's metadata field types answer
 * it; undefined for any other query.
 */
function metadataFieldQuery(q: Query, ctx: RewriteContext): Query | undefined {
  if (!('field' in q) || typeof q.field !== 'string' || !q.field.startsWith('_')) return undefined;
  if (q.field === '_source') throw new EsError(400, 'query_shard_exception', 'The _source field is not searchable');
  // _version has doc values only (exists works); its field type refuses term-level queries
  if (q.field === '_version' && q.type !== 'exists') throw new EsError(400, 'query_shard_exception', 'The _version field is not searchable');
  if (resolveFieldMapping(ctx.mappings, q.field) !== undefined && q.field !== '_routing') return undefined;
  const boost = 'boost' in q && typeof q.boost === 'number' ? q.boost : 1;
  if (q.type === 'exists' && ALWAYS_PRESENT.has(q.field)) return { type: 'match_all', boost };
  if (q.field === '_id' && q.type === 'term') return { type: 'ids', values: [String(q.value)], boost };
  if (q.field === '_id' && q.type === 'terms') return { type: 'ids', values: q.values.map(String), boost };
  return undefined;
}

/**
 * Field types whose values are not terms a pattern can run over: Elasticsearch's field types for
 * them refuse prefix, wildcard, regexp and fuzzy queries (MappedFieldType's defaults) instead of
 * matching nothing. `_seq_no` is such a field too (a long point), unlike the keyword-like
 * metadata fields (`_id`, `_index`, `_routing`).
 */
const NOT_PATTERN_TYPES = new Set([...NUMERIC_TYPES, ...RANGE_TYPES, 'date', 'date_nanos', 'boolean', 'ip', 'geo_point', 'binary', 'dense_vector', '_seq_no']);
const PATTERN_FIELDS = { prefix: 'keyword, text and wildcard', wildcard: 'keyword, text and wildcard', regexp: 'keyword and text', fuzzy: 'keyword and text' } as const;

function refusePatternQueryOnValues(q: Query, ctx: RewriteContext): void {
  if (q.type !== 'prefix' && q.type !== 'wildcard' && q.type !== 'regexp' && q.type !== 'fuzzy') return;
  const mapping = q.field === '_seq_no' ? undefined : resolveFieldMapping(ctx.mappings, q.field);
  const type = q.field === '_seq_no' ? '_seq_no' : mapping && fieldType(mapping);
  if (type === undefined || !NOT_PATTERN_TYPES.has(type)) return;
  throw new EsError(400, 'query_shard_exception', `Can only use ${q.type} queries on ${PATTERN_FIELDS[q.type]} fields - not on [${q.field}] which is of type [${type}]`);
}

/** A term (terms) query on a range field: the documents whose intervals hold the value (ES's RangeFieldType.termQuery). */
function rangeFieldTermQuery(q: Query, ctx: RewriteContext): Query | undefined {
  if (q.type !== 'term' && q.type !== 'terms') return undefined;
  const mapping = resolveFieldMapping(ctx.mappings, q.field);
  if (!mapping || !isRangeType(fieldType(mapping))) return undefined;
  const point = (v: Scalar): Query => ({ type: 'range', field: q.field, gte: v, lte: v, relation: 'intersects', boost: q.boost });
  if (q.type === 'term') return point(q.value);
  return { type: 'bool', must: [], filter: [], should: q.values.map(point), mustNot: [], boost: q.boost };
}

/**
 * A term (terms) query on an ip field naming a CIDR block (`10.0.0.0/8`): the addresses in it, a
 * range (ES's IpFieldType.termQuery); undefined when no value is one.
 */
function ipBlockTermQuery(q: Query, ctx: RewriteContext): Query | undefined {
  if (q.type !== 'term' && q.type !== 'terms') return undefined;
  const values = q.type === 'term' ? [q.value] : q.values;
  if (!values.some((v) => typeof v === 'string' && v.includes('/'))) return undefined;
  const mapping = resolveFieldMapping(ctx.mappings, q.field);
  if (!mapping || fieldType(mapping) !== 'ip') return undefined;
  const clause = (v: Scalar): Query => {
    if (typeof v !== 'string' || !v.includes('/')) return { type: 'term', field: q.field, value: v, caseInsensitive: false, boost: q.boost };
    const block = cidrBounds(v.trim());
    if (!block) throw new EsError(400, 'query_shard_exception', `failed to create query: Expected [ip/prefix] but was [${v}]`);
    return { type: 'range', field: q.field, gte: bigIntToIp(block[0]), lte: bigIntToIp(block[1]), boost: q.boost };
  };
  if (q.type === 'term') return clause(q.value);
  return { type: 'bool', must: [], filter: [], should: q.values.map(clause), mustNot: [], boost: q.boost };
}

export function rewriteQuery(query: Query, ctx: RewriteContext): Query {
  const q = throughFieldAlias(query, ctx.mappings);
  refusePatternQueryOnValues(q, ctx);
  const onIndex = indexFieldQuery(q, ctx) ?? metadataFieldQuery(q, ctx) ?? rangeFieldTermQuery(q, ctx) ?? ipBlockTermQuery(q, ctx);
  if (onIndex) return onIndex;
  return queryTypeOf(q).rewrite(q, ctx);
}

/**
 * A query on a field alias (`type: alias`) runs on the field it points to, as Elasticsearch's
 * mapping lookup resolves it. Under a credential's field rules the mappings are the view that
 * leaves out a hidden field and every alias to one (access/field-subset.ts): such an alias
 * resolves to nothing and matches nothing.
 */
function throughFieldAlias(q: Query, mappings: Mappings): Query {
  const field = (q as { field?: unknown }).field;
  if (typeof field !== 'string') return q;
  const target = aliasTarget(field, mappings);
  return target === field ? q : ({ ...q, field: target } as Query);
}

/** The field a field alias points to; any other name as it is. */
function aliasTarget(field: string, mappings: Mappings): string {
  if (field.startsWith('_')) return field;
  const mapping = resolveFieldMapping(mappings, field);
  return mapping?.type === 'alias' && typeof mapping.path === 'string' ? mapping.path : field;
}
