/**
 * k-nearest-neighbour search over vector fields, exact (brute force over the field's vectors):
 * Elasticsearch 8's `knn` search option and `knn` query (`{knn: {field, query_vector, k,
 * num_candidates, filter, similarity}}`) and OpenSearch 2's `knn` query (`{knn: {<field>: {vector,
 * k, filter, min_score, max_distance}}}`), each scored as its engine converts a similarity to a score.
 */
import { EsError } from '../../../../errors/index.js';
import { hammingBits, resolveFieldMapping, VECTOR_TYPES, vectorSpec, type VectorSpec } from '../../mapping/index.js';
import { evaluate } from './document-matcher.js';
import { DocSetBuilder, ScoredDocs } from './doc-set.js';
import { runQuery, type Exec } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { isObject, parseQuery, parsingError } from './parse-query.js';
import type { Query } from './query.js';
import { boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import type { QueryOf, QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';
import type { Work } from '../work-budget.js';

export type KnnQuery = QueryOf<'knn'>;

const MAX_CANDIDATES = 10_000;

function knnError(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function intOf(key: string, v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw parsingError(`[knn] failed to parse field [${key}]`);
  return n;
}

function vectorOf(key: string, v: unknown): number[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw parsingError(`[knn] failed to parse field [${key}]`);
  return v as number[];
}

function filtersOf(v: unknown): Query[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.map(parseQuery) : [parseQuery(v)];
}

/** Elasticsearch's k / num_candidates checks (KnnSearchBuilder, KnnVectorQueryBuilder). */
function checkCandidates(k: number | undefined, numCandidates: number | undefined): void {
  if (k !== undefined && k < 1) throw knnError('[k] must be greater than 0');
  if (numCandidates !== undefined) {
    if (numCandidates < 1) throw knnError('[num_candidates] must be greater than 0');
    if (numCandidates > MAX_CANDIDATES) throw knnError(`[num_candidates] cannot exceed [${MAX_CANDIDATES}]`);
    if (k !== undefined && numCandidates < k) throw knnError('[num_candidates] cannot be less than [k]');
  }
}

const ES_KEYS = ['field', 'query_vector', 'k', 'num_candidates', 'filter', 'similarity', 'boost', '_name', 'inner_hits', 'query_vector_builder'];

/**
 * Elasticsearch's knn object (a search's `knn` option, or the `knn` query). `size` is the search's,
 * the default k of the option; the query's k defaults to its number of candidates.
 */
export function parseEsKnn(body: unknown, option: { size: number } | undefined): KnnQuery {
  if (!isObject(body)) throw parsingError('[knn] query malformed, no start_object after query name');
  for (const key of Object.keys(body)) if (!ES_KEYS.includes(key)) throw parsingError(`[knn] unknown field [${key}]`);
  if (typeof body.field !== 'string') throw parsingError('[knn] requires field [field]');
  if (body.query_vector === undefined) {
    throw knnError(body.query_vector_builder !== undefined ? '[query_vector_builder] is not supported by the embedded engine' : '[knn] requires either [query_vector] or [query_vector_builder]');
  }
  if (body.inner_hits !== undefined) throw knnError('[inner_hits] in [knn] is not supported by the embedded engine yet');
  let k = body.k === undefined || body.k === null ? undefined : intOf('k', body.k);
  let numCandidates = body.num_candidates === undefined || body.num_candidates === null ? undefined : intOf('num_candidates', body.num_candidates);
  checkCandidates(k, numCandidates);
  if (option) {
    k ??= Math.min(option.size, numCandidates ?? option.size);
    numCandidates ??= Math.min(Math.ceil(1.5 * k), MAX_CANDIDATES);
    if (numCandidates < k) throw knnError('[num_candidates] cannot be less than [k]');
  } else {
    numCandidates ??= k !== undefined ? Math.min(Math.ceil(1.5 * k), MAX_CANDIDATES) : 15;
    k ??= numCandidates;
  }
  const similarity = body.similarity === undefined || body.similarity === null ? undefined : Number(body.similarity);
  if (similarity !== undefined && !Number.isFinite(similarity)) throw parsingError('[knn] failed to parse field [similarity]');
  return {
    type: 'knn', dialect: 'es', field: body.field, vector: vectorOf('query_vector', body.query_vector), k, numCandidates,
    filter: filtersOf(body.filter), similarity, boost: boostOf('knn', body.boost), ...(option ? { option: true } : {}),
  };
}

const OS_KEYS = ['vector', 'k', 'filter', 'min_score', 'max_distance', 'boost', '_name', 'method_parameters', 'rescore', 'expand_nested_docs', 'ignore_unmapped'];

/** OpenSearch's knn query: `{<field>: {vector, k | min_score | max_distance, filter}}`. */
export function parseOpenSearchKnn(body: Record<string, unknown>): KnnQuery {
  const fields = Object.keys(body);
  if (fields.length !== 1) throw parsingError('[knn] query doesn\'t support multiple fields');
  const field = fields[0];
  const spec = body[field];
  if (!isObject(spec)) throw parsingError(`[knn] field [${field}] must be an object`);
  for (const key of Object.keys(spec)) if (!OS_KEYS.includes(key)) throw parsingError(`[knn] unknown token [${key}] after [${field}]`);
  if (spec.vector === undefined) throw knnError('[knn] requires query vector');
  const k = spec.k === undefined ? undefined : intOf('k', spec.k);
  const minScore = spec.min_score === undefined ? undefined : Number(spec.min_score);
  const maxDistance = spec.max_distance === undefined ? undefined : Number(spec.max_distance);
  const given = [k, minScore, maxDistance].filter((v) => v !== undefined).length;
  if (given !== 1) throw knnError('[knn] requires exactly one of k, distance or score to be set');
  if (k !== undefined && (k < 1 || k > MAX_CANDIDATES)) throw knnError(`[knn] requires 0 < k <= ${MAX_CANDIDATES}`);
  if (minScore !== undefined && !(minScore > 0)) throw knnError('[knn] requires minScore to be greater than 0');
  return {
    type: 'knn', dialect: 'opensearch', field, vector: vectorOf('vector', spec.vector), k, minScore, maxDistance,
    filter: filtersOf(spec.filter), boost: boostOf('knn', spec.boost), ignoreUnmapped: spec.ignore_unmapped === true || spec.ignore_unmapped === 'true',
    ...(spec.expand_nested_docs === true || spec.expand_nested_docs === 'true' ? { expandNested: true } : {}),
  };
}

/** The `knn` query: Elasticsearch's form names its field under `field`, OpenSearch's is keyed by it. */
export function parseKnnQuery(body: unknown): KnnQuery {
  if (isObject(body) && typeof body.field === 'string' && (body.query_vector !== undefined || body.query_vector_builder !== undefined || !isObject(body.field))) {
    return parseEsKnn(body, undefined);
  }
  if (!isObject(body)) throw parsingError('[knn] query malformed, no start_object after query name');
  return parseOpenSearchKnn(body);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function squaredDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    s += d * d;
  }
  return s;
}

/** How one document's vector is measured against the query's: the raw similarity (distance), its score, and the threshold test. */
interface Measure {
  score(v: Float32Array): number;
  /** Whether a vector passes the query's similarity threshold, min_score or max_distance. */
  accepts(v: Float32Array, score: number): boolean;
}

function measureOf(q: KnnQuery, spec: VectorSpec): Measure {
  const query = Float32Array.from(q.vector);
  const qNorm = Math.sqrt(dot(query, query));
  const cos = (v: Float32Array) => dot(query, v) / (qNorm * Math.sqrt(dot(v, v)) || 1);
  const maxInner = (d: number) => (d < 0 ? 1 / (1 - d) : d + 1);
  if (q.dialect === 'opensearch') {
    const dist = spec.space === 'hamming' ? (v: Float32Array) => hammingBits(query, v)
      : spec.space === 'l1' ? (v: Float32Array) => { let s = 0; for (let i = 0; i < v.length; i++) s += Math.abs(v[i] - query[i]); return s; }
      : spec.space === 'linf' ? (v: Float32Array) => { let s = 0; for (let i = 0; i < v.length; i++) s = Math.max(s, Math.abs(v[i] - query[i])); return s; }
        : spec.space === 'cosinesimil' ? (v: Float32Array) => 1 - cos(v)
          : spec.space === 'innerproduct' ? (v: Float32Array) => -dot(query, v)
            : (v: Float32Array) => squaredDistance(query, v);
    const score = spec.space === 'cosinesimil' ? (v: Float32Array) => (2 - dist(v)) / 2
      : spec.space === 'innerproduct' ? (v: Float32Array) => maxInner(dot(query, v))
        : (v: Float32Array) => 1 / (1 + dist(v));
    return {
      score,
      accepts: (v, s) => (q.minScore === undefined || s >= q.minScore) && (q.maxDistance === undefined || dist(v) <= q.maxDistance),
    };
  }
  const byte = spec.elementType === 'byte';
  switch (spec.similarity) {
    case 'l2_norm':
      return { score: (v) => 1 / (1 + squaredDistance(query, v)), accepts: (v) => q.similarity === undefined || Math.sqrt(squaredDistance(query, v)) <= q.similarity };
    case 'dot_product':
      return {
        score: (v) => (byte ? 0.5 + dot(query, v) / (32768 * query.length) : (1 + dot(query, v)) / 2),
        accepts: (v) => q.similarity === undefined || (byte ? dot(query, v) / (32768 * query.length) : dot(query, v)) >= q.similarity,
      };
    case 'max_inner_product':
      return { score: (v) => maxInner(dot(query, v)), accepts: (v) => q.similarity === undefined || dot(query, v) >= q.similarity };
    default:
      return { score: (v) => (1 + cos(v)) / 2, accepts: (v) => q.similarity === undefined || cos(v) >= q.similarity };
  }
}

/** The field's vector spec, or undefined where nothing is mapped (no hits, as Elasticsearch's unmapped field); a field of another type is refused. */
function specFor(q: KnnQuery, x: { mappings: Exec['mappings'] }): VectorSpec | undefined {
  const mapping = resolveFieldMapping(x.mappings, q.field);
  // OpenSearch refuses an unmapped field unless told to ignore it (KNNQueryBuilder); Elasticsearch finds nothing
  if (!mapping && q.dialect === 'opensearch' && !q.ignoreUnmapped) throw knnError(`Field '${q.field}' is not knn_vector type.`);
  if (!mapping) return undefined;
  if (!VECTOR_TYPES.has(mapping.type ?? '')) {
    throw knnError(q.dialect === 'opensearch'
      ? `Field '${q.field}' is not knn_vector type.`
      : `[knn] queries are only supported on [dense_vector] fields`);
  }
  const spec = vectorSpec(mapping);
  if (!spec.indexed) throw knnError(`to perform knn search on field [${q.field}], its mapping must have [index] set to [true]`);
  if (spec.dims !== undefined && spec.dims !== q.vector.length) {
    throw knnError(q.dialect === 'opensearch'
      ? `Query vector has invalid dimension: ${q.vector.length}. Dimension should be: ${spec.dims}`
      : `The query vector has a different number of dimensions [${q.vector.length}] than the document vectors [${spec.dims}].`);
  }
  if (q.dialect === 'es' && spec.similarity === 'cosine' && q.vector.every((v) => v === 0)) {
    throw knnError('The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [' + q.vector.map((v) => `${v}.0`).join(', ') + ']');
  }
  return spec;
}

function* knnExecute(q: KnnQuery, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const spec = specFor(q, x);
  const vectors = x.index.field(q.field)?.vectors;
  if (!spec || !vectors) return ScoredDocs.empty();
  // a document passes when every filter matches it (Elasticsearch's pre-filter: the k nearest among those)
  let allowed: Uint8Array | undefined;
  if (q.filter.length) {
    allowed = new Uint8Array(x.maxOrd);
    for (const filter of q.filter) yield* markFiltered(filter, x, allowed);
  }
  const needed = q.filter.length;
  const measure = measureOf(q, spec);
  const ords: number[] = [];
  const scores: number[] = [];
  const n = Math.min(vectors.size, x.maxOrd);
  const nearest = q.nearest && (q.nearest.get(x.indexName ?? '') ?? new Set<number>());
  for (let ord = 0; ord < n; ord++) {
    if (x.live[ord] !== 1 || (nearest && !nearest.has(ord))) continue;
    const v = vectors.get(ord);
    if (!v || (allowed && allowed[ord] !== needed)) continue;
    const s = Math.fround(measure.score(v));
    if (!measure.accepts(v, s)) continue;
    ords.push(ord);
    scores.push(s);
  }
  let keep = ords.map((_, i) => i);
  if (x.owner) {
    keep = nearestPerOwner(keep, ords, scores, x.owner.parentOf, q.k, q.expandNested === true);
  } else if (q.k !== undefined && keep.length > q.k) {
    keep.sort((a, b) => scores[b] - scores[a] || ords[a] - ords[b]);
    keep = keep.slice(0, q.k).sort((a, b) => a - b);
  }
  const out = new DocSetBuilder(keep.length);
  for (const i of keep) out.add(ords[i], scoring ? Math.fround(scores[i] * q.boost) : 0);
  return out.build();
}

/**
 * Counts the documents a filter lets through in `allowed`. Over a nested level's objects the filter
 * reads their holders (the k-NN plugin's ToChildBlockJoinQuery, Elasticsearch's filter over
 * top-level metadata) unless it is a nested query of this very level, whose own query then reads
 * the objects.
 */
function* markFiltered(filter: Query, x: Exec, allowed: Uint8Array): Work<void> {
  const owner = x.owner;
  if (!owner || (filter.type === 'nested' && filter.path === owner.path)) {
    const docs = yield* runQuery(owner && filter.type === 'nested' ? filter.query : filter, x, false);
    docs.forEach((_, ord) => { if (ord < allowed.length) allowed[ord]++; });
    return;
  }
  const holders = new Set<number>();
  (yield* runQuery(filter, owner.parent(), false)).forEach((_, ord) => void holders.add(ord));
  for (let ord = 0; ord < allowed.length; ord++) if (holders.has(owner.parentOf[ord])) allowed[ord]++;
}

/**
 * kNN over a nested level's objects: the k documents (or outer objects) whose nearest object is
 * nearest, each with that object alone — or, expanded (OpenSearch's `expand_nested_docs`), with
 * every one of its objects that passed. Indices into `ords`, ascending.
 */
function nearestPerOwner(candidates: number[], ords: number[], scores: number[], parentOf: Int32Array, k: number | undefined, expand: boolean): number[] {
  const best = new Map<number, number>();
  for (const i of candidates) {
    const owner = parentOf[ords[i]];
    const b = best.get(owner);
    if (b === undefined || scores[i] > scores[b]) best.set(owner, i);
  }
  let chosen = [...best.values()].sort((a, b) => scores[b] - scores[a] || ords[a] - ords[b]);
  if (k !== undefined) chosen = chosen.slice(0, k);
  if (!expand) return chosen.sort((a, b) => a - b);
  const owners = new Set(chosen.map((i) => parentOf[ords[i]]));
  return candidates.filter((i) => owners.has(parentOf[ords[i]]));
}

export const knnQueryType: QueryType<'knn'> = {
  name: 'knn',
  parse: (body) => parseKnnQuery(body),
  children: (q) => q.filter,
  withChildren: (q, f) => ({ ...q, filter: q.filter.map(f) }),
  rewrite: (q, ctx) => ({ ...q, filter: q.filter.map((c) => rewriteQuery(c, ctx)) }),
  execute: knnExecute,
  // one document alone cannot say whether it is among the k nearest: it has a vector and passes the filters
  matches: (q, doc) => doc.fields.get(q.field)?.vector !== undefined && q.filter.every((c) => evaluate(c, doc)),
  explain: explainByScore,
  print: (q) => `KnnFloatVectorQuery:${q.field}[${q.vector.slice(0, 3).join(',')}${q.vector.length > 3 ? ',...' : ''}]`,
  highlightTerms: (q, ctx) => q.filter.forEach((c) => collectHighlightTerms(c, ctx)),
  scope: () => 'index',
  scoredChildren: (q) => q.filter.map((c) => [c, false]),
};

/**
 * A search's `knn` option (one object or several) with its `query`: the documents of either, each
 * scored the sum of its scores (Elasticsearch's disjunction of the query and the kNN results).
 */
export function withKnnOption(query: Query | undefined, knn: unknown, size: number): Query {
  const list = Array.isArray(knn) ? knn : [knn];
  if (list.length === 0) return query ?? { type: 'match_all', boost: 1 };
  const nodes: Query[] = list.map((o) => parseEsKnn(o, { size }));
  const should = query ? [query, ...nodes] : nodes;
  if (should.length === 1) return should[0];
  return { type: 'bool', must: [], filter: [], should, mustNot: [], boost: 1 };
}
