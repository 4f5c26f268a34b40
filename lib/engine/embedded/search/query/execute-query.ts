import type { AnalysisRegistry } from '../../analysis/index.js';
import type { FieldIndex, InvertedIndex } from '../../index/index.js';
import { fieldType, resolveFieldMapping, type Mappings } from '../../mapping/index.js';
import { requiredShouldMatches, type Query } from './query.js';
import { queryTerm } from './query-terms.js';

/** Ordinal → score of the documents that match. */
export type ScoredDocs = Map<number, number>;

export interface ExecutionContext {
  index: InvertedIndex;
  mappings: Mappings;
  registry: AnalysisRegistry;
}

const K1 = 1.2;
const B = 0.75;
const SCORED_BY_BM25 = new Set(['text', 'match_only_text', 'keyword', 'constant_keyword', 'wildcard', 'search_as_you_type']);

/** A float32 score as ES prints it: the shortest decimal that reads back as the same float. */
export function float32(x: number): number {
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const d = Number(f.toPrecision(p));
    if (Math.fround(d) === f) return d;
  }
  return f;
}

function liveDocFreq(ctx: ExecutionContext, ords: number[]): number {
  let n = 0;
  for (const o of ords) if (ctx.index.isLive(o)) n++;
  return n;
}

/**
 * BM25 as Elasticsearch scores a term (LegacyBM25Similarity: the (k1 + 1) factor kept). Field
 * lengths are used exactly for now; Lucene quantises them into one byte (next step).
 */
function bm25(fi: FieldIndex, ctx: ExecutionContext, ords: number[], freqs: number[], withNorms: boolean, boost: number, out: ScoredDocs): void {
  const N = fi.docCount;
  const n = liveDocFreq(ctx, ords);
  const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
  const avgdl = N > 0 ? fi.sumTotalTermFreq / N : 1;
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i];
    if (!ctx.index.isLive(ord)) continue;
    const freq = freqs[i];
    const norm = withNorms ? K1 * (1 - B + (B * (fi.lengths.get(ord) ?? 1)) / avgdl) : K1;
    out.set(ord, float32(boost * idf * ((K1 + 1) * freq) / (freq + norm)));
  }
}

function termQuery(ctx: ExecutionContext, field: string, value: string | number | boolean, boost: number, caseInsensitive: boolean, scoring: boolean): ScoredDocs {
  const out: ScoredDocs = new Map();
  if (field === '_id') {
    const ord = ctx.index.ordOf(String(value));
    if (ord !== undefined) out.set(ord, boost);
    return out;
  }
  const mapping = resolveFieldMapping(ctx.mappings, field);
  const fi = ctx.index.field(field);
  if (!mapping || !fi) return out;
  const term = queryTerm(mapping, value, ctx.registry);
  if (term === undefined) return out;
  if (caseInsensitive) {
    const lower = term.toLowerCase();
    for (const [t, p] of fi.postings) {
      if (t.toLowerCase() !== lower) continue;
      for (const ord of p.ords) if (ctx.index.isLive(ord)) out.set(ord, boost);
    }
    return out;
  }
  const postings = fi.postings.get(term);
  if (!postings) return out;
  const type = fieldType(mapping);
  if (scoring && SCORED_BY_BM25.has(type)) {
    bm25(fi, ctx, postings.ords, postings.freqs, type === 'text' || type === 'match_only_text' || type === 'search_as_you_type', boost, out);
  } else {
    for (const ord of postings.ords) if (ctx.index.isLive(ord)) out.set(ord, boost);
  }
  return out;
}

function allLive(ctx: ExecutionContext, score: number): ScoredDocs {
  const out: ScoredDocs = new Map();
  for (const ord of ctx.index.liveOrds()) out.set(ord, score);
  return out;
}

/**
 * Runs a query against one index's inverted index. With `scoring` false (filter context) every
 * match scores 0 where ES would not compute a score.
 */
export function executeQuery(q: Query, ctx: ExecutionContext, scoring = true): ScoredDocs {
  switch (q.type) {
    case 'match_all':
      return allLive(ctx, scoring ? q.boost : 0);
    case 'match_none':
      return new Map();
    case 'term':
      return termQuery(ctx, q.field, q.value, q.boost, q.caseInsensitive, scoring);
    case 'terms': {
      const out: ScoredDocs = new Map();
      for (const v of q.values) for (const ord of termQuery(ctx, q.field, v, q.boost, false, false).keys()) out.set(ord, scoring ? q.boost : 0);
      return out;
    }
    case 'ids': {
      const out: ScoredDocs = new Map();
      for (const id of q.values) {
        const ord = ctx.index.ordOf(id);
        if (ord !== undefined) out.set(ord, scoring ? q.boost : 0);
      }
      return out;
    }
    case 'exists': {
      const out: ScoredDocs = new Map();
      const prefix = q.field + '.';
      for (const name of ctx.index.fieldNames()) {
        if (name !== q.field && !name.startsWith(prefix)) continue;
        for (const ord of ctx.index.field(name)!.lengths.keys()) out.set(ord, scoring ? q.boost : 0);
      }
      return out;
    }
    case 'bool':
      return boolQuery(q, ctx, scoring);
  }
}

function boolQuery(q: Extract<Query, { type: 'bool' }>, ctx: ExecutionContext, scoring: boolean): ScoredDocs {
  const must = q.must.map((c) => executeQuery(c, ctx, scoring));
  const filter = q.filter.map((c) => executeQuery(c, ctx, false));
  const should = q.should.map((c) => executeQuery(c, ctx, scoring));
  const mustNot = q.mustNot.map((c) => executeQuery(c, ctx, false));
  const required = [...must, ...filter];
  const noClauses = required.length === 0 && should.length === 0 && mustNot.length === 0;
  const needed = requiredShouldMatches(q.minimumShouldMatch, should.length, required.length > 0);
  let candidates: Iterable<number>;
  if (required.length) candidates = required.reduce((a, b) => (b.size < a.size ? b : a)).keys();
  else if (should.length) {
    const union = new Set<number>();
    for (const s of should) for (const ord of s.keys()) union.add(ord);
    candidates = [...union].sort((a, b) => a - b);
  } else candidates = ctx.index.liveOrds();
  const out: ScoredDocs = new Map();
  for (const ord of candidates) {
    if (!required.every((r) => r.has(ord))) continue;
    if (mustNot.some((r) => r.has(ord))) continue;
    let score = 0;
    let matched = 0;
    for (const s of should) {
      const v = s.get(ord);
      if (v !== undefined) {
        matched++;
        score += v;
      }
    }
    if (matched < needed) continue;
    for (const m of must) score += m.get(ord)!;
    if (noClauses) score = 1;
    out.set(ord, scoring ? score * q.boost : 0);
  }
  return out;
}
