import { EsError } from '../../../../errors/index.js';
import { compileLuceneRegExp } from '../../regex/index.js';
import { editDistance } from '../query/term-patterns.js';

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
  const rest = q.slice(options.prefixLength).map((c) => c.codePointAt(0)!);
  return (input) => {
    if (!input.startsWith(head)) return undefined;
    const chars = [...input];
    const tail = chars.slice(options.prefixLength, options.prefixLength + rest.length + edits).map((c) => c.codePointAt(0)!);
    if (!prefixWithin(rest, tail, edits, options.transpositions)) return undefined;
    let shared = 0;
    while (shared < q.length - 1 && shared < chars.length && chars[shared] === q[shared]) shared++;
    return shared;
  };
}

/**
 * Whether some prefix of `b` is within `max` edits of `a` (the project's bounded optimal string
 * alignment distance, as Lucene's Levenshtein automata): only prefixes whose length is within
 * `max` of `a`'s can be.
 */
function prefixWithin(a: number[], b: number[], max: number, transpositions: boolean): boolean {
  for (let len = Math.max(0, a.length - max); len <= Math.min(b.length, a.length + max); len++) {
    if (editDistance(a, b.slice(0, len), max, transpositions) <= max) return true;
  }
  return false;
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
