import type { AnalysisRegistry } from '../../analysis/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { intToByte4, LENGTH_TABLE, SliceReader, type DocValue, type FieldIndex, type InvertedIndex } from '../../index/index.js';
import { fieldType, ipToBigInt, isRangeType, rangeQueryInterval, rangeValuesRelate, resolveFieldMapping, type Mappings } from '../../mapping/index.js';
import { arcDistance, parseDistance, parseGeoPoint } from '../../mapping/geo-point.js';
import { Accumulator, DocSetBuilder, ScoredDocs } from './doc-set.js';
import { defaultPivot, distanceFeatureScore, rankFeatureScore } from './feature-queries.js';
import { checkedPerCandidate, combineBoostMode, combineFunctions, decayOfValues, fieldValueFactor, inRange, phraseFreq, rangeBounds, resolveDecay } from './field-rules.js';
import { closestDistance, distanceOrigin, numericDocValue, rankFeatureSource, termsSetThreshold } from './field-features.js';
import { intervalLeaves, intervalScore, intervalsOf, minExtent, type IntervalSource } from './intervals.js';
import { buildMoreLikeThis, indexTermsOf, type MltIndex } from './more-like-this.js';
import { queryTerm } from './query-terms.js';
import { requiredShouldMatches, type MultiTermRewrite, type Query } from './query.js';
import { queryTypeOf } from './query-type.js';
import { expandFields, rewriteQuery } from './rewrite-query.js';
import { avgFieldLength, bm25, bm25Weight, idf, idfSum, normInverseCache, normOf, scoredByBm25, similarityBoost } from './similarity.js';
import type { TermPattern } from './term-patterns.js';
import { WorkBudget, runAtOnce, type Work } from '../work-budget.js';
import { EsError } from '../../../../errors/index.js';
import { FILTER_CONTEXT, SCORE_CONTEXT, SCORE_FUNCTION_IMPLEMENTATIONS, SearchTimedOut, type ContextDefinition, type ScriptSpec, type StoredScripts } from '../../painless/index.js';
import { DocScript, isKnnScript, knnScoreScript, prepareScript, type ScoreScript } from '../scripts/index.js';

export { ScoredDocs } from './doc-set.js';

export interface ExecutionContext {
  index: InvertedIndex;
  mappings: Mappings;
  registry: AnalysisRegistry;
  /** Epoch ms for date math (`now`); defaults to the current time. */
  now?: number;
  /** The index's name, for queries on the `_index` metadata field. */
  indexName?: string;
  /** Stored scripts, for script queries that name one by `id`. */
  scripts?: StoredScripts;
  /** The index answers as OpenSearch 2 (its geo_shape queries score 0). */
  openSearch?: boolean;
  /** `index` is the objects of a nested level (inner hits): who holds each, for the queries that answer per holder. */
  owner?: { path: string; parentOf: Int32Array; parent: ExecutionContext };
}

/**
 * Who holds the objects of a nested level an Exec runs over: the level's path, each object's
 * document (or outer object) in the level above, and that level. kNN keeps the nearest object of
 * each holder and filters holders (Elasticsearch's and OpenSearch's kNN over nested vectors).
 */
export interface NestedOwner {
  path: string;
  parentOf: Int32Array;
  parent(): Exec;
}

/** The context queries run in on one open index. */
export function queryContextOf(handle: IndexHandle): ExecutionContext {
  const ctx: ExecutionContext = { index: handle.inverted!, mappings: handle.mappings, registry: handle.registry, indexName: handle.name };
  if (handle.openSearch) ctx.openSearch = true;
  return ctx;
}

const f = Math.fround;
const GEO = { parsePoint: parseGeoPoint, distance: parseDistance, arc: arcDistance };

/** A float32 score as ES prints it: the shortest decimal that reads back as the same float. */
export function float32(x: number): number {
  const v = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const d = Number(v.toPrecision(p));
    if (Math.fround(d) === v) return d;
  }
  return v;
}

const idleAccumulators = new WeakMap<InvertedIndex, Accumulator>();

/**
 * A dense accumulator taken for one clause's use alone (a search paused between its adds and its
 * drain must not share it); `giveBack` once drained. One left dirty by a throw is not given back.
 */
function takeAccumulator(index: InvertedIndex): Accumulator {
  const acc = idleAccumulators.get(index.origin);
  if (acc && acc.counts.length >= index.maxOrd) {
    idleAccumulators.delete(index.origin);
    return acc;
  }
  return new Accumulator(Math.max(1024, index.maxOrd * 1.25));
}

function giveBack(index: InvertedIndex, acc: Accumulator): void {
  idleAccumulators.set(index.origin, acc);
}

/** Units of work (postings, ordinals, terms) between two looks at the clock. */
const TICK = 2047;
/** The same for loops whose unit costs more: a document's positions (a phrase), a term tested by a pattern. */
const POSITIONS_TICK = 63;
const PATTERN_TICK = 255;

export interface Exec {
  index: InvertedIndex;
  mappings: Mappings;
  registry: AnalysisRegistry;
  now: number;
  indexName?: string;
  scripts?: StoredScripts;
  openSearch?: boolean;
  reader: SliceReader;
  /** The liveness the query runs against, and its ordinal count: the index's own, or a copy taken when the query may pause. */
  live: Uint8Array;
  maxOrd: number;
  budget: WorkBudget;
  /**
   * Set once the budget timed out: every doc set of this ordinal space is exact for ordinals below
   * `below` (loops stop where they are, and ordinals are walked in ascending order).
   */
  cut: { below: number };
  /** Set when the index is a nested level's objects. */
  owner?: NestedOwner;
}

function execOf(index: InvertedIndex, base: Omit<Exec, 'index' | 'reader' | 'live' | 'maxOrd' | 'cut' | 'owner'>, owner?: NestedOwner): Exec {
  const maxOrd = index.maxOrd;
  // A paused query must not see documents come and go between its clauses: a reader's liveness
  // (a search's) holds still; any other is copied.
  const live = base.budget === WorkBudget.unbounded || index.fixedLiveness ? index.liveness : index.liveness.slice(0, maxOrd);
  return { ...base, index, reader: new SliceReader(), live, maxOrd, cut: { below: Infinity }, owner };
}

/** An Exec of a context, sharing a budget (an inner hits level's holders run as the level does). */
function contextExec(ctx: ExecutionContext, budget: WorkBudget): Exec {
  const base = { mappings: ctx.mappings, registry: ctx.registry, now: ctx.now ?? Date.now(), indexName: ctx.indexName, scripts: ctx.scripts, openSearch: ctx.openSearch, budget };
  const o = ctx.owner;
  let parent: Exec | undefined;
  return execOf(ctx.index, base, o && { path: o.path, parentOf: o.parentOf, parent: () => (parent ??= contextExec(o.parent, budget)) });
}

/**
 * At a tick of a loop at `ord`: gives the event loop a turn when the slice is used up; true once
 * the budget timed out (the loop stops, and the doc sets are cut below `ord`).
 */
function* paced(x: Exec, ord: number): Work<boolean> {
  if (x.budget.check()) yield;
  if (!x.budget.timedOut) return false;
  if (ord < x.cut.below) x.cut.below = ord;
  return true;
}

/**
 * A script that ran into the search's deadline (SearchTimedOut): the loop stops as at a timed-out
 * tick, cut below `ord`; true when it did. Any other failure is thrown on.
 */
function scriptTimedOut(e: unknown, x: Exec, ord: number): boolean {
  if (!(e instanceof SearchTimedOut)) throw e;
  x.budget.timedOut = true;
  if (ord < x.cut.below) x.cut.below = ord;
  return true;
}

/** The part of a doc set below the cut (all of it when the budget did not time out). */
function belowCut(docs: ScoredDocs, x: Exec): ScoredDocs {
  const below = x.cut.below;
  if (below === Infinity) return docs;
  let n = 0;
  while (n < docs.length && docs.ords[n] < below) n++;
  return new ScoredDocs(docs.ords, docs.scores, n);
}

/**
 * Runs a query against one index's inverted index: the matching ordinals, ascending, with their
 * scores (Lucene's BM25 in float arithmetic). With `scoring` false (filter context) scores are 0.
 */
export function executeQuery(q: Query, ctx: ExecutionContext, scoring = true): ScoredDocs {
  return runAtOnce(queryWork(q, ctx, scoring, WorkBudget.unbounded));
}

/**
 * `executeQuery` as work that pauses every slice of the budget (`WorkBudget.drive`). When the
 * budget times out, the loops stop and the answer is the exact matches among the documents
 * reached (the ordinals below where the first loop stopped), as a shard's collector answers.
 */
export function* queryWork(q: Query, ctx: ExecutionContext, scoring: boolean, budget: WorkBudget): Work<ScoredDocs> {
  return yield* rewrittenQueryWork(rewriteQuery(q, ctx), ctx, scoring, budget);
}

/** `queryWork` of a query already rewritten against `ctx` (rewriteQuery), for a caller whose other passes read the same tree. */
export function* rewrittenQueryWork(rewritten: Query, ctx: ExecutionContext, scoring: boolean, budget: WorkBudget): Work<ScoredDocs> {
  const x = contextExec(ctx, budget);
  return belowCut(yield* run(rewritten, x, scoring), x);
}

function liveDocFreq(fi: FieldIndex, tid: number, x: Exec): number {
  // No removed or pending document: every posting is a live one.
  if (x.index.allLive) return fi.postingsCount(tid);
  const r = fi.postingsOf(tid, x.reader);
  const live = x.live;
  let n = 0;
  while (!r.done) {
    if (live[r.read()] === 1) n++;
    if (fi.positional) {
      const freq = r.read();
      for (let j = 0; j < freq; j++) r.read();
    }
  }
  return n;
}

/** Postings of one term, scored: BM25 with `weight`, or a constant. */
function* termDocs(fi: FieldIndex, tid: number, x: Exec, score: { weight: number; bm25: boolean; constant: number }, out: DocSetBuilder): Work<void> {
  const r = fi.postingsOf(tid, x.reader);
  const live = x.live;
  const cache = score.bm25 ? normInverseCache(avgFieldLength(fi.sumTotalTermFreq, fi.docCount)) : undefined;
  let n = 0;
  while (!r.done) {
    const ord = r.read();
    if ((++n & TICK) === 0 && (yield* paced(x, ord))) return;
    let freq = 1;
    if (fi.positional) {
      freq = r.read();
      for (let j = 0; j < freq; j++) r.read();
    }
    if (live[ord] !== 1) continue;
    out.add(ord, cache ? bm25(score.weight, freq, cache[normOf(fi, ord)]) : score.constant);
  }
}

export function* indexedTerm(field: string, term: string, boost: number, constant: boolean, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const fi = x.index.field(field);
  if (!fi) return ScoredDocs.empty();
  const tid = fi.termId(term);
  if (tid < 0) return ScoredDocs.empty();
  const out = new DocSetBuilder(fi.postingsCount(tid));
  const useBm25 = scoring && !constant && scoredByBm25(fi.type);
  const weight = useBm25 ? bm25Weight(similarityBoost(boost), idf(liveDocFreq(fi, tid, x), fi.docCount)) : 0;
  yield* termDocs(fi, tid, x, { weight, bm25: useBm25, constant: scoring ? boost : 0 }, out);
  return out.build();
}

/** Term ids of the field's dictionary that pass the pattern (sorted term order). */
function* expand(fi: FieldIndex, pattern: TermPattern, x: Exec): Work<number[]> {
  const out: number[] = [];
  const terms = fi.sortedTerms();
  let lo = 0;
  if (pattern.prefix) {
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid] < pattern.prefix) lo = mid + 1;
      else hi = mid;
    }
  }
  for (let i = lo; i < terms.length && terms[i].startsWith(pattern.prefix); i++) {
    // A dictionary walk reaches no document: timed out here, the query has none.
    if (((i - lo) & PATTERN_TICK) === PATTERN_TICK && (yield* paced(x, 0))) return out;
    if (pattern.test(terms[i])) out.push(fi.termId(terms[i]));
  }
  return out;
}

export function* unionConstant(fi: FieldIndex, tids: number[], x: Exec, score: number): Work<ScoredDocs> {
  if (tids.length === 1) {
    const out = new DocSetBuilder(fi.postingsCount(tids[0]));
    yield* termDocs(fi, tids[0], x, { weight: 0, bm25: false, constant: score }, out);
    return out.build();
  }
  const acc = takeAccumulator(x.index);
  const live = x.live;
  let n = 0;
  // Each term's postings are ascending: once the search timed out, the terms left are read up to the cut only.
  let below = Infinity;
  for (const tid of tids) {
    const r = fi.postingsOf(tid, x.reader);
    while (!r.done) {
      const ord = r.read();
      if (ord >= below) break;
      if ((++n & TICK) === 0 && (yield* paced(x, ord))) {
        below = x.cut.below;
        break;
      }
      if (fi.positional) {
        const freq = r.read();
        for (let j = 0; j < freq; j++) r.read();
      }
      if (live[ord] === 1) acc.add(ord, 0);
    }
  }
  const out = new DocSetBuilder();
  acc.drain((ord) => out.add(ord, score));
  giveBack(x.index, acc);
  return out.build();
}

export function* termPattern(q: Extract<Query, { type: 'term_pattern' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const fi = x.index.field(q.field);
  if (!fi) return ScoredDocs.empty();
  let tids = yield* expand(fi, q.pattern, x);
  if (!tids.length) return ScoredDocs.empty();
  const rewrite: MultiTermRewrite = q.rewrite ?? (q.scoring === 'fuzzy' ? { kind: 'top_terms', size: q.maxExpansions, scores: 'blended_freqs' } : { kind: 'constant_score' });
  if (rewrite.kind === 'constant_score') {
    // a rewrite of its own takes every matching term; max_expansions limits the default ones (phrase prefix)
    if (!q.rewrite && tids.length > q.maxExpansions) tids = tids.slice(0, q.maxExpansions);
    return yield* unionConstant(fi, tids, x, scoring ? q.boost : 0);
  }
  // Each term with its boost (a fuzzy term's similarity, else 1); the top N by boost, then term order.
  const boostOf = q.pattern.boostOf ?? (() => 1);
  let chosen = tids.map((tid) => ({ tid, boost: boostOf(fi.termOf(tid)) }));
  if (rewrite.kind === 'top_terms') {
    chosen.sort((a, b) => b.boost - a.boost || (fi.termOf(a.tid) < fi.termOf(b.tid) ? -1 : 1));
    chosen = chosen.slice(0, rewrite.size);
  }
  if (!scoring) return yield* unionConstant(fi, chosen.map((c) => c.tid), x, 0);
  const scores = rewrite.kind === 'top_terms' ? rewrite.scores : 'bm25';
  // blended: every term's BM25 with the highest document frequency (Lucene's TopTermsBlendedFreqScoringRewrite)
  let blendedIdf = 0;
  if (scores === 'blended_freqs') {
    let maxDf = 0;
    for (const c of chosen) maxDf = Math.max(maxDf, liveDocFreq(fi, c.tid, x));
    blendedIdf = idf(maxDf, fi.docCount);
  }
  const useBm25 = scores !== 'boost' && scoredByBm25(fi.type);
  const acc = takeAccumulator(x.index);
  for (const c of chosen) {
    const termBoost = fi.type === 'match_only_text' ? q.boost : f(q.boost * c.boost);
    const termIdf = scores === 'blended_freqs' ? blendedIdf : scores === 'bm25' ? idf(liveDocFreq(fi, c.tid, x), fi.docCount) : 0;
    const b = new DocSetBuilder(fi.postingsCount(c.tid));
    yield* termDocs(fi, c.tid, x, { weight: f(similarityBoost(termBoost) * termIdf), bm25: useBm25, constant: termBoost }, b);
    const docs = b.build();
    for (let i = 0; i < docs.length; i++) acc.add(docs.ords[i], docs.scores[i]);
  }
  const out = new DocSetBuilder();
  acc.drain((ord, _c, sum) => out.add(ord, f(sum)));
  giveBack(x.index, acc);
  return out.build();
}

/**
 * A phrase: the documents where one of its paths lines up, scored as one BM25 query whose weight
 * sums the idf of each position's terms for a single path (Lucene's PhraseQuery and
 * MultiPhraseQuery) or of the distinct terms of all paths for a token graph (the span query Lucene
 * runs for it); a document's frequency adds up its paths' phrase frequencies.
 */
export function* phrase(q: Extract<Query, { type: 'phrase' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const fi = x.index.field(q.field);
  if (!fi || !fi.positional) return ScoredDocs.empty();
  const termIds: number[][][] = [];
  for (const path of q.paths) termIds.push(yield* phraseTermIds(fi, path.terms, q.prefixExpansions, x));
  const freqs = new Map<number, number>();
  for (let p = 0; p < termIds.length; p++) {
    const groups = termIds[p];
    if (groups.some((g) => g.length === 0)) continue;
    for (const [ord, freq] of yield* pathFreqs(fi, groups, q.paths[p].offsets, q.slop, x)) freqs.set(ord, (freqs.get(ord) ?? 0) + freq);
  }
  if (freqs.size === 0) return ScoredDocs.empty();
  const idfTerms = q.paths.length === 1 ? termIds[0].flat() : [...new Set(termIds.flat(2))];
  const weight = bm25Weight(similarityBoost(q.boost), idfSum(idfTerms.map((tid) => idf(liveDocFreq(fi, tid, x), fi.docCount))));
  const cache = normInverseCache(avgFieldLength(fi.sumTotalTermFreq, fi.docCount));
  const ords = [...freqs.keys()].sort((a, b) => a - b);
  const out = new DocSetBuilder(ords.length);
  // match_only_text scores every query its boost (ES and OpenSearch: constant scores)
  const constant = fi.type === 'match_only_text';
  for (const ord of ords) out.add(ord, !scoring ? 0 : constant ? q.boost : bm25(weight, freqs.get(ord)!, cache[normOf(fi, ord)]));
  return out.build();
}

/** Term ids of each position of a phrase path; the last position's expand as prefixes (up to `prefixExpansions`). */
function* phraseTermIds(fi: FieldIndex, terms: string[][], prefixExpansions: number | undefined, x: Exec): Work<number[][]> {
  const out: number[][] = [];
  for (let gi = 0; gi < terms.length; gi++) {
    const alts = terms[gi];
    if (prefixExpansions === undefined || gi < terms.length - 1) {
      out.push(alts.map((t) => fi.termId(t)).filter((t) => t >= 0));
      continue;
    }
    const tids: number[] = [];
    for (const t of alts) for (const tid of yield* expand(fi, { prefix: t, test: (s) => s.startsWith(t) }, x)) if (tids.length < prefixExpansions) tids.push(tid);
    out.push(tids);
  }
  return out;
}

/** One term's postings walked document by document (ord, then its positions). */
class PositionsCursor {
  private readonly reader = new SliceReader();
  /** The current document; Infinity once the postings are exhausted. */
  ord = -1;
  /** Positions of the current document not read yet. */
  private pending = 0;

  constructor(fi: FieldIndex, tid: number) {
    fi.postingsOf(tid, this.reader);
    this.next();
  }

  /** Moves to the next document (skipping the current one's positions). */
  next(): void {
    while (this.pending > 0) {
      this.reader.read();
      this.pending--;
    }
    if (this.reader.done) {
      this.ord = Infinity;
      return;
    }
    this.ord = this.reader.read();
    this.pending = this.reader.read();
  }

  /** Appends the current document's positions to `out`. */
  readPositions(out: number[]): void {
    while (this.pending > 0) {
      out.push(this.reader.read());
      this.pending--;
    }
  }
}

/**
 * Phrase frequency of every live document where one path (term ids per position) lines up. The
 * postings of all positions are walked in step (a conjunction on the document, then positions read
 * for the documents every position has), so a phrase of common words costs no more than reading
 * their postings once.
 */
function* pathFreqs(fi: FieldIndex, groups: number[][], offsets: number[], slop: number, x: Exec): Work<Map<number, number>> {
  const live = x.live;
  const cursors = groups.map((tids) => tids.map((tid) => new PositionsCursor(fi, tid)));
  const groupOrd = (g: PositionsCursor[]) => {
    let min = Infinity;
    for (const c of g) if (c.ord < min) min = c.ord;
    return min;
  };
  const positions: number[][] = groups.map(() => []);
  const freqs = new Map<number, number>();
  let n = 0;
  for (;;) {
    let target = -1;
    for (const g of cursors) target = Math.max(target, groupOrd(g));
    if (target === Infinity) break;
    if ((++n & POSITIONS_TICK) === 0 && (yield* paced(x, target))) break;
    let aligned = true;
    for (const g of cursors) {
      for (const c of g) while (c.ord < target) c.next();
      if (groupOrd(g) !== target) aligned = false;
    }
    if (!aligned) continue;
    if (live[target] === 1) {
      for (let i = 0; i < cursors.length; i++) {
        const ps = positions[i];
        ps.length = 0;
        let readers = 0;
        for (const c of cursors[i]) {
          if (c.ord !== target) continue;
          c.readPositions(ps);
          readers++;
        }
        if (readers > 1) ps.sort((a, b) => a - b);
      }
      const freq = phraseFreq(positions, offsets, slop);
      if (freq > 0) freqs.set(target, freq);
    }
    for (const g of cursors) for (const c of g) if (c.ord === target) c.next();
  }
  return freqs;
}

/** Score columns of every live document, by score, for the current live ordinals of an index. */
const allLiveCache = new WeakMap<InvertedIndex, { ords: Int32Array<ArrayBuffer>; byScore: Map<number, Float64Array<ArrayBuffer>> }>();

/**
 * Every live document with one score: the index's shared live-ordinal column and a shared constant
 * score column, both reused until liveness changes (results are read-only for their callers), so a
 * match_all (`size: 0` aggregations…) allocates nothing per query.
 */
export function allLive(x: Exec, score: number): ScoredDocs {
  const ords = x.index.liveOrdinals();
  let cached = allLiveCache.get(x.index.origin);
  if (!cached || cached.ords !== ords) allLiveCache.set(x.index.origin, (cached = { ords, byScore: new Map() }));
  let scores = cached.byScore.get(score);
  if (!scores) {
    if (cached.byScore.size >= 4) cached.byScore.clear();
    scores = new Float64Array(ords.length);
    if (score !== 0) scores.fill(score);
    cached.byScore.set(score, scores);
  }
  return new ScoredDocs(ords, scores, ords.length);
}

/** Every live document whose values pass `test`, each with the same score. */
export function byDocValues(field: string, x: Exec, score: number, test: (values: readonly DocValue[]) => boolean): Work<ScoredDocs> {
  return scoredByDocValues(field, x, (vs) => (test(vs) ? score : undefined));
}

/**
 * A numeric range (numbers, dates, booleans) as a test of one document's doc values; undefined for
 * a range that is not numeric (terms) or a field no index maps.
 */
function numericRangeTest(q: Extract<Query, { type: 'range' }>, x: Exec): ((values: readonly DocValue[]) => boolean) | undefined {
  const mapping = resolveFieldMapping(x.mappings, q.field);
  if (!mapping) return undefined;
  if (isRangeType(fieldType(mapping))) {
    const interval = rangeQueryInterval(mapping, q, x.now);
    return (vs) => rangeValuesRelate(vs, interval, q.relation ?? 'intersects');
  }
  const b = rangeBounds(q, mapping, x.registry, x.now);
  if (!b.numeric) return undefined;
  const bool = fieldType(mapping) === 'boolean';
  // an ip's doc values (its text) compare as the numbers its bounds are
  if (fieldType(mapping) === 'ip') return (vs) => vs.some((v) => inRange(ipToBigInt(String(v)) ?? -1n, b));
  return (vs) => vs.some((v) => inRange(bool ? (v ? 1 : 0) : (v as number | bigint), b));
}

/**
 * A required clause of a bool that is cheaper checked on the documents the other required
 * clauses give than run over the whole index: a numeric range, read from doc values.
 */
function candidateCheck(q: Query, x: Exec): ((ord: number) => boolean) | undefined {
  if (!checkedPerCandidate(q, x.mappings, x.registry, x.now)) return undefined;
  if (q.type === 'script') return scriptFilter(q.script, x);
  if (q.type !== 'range') return undefined;
  const test = numericRangeTest(q, x);
  if (!test) return undefined;
  const dv = x.index.field(q.field)?.docValues;
  if (!dv) return () => false;
  return (ord) => {
    const vs = dv.view(ord); // reused array: read by `test`, not kept
    return vs !== undefined && test(vs);
  };
}

export function* rangeQuery(q: Extract<Query, { type: 'range' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const mapping = resolveFieldMapping(x.mappings, q.field);
  if (!mapping) return ScoredDocs.empty();
  const score = scoring ? q.boost : 0;
  const test = numericRangeTest(q, x);
  if (test) return yield* byDocValues(q.field, x, score, test);
  const b = rangeBounds(q, mapping, x.registry, x.now);
  const fi = x.index.field(q.field);
  if (!fi) return ScoredDocs.empty();
  const tids = yield* expand(fi, { prefix: '', test: (t) => inRange(t, b) }, x);
  return tids.length ? yield* unionConstant(fi, tids, x, score) : ScoredDocs.empty();
}

export function* existsQuery(field: string, x: Exec, score: number): Work<ScoredDocs> {
  const fis: FieldIndex[] = [];
  const prefix = field + '.';
  for (const name of x.index.fieldNames()) if (name === field || name.startsWith(prefix)) fis.push(x.index.field(name)!);
  if (!fis.length) return ScoredDocs.empty();
  const live = x.live;
  const out = new DocSetBuilder();
  for (let ord = 0; ord < x.maxOrd; ord++) {
    if ((ord & TICK) === TICK && (yield* paced(x, ord))) break;
    if (live[ord] !== 1) continue;
    for (const fi of fis) {
      if (fi.has(ord)) {
        out.add(ord, score);
        break;
      }
    }
  }
  return out.build();
}

/** Moves a cursor of a sorted set up to `ord`; true when the set has it. */
function seek(set: ScoredDocs, cursors: Int32Array, k: number, ord: number): boolean {
  let j = cursors[k];
  const ords = set.ords;
  while (j < set.length && ords[j] < ord) j++;
  cursors[k] = j;
  return j < set.length && ords[j] === ord;
}

/**
 * The required clauses of a bool: the ones run to doc sets, and the ones checked per candidate
 * (`candidateCheck`) — only when some other required clause gives the candidates. A checked `must`
 * clause scores its boost, as the range query it stands for.
 */
function* requiredClauses(q: Extract<Query, { type: 'bool' }>, x: Exec, scoring: boolean) {
  const clauses = [...q.must.map((c) => ({ c, scored: true })), ...q.filter.map((c) => ({ c, scored: false }))];
  const checks = clauses.map(({ c }) => candidateCheck(c, x));
  const anyRun = checks.some((check) => check === undefined);
  const sets: ScoredDocs[] = [];
  const tests: Array<(ord: number) => boolean> = [];
  /** Per must clause, in order: its doc set's index in `sets` (-1 when checked), and the score of a checked one. */
  const mustSet: number[] = [];
  const mustConstant: number[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const { c, scored } = clauses[i];
    const check = anyRun ? checks[i] : undefined;
    if (scored) {
      mustSet.push(check ? -1 : sets.length);
      mustConstant.push(check && scoring ? (c as { boost: number }).boost : 0);
    }
    if (check) tests.push(check);
    else sets.push(yield* run(c, x, scored && scoring));
  }
  return { sets, tests, mustSet, mustConstant };
}

/** Each clause run to its doc set, in order. */
function* runAll(clauses: Query[], x: Exec, scoring: boolean): Work<ScoredDocs[]> {
  const sets: ScoredDocs[] = [];
  for (const c of clauses) sets.push(yield* run(c, x, scoring));
  return sets;
}

export function* boolQuery(q: Extract<Query, { type: 'bool' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const { sets: required, tests, mustSet, mustConstant } = yield* requiredClauses(q, x, scoring);
  const should = yield* runAll(q.should, x, scoring);
  const mustNot = yield* runAll(q.mustNot, x, false);
  const needed = requiredShouldMatches(q.minimumShouldMatch, should.length, required.length + tests.length > 0);
  if (should.length && needed > should.length) return ScoredDocs.empty();
  const notCursors = new Int32Array(mustNot.length);
  const excluded = (ord: number) => {
    for (let k = 0; k < mustNot.length; k++) if (seek(mustNot[k], notCursors, k, ord)) return true;
    return false;
  };
  const out = new DocSetBuilder();
  const boost = q.boost;
  if (required.length) {
    const driverIdx = required.reduce((best, s, i) => (s.length < required[best].length ? i : best), 0);
    const driver = required[driverIdx];
    const reqCursors = new Int32Array(required.length);
    const shouldCursors = new Int32Array(should.length);
    for (let i = 0; i < driver.length; i++) {
      const ord = driver.ords[i];
      if ((i & TICK) === TICK && (yield* paced(x, ord))) break;
      let ok = true;
      for (let k = 0; k < required.length && ok; k++) if (k !== driverIdx) ok = seek(required[k], reqCursors, k, ord);
      for (let k = 0; k < tests.length && ok; k++) ok = tests[k](ord);
      if (!ok || excluded(ord)) continue;
      let score = 0;
      let matched = 0;
      for (let k = 0; k < should.length; k++) {
        if (seek(should[k], shouldCursors, k, ord)) {
          matched++;
          score += should[k].scores[shouldCursors[k]];
        }
      }
      if (matched < needed) continue;
      let mustScore = 0;
      for (let k = 0; k < mustSet.length; k++) {
        const m = mustSet[k];
        mustScore += m < 0 ? mustConstant[k] : m === driverIdx ? required[m].scores[i] : required[m].scores[reqCursors[m]];
      }
      out.add(ord, scoring ? f(f(f(mustScore) + f(score)) * boost) : 0);
    }
    return out.build();
  }
  if (should.length) {
    if (should.length === 1 && !mustNot.length) {
      const s = should[0];
      if (boost === 1 || !scoring) return scoring ? s : s.withScore(0);
      const scores = new Float64Array(s.length);
      for (let i = 0; i < s.length; i++) scores[i] = f(s.scores[i] * boost);
      return new ScoredDocs(s.ords, scores, s.length);
    }
    const acc = takeAccumulator(x.index);
    for (const s of should) for (let i = 0; i < s.length; i++) acc.add(s.ords[i], s.scores[i]);
    acc.drain((ord, count, sum) => {
      if (count < needed || excluded(ord)) return;
      out.add(ord, scoring ? f(f(sum) * boost) : 0);
    });
    giveBack(x.index, acc);
    return out.build();
  }
  // Nothing: ES's match_all (score 1 × boost). Only must_not: ES adds the match_all as a filter
  // clause (Queries.fixNegativeQueryIfNeeded), so every document left scores 0.
  const score = scoring && !mustNot.length ? boost : 0;
  const live = x.live;
  for (let ord = 0; ord < x.maxOrd; ord++) {
    if ((ord & TICK) === TICK && (yield* paced(x, ord))) break;
    if (live[ord] === 1 && !excluded(ord)) out.add(ord, score);
  }
  return out.build();
}

export function* disMax(q: Extract<Query, { type: 'dis_max' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const sets = yield* runAll(q.queries, x, scoring);
  const acc = takeAccumulator(x.index);
  for (const s of sets) for (let i = 0; i < s.length; i++) acc.add(s.ords[i], s.scores[i]);
  const out = new DocSetBuilder();
  const tie = q.tieBreaker;
  acc.drain((ord, _count, sum, max) => out.add(ord, scoring ? f(f(max + f(tie * f(sum - max))) * q.boost) : 0));
  giveBack(x.index, acc);
  return out.build();
}

/** A script of a query, bound to the index the query runs on (its doc values; no `_source`). */
function docScript(spec: ScriptSpec, context: ContextDefinition, x: Exec): DocScript {
  const globals = context === SCORE_CONTEXT ? SCORE_FUNCTION_IMPLEMENTATIONS : undefined;
  return new DocScript(prepareScript(spec, context, x.scripts), x.index, x.mappings, x.indexName ?? '', { globals });
}

function scriptFilter(spec: ScriptSpec, x: Exec): (ord: number) => boolean {
  const script = docScript(spec, FILTER_CONTEXT, x);
  return (ord) => script.run(ord) === true;
}

/** A score script of a query: painless, or OpenSearch k-NN's `knn_score` (`"lang": "knn"`). */
function scoreScript(spec: ScriptSpec, x: Exec): ScoreScript {
  return isKnnScript(spec) ? knnScoreScript(spec, x.index, x.mappings) : docScript(spec, SCORE_CONTEXT, x);
}

/** A score script's result for one document: ES refuses negative and NaN scores. */
function scriptScoreOf(script: ScoreScript, ord: number, score: number): number {
  const v = Number(script.run(ord, score));
  if (!(v >= 0)) {
    throw new EsError(400, 'illegal_argument_exception', `script_score script returned an invalid score [${Number.isInteger(v) ? v.toFixed(1) : String(v)}] for doc [${ord}]. Must be a non-negative score!`);
  }
  return v;
}

export function* scriptQuery(q: Extract<Query, { type: 'script' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const test = scriptFilter(q.script, x);
  const live = x.live;
  const out = new DocSetBuilder();
  // A script's run may take long: the clock is read at every document, not every few thousand.
  for (let ord = 0; ord < x.maxOrd; ord++) {
    if (live[ord] !== 1) continue;
    if (yield* paced(x, ord)) break;
    let matched: boolean;
    try {
      matched = test(ord);
    } catch (e) {
      if (scriptTimedOut(e, x, ord)) break;
      throw e;
    }
    if (matched) out.add(ord, scoring ? q.boost : 0);
  }
  return out.build();
}

export function* scriptScoreQuery(q: Extract<Query, { type: 'script_score' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const base = yield* run(q.query, x, true);
  const script = scoreScript(q.script, x);
  return yield* scale(base, x, (ord, score) => {
    const total = f(scriptScoreOf(script, ord, score) * q.boost);
    if (q.minScore !== undefined && total < q.minScore) return undefined;
    return scoring ? total : 0;
  }, 0);
}

/** `fn` of each document of `set`; `tick`: the clock is read every `tick + 1` documents (0 for scripts: every one). */
function* scale(set: ScoredDocs, x: Exec, fn: (ord: number, score: number) => number | undefined, tick = TICK): Work<ScoredDocs> {
  const out = new DocSetBuilder(set.length);
  for (let i = 0; i < set.length; i++) {
    if ((i & tick) === tick && (yield* paced(x, set.ords[i]))) break;
    let v: number | undefined;
    try {
      v = fn(set.ords[i], set.scores[i]);
    } catch (e) {
      if (scriptTimedOut(e, x, set.ords[i])) break;
      throw e;
    }
    if (v !== undefined) out.add(set.ords[i], v);
  }
  return out.build();
}

export function* functionScore(q: Extract<Query, { type: 'function_score' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const base = yield* run(q.query, x, true);
  const filters: Array<ScoredDocs | undefined> = [];
  for (const fn of q.functions) filters.push(fn.filter ? yield* run(fn.filter, x, false) : undefined);
  const decays = q.functions.map((fn) => (fn.decay ? resolveDecay(fn.decay, resolveFieldMapping(x.mappings, fn.decay.field), x.now, GEO) : undefined));
  const scripts = q.functions.map((fn) => (fn.script ? scoreScript(fn.script, x) : undefined));
  const cursors = new Int32Array(q.functions.length);
  return yield* scale(base, x, (ord, score) => {
    const scores: number[] = [];
    const weights: number[] = [];
    for (let k = 0; k < q.functions.length; k++) {
      const fn = q.functions[k];
      if (filters[k] && !seek(filters[k]!, cursors, k, ord)) continue;
      let v = 1;
      if (fn.fieldValueFactor) {
        const fvf = fn.fieldValueFactor;
        const vs = x.index.field(fvf.field)?.docValues.get(ord);
        const raw = vs?.length ? Number(vs[0]) : fvf.missing;
        if (raw === undefined) {
          throw Object.assign(new Error(`Missing value for field [${fvf.field}]`), { status: 400 });
        }
        v = fieldValueFactor(raw, fvf.factor, fvf.modifier);
      } else if (fn.decay) {
        v = decayOfValues(fn.decay, decays[k]!, x.index.field(fn.decay.field)?.docValues.get(ord));
      } else if (fn.script) {
        v = scriptScoreOf(scripts[k]!, ord, score);
      } else if (fn.randomScore) {
        v = ((Math.imul(ord + 1, 0x9e3779b1) ^ (fn.randomScore.seed ?? 0)) >>> 0) / 0x100000000;
      }
      const w = fn.weight ?? 1;
      scores.push(f(v * w));
      weights.push(w);
      if (q.scoreMode === 'first') break;
    }
    const funcScore = Math.min(combineFunctions(q.scoreMode, scores, weights), q.maxBoost);
    const total = f(combineBoostMode(q.boostMode, score, funcScore) * q.boost);
    if (q.minScore !== undefined && total < q.minScore) return undefined;
    return scoring ? total : 0;
  }, scripts.some((s) => s !== undefined) ? 0 : TICK);
}

export function* nestedQuery(q: Extract<Query, { type: 'nested' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const direct = x.index.nested(q.path);
  let children: ScoredDocs;
  let parentOf: Int32Array;
  let inner: Exec;
  if (direct) {
    inner = execOf(direct.index, x, { path: q.path, parentOf: direct.parentOf, parent: () => x });
    children = belowCut(yield* run(q.query, inner, scoring), inner);
    parentOf = direct.parentOf;
  } else {
    const via = [...x.index.nestedPaths()].find((p) => q.path.startsWith(p + '.'));
    if (!via) return ScoredDocs.empty();
    const ni = x.index.nested(via)!;
    inner = execOf(ni.index, x, { path: via, parentOf: ni.parentOf, parent: () => x });
    children = belowCut(yield* nestedQuery(q, inner, scoring), inner);
    parentOf = ni.parentOf;
  }
  // Children below the inner cut are exact: so are the parents before the one the cut falls in.
  const innerCut = inner.cut.below;
  if (innerCut < parentOf.length && parentOf[innerCut] < x.cut.below) x.cut.below = parentOf[innerCut];
  const out = new DocSetBuilder();
  const live = x.live;
  let i = 0;
  while (i < children.length) {
    const parent = parentOf[children.ords[i]];
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    let n = 0;
    while (i < children.length && parentOf[children.ords[i]] === parent) {
      const s = children.scores[i++];
      sum += s;
      min = Math.min(min, s);
      max = Math.max(max, s);
      n++;
    }
    if (live[parent] !== 1) continue;
    const s = q.scoreMode === 'sum' ? sum : q.scoreMode === 'min' ? min : q.scoreMode === 'max' ? max : q.scoreMode === 'none' ? 0 : sum / n;
    out.add(parent, scoring ? f(f(s) * q.boost) : 0);
  }
  return out.build();
}

/** Every live document with a value in `field`, scored from its values (undefined: no match). */
function* scoredByDocValues(field: string, x: Exec, score: (values: readonly DocValue[]) => number | undefined): Work<ScoredDocs> {
  const fi = x.index.field(field);
  if (!fi) return ScoredDocs.empty();
  const live = x.live;
  const dv = fi.docValues;
  const out = new DocSetBuilder();
  for (let ord = 0; ord < x.maxOrd; ord++) {
    if ((ord & TICK) === TICK && (yield* paced(x, ord))) break;
    if (live[ord] !== 1) continue;
    const vs = dv.view(ord); // reused array: read by `score`, not kept
    if (vs === undefined || vs.length === 0) continue;
    const s = score(vs);
    if (s !== undefined) out.add(ord, s);
  }
  return out.build();
}

export function* rankFeatureQuery(q: Extract<Query, { type: 'rank_feature' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const source = rankFeatureSource(q, x.mappings);
  if (!source) return ScoredDocs.empty();
  let pivot = q.fn.kind === 'saturation' || q.fn.kind === 'sigmoid' ? q.fn.pivot : undefined;
  if (q.fn.kind === 'saturation' && pivot === undefined && scoring) {
    const dv = x.index.field(source.field)?.docValues;
    const values: number[] = [];
    if (dv) for (const ord of x.index.liveOrdinals()) {
      const v = dv.view(ord);
      if (v?.length) values.push(Number(v[0]));
    }
    pivot = defaultPivot(values);
  }
  return yield* scoredByDocValues(source.field, x, (vs) => (scoring ? rankFeatureScore(q.fn, pivot ?? 1, Number(vs[0]), q.boost) : 0));
}

export function* distanceFeatureQuery(q: Extract<Query, { type: 'distance_feature' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const origin = distanceOrigin(q, x.mappings, x.now);
  if (!origin) return ScoredDocs.empty();
  return yield* scoredByDocValues(q.field, x, (vs) => {
    const d = closestDistance(origin, vs);
    if (d === undefined) return undefined;
    return scoring ? distanceFeatureScore(origin.pivot, d, q.boost) : 0;
  });
}

/** terms_set: each term's BM25 documents, kept where at least the document's required number match; scores summed. */
export function* termsSetQuery(q: Extract<Query, { type: 'terms_set' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const mapping = resolveFieldMapping(x.mappings, q.field);
  if (!mapping || q.terms.length === 0) return ScoredDocs.empty();
  const required = termsSetThreshold(q, x.mappings);
  const terms = new Set<string>();
  for (const v of q.terms) {
    const t = queryTerm(mapping, v, x.registry);
    if (t !== undefined) terms.add(t);
  }
  const constant = !scoredByBm25(fieldType(mapping));
  const acc = takeAccumulator(x.index);
  for (const t of terms) {
    const docs = yield* indexedTerm(q.field, t, q.boost, constant, x, scoring);
    for (let i = 0; i < docs.length; i++) acc.add(docs.ords[i], docs.scores[i]);
  }
  const out = new DocSetBuilder();
  const valueOf = (ord: number) => (field: string) => numericDocValue(x.index.field(field)?.docValues.view(ord));
  acc.drain((ord, count, sum) => {
    if (count >= required(valueOf(ord))) out.add(ord, scoring ? f(sum) : 0);
  });
  giveBack(x.index, acc);
  return out.build();
}

/** Positions of each leaf of an interval source, by document: what the interval algebra runs on. */
function* leafPositions(source: IntervalSource, x: Exec): Work<Map<IntervalSource, Map<number, number[]>>> {
  const out = new Map<IntervalSource, Map<number, number[]>>();
  for (const leaf of intervalLeaves(source)) {
    const byOrd = new Map<number, number[]>();
    out.set(leaf, byOrd);
    const fi = x.index.field(leaf.field);
    if (!fi || !fi.positional) continue;
    let tids: number[];
    if (leaf.kind === 'term') {
      const tid = fi.termId(leaf.term);
      tids = tid < 0 ? [] : [tid];
    } else tids = (yield* expand(fi, leaf.pattern, x)).slice(0, leaf.maxExpansions);
    for (const tid of tids) {
      const r = fi.postingsOf(tid, x.reader);
      let n = 0;
      while (!r.done) {
        const ord = r.read();
        const freq = r.read();
        if ((++n & POSITIONS_TICK) === 0 && (yield* paced(x, ord))) break;
        let ps = byOrd.get(ord);
        if (!ps) byOrd.set(ord, (ps = []));
        for (let j = 0; j < freq; j++) ps.push(r.read());
      }
    }
    if (tids.length > 1) for (const ps of byOrd.values()) ps.sort((a, b) => a - b);
  }
  return out;
}

export function* intervalQuery(q: Extract<Query, { type: 'interval_source' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const positions = yield* leafPositions(q.source, x);
  const candidates = new Set<number>();
  for (const byOrd of positions.values()) for (const ord of byOrd.keys()) candidates.add(ord);
  const extent = minExtent(q.source);
  const live = x.live;
  const out = new DocSetBuilder();
  const spanScore = scoring && q.scoring === 'span' ? spanScorer(q, positions, x) : undefined;
  for (const ord of [...candidates].sort((a, b) => a - b)) {
    if (live[ord] !== 1) continue;
    const intervals = intervalsOf(q.source, (leaf) => positions.get(leaf)?.get(ord) ?? []);
    if (intervals.length) out.add(ord, !scoring ? 0 : spanScore ? spanScore(ord, intervals) : intervalScore(intervals, extent, q.boost));
  }
  return out.build();
}

/**
 * Lucene's SpanScorer over BM25: the weight is the boost times the summed idf of the span's terms
 * (a pattern's: of the documents it reaches), the frequency of a document the sum over its matches
 * of 1 / (1 + width), the width being the positions a match leaves between its parts.
 */
function spanScorer(q: Extract<Query, { type: 'interval_source' }>, positions: Map<IntervalSource, Map<number, number[]>>, x: Exec) {
  const fi = x.index.field(q.field);
  if (!fi || !fi.positional || fi.docCount === 0) return undefined;
  let idfSum = 0;
  for (const [leaf, byOrd] of positions) {
    if (leaf.kind !== 'term' && leaf.kind !== 'pattern') continue;
    const lfi = x.index.field(leaf.field);
    if (!lfi || byOrd.size === 0) continue;
    const tid = leaf.kind === 'term' ? lfi.termId(leaf.term) : -1;
    const df = tid >= 0 ? liveDocFreq(lfi, tid, x) : byOrd.size;
    idfSum = f(idfSum + idf(df, lfi.docCount));
  }
  const weight = bm25Weight(similarityBoost(q.boost), idfSum);
  const cache = normInverseCache(avgFieldLength(fi.sumTotalTermFreq, fi.docCount));
  return (ord: number, intervals: ReturnType<typeof intervalsOf>) => {
    let freq = 0;
    for (const iv of intervals) freq = f(freq + f(1 / (1 + iv.gaps)));
    return bm25(weight, freq, cache[fi.norms[ord]]);
  };
}

/**
 * combined_fields' per-position clause, Lucene's CombinedFieldQuery: document frequency the
 * highest of the fields', collection length the weighted sum, and per document a frequency and a
 * field length that add up the fields' with their weights.
 */
export function* combinedTerm(q: Extract<Query, { type: 'combined_term' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const fields = q.fields.map(({ field, weight }) => ({ fi: x.index.field(field), weight })).filter((w): w is { fi: FieldIndex; weight: number } => w.fi !== undefined);
  let maxDf = 0;
  let docCount = 0;
  let sumTotalTermFreq = 0;
  for (const { fi, weight } of fields) {
    docCount = Math.max(docCount, fi.docCount);
    sumTotalTermFreq += weight * fi.sumTotalTermFreq;
  }
  sumTotalTermFreq = Math.trunc(sumTotalTermFreq);
  const freqs = new Map<number, number>();
  for (const { fi, weight } of fields) {
    for (const term of q.terms) {
      const tid = fi.termId(term);
      if (tid < 0) continue;
      maxDf = Math.max(maxDf, liveDocFreq(fi, tid, x));
      const r = fi.postingsOf(tid, x.reader);
      let n = 0;
      while (!r.done) {
        const ord = r.read();
        let tf = 1;
        if (fi.positional) {
          tf = r.read();
          for (let j = 0; j < tf; j++) r.read();
        }
        if ((++n & TICK) === 0 && (yield* paced(x, ord))) break;
        if (x.live[ord] !== 1) continue;
        freqs.set(ord, f((freqs.get(ord) ?? 0) + f(weight * tf)));
      }
    }
  }
  if (!freqs.size) return ScoredDocs.empty();
  const weight = bm25Weight(similarityBoost(q.boost), idf(maxDf, docCount));
  const cache = normInverseCache(avgFieldLength(sumTotalTermFreq, docCount));
  const ords = [...freqs.keys()].sort((a, b) => a - b);
  const out = new DocSetBuilder(ords.length);
  for (const ord of ords) {
    if (!scoring) {
      out.add(ord, 0);
      continue;
    }
    let length = 0;
    for (const { fi, weight: w } of fields) if (fi.has(ord)) length = f(length + f(w * LENGTH_TABLE[fi.positional ? fi.norms[ord] : 1]));
    out.add(ord, bm25(weight, freqs.get(ord)!, cache[intToByte4(Math.round(length))]));
  }
  return out.build();
}

/** more_like_this, lowered here where term statistics are known. */
function moreLikeThisIndex(x: Exec): MltIndex {
  return {
    numDocs: x.index.docCount,
    docFreq: (field, term) => {
      const fi = x.index.field(field);
      const tid = fi ? fi.termId(term) : -1;
      return fi && tid >= 0 ? liveDocFreq(fi, tid, x) : 0;
    },
    typeOf: (field) => {
      const m = resolveFieldMapping(x.mappings, field);
      return m ? fieldType(m) : undefined;
    },
    defaultFields: () => expandFields(['*'], x.mappings).map((e) => e.field),
    terms: (field, text, analyzer) => indexTermsOf(field, text, analyzer, x.mappings, x.registry),
  };
}

export { run as runQuery };

function* run(q: Query, x: Exec, scoring: boolean): Work<ScoredDocs> {
  return yield* queryTypeOf(q).execute(q, x, scoring);
}

/** boosting: the positive query's documents, those the negative one matches scored `negativeBoost` times lower. */
export function* boostingQuery(q: Extract<Query, { type: 'boosting' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const pos = yield* run(q.positive, x, scoring);
  const neg = yield* run(q.negative, x, false);
  const c = new Int32Array(1);
  return yield* scale(pos, x, (ord, s) => (scoring ? f(f(seek(neg, c, 0, ord) ? s * q.negativeBoost : s) * q.boost) : 0));
}

export function* cappedScore(q: Extract<Query, { type: 'capped_score' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  const inner = yield* run(q.query, x, scoring);
  return scoring ? yield* scale(inner, x, (_ord, s) => f(Math.min(s, q.cap) * q.boost)) : inner;
}

export function* moreLikeThisQuery(q: Extract<Query, { type: 'more_like_this' }>, x: Exec, scoring: boolean): Work<ScoredDocs> {
  return yield* run(buildMoreLikeThis(q.mlt, q.boost, moreLikeThisIndex(x)), x, scoring);
}
