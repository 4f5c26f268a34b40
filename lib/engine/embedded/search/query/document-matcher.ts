import type { AnalysisRegistry } from '../../analysis/index.js';
import { fieldType, ipToBigInt, parseDocument, resolveFieldMapping, type EpochTime, type IndexableField, type Mappings, type ParsedDocument } from '../../mapping/index.js';
import { arcDistance, parseDistance, parseGeoPoint } from '../../mapping/geo-point.js';
import { closestDistance, distanceOrigin, rankFeatureSource } from './field-features.js';
import { checkedPerCandidate, decayOfValues, phraseFreq, resolveDecay } from './field-rules.js';
import { intervalsOf } from './intervals.js';
import { buildMoreLikeThis, indexTermsOf } from './more-like-this.js';
import { parseQuery } from './parse-query.js';
import { requiredShouldMatches, type Query } from './query.js';
import { queryTypeOf, type QueryOf } from './query-type.js';
import { queryTerm } from './query-terms.js';
import { rewriteQuery } from './rewrite-query.js';
import { FILTER_CONTEXT } from '../../painless/index.js';
import { ParsedDocFields, asSearchFailure, prepareScript, runOnDocument } from '../scripts/index.js';

export interface MatchContext {
  mappings: Mappings;
  registry: AnalysisRegistry;
  /** Epoch ms for date math (`now`); defaults to the current time. */
  now?: number;
  /** The index's name, for queries on the `_index` metadata field. */
  indexName?: string;
}

export interface CandidateDocument {
  id: string;
  source: Record<string, unknown>;
}

export interface Evaluated {
  id: string;
  indexName?: string;
  fields: Map<string, IndexableField>;
  nested?: ParsedDocument['nested'];
  mappings: Mappings;
  registry: AnalysisRegistry;
  now: number;
}

const GEO = { parsePoint: parseGeoPoint, distance: parseDistance, arc: arcDistance };

export function hasTerm(e: Evaluated, field: string, term: string): boolean {
  return e.fields.get(field)?.terms.includes(term) ?? false;
}

export function anyTerm(e: Evaluated, field: string, test: (t: string) => boolean): boolean {
  const terms = e.fields.get(field)?.terms;
  if (!terms) return false;
  for (const t of terms) if (test(t)) return true;
  return false;
}

export function termMatches(e: Evaluated, field: string, value: string | number | boolean, caseInsensitive = false): boolean {
  if (field === '_id') return String(value) === e.id;
  const mapping = resolveFieldMapping(e.mappings, field);
  if (!mapping) return false;
  const term = queryTerm(mapping, value, e.registry);
  if (term === undefined) return false;
  if (caseInsensitive) {
    const lower = term.toLowerCase();
    return anyTerm(e, field, (t) => t.toLowerCase() === lower);
  }
  return hasTerm(e, field, term);
}

/**
 * The field types whose postings keep positions (the inverted index's FieldIndex.positional):
 * interval and span queries find nothing in any other, a keyword's one token included.
 */
const POSITIONAL_TYPES: ReadonlySet<string> = new Set(['text', 'match_only_text', 'search_as_you_type']);

function positionsOf(field: IndexableField, test: (t: string) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < field.terms.length; i++) if (test(field.terms[i])) out.push(field.positions[i]);
  return out.sort((a, b) => a - b);
}

/** The `exists` query: the field, or a field under it (an object's), has a term or a doc value. */
export function fieldExists(fields: ReadonlyMap<string, IndexableField>, path: string): boolean {
  const has = (f: IndexableField) => f.terms.length > 0 || f.values.length > 0;
  const own = fields.get(path);
  if (own && has(own)) return true;
  const prefix = path + '.';
  for (const [name, f] of fields) if (name.startsWith(prefix) && has(f)) return true;
  return false;
}

/**
 * What a range query compares with its bounds (`rangeBounds`): the doc values when the bounds are
 * numeric (a boolean field's as 0 and 1), the indexed terms otherwise.
 */
export function rangeOperands(field: IndexableField, numeric: boolean, booleanField: boolean): ReadonlyArray<EpochTime | string> {
  if (!numeric) return field.terms;
  // an ip's addresses as numbers, as its range bounds are
  if (field.type === 'ip') return field.values.map((v) => ipToBigInt(String(v)) ?? -1n);
  return booleanField ? field.values.map((v) => (v ? 1 : 0)) : (field.values as EpochTime[]);
}

/** bool, in the executor's order: once a required clause is run, scripts and doc-value ranges are checked last. */
export function boolMatches(q: QueryOf<'bool'>, e: Evaluated): boolean {
  const required = [...q.must, ...q.filter];
  const checked = required.map((c) => checkedPerCandidate(c, e.mappings, e.registry, e.now));
  const ordered = checked.includes(false) ? [...required.filter((_, i) => !checked[i]), ...required.filter((_, i) => checked[i])] : required;
  if (!ordered.every((c) => evaluate(c, e))) return false;
  if (q.mustNot.some((c) => evaluate(c, e))) return false;
  const needed = requiredShouldMatches(q.minimumShouldMatch, q.should.length, q.must.length + q.filter.length > 0);
  if (needed === 0) return true;
  let matched = 0;
  for (const c of q.should) if (evaluate(c, e) && ++matched >= needed) return true;
  return false;
}

export function phraseMatches(q: QueryOf<'phrase'>, e: Evaluated): boolean {
  const field = e.fields.get(q.field);
  if (!field || field.type === 'keyword') return false;
  return q.paths.some(({ terms, offsets }) => {
    const last = terms.length - 1;
    const positions = terms.map((alts, gi) =>
      positionsOf(field, q.prefixExpansions !== undefined && gi === last ? (t) => alts.some((a) => t.startsWith(a)) : (t) => alts.includes(t)));
    return positions.every((p) => p.length > 0) && phraseFreq(positions, offsets, q.slop) > 0;
  });
}

export function functionScoreMatches(q: QueryOf<'function_score'>, e: Evaluated): boolean {
  if (!evaluate(q.query, e)) return false;
  // min_score depends on scores (index statistics) except when every function is a filter-free decay/weight on a constant query;
  // the matcher checks it only for decay functions over a match_all query (the common "near me" case).
  if (q.minScore === undefined || q.query.type !== 'match_all') return true;
  let score = 1;
  for (const fn of q.functions) {
    if (fn.filter && !evaluate(fn.filter, e)) continue;
    if (fn.decay) {
      const r = resolveDecay(fn.decay, resolveFieldMapping(e.mappings, fn.decay.field), e.now, GEO);
      score *= decayOfValues(fn.decay, r, e.fields.get(fn.decay.field)?.values);
    }
    score *= fn.weight ?? 1;
  }
  return Math.fround(score) >= q.minScore;
}

export function rankFeatureMatches(q: QueryOf<'rank_feature'>, e: Evaluated): boolean {
  const source = rankFeatureSource(q, e.mappings);
  return source !== undefined && (e.fields.get(source.field)?.values.length ?? 0) > 0;
}

export function distanceFeatureMatches(q: QueryOf<'distance_feature'>, e: Evaluated): boolean {
  const origin = distanceOrigin(q, e.mappings, e.now);
  return origin !== undefined && closestDistance(origin, e.fields.get(q.field)?.values ?? []) !== undefined;
}

export function intervalSourceMatches(q: QueryOf<'interval_source'>, e: Evaluated): boolean {
  return intervalsOf(q.source, (leaf) => {
    const field = e.fields.get(leaf.field);
    // as the executor reads positions: only from the postings of a positional field
    if (!field || !POSITIONAL_TYPES.has(field.type)) return [];
    return positionsOf(field, leaf.kind === 'term' ? (t) => t === leaf.term : (t) => leaf.pattern.test(t));
  }).length > 0;
}

export function combinedTermMatches(q: QueryOf<'combined_term'>, e: Evaluated): boolean {
  return q.fields.some(({ field }) => q.terms.some((t) => hasTerm(e, field, t)));
}

export function moreLikeThisMatches(q: QueryOf<'more_like_this'>, e: Evaluated): boolean {
  // Without index statistics every candidate term passes the document frequency limits.
  const lowered = buildMoreLikeThis({ ...q.mlt, minDocFreq: 0, maxDocFreq: Number.MAX_SAFE_INTEGER }, q.boost, {
    numDocs: 1,
    docFreq: () => 1,
    typeOf: (field) => {
      const m = resolveFieldMapping(e.mappings, field);
      return m ? fieldType(m) : undefined;
    },
    defaultFields: () => [...e.fields.keys()].filter((field) => {
      const m = resolveFieldMapping(e.mappings, field);
      return m !== undefined && ['text', 'keyword', 'match_only_text'].includes(fieldType(m));
    }),
    terms: (field, text, analyzer) => indexTermsOf(field, text, analyzer, e.mappings, e.registry),
  });
  return evaluate(lowered, e);
}

export function scriptMatches(q: QueryOf<'script'>, e: Evaluated): boolean {
  return runOnDocument(prepareScript(q.script, FILTER_CONTEXT), new ParsedDocFields(e.fields, e.mappings, e.indexName ?? ''), undefined) === true;
}

export function evaluate(q: Query, e: Evaluated): boolean {
  return queryTypeOf(q).matches(q, e);
}

/**
 * Does this one document match this query? Works on the document, the index's mappings and
 * analysis alone — no index — so live search streams can test a changed document. The same
 * semantics as the index executor (execute-query.ts): both run the clauses of `rewriteQuery`.
 * Known differences: expansions limited by `max_expansions` (fuzzy, phrase prefix) depend on the
 * index's dictionary, so the matcher accepts every term within the distance; `min_score` of a
 * function_score over a scored query is not applied; more_like_this selects its terms by their
 * frequency in the liked texts alone (document frequencies need the index).
 */
export function documentMatches(query: Query, candidate: CandidateDocument, ctx: MatchContext): boolean {
  const doc = prepareDocument(candidate, ctx);
  return doc !== undefined && preparedMatches(rewriteQuery(query, doc.evaluated as Evaluated), doc);
}

/** Parses a query DSL object once and returns a predicate over documents. */
export function createDocumentMatcher(dsl: unknown, ctx: MatchContext): (candidate: CandidateDocument) => boolean {
  const query = dsl === undefined ? ({ type: 'match_all', boost: 1 } as Query) : parseQuery(dsl);
  return (candidate) => documentMatches(query, candidate, ctx);
}

/**
 * A document parsed once, to be tested against many queries (live search streams match each
 * changed document against every live search of its index).
 */
export interface PreparedDocument {
  readonly id: string;
  /** Field path → indexed terms: what a percolator-style index looks candidates up by. */
  readonly fields: ReadonlyMap<string, IndexableField>;
  /** The index's mappings after this document when it introduced new fields (queries must be rewritten with them). */
  readonly newMappings?: Mappings;
  readonly evaluated: unknown;
}

/** Parses the candidate once; undefined when it does not fit the mappings (it matches nothing). */
export function prepareDocument(candidate: CandidateDocument, ctx: MatchContext): PreparedDocument | undefined {
  let doc: ParsedDocument;
  try {
    doc = parseDocument(candidate.source, ctx.mappings, ctx.registry, candidate.id);
  } catch {
    return undefined;
  }
  const mappings = doc.mappings ?? ctx.mappings;
  const evaluated: Evaluated = { id: candidate.id, indexName: ctx.indexName, fields: doc.fields, nested: doc.nested, mappings, registry: ctx.registry, now: ctx.now ?? Date.now() };
  return { id: candidate.id, fields: doc.fields, newMappings: doc.mappings, evaluated };
}

/**
 * Does the prepared document match a query already rewritten (`rewriteQuery`) for its mappings?
 * A script that fails on the document throws what a search of its index answers then (the shard
 * fails: search_phase_execution_exception), as Elasticsearch runs script queries at search time.
 */
export function preparedMatches(rewritten: Query, doc: PreparedDocument): boolean {
  const e = doc.evaluated as Evaluated;
  try {
    return evaluate(rewritten, e);
  } catch (err) {
    throw asSearchFailure(err, e.indexName);
  }
}
