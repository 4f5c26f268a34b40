/**
 * Lucene's BM25Similarity in float arithmetic: the one place scores and their explanations
 * (explain-query.ts) compute BM25, so an explanation always adds up to the score it explains.
 */
import { LENGTH_TABLE, type FieldIndex } from '../../index/index.js';

const K1 = 1.2;
const B = 0.75;
const f = Math.fround;

/** Lucene's BM25Similarity.idf, in float: ln(1 + (N − n + 0.5) / (n + 0.5)). */
export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

/** avgFieldLength = sumTotalTermFreq / docCount, as a float. */
export function avgFieldLength(sumTotalTermFreq: number, docCount: number): number {
  return f(sumTotalTermFreq / docCount);
}

const cacheByAvgdl = new Map<number, Float32Array>();

/** 1 / (k1 · ((1 − b) + b · length / avgdl)) for each of the 256 norm bytes, in float arithmetic. */
export function normInverseCache(avgdl: number): Float32Array {
  let cache = cacheByAvgdl.get(avgdl);
  if (!cache) {
    cache = new Float32Array(256);
    const oneMinusB = f(1 - B);
    for (let i = 0; i < 256; i++) cache[i] = f(1 / f(f(K1) * f(oneMinusB + f(f(f(B) * LENGTH_TABLE[i]) / avgdl))));
    if (cacheByAvgdl.size > 1000) cacheByAvgdl.clear();
    cacheByAvgdl.set(avgdl, cache);
  }
  return cache;
}

/** BM25Scorer.score: weight − weight / (1 + freq · normInverse), every step rounded to float. */
export function bm25(weight: number, freq: number, normInverse: number): number {
  return f(weight - f(weight / f(1 + f(freq * normInverse))));
}

export const BM25_K1 = K1;
export const BM25_B = B;

/** Field types whose terms BM25 scores (others score their boost, constant: match_only_text's every query, as ES and OpenSearch document). */
const SCORED_BY_BM25 = new Set(['text', 'keyword', 'constant_keyword', 'wildcard', 'search_as_you_type']);

export function scoredByBm25(fieldType: string): boolean {
  return SCORED_BY_BM25.has(fieldType);
}

/** The norm byte of a document's field: its encoded length, 1 for a field without positions (no norms). */
export function normOf(fi: FieldIndex, ord: number): number {
  return fi.positional ? fi.norms[ord] : 1;
}

/**
 * The boost BM25 scores with: the query's times (k1 + 1) in float. Elasticsearch's default
 * similarity (SimilarityProviders.createBM25Similarity, in 7.x and 8.x alike) and OpenSearch 2's
 * are LegacyBM25Similarity, which keeps the (k1 + 1) factor Lucene 8 took out of BM25's numerator
 * by handing BM25Similarity `boost * (1 + k1)` (an explanation shows it as the `boost` node, 2.2
 * for a boost of 1).
 */
export function similarityBoost(boost: number): number {
  return f(boost * f(1 + f(K1)));
}

/** A term's BM25 weight: boost · idf. */
export function bm25Weight(boost: number, idfValue: number): number {
  return f(boost * idfValue);
}

/** BM25's tf factor, freq / (freq + k1 · (1 − b + b · dl / avgdl)): the score of a weight of 1. */
export function bm25Tf(freq: number, normInverse: number): number {
  return bm25(1, freq, normInverse);
}

/** BM25Similarity.idfExplain over several terms (a phrase): their idfs summed in double, then rounded to float. */
export function idfSum(idfs: Iterable<number>): number {
  let sum = 0;
  for (const v of idfs) sum += v;
  return f(sum);
}
