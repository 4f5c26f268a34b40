/**
 * Criteria of query rules and how a `match_criteria` value meets them, as Elasticsearch's
 * QueryRuleCriteriaType defines it: the value's text is compared with each criteria value (one
 * must match); string types take string values only, `exact` strings or numbers, the numeric
 * comparisons anything that reads as a Java double; `fuzzy` is Lucene's normalised Levenshtein
 * similarity above 0.5; `always` matches whatever is given.
 */

/** Criteria types in Elasticsearch's order (the order `rule_criteria_types_counts` lists them in). */
export const CRITERIA_TYPES = ['always', 'exact', 'fuzzy', 'prefix', 'suffix', 'contains', 'lt', 'lte', 'gt', 'gte'] as const;
export type CriteriaType = (typeof CRITERIA_TYPES)[number];

/** One criterion of a rule, as stored and shown (`metadata` and `values` absent for `always` unless given). */
export interface RuleCriteria {
  type: CriteriaType;
  metadata?: string;
  values?: string[];
}

const STRING_TYPES = new Set<CriteriaType>(['fuzzy', 'prefix', 'suffix', 'contains']);
const NUMERIC_TYPES = new Set<CriteriaType>(['lt', 'lte', 'gt', 'gte']);
const JAVA_DOUBLE = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;

/** Java's Double.parseDouble (decimal forms); undefined where it would throw. */
export function javaDouble(text: string): number | undefined {
  const s = text.trim();
  if (!JAVA_DOUBLE.test(s)) return undefined;
  if (s.endsWith('NaN')) return NaN;
  if (s.endsWith('Infinity')) return s.startsWith('-') ? -Infinity : Infinity;
  return Number(s.replace(/[fFdD]$/, ''));
}

/** Lucene's LevenshteinDistance.getDistance: 1 − edits / longer length, in float (1 for two empty strings). */
export function levenshteinSimilarity(target: string, other: string): number {
  const n = target.length;
  const m = other.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  let p = new Int32Array(n + 1);
  let d = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) p[i] = i;
  for (let j = 1; j <= m; j++) {
    const t = other.charCodeAt(j - 1);
    d[0] = j;
    for (let i = 1; i <= n; i++) {
      const cost = target.charCodeAt(i - 1) === t ? 0 : 1;
      d[i] = Math.min(d[i - 1] + 1, p[i] + 1, p[i - 1] + cost);
    }
    [p, d] = [d, p];
  }
  return Math.fround(1 - Math.fround(p[n] / Math.max(m, n)));
}

/** Whether a criteria type compares this kind of `match_criteria` value at all (ES's validateInput). */
function acceptsInput(type: CriteriaType, input: unknown): boolean {
  if (type === 'exact') return typeof input === 'string' || typeof input === 'number';
  if (STRING_TYPES.has(type)) return typeof input === 'string';
  if (NUMERIC_TYPES.has(type)) return typeof input === 'number' || (typeof input === 'string' && javaDouble(input) !== undefined);
  return false;
}

function compareNumbers(input: string, criteriaValue: string, test: (a: number, b: number) => boolean): boolean {
  const a = javaDouble(input);
  const b = javaDouble(criteriaValue);
  return a !== undefined && b !== undefined && test(a, b);
}

function valueMatches(type: CriteriaType, input: string, criteriaValue: string): boolean {
  switch (type) {
    case 'always':
      return true;
    case 'exact':
      return input === criteriaValue;
    case 'fuzzy':
      return levenshteinSimilarity(input, criteriaValue) > 0.5;
    case 'prefix':
      return input.startsWith(criteriaValue);
    case 'suffix':
      return input.endsWith(criteriaValue);
    case 'contains':
      return input.includes(criteriaValue);
    case 'lt':
      return compareNumbers(input, criteriaValue, (a, b) => a < b);
    case 'lte':
      return compareNumbers(input, criteriaValue, (a, b) => a <= b);
    case 'gt':
      return compareNumbers(input, criteriaValue, (a, b) => a > b);
    case 'gte':
      return compareNumbers(input, criteriaValue, (a, b) => a >= b);
    default:
      return assertNever(type);
  }
}

/** Does one `match_criteria` value meet this criterion (any of its values)? */
export function criterionMatches(criterion: RuleCriteria, matchValue: unknown): boolean {
  if (criterion.type === 'always') return true;
  if (!acceptsInput(criterion.type, matchValue)) return false;
  const text = String(matchValue);
  return (criterion.values ?? []).some((v) => valueMatches(criterion.type, text, v));
}

function assertNever(x: never): never {
  throw new Error(`unexpected criteria type ${String(x)}`);
}
