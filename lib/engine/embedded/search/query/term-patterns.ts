import { EsError } from '../../../../errors/index.js';
import { compileWildcardQuery, simpleMatch } from '../../../../wildcard/index.js';
import { compileLuceneRegExp, type LinearRegex } from '../../regex/index.js';
import type { Fuzziness } from './query.js';

/** A test on indexed terms: what prefix, wildcard, regexp and fuzzy queries expand over. */
export interface TermPattern {
  /** Terms that can match all start with this (narrows the dictionary walk). */
  prefix: string;
  test(term: string): boolean;
  /** Fuzzy only: the boost of one matching term. */
  boostOf?(term: string): number;
}

/**
 * Whether a term (terms, match) value on `_index` names the index: ES's IndexFieldType matches the
 * value as an index pattern (`*` wildcards), lower-cased when case-insensitive.
 */
export function indexNameMatches(value: unknown, name: string | undefined, caseInsensitive = false): boolean {
  if (name === undefined) return false;
  const pattern = caseInsensitive ? String(value).toLowerCase() : String(value);
  return simpleMatch(pattern, caseInsensitive ? name.toLowerCase() : name);
}

export function prefixPattern(value: string, caseInsensitive: boolean): TermPattern {
  if (caseInsensitive) {
    const lower = value.toLowerCase();
    return { prefix: '', test: (t) => t.slice(0, value.length).toLowerCase() === lower };
  }
  return { prefix: value, test: (t) => t.startsWith(value) };
}

export function wildcardPattern(value: string, caseInsensitive: boolean): TermPattern {
  const { literalPrefix, test } = compileWildcardQuery(value, caseInsensitive);
  return { prefix: literalPrefix, test };
}

export function regexpPattern(value: string, caseInsensitive: boolean): TermPattern {
  let re: LinearRegex;
  try {
    re = compileLuceneRegExp(value, { caseInsensitive });
  } catch (err) {
    if (err instanceof EsError) throw err;
    throw new EsError(400, 'query_shard_exception', `failed to create query: ${(err as Error).message}`);
  }
  const m = /^[\p{L}\p{N}_-]*/u.exec(value);
  const lit = m && !caseInsensitive && !/[?*+{|]/.test(value[m[0].length] ?? '') ? m[0] : '';
  return { prefix: lit, test: (t) => re.testExact(t) };
}

/** Max edits for a term under `fuzziness` (AUTO: by the term's length in code points). */
export function maxEditsFor(fuzziness: Fuzziness, term: string): number {
  if (fuzziness.kind === 'fixed') return fuzziness.edits;
  const len = [...term].length;
  return len < fuzziness.low ? 0 : len < fuzziness.high ? 1 : 2;
}

/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment, what
 * Lucene's LevenshteinAutomata accepts with transpositions), over code points; > max returns max + 1.
 */
export function editDistance(a: number[], b: number[], max: number, transpositions: boolean): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** A string's code points. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

export interface FuzzyPattern extends TermPattern {
  /** Lucene's per-term boost: 1 − edits / min(term length, query length). */
  boostOf(term: string): number;
  maxEdits: number;
}

export function fuzzyPattern(value: string, fuzziness: Fuzziness, prefixLength: number, transpositions: boolean): FuzzyPattern {
  const maxEdits = maxEditsFor(fuzziness, value);
  const q = codePoints(value);
  const prefix = String.fromCodePoint(...q.slice(0, prefixLength));
  const rest = q.slice(prefixLength);
  const distance = (t: string): number => {
    if (!t.startsWith(prefix)) return maxEdits + 1;
    return editDistance(rest, codePoints(t).slice(prefixLength), maxEdits, transpositions);
  };
  return {
    prefix,
    maxEdits,
    test: (t) => distance(t) <= maxEdits,
    boostOf: (t) => {
      const ed = distance(t);
      return Math.fround(1 - ed / Math.min(codePoints(t).length, q.length));
    },
  };
}
