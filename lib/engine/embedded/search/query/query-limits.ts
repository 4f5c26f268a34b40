import type { ReadableText } from '../../../../cooperative/index.js';
import { EsError } from '../../../../errors/index.js';
import type { FlatSettings } from '../../store/index.js';
import type { IntervalsRule } from './intervals.js';
import type { Query } from './query.js';
import { queryTypeOf } from './query-type.js';

/** `indices.query.bool.max_clause_count` as Elasticsearch 8 documents it (static, node level). */
export const MAX_CLAUSE_COUNT = 4096;

/** What a query tree asks of the index-level query limits, gathered in one walk before any matching. */
interface QueryDemand {
  /** Values of the largest `terms` query (index.max_terms_count). */
  largestTerms: number;
  /** Length of the longest `regexp` (index.max_regex_length). */
  longestRegex: number;
  /** Leaf clauses, a full-text query counting one per word of its text (indices.query.bool.max_clause_count). */
  clauses: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /^[\p{L}\p{N}]/u;
/** A long text is read this many characters at a time. */
const READ_CHARS = 64 * 1024;

/**
 * The words analysed text would most likely give: an estimate made before analysis, so before the
 * cost. One scan that stops past `limit` (a 20 MB text is refused after its first few thousand words).
 * A text given as its pieces (a long string of a request body, long-strings.ts) is read a slice
 * at a time: reading the string itself would first copy all of it flat (~0.1 s for 20 MB).
 */
export function wordCount(text: unknown, limit: number, pieces?: ReadableText): number {
  if (pieces === undefined) return wordsIn(String(text), limit);
  let n = 0;
  let endsInWord = false;
  for (let at = 0; at < pieces.length && n <= limit; ) {
    let cut = Math.min(at + READ_CHARS, pieces.length);
    // never between the two halves of a surrogate pair
    if (cut < pieces.length && (pieces.charCodeAt(cut - 1) & 0xfc00) === 0xd800) cut--;
    const s = pieces.slice(at, cut);
    // a word the cut went through was counted with the slice before
    if (endsInWord && WORD_CHAR.test(s)) n--;
    n += wordsIn(s, limit - n);
    endsInWord = WORD_CHAR.test(s.slice((s.charCodeAt(s.length - 1) & 0xfc00) === 0xdc00 ? -2 : -1));
    at = cut;
  }
  return n;
}

function wordsIn(s: string, limit: number): number {
  WORD.lastIndex = 0;
  let n = 0;
  while (n <= limit && WORD.exec(s) !== null) n++;
  return n;
}

/** The texts an intervals rule analyses (its `match` rules'), each of whose words is a position to find. */
export function intervalTexts(rule: IntervalsRule, into: string[]): string[] {
  const pending = [rule];
  for (let r = pending.pop(); r !== undefined; r = pending.pop()) {
    if (r.kind === 'match') into.push(r.query);
    else if (r.kind === 'all_of' || r.kind === 'any_of') pending.push(...r.rules);
    if ((r.kind === 'match' || r.kind === 'all_of' || r.kind === 'any_of') && r.filter && 'rule' in r.filter) pending.push(r.filter.rule);
  }
  return into;
}

function demandOf(queries: Array<Query | undefined>): QueryDemand {
  const demand: QueryDemand = { largestTerms: 0, longestRegex: 0, clauses: 0 };
  const pending = queries.filter((q): q is Query => q !== undefined);
  for (let q = pending.pop(); q !== undefined; q = pending.pop()) {
    const inner = queryTypeOf(q).children(q);
    if (inner.length) {
      pending.push(...inner);
      continue;
    }
    if (q.type === 'terms') demand.largestTerms = Math.max(demand.largestTerms, q.values.length);
    if (q.type === 'regexp') demand.longestRegex = Math.max(demand.longestRegex, q.value.length);
    demand.clauses += queryTypeOf(q).clauses?.(q, MAX_CLAUSE_COUNT - demand.clauses) ?? 1;
  }
  return demand;
}

function limitOf(settings: FlatSettings, key: string, dflt: number): number {
  const v = settings[key];
  return typeof v === 'string' && v !== '' ? Number(v) : dflt;
}

/**
 * Refuses, with Elasticsearch's 400s, a search whose queries exceed the index-level limits of any
 * index searched (index.max_terms_count, index.max_regex_length) or the clause limit.
 */
export function checkQueryLimits(indexSettings: FlatSettings[], queries: Array<Query | undefined>): void {
  const demand = demandOf(queries);
  if (demand.clauses > MAX_CLAUSE_COUNT) {
    throw new EsError(400, 'too_many_nested_clauses', `Query contains too many nested clauses; maxClauseCount is set to ${MAX_CLAUSE_COUNT}`);
  }
  for (const settings of indexSettings) {
    const maxTerms = limitOf(settings, 'index.max_terms_count', 65536);
    if (demand.largestTerms > maxTerms) {
      throw new EsError(400, 'illegal_argument_exception',
        `The number of terms [${demand.largestTerms}] used in the Terms Query request has exceeded the allowed maximum of [${maxTerms}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`);
    }
    const maxRegex = limitOf(settings, 'index.max_regex_length', 1000);
    if (demand.longestRegex > maxRegex) {
      throw new EsError(400, 'illegal_argument_exception',
        `The length of regex [${demand.longestRegex}] used in the Regexp Query request has exceeded the allowed maximum of [${maxRegex}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`);
    }
  }
}
