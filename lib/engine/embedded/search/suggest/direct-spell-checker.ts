/**
 * Lucene's DirectSpellChecker over one field of one index: the terms of the field within an
 * edit distance of a word (Damerau–Levenshtein, adjacent transpositions counting one), scored
 * 1 − edits / length of the shorter word in float arithmetic, as the term and phrase suggesters
 * draw their candidates.
 */
import type { FieldIndex } from '../../index/index.js';
import { codePoints, editDistance } from '../query/term-patterns.js';

export type SuggestMode = 'missing' | 'popular' | 'always';

export interface SpellCheckOptions {
  /** How many suggestions to return. */
  size: number;
  suggestMode: SuggestMode;
  /** The lowest score a suggestion may have (float). */
  accuracy: number;
  sort: 'score' | 'frequency';
  /** 1 or 2. */
  maxEdits: number;
  /** Candidates kept per pass: size × maxInspections. */
  maxInspections: number;
  /** A word in more documents than this (a count when ≥ 1, else a fraction of the documents) gets no suggestions. */
  maxQueryFrequency: number;
  /** Leading characters a suggestion shares with the word. */
  prefixLength: number;
  /** Shorter words (in code points) get no suggestions. */
  minWordLength: number;
  /** Least document frequency of a suggestion (a count when ≥ 1, else a fraction of the documents). */
  thresholdFrequency: number;
}

export interface SuggestWord {
  term: string;
  /** The string similarity (a float). */
  score: number;
  /** Document frequency. */
  freq: number;
}

/** Code point order (UTF-8 byte order, Lucene's BytesRef order) of two strings. */
export function compareTerms(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit moved so that surrogates (supplementary code points) sort after the rest of the BMP. */
function codePointRank(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c;
}

/** The first index of `sorted` whose term is not below `prefix`. */
function lowerBound(sorted: string[], prefix: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareTerms(sorted[mid], prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Suggestions for `word` from the terms of `field` (its live documents: `live`, `maxDoc` of
 * them), best first by `sort`.
 */
export function suggestSimilar(field: FieldIndex, live: Uint8Array, maxDoc: number, word: string, o: SpellCheckOptions): SuggestWord[] {
  const chars = Array.from(word);
  if (o.minWordLength > 0 && chars.length < o.minWordLength) return [];
  let docFreq = field.termStats(word, live).docFreq;
  if (o.suggestMode === 'missing' && docFreq > 0) return [];
  if (o.maxQueryFrequency >= 1 ? docFreq > o.maxQueryFrequency : docFreq > Math.ceil(Math.fround(o.maxQueryFrequency * maxDoc))) return [];
  if (o.suggestMode !== 'popular') docFreq = 0;
  if (o.thresholdFrequency >= 1) docFreq = Math.max(docFreq, Math.trunc(o.thresholdFrequency));
  else if (o.thresholdFrequency > 0) docFreq = Math.max(docFreq, Math.trunc(Math.fround(o.thresholdFrequency * maxDoc)) - 1);
  const inspections = o.size * o.maxInspections;
  // one edit first, then up to maxEdits (with a prefix of at least maxEdits − 1), as Lucene tries
  const found = new Map<string, SuggestWord>();
  for (const w of similarTerms(field, live, chars, word, inspections, docFreq, 1, o.prefixLength, o.accuracy)) found.set(w.term, w);
  if (o.maxEdits > 1 && found.size < inspections) {
    for (const w of similarTerms(field, live, chars, word, inspections, docFreq, o.maxEdits, Math.max(o.prefixLength, o.maxEdits - 1), o.accuracy)) {
      if (!found.has(w.term)) found.set(w.term, w);
    }
  }
  const byScore = (a: SuggestWord, b: SuggestWord) => b.score - a.score || b.freq - a.freq || compareTerms(a.term, b.term);
  const byFrequency = (a: SuggestWord, b: SuggestWord) => b.freq - a.freq || b.score - a.score || compareTerms(a.term, b.term);
  return [...found.values()].sort(o.sort === 'frequency' ? byFrequency : byScore).slice(0, o.size);
}

/** One pass of FuzzyTermsEnum: the best `inspections` terms within `maxEdits` sharing the prefix, more frequent than `minDocFreq`. */
function similarTerms(field: FieldIndex, live: Uint8Array, chars: string[], word: string, inspections: number, minDocFreq: number, maxEdits: number, prefixLength: number, accuracy: number): SuggestWord[] {
  const prefix = chars.slice(0, prefixLength).join('');
  const points = codePoints(word);
  const sorted = field.sortedTerms();
  const out: SuggestWord[] = [];
  for (let i = lowerBound(sorted, prefix); i < sorted.length && sorted[i].startsWith(prefix); i++) {
    const term = sorted[i];
    if (term === word) continue;
    const cand = codePoints(term);
    // adjacent transpositions count one edit, as Lucene's internal distance
    const ed = editDistance(points, cand, maxEdits, true);
    if (ed > maxEdits) continue;
    const freq = field.termStats(term, live).docFreq;
    if (freq <= minDocFreq) continue;
    const score = Math.fround(1 - Math.fround(ed / Math.min(cand.length, chars.length)));
    if (score < accuracy) continue;
    out.push({ term, score, freq });
  }
  return out.sort((a, b) => b.score - a.score || compareTerms(a.term, b.term)).slice(0, inspections);
}
