import { LENGTH_TABLE, SliceReader, type FieldIndex } from '../../index/index.js';
import { executeQuery, float32, type ExecutionContext } from './execute-query.js';
import type { Query } from './query.js';
import { queryTypeOf, type Printer } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';
import { BM25_B, BM25_K1, avgFieldLength, bm25, bm25Tf, bm25Weight, idf, idfSum, normInverseCache, normOf, scoredByBm25, similarityBoost } from './similarity.js';

/** Lucene's Explanation as Elasticsearch renders it: `value`, `description`, `details`. */
export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

const f = Math.fround;

export function node(value: number, description: string, details: Explanation[] = []): Explanation {
  return { value: float32(value), description, details };
}

/** Java's Float.toString for the values Lucene puts in descriptions: `1.0`, `0.5`, `2.5`. */
export function javaFloat(x: number): string {
  const v = float32(x);
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}

export function boosted(text: string, boost: number): string {
  return boost === 1 ? text : `(${text})^${javaFloat(boost)}`;
}

const EXPLAIN_PRINTER: Printer = { child: (c) => describe(c), float: javaFloat };

/** Lucene's Query.toString, as far as explanations show it. */
export function describe(q: Query): string {
  return queryTypeOf(q).print(q, EXPLAIN_PRINTER);
}

export interface ExplainContext {
  exec: ExecutionContext;
  reader: SliceReader;
}
type Ctx = ExplainContext;

/** The executor's score of one document for a (lowered) query, or undefined when it does not match. */
export function scoreOf(q: Query, ord: number, c: Ctx, scoring: boolean): number | undefined {
  return executeQuery(q, c.exec, scoring).get(ord);
}

/** Live document frequency and the document's own frequency of a term. */
function termStats(fi: FieldIndex, tid: number, ord: number, c: Ctx): { df: number; freq: number } {
  const r = fi.postingsOf(tid, c.reader);
  const live = c.exec.index.liveness;
  let df = 0;
  let freq = 0;
  while (!r.done) {
    const o = r.read();
    let tf = 1;
    if (fi.positional) {
      tf = r.read();
      for (let j = 0; j < tf; j++) r.read();
    }
    if (live[o] !== 1) continue;
    df++;
    if (o === ord) freq = tf;
  }
  return { df, freq };
}

/** BM25Similarity's explanation: boost (when not 1), idf (n, N) and tf (freq, k1, b, dl, avgdl). */
function bm25Explanation(fi: FieldIndex, boost: number, idfExpl: Explanation, freq: number, freqExpl: Explanation, ord: number): Explanation {
  const avgdl = avgFieldLength(fi.sumTotalTermFreq, fi.docCount);
  const norm = normOf(fi, ord);
  const normInverse = normInverseCache(avgdl)[norm];
  const tf = node(bm25Tf(freq, normInverse), 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
    freqExpl,
    node(BM25_K1, 'k1, term saturation parameter'),
    node(BM25_B, 'b, length normalization parameter'),
    node(LENGTH_TABLE[norm], norm > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
    node(avgdl, 'avgdl, average length of field'),
  ]);
  const subs = boost !== 1 ? [node(boost, 'boost'), idfExpl, tf] : [idfExpl, tf];
  return node(bm25(bm25Weight(boost, idfExpl.value), freq, normInverse), `score(freq=${javaFloat(freq)}), computed as boost * idf * tf from:`, subs);
}

function idfExplanation(df: number, docCount: number): Explanation {
  return node(idf(df, docCount), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
    node(df, 'n, number of documents containing term'),
    node(docCount, 'N, total number of documents with field'),
  ]);
}

/** An indexed term's BM25 (or constant) weight for one document; undefined when the document lacks the term. */
export function explainTerm(q: Extract<Query, { type: 'indexed_term' }>, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  const fi = c.exec.index.field(q.field);
  const tid = fi ? fi.termId(q.term) : -1;
  const stats = fi && tid >= 0 ? termStats(fi, tid, ord, c) : { df: 0, freq: 0 };
  if (!fi || stats.freq === 0) return undefined;
  if (!scoring) return node(0, `${q.field}:${q.term}`);
  if (q.constant || !scoredByBm25(fi.type)) return node(q.boost, boosted(`${q.field}:${q.term}`, q.boost));
  const score = bm25Explanation(fi, similarityBoost(q.boost), idfExplanation(stats.df, fi.docCount), stats.freq, node(stats.freq, 'freq, occurrences of term within document'), ord);
  return node(score.value, `weight(${q.field}:${q.term} in ${ord}) [PerFieldSimilarity], result of:`, [score]);
}

export function explainPhrase(q: Extract<Query, { type: 'phrase' }>, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  const score = scoreOf(q, ord, c, scoring);
  if (score === undefined) return undefined;
  const fi = c.exec.index.field(q.field);
  if (!scoring || !fi || q.prefixExpansions !== undefined || q.paths.length > 1) return node(score, describe(q));
  // The phrase frequency is what the executor's BM25 score inverts to; idf sums the terms' idfs.
  const idfs = q.paths[0].terms.flatMap((alts) => alts.map((t) => {
    const tid = fi.termId(t);
    return idfExplanation(tid >= 0 ? termStats(fi, tid, ord, c).df : 0, fi.docCount);
  }));
  const idfExpl = node(idfSum(idfs.map((e) => e.value)), 'idf, sum of:', idfs);
  const boost = similarityBoost(q.boost);
  const weight = bm25Weight(boost, idfExpl.value);
  const normInverse = normInverseCache(avgFieldLength(fi.sumTotalTermFreq, fi.docCount))[normOf(fi, ord)];
  // score = w − w / (1 + freq·n)  ⇒  freq = (w / (w − score) − 1) / n, rounded to the float it was.
  const freq = float32((weight / (weight - score) - 1) / normInverse);
  const bm = bm25Explanation(fi, boost, idfExpl, freq, node(freq, `phraseFreq=${javaFloat(freq)}`), ord);
  return node(score, `weight(${describe({ ...q, boost: 1 })} in ${ord}) [PerFieldSimilarity], result of:`, [bm]);
}

export function explainBool(q: Extract<Query, { type: 'bool' }>, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  const total = scoreOf(q, ord, c, scoring);
  if (total === undefined) return undefined;
  const subs: Explanation[] = [];
  let sum = 0;
  for (const clause of [...q.must, ...q.should]) {
    const e = explainNode(clause, ord, c, scoring);
    if (!e) continue;
    subs.push(e);
    sum = f(sum + e.value);
  }
  for (const clause of q.filter) {
    const e = explainNode(clause, ord, c, false);
    if (e) subs.push(node(0, 'match on required clause, product of:', [node(0, '# clause'), e]));
  }
  if (!subs.length && !q.mustNot.length) return node(total, boosted('*:*', q.boost));
  // Only must_not: the match_all ES adds as a filter clause.
  if (!subs.length) subs.push(node(0, 'match on required clause, product of:', [node(0, '# clause'), node(1, '*:*')]));
  const sumExpl = node(scoring ? sum : 0, 'sum of:', subs);
  if (q.boost === 1 || !scoring) return sumExpl;
  return node(total, 'product of:', [sumExpl, node(q.boost, 'boost')]);
}

export function explainDisMax(q: Extract<Query, { type: 'dis_max' }>, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  const total = scoreOf(q, ord, c, scoring);
  if (total === undefined) return undefined;
  const subs = q.queries.map((sub) => explainNode(sub, ord, c, scoring)).filter((e): e is Explanation => e !== undefined);
  const description = q.tieBreaker === 0 ? 'max of:' : `max plus ${javaFloat(q.tieBreaker)} times others of:`;
  if (q.boost === 1 || !scoring) return node(total, description, subs);
  let sum = 0;
  let max = -Infinity;
  for (const e of subs) {
    sum += e.value;
    max = Math.max(max, e.value);
  }
  return node(total, 'product of:', [node(f(max + f(q.tieBreaker * f(sum - max))), description, subs), node(q.boost, 'boost')]);
}

/** A capped score: the inner explanation itself while under the cap (and unboosted), else the min and the boost. */
export function explainCapped(q: Extract<Query, { type: 'capped_score' }>, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  const sub = explainNode(q.query, ord, c, scoring);
  if (!sub || !scoring) return sub;
  if (sub.value <= q.cap && q.boost === 1) return sub;
  const capped = sub.value <= q.cap ? sub : node(q.cap, 'min of:', [sub, node(q.cap, 'maximum score')]);
  return q.boost === 1 ? capped : node(f(capped.value * q.boost), 'product of:', [capped, node(q.boost, 'boost')]);
}

/** The explanation of a lowered query for one document; undefined when the document does not match. */
export function explainNode(q: Query, ord: number, c: Ctx, scoring: boolean): Explanation | undefined {
  return queryTypeOf(q).explain(q, ord, c, scoring);
}

/** A query without explanation details of its own: the executor's score of the document, described as Lucene prints the query. */
export function explainByScore(q: Query, ord: number, c: ExplainContext, scoring: boolean): Explanation | undefined {
  const score = scoreOf(q, ord, c, scoring);
  return score === undefined ? undefined : node(score, describe(q));
}

/**
 * Why a document got its score, as Lucene explains it (BM25 term weights with idf and tf details,
 * bool sums, dis_max, constant scores). A document that does not match gets value 0 and
 * `matched: false`.
 */
export function explainQuery(query: Query, ord: number, ctx: ExecutionContext): { matched: boolean; explanation: Explanation } {
  const exec: ExecutionContext = { ...ctx, now: ctx.now ?? Date.now() };
  const lowered = rewriteQuery(query, exec);
  const e = explainNode(lowered, ord, { exec, reader: new SliceReader() }, true);
  if (!e) return { matched: false, explanation: node(0, `no matching clause for document [${ord}]`) };
  return { matched: true, explanation: e };
}
