/**
 * How query bodies' fields are read, and the 400s for what is refused. Queries Elasticsearch reads
 * with its object parsers (`pinned`, `rule`) report the parser's message (an unknown field, a
 * missing required field, a field that failed, an object that could not be built) as a
 * parsing_exception with its cause as `caused_by`. Positions are not tracked: those reasons carry a
 * fixed `[1:2]` where Elasticsearch puts one.
 */
import { EsError } from '../../../../errors/index.js';
import { tokenName } from '../../../../ndjson/index.js';
import type { Fuzziness, MultiTermRewrite } from './query.js';

const AT = '[1:2]';

function parsing(reason: string, cause?: EsError): EsError {
  const extra: Record<string, unknown> = { line: 1, col: 2 };
  if (cause) extra.caused_by = { type: cause.type, reason: cause.reason, ...cause.extra };
  return new EsError(400, 'parsing_exception', reason, extra);
}

export function malformed(name: string): EsError {
  return new EsError(400, 'parsing_exception', `[${name}] query malformed, no start_object after query name`, { line: 1, col: 1 });
}

export function unknownField(parser: string, field: string): EsError {
  return parsing(`${AT} [${parser}] unknown field [${field}]`);
}

export function unsupportedValue(parser: string, field: string, value: unknown): EsError {
  return parsing(`${AT} [${parser}] ${field} doesn't support values of type: ${tokenName(value)}`);
}

export function requiredFields(names: string[]): EsError {
  return parsing(`Required [${names.join(', ')}]`);
}

/** The object refused its arguments: `reason` is the builder's own message. */
export function failedToBuild(parser: string, reason: string): EsError {
  return parsing(`${AT} Failed to build [${parser}] after last required field arrived`, new EsError(400, 'illegal_argument_exception', reason));
}

/** Runs `read`, wrapping a 400 it throws as the failure of `field`. */
export function inField<T>(parser: string, field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof EsError && err.status === 400) throw parsing(`${AT} [${parser}] failed to parse field [${field}]`, err);
    throw err;
  }
}

export function checkFields(parser: string, body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw unknownField(parser, k);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A string array field (a single value is a one-element array), its items read as their text;
 * null items stay null for the caller's own message.
 */
export function textArray(parser: string, field: string, v: unknown): Array<string | null> {
  return (Array.isArray(v) ? v : [v]).map((item) => {
    if (item === null) return null;
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw unsupportedValue(parser, field, item);
  });
}

/** `boost` as every query reads it. */
export function boostOf(name: string, v: unknown): number {
  if (v === undefined) return 1;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new EsError(400, 'parsing_exception', `[${name}] query does not support [boost] with value [${String(v)}]`, { line: 1, col: 1 });
  if (n < 0) throw new EsError(400, 'illegal_argument_exception', `negative [boost] are not allowed in [${name}], but got [${n}]`);
  return n;
}

/** `fuzziness`: an edit distance (0, 1, 2), or AUTO[:low,high]. Shared by the match family and intervals' fuzzy rule. */
export function parseFuzziness(v: unknown): Fuzziness | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  const auto = /^auto(?::(\d+),(\d+))?$/i.exec(s);
  if (auto) return { kind: 'auto', low: auto[1] ? Number(auto[1]) : 3, high: auto[2] ? Number(auto[2]) : 6 };
  const n = Number(s);
  if (!Number.isFinite(n)) throw new EsError(400, 'parsing_exception', `failed to parse fuzziness [${s}]`, { line: 1, col: 1 });
  // Fractional fuzziness is a 0..1 similarity in old Lucene; ES maps 0.x to edits (x ≥ 0.5 → 1 …); keep integer edits.
  return { kind: 'fixed', edits: Math.min(2, Math.max(0, Math.floor(n))) };
}

/**
 * A boolean of a request body, as Elasticsearch's XContentParser.booleanValue() reads it: `true`,
 * `false`, or those two words as strings; anything else ("yes", "1", "on") is refused rather than
 * read as false. `fallback` when the field is absent (or null).
 */
export function booleanValue(v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  if (typeof v === 'string') throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${v}] as only [true] or [false] are allowed.`);
  throw new EsError(400, 'x_content_parse_exception', `[1:2] Current token (${tokenName(v)}) not of boolean type`);
}

/**
 * A multi-term query's `rewrite` as Elasticsearch reads it (QueryParsers.parseRewriteMethod):
 * constant_score, constant_score_boolean, scoring_boolean, or top_terms_N, top_terms_boost_N,
 * top_terms_blended_freqs_N; undefined when not given (the query's default).
 */
export function parseRewrite(raw: unknown): MultiTermRewrite | undefined {
  if (raw === undefined || raw === null) return undefined;
  const method = String(raw);
  if (method === 'constant_score' || method === 'constant_score_boolean') return { kind: 'constant_score' };
  if (method === 'scoring_boolean') return { kind: 'scoring_boolean' };
  const digits = /\d/.exec(method);
  if (digits) {
    const size = Number.parseInt(method.slice(digits.index), 10);
    const scores = ({ top_terms_: 'bm25', top_terms_boost_: 'boost', top_terms_blended_freqs_: 'blended_freqs' } as const)[method.slice(0, digits.index)];
    if (scores && /^\d+$/.test(method.slice(digits.index))) return { kind: 'top_terms', size, scores };
  }
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse rewrite_method [${method}]`);
}
