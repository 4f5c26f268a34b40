import { EsError } from '../../../../errors/index.js';
import { compileLuceneRegExp } from '../../regex/index.js';

/**
 * How a completion suggester matches an input (its analyzed form): by prefix, by fuzzy prefix
 * (Lucene's FuzzyCompletionQuery) or by a regular expression over a prefix (RegexCompletionQuery).
 * A match answers the boost the suggestion's weight is multiplied by — 0 for none (the weight
 * alone), as Lucene's CompletionScorer reads it.
 */
export type CompletionMatcher = (input: string) => number | undefined;

/** `fuzzy` of a completion suggestion: Elasticsearch's defaults (fuzziness AUTO, transpositions, min_length 3, prefix_length 1). */
export interface FuzzyOptions {
  fuzziness: 'AUTO' | number;
  transpositions: boolean;
  minLength: number;
  prefixLength: number;
}

function bad(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function int(raw: unknown, name: string): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 0) throw bad(`[fuzzy] failed to parse field [${name}]`);
  return n;
}

const FUZZY_KEYS = new Set(['fuzziness', 'transpositions', 'min_length', 'prefix_length', 'unicode_aware', 'max_determinized_states']);

/** `fuzzy: true` or `fuzzy: {…}`; undefined when absent or false. */
export function parseFuzzy(raw: unknown): FuzzyOptions | undefined {
  if (raw === undefined || raw === null || raw === false) return undefined;
  const options: FuzzyOptions = { fuzziness: 'AUTO', transpositions: true, minLength: 3, prefixLength: 1 };
  if (raw === true) return options;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('[fuzzy] must be a boolean or an object');
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!FUZZY_KEYS.has(key)) throw new EsError(400, 'x_content_parse_exception', `[fuzzy] unknown field [${key}]`);
    if (key === 'fuzziness') {
      const text = String(value).toUpperCase();
      if (text === 'AUTO') options.fuzziness = 'AUTO';
      else {
        const n = Number(text);
        if (!Number.isInteger(n) || n < 0 || n > 2) throw bad(`fuzziness must be between 0 and 2 (or AUTO), got [${String(value)}]`);
        options.fuzziness = n;
      }
    } else if (key === 'transpositions') options.transpositions = value === true || value === 'true';
    else if (key === 'min_length') options.minLength = int(value, key);
    else if (key === 'prefix_length') options.prefixLength = int(value, key);
  }
  return options;
}

/** The suggestions whose analyzed form starts with the analyzed prefix. */
export function prefixMatcher(prefix: string): CompletionMatcher {
  return (input) => (input.startsWith(prefix) ? 0 : undefined);
}

/**
 * FuzzyCompletionQuery: an input matches when one of its prefixes is within the edits of the
 * query (its first `prefix_length` characters exact; no edits for a query shorter than
 * `min_length`); the boost is how many leading characters the input shares with the query, the
 * query's last one aside (Lucene never sees it, so an exact match and one edit at the end score alike).
 */
export function fuzzyMatcher(query: string, options: FuzzyOptions): CompletionMatcher {
  const q = [...query];
  const edits = options.fuzziness === 'AUTO' ? (q.length <= 2 ? 0 : q.length <= 5 ? 1 : 2) : options.fuzziness;
  if (q.length <= options.prefixLength || q.length < options.minLength || edits === 0) {
    return (input) => (input.startsWith(query) ? Math.max(0, q.length - 1) : undefined);
  }
  const head = q.slice(0, options.prefixLength).join('');
  const rest = q.slice(options.prefixLength);
  return (input) => {
    if (!input.startsWith(head)) return undefined;
    const tail = [...input].slice(options.prefixLength, options.prefixLength + rest.length + edits);
    if (prefixDistance(rest, tail, options.transpositions, edits) > edits) return undefined;
    const chars = [...input];
    let shared = 0;
    while (shared < q.length - 1 && shared < chars.length && chars[shared] === q[shared]) shared++;
    return shared;
  };
}

/**
 * The smallest edit distance between `a` and any prefix of `b`, up to `max` (past it: max + 1):
 * insertions, deletions, substitutions, and adjacent transpositions when allowed (Lucene's
 * Levenshtein automata). Only the band of cells within `max` of the diagonal is computed, so a
 * long query costs its length times a few cells, not its square.
 */
function prefixDistance(a: string[], b: string[], transpositions: boolean, max: number): number {
  const far = max + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => (j <= max ? j : far));
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = new Array(b.length + 1).fill(far);
    row[0] = i <= max ? i : far;
    for (let j = Math.max(1, i - max); j <= Math.min(b.length, i + max); j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      row[j] = Math.min(v, far);
    }
    prev2 = prev;
    prev = row;
  }
  return Math.min(...prev);
}

/** RegexCompletionQuery: an input one of whose prefixes the expression matches whole (linear-time: the engine's Lucene regexp compiler). */
export function regexMatcher(expression: string): CompletionMatcher {
  let regex: ReturnType<typeof compileLuceneRegExp>;
  try {
    regex = compileLuceneRegExp(`(${expression}).*`);
  } catch (err) {
    if (err instanceof EsError) throw err;
    throw bad(`invalid [regex]: ${(err as Error).message}`);
  }
  return (input) => (regex.testExact(input) ? 0 : undefined);
}
