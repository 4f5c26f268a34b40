/**
 * `significant_terms` and `significant_text`: the terms whose frequency in the bucket (the
 * foreground) stands out against the index or a `background_filter` (the background), scored by a
 * significance heuristic (JLH by default; mutual_information, chi_square, gnd, percentage), as
 * Elasticsearch's SignificantTermsAggregatorFactory does on one shard: terms under
 * `shard_min_doc_count` are dropped, the best `shard_size` kept, then those scoring above 0 with at
 * least `min_doc_count` documents, the best `size` of them, by score.
 *
 * `significant_terms` reads doc values (keyword, numbers, text with fielddata); `significant_text`
 * reads the text field's postings, so every term of a document counts once.
 */
import { refuseRangeField } from './range-field-source.js';
import { EsError } from '../../../../errors/index.js';
import { fieldType, resolveFieldMapping } from '../../mapping/index.js';
import { parseQuery, type Query } from '../query/index.js';
import { withSubs } from './aggregations.js';
import { intersect } from './filters.js';
import { buildIncludeExclude, maxRegexLengthOf, validateIncludeExclude, type IncludeExcludeSpec } from './include-exclude.js';
import { docCount, emptyDocSet, missingArray, resolveSource, valuesOf, type SourceScope } from './source.js';
import { isObject, type AggContext, type AggregationType, type DocSet, type Value } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField, unknownFieldAtContent } from './unknown-field.js';

export type Heuristic =
  | { kind: 'jlh' }
  | { kind: 'percentage' }
  | { kind: 'mutual_information' | 'chi_square'; includeNegatives: boolean; backgroundIsSuperset: boolean }
  | { kind: 'gnd'; backgroundIsSuperset: boolean };

const HEURISTICS = ['jlh', 'mutual_information', 'chi_square', 'gnd', 'percentage', 'script_heuristic'];

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function checkFrequencies(subsetFreq: number, subsetSize: number, supersetFreq: number, supersetSize: number, name: string): void {
  if (subsetFreq < 0 || subsetSize < 0 || supersetFreq < 0 || supersetSize < 0) {
    throw illegal(`Frequencies of subset and superset must be positive in ${name}.getScore()`);
  }
  if (subsetFreq > subsetSize) throw illegal(`subsetFreq > subsetSize, in ${name}`);
  if (supersetFreq > supersetSize) throw illegal(`supersetFreq > supersetSize, in ${name}`);
}

const SUPERSET_HINT = ', does your background filter not include all documents in the bucket? If so and it is intentional, set "background_is_superset": false';

/** NXYSignificanceHeuristic's contingency table. */
function nxy(subsetFreq: number, subsetSize: number, supersetFreq: number, supersetSize: number, superset: boolean, name: string) {
  checkFrequencies(subsetFreq, subsetSize, supersetFreq, supersetSize, name);
  if (superset) {
    if (subsetFreq > supersetFreq) throw illegal('subsetFreq > supersetFreq' + SUPERSET_HINT);
    if (subsetSize > supersetSize) throw illegal('subsetSize > supersetSize' + SUPERSET_HINT);
    if (supersetFreq - subsetFreq > supersetSize - subsetSize) throw illegal('supersetFreq - subsetFreq > supersetSize - subsetSize' + SUPERSET_HINT);
    return {
      N00: supersetSize - supersetFreq - (subsetSize - subsetFreq), N01: subsetSize - subsetFreq, N10: supersetFreq - subsetFreq, N11: subsetFreq,
      N0_: supersetSize - supersetFreq, N1_: supersetFreq, N_0: supersetSize - subsetSize, N_1: subsetSize, N: supersetSize,
    };
  }
  return {
    N00: supersetSize - supersetFreq, N01: subsetSize - subsetFreq, N10: supersetFreq, N11: subsetFreq,
    N0_: supersetSize - supersetFreq + subsetSize - subsetFreq, N1_: supersetFreq + subsetFreq, N_0: supersetSize, N_1: subsetSize, N: supersetSize + subsetSize,
  };
}

function miTerm(Nxy: number, Nx_: number, N_y: number, N: number): number {
  const numerator = Math.abs(N * Nxy);
  const denominator = Math.abs(Nx_ * N_y);
  const factor = Math.abs(Nxy / N);
  if (numerator < 1e-7 && factor < 1e-7) return 0;
  return factor * Math.log(numerator / denominator);
}

/** The heuristic's score of a term (Elasticsearch's SignificanceHeuristic.getScore). */
export function significance(h: Heuristic, subsetFreq: number, subsetSize: number, supersetFreq: number, supersetSize: number): number {
  switch (h.kind) {
    case 'jlh': {
      checkFrequencies(subsetFreq, subsetSize, supersetFreq, supersetSize, 'JLHScore');
      if (subsetSize === 0 || supersetSize === 0) return 0;
      const bg = supersetFreq === 0 ? 1 : supersetFreq;
      const subsetP = subsetFreq / subsetSize;
      const supersetP = bg / supersetSize;
      const absolute = subsetP - supersetP;
      if (absolute <= 0) return 0;
      return absolute * (subsetP / supersetP);
    }
    case 'percentage':
      checkFrequencies(subsetFreq, subsetSize, supersetFreq, supersetSize, 'PercentageScore');
      return supersetFreq === 0 ? 0 : subsetFreq / supersetFreq;
    case 'mutual_information': {
      const n = nxy(subsetFreq, subsetSize, supersetFreq, supersetSize, h.backgroundIsSuperset, 'MutualInformation');
      let score = (miTerm(n.N00, n.N0_, n.N_0, n.N) + miTerm(n.N01, n.N0_, n.N_1, n.N) + miTerm(n.N10, n.N1_, n.N_0, n.N) + miTerm(n.N11, n.N1_, n.N_1, n.N)) / Math.log(2);
      if (Number.isNaN(score)) score = -Infinity;
      if (!h.includeNegatives && n.N11 / n.N_1 < n.N10 / n.N_0) score = -Infinity;
      return score;
    }
    case 'chi_square': {
      const n = nxy(subsetFreq, subsetSize, supersetFreq, supersetSize, h.backgroundIsSuperset, 'ChiSquare');
      if (!h.includeNegatives && n.N11 / n.N_1 < n.N10 / n.N_0) return -Infinity;
      return (n.N * (n.N11 * n.N00 - n.N01 * n.N10) ** 2) / (n.N_1 * n.N1_ * n.N0_ * n.N_0);
    }
    case 'gnd': {
      const n = nxy(subsetFreq, subsetSize, supersetFreq, supersetSize, h.backgroundIsSuperset, 'GND');
      const fx = n.N1_;
      const fy = n.N_1;
      const fxy = n.N11;
      if (fxy === 0) return 0;
      if (fx === fy && fx === fxy) return 1;
      const score = (Math.max(Math.log(fx), Math.log(fy)) - Math.log(fxy)) / (Math.log(n.N) - Math.min(Math.log(fx), Math.log(fy)));
      return Math.exp(-1 * score);
    }
  }
}

function parseHeuristic(aggType: string, body: Record<string, unknown>): Heuristic {
  const given = HEURISTICS.filter((k) => body[k] !== undefined);
  if (given.length > 1) throw new EsError(400, 'parsing_exception', `Found two significance heuristic definitions in [${aggType}]: [${given[0]}] and [${given[1]}]`, { line: 1, col: 1 });
  const kind = given[0] ?? 'jlh';
  const spec = body[kind] ?? {};
  if (!isObject(spec)) throw new EsError(400, 'parsing_exception', `[${kind}] must be an object`, { line: 1, col: 1 });
  const bool = (k: string, dflt: boolean) => (spec[k] === undefined ? dflt : spec[k] === true || spec[k] === 'true');
  const allow = (keys: string[]) => {
    for (const k of Object.keys(spec)) if (!keys.includes(k)) throw unknownFieldAtContent(kind, k, keys);
  };
  switch (kind) {
    case 'jlh':
    case 'percentage':
      allow([]);
      return { kind };
    case 'gnd':
      allow(['background_is_superset']);
      return { kind, backgroundIsSuperset: bool('background_is_superset', true) };
    case 'mutual_information':
    case 'chi_square':
      allow(['include_negatives', 'background_is_superset']);
      return { kind, includeNegatives: bool('include_negatives', false), backgroundIsSuperset: bool('background_is_superset', true) };
    default:
      throw illegal(`[script_heuristic] needs a script, which the embedded engine does not run`);
  }
}

interface SignificantParams {
  source: SourceParams;
  size: number;
  shardSize: number;
  minDocCount: number;
  shardMinDocCount: number;
  background?: Query;
  includeExclude: IncludeExcludeSpec;
  heuristic: Heuristic;
  /** significant_text's `filter_duplicate_text`: tokens of a repeated run of DUPLICATE_RUN tokens are not counted. */
  filterDuplicateText: boolean;
}

function intOf(v: unknown, key: string, aggName: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'parsing_exception', `[${key}] must be an integer in [${aggName}]`, { line: 1, col: 1 });
  if (n < min) throw illegal(`[${key === 'min_doc_count' ? 'minDocCount' : key === 'shard_min_doc_count' ? 'shardMinDocCount' : key === 'shard_size' ? 'shardSize' : key}] must be ${min === 1 ? 'greater than 0' : 'greater than or equal to 0'}. Found [${n}] in [${aggName}]`);
  return n;
}

const COMMON = ['size', 'shard_size', 'min_doc_count', 'shard_min_doc_count', 'background_filter', 'include', 'exclude', 'execution_hint', ...HEURISTICS];

function parseSignificant(type: 'significant_terms' | 'significant_text', name: string, body: Record<string, unknown>): SignificantParams {
  const known = type === 'significant_terms'
    ? [...COMMON, 'field', 'script', 'missing', 'value_type', 'format']
    : [...COMMON, 'field', 'filter_duplicate_text', 'source_fields'];
  for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField(type, k, known);
  const source = type === 'significant_terms' ? parseSourceParams(type, name, body) : { field: typeof body.field === 'string' ? body.field : undefined };
  if (type === 'significant_text' && source.field === undefined) throw illegal(`[field] must not be null: [${name}]`);
  validateIncludeExclude(body, name);
  const size = body.size === undefined ? 10 : intOf(body.size, 'size', name, 1);
  // An unset shard_size: twice ES's default shard queue size for `size`.
  const shardSize = body.shard_size === undefined || Number(body.shard_size) === -1 ? 2 * Math.floor(size * 1.5 + 10) : intOf(body.shard_size, 'shard_size', name, 1);
  return {
    source, size, shardSize: Math.max(size, shardSize),
    minDocCount: body.min_doc_count === undefined ? 3 : intOf(body.min_doc_count, 'min_doc_count', name, 0),
    shardMinDocCount: body.shard_min_doc_count === undefined ? 0 : intOf(body.shard_min_doc_count, 'shard_min_doc_count', name, 0),
    background: body.background_filter === undefined ? undefined : parseQuery(body.background_filter),
    includeExclude: { include: body.include, exclude: body.exclude },
    heuristic: parseHeuristic(type, body),
    filterDuplicateText: type === 'significant_text' && body.filter_duplicate_text === true,
  };
}

/** Term → the documents of a doc set having it (each once), by segment. */
type TermDocs = Map<Value, number[][]>;

function addDoc(map: TermDocs, key: Value, si: number, ord: number, segments: number): void {
  let per = map.get(key);
  if (!per) map.set(key, (per = Array.from({ length: segments }, () => [])));
  const list = per[si];
  if (list[list.length - 1] !== ord) list.push(ord);
}

/** Doc values' terms of every document of `docs`. */
function valueTerms(docs: DocSet, p: SignificantParams, scope: SourceScope): Foreground {
  if (!p.source.script) refuseRangeField(docs, p.source.field, 'significant_terms');
  const src = resolveSource(docs, p.source, scope);
  if (src.kind === 'double') throw illegal('No support for examining floating point numerics');
  const miss = missingArray(src);
  const terms: TermDocs = new Map();
  docs.forEach((seg, si) => {
    if (!src.values[si] && !miss) return;
    for (const ord of seg.ords) for (const v of valuesOf(src, si, ord, miss)) addDoc(terms, typeof v === 'boolean' ? (v ? 1 : 0) : v, si, ord, docs.length);
  });
  return { terms, kind: src.kind, unmapped: src.unmapped, format: (k) => (src.kind === 'bytes' || src.kind === 'ip' ? undefined : src.format.asString(k as number)) };
}

interface Foreground {
  terms: TermDocs;
  unmapped: boolean;
  kind?: string;
  format?: (k: Value) => string | undefined;
}

/**
 * The shortest run of tokens `filter_duplicate_text` takes for a copy: Elasticsearch's
 * DeDuplicatingTokenFilter spots repeated sequences of 6 tokens (short enough for pasted text,
 * long enough to spare common phrases).
 */
const DUPLICATE_RUN = 6;

/**
 * `filter_duplicate_text`: the tokens of a document that are not part of a run of DUPLICATE_RUN
 * tokens already seen (in an earlier document of the bucket, in document order, or earlier in
 * this one). Elasticsearch hashes each token into a byte for its trie of seen runs; runs are
 * compared here by their tokens.
 */
function withoutDuplicateRuns(tokens: readonly string[], seen: Set<string>): string[] {
  const duplicate = new Uint8Array(tokens.length);
  for (let i = 0; i + DUPLICATE_RUN <= tokens.length; i++) {
    const run = tokens.slice(i, i + DUPLICATE_RUN).join('\u0000');
    if (seen.has(run)) duplicate.fill(1, i, i + DUPLICATE_RUN);
    else seen.add(run);
  }
  return tokens.filter((_, i) => duplicate[i] === 0);
}

/** Postings' terms of every document of `docs` in a text field (without repeated runs of text when `dedupe`). */
function textTerms(docs: DocSet, field: string, dedupe = false): Foreground {
  const seen = new Set<string>();
  const terms: TermDocs = new Map();
  let unmapped = true;
  docs.forEach((seg, si) => {
    const mapping = resolveFieldMapping(seg.handle.mappings, field);
    if (!mapping) return;
    unmapped = false;
    const type = fieldType(mapping);
    if (type !== 'text' && type !== 'match_only_text' && type !== 'keyword' && type !== 'search_as_you_type') {
      throw illegal(`Field [${field}] of type [${type}] is not supported for aggregation [significant_text]`);
    }
    const fi = seg.handle.inverted?.field(field);
    if (!fi || seg.ords.length === 0) return;
    const inSet = new Uint8Array(seg.handle.inverted!.maxOrd);
    for (const ord of seg.ords) inSet[ord] = 1;
    if (dedupe && fi.positional) {
      const tokens = fi.tokensOf(inSet);
      for (const ord of [...seg.ords].sort((a, b) => a - b)) {
        for (const term of withoutDuplicateRuns(tokens.get(ord) ?? [], seen)) addDoc(terms, term, si, ord, docs.length);
      }
      return;
    }
    for (const term of fi.sortedTerms()) {
      for (const ord of fi.postings.get(term)!.ords) if (inSet[ord] === 1) addDoc(terms, term, si, ord, docs.length);
    }
  });
  return { terms, unmapped };
}

/** The background: every live document of the searched indices, or those matching the filter. */
function backgroundOf(p: SignificantParams, ctx: AggContext): DocSet {
  return p.background ? intersect(ctx.all, p.background) : ctx.all;
}

function run(type: 'significant_terms' | 'significant_text', node: { name: string; subs: Parameters<typeof withSubs>[1]; params: SignificantParams }, docs: DocSet, ctx: AggContext) {
  const p = node.params;
  const fg = p.source.field === undefined ? undefined : type === 'significant_text' ? textTerms(docs, p.source.field, p.filterDuplicateText) : valueTerms(docs, p, ctx);
  const subsetSize = docCount(docs);
  const background = backgroundOf(p, ctx);
  const supersetSize = docCount(background);
  // Unmapped: Elasticsearch's UnmappedSignificantTerms, typed as string terms, buckets only.
  if (!fg || fg.unmapped) return { typed: 'sigsterms', body: { buckets: [] } };
  const bg = type === 'significant_text' ? textTerms(background, p.source.field!).terms : valueTerms(background, p, ctx).terms;
  const kind = fg.kind ?? 'bytes';
  const filter = buildIncludeExclude(p.includeExclude, kind === 'bytes' || kind === 'ip' ? kind : 'long', node.name, (v) => Number(v), maxRegexLengthOf(docs));
  const count = (per: number[][] | undefined) => (per ? per.reduce((n, l) => n + l.length, 0) : 0);
  let candidates: Array<{ key: Value; subsetDf: number; supersetDf: number; score: number }> = [];
  for (const [key, per] of fg.terms) {
    if (filter && !filter.accept(key)) continue;
    const subsetDf = count(per);
    if (subsetDf < p.shardMinDocCount) continue;
    const supersetDf = count(bg.get(key));
    candidates.push({ key, subsetDf, supersetDf, score: significance(p.heuristic, subsetDf, subsetSize, supersetDf, supersetSize) });
  }
  const byScore = (a: typeof candidates[number], b: typeof candidates[number]) =>
    b.score - a.score || b.subsetDf - a.subsetDf || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  candidates.sort(byScore);
  candidates = candidates.slice(0, p.shardSize).filter((c) => c.score > 0 && c.subsetDf >= p.minDocCount).slice(0, p.size);
  const buckets = candidates.map((c) => {
    const b: Record<string, unknown> = { key: c.key };
    const asString = fg.format?.(c.key);
    if (asString !== undefined) b.key_as_string = asString;
    Object.assign(b, { doc_count: c.subsetDf, score: c.score, bg_count: c.supersetDf });
    if (!node.subs.length) return b;
    const set = emptyDocSet(docs);
    fg.terms.get(c.key)!.forEach((ords, si) => set[si].ords.push(...ords));
    return withSubs(b, node.subs, set, ctx);
  });
  const typed = kind === 'bytes' || kind === 'ip' ? 'sigsterms' : 'siglterms';
  return { typed, body: { doc_count: subsetSize, bg_count: supersetSize, buckets } };
}

export const significantTerms: AggregationType<SignificantParams> = {
  kind: 'bucket',
  parse: (name, body) => parseSignificant('significant_terms', name, body),
  run: (node, docs, ctx) => run('significant_terms', node, docs, ctx),
};

export const significantText: AggregationType<SignificantParams> = {
  kind: 'bucket',
  parse: (name, body) => parseSignificant('significant_text', name, body),
  run: (node, docs, ctx) => run('significant_text', node, docs, ctx),
};

