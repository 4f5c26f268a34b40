import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { EsError } from '../errors/index.js';

/** "[line:col] message" from a JSON.parse error over `text`. */
export function jsonErrorReason(err: unknown, text: string): string {
  const msg = (err as Error).message ?? 'failed to parse JSON';
  const m = /position (\d+)/.exec(msg);
  let line = 1;
  let col = 1;
  if (m) {
    const pos = Number(m[1]);
    for (let i = 0; i < pos && i < text.length; i++) {
      if (text[i] === '\n') {
        line++;
        col = 1;
      } else col++;
    }
  }
  return `[${line}:${col}] ${msg.replace(/^JSON\.parse: /, '')}`;
}

/** The parser token Elasticsearch names for a JSON value in its messages. */
export function tokenName(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'START_OBJECT';
}

export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * How deep objects and arrays may nest in a JSON text: Elasticsearch 8.15 reads JSON with Jackson,
 * whose StreamReadConstraints refuse a document nested deeper than 1000.
 */
export const MAX_JSON_NESTING_DEPTH = 1000;

/**
 * Where `text` first nests deeper than MAX_JSON_NESTING_DEPTH, as "[line:col] message", or undefined.
 * A linear scan without recursion: how a text that `parseJsonWithin` refused (or could not parse)
 * gets the position Elasticsearch names.
 */
export function jsonNestingDepthError(text: string): string | undefined {
  if (text.length <= MAX_JSON_NESTING_DEPTH) return undefined; // too short to open that many
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_NESTING_DEPTH) {
        return `[${line}:${i - lineStart + 1}] Document nesting depth (${depth}) exceeds the maximum allowed (${MAX_JSON_NESTING_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/**
 * Whether a parsed value nests objects and arrays deeper than MAX_JSON_NESTING_DEPTH: a walk over its
 * containers without recursion (JSON.parse itself does not recurse), so its cost is the number of
 * containers, not of characters — a 20 MB string costs nothing.
 */
export function nestsTooDeep(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_JSON_NESTING_DEPTH) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/**
 * JSON text → its value, within Elasticsearch's nesting depth: `tooDeep(reason)` and `malformed(err)`
 * build the caller's error. The text is parsed first (the native parser is fast and does not
 * recurse) and the value's containers counted; only a refused text is scanned for the position.
 */
export function parseJsonWithin(text: string, tooDeep: (reason: string) => Error, malformed: (err: unknown) => Error): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // a text that is both too deep and malformed: Elasticsearch's parser meets the depth first
    const reason = jsonNestingDepthError(text);
    throw reason ? tooDeep(reason) : malformed(err);
  }
  if (text.length > MAX_JSON_NESTING_DEPTH && nestsTooDeep(value)) {
    throw tooDeep(jsonNestingDepthError(text) ?? `Document nesting depth exceeds the maximum allowed (${MAX_JSON_NESTING_DEPTH})`);
  }
  return value;
}

/** A line (or body) that must be JSON: parsed, or Elasticsearch's `x_content_parse_exception`. */
export function parseJsonText(text: string): unknown {
  return parseJsonWithin(
    text,
    (reason) => new EsError(400, 'x_content_parse_exception', reason),
    (err) =>
      new EsError(400, 'x_content_parse_exception', jsonErrorReason(err, text), {
        caused_by: { type: 'json_parse_exception', reason: (err as Error).message },
      }),
  );
}

/**
 * Whether `text` holds a run of 16 digits or more (an integer literal JSON.parse may round): any
 * such run covers a position that is a multiple of 16 from the 16th, so only those positions are
 * looked at until a digit is met — about a sixteenth of the characters of a text without one.
 */
export function hasLongDigitRun(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i;
    while (end + 1 < n && isDigit(text.charCodeAt(end + 1))) end++;
    if (end - start + 1 >= 16) return true;
    i = end; // the next run starts after end + 1 (a non-digit): end + 16 lies inside any 16 of it
  }
  return false;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** JSON.stringify, or lossless-json's (digits of BigInts) for a value holding a BigInt, which JSON.stringify refuses. */
function stringifyWithBigInts(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !holdsBigInt(value)) throw err;
    return stringifyLossless(value) ?? 'null';
  }
}

/** Whether a value holds a BigInt: a walk over its members without recursion. */
export function holdsBigInt(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'bigint') return true;
    if (typeof v === 'object' && v !== null) for (const k in v) stack.push((v as Record<string, unknown>)[k]);
  }
  return false;
}

/**
 * Whether a parsed value holds an integer JSON.parse may have rounded (past 2^53 - 1): a walk over
 * its members without recursion, whose cost is the number of values, not of characters.
 */
export function holdsRoundedInteger(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' || typeof v[i] === 'number') stack.push(v[i]);
    } else if (typeof v === 'object' && v !== null) {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'object' || typeof x === 'number') stack.push(x);
      }
    }
  }
  return false;
}

/** A JSON number's text → a number, or a BigInt for an integer a number would round. */
export function exactNumber(text: string): number | bigint {
  const n = Number(text);
  return Number.isInteger(n) && !Number.isSafeInteger(n) && /^-?\d+$/.test(text) ? BigInt(text) : n;
}

/**
 * A JSON text (one JSON.parse accepted already) read with its integers kept exactly: those past
 * 2^53 come back as BigInts, every other value as JSON.parse reads it; duplicate keys resolve as
 * JSON.parse resolves them (the last one wins).
 */
export function exactJson(text: string): unknown {
  return parseLossless(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue });
}

/** A text holding integers past what a JS number keeps, once a parser that keeps them (and refuses duplicate keys) has read it. */
export function losslessText(text: string): string {
  try {
    parseLossless(text);
  } catch (err) {
    throw new EsError(400, 'x_content_parse_exception', `[1:1] ${(err as Error).message}`);
  }
  return text;
}

/**
 * The text to forward for a JSON value read from `text`: the value re-serialized, so that nothing
 * read differently by another parser (a duplicate key, an odd blank) goes on. A text holding
 * integers a JS number rounded goes on as it is instead (see `losslessText`).
 */
export function canonicalJson(text: string, value: unknown): string {
  return holdsRoundedInteger(value) ? losslessText(text) : JSON.stringify(value);
}

/** A JSON value with its object keys sorted (undefined members left out), as text: equal for values that differ only in key order. */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).sort().filter((k) => obj[k] !== undefined).map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Each integer past 2^53 written in `value`, by the number a JS number rounds it to (null: two integers round to it). */
function collectExactIntegers(value: unknown, into: Map<number, bigint | null>): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'bigint') {
      const rounded = Number(v);
      const known = into.get(rounded);
      into.set(rounded, known === undefined || known === v ? v : null);
    } else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
}

/**
 * The JSON text of a value made from documents' texts (a script's or a pipeline's result): an
 * integer past 2^53 that is the rounded form of one written in `texts` is written with that
 * integer's digits, as Elasticsearch keeps the value it read (an unsigned_long up to 2^64 - 1
 * stays exact through a script that leaves it, copies it, or writes it from its params). Integers
 * that round alike (all those within 2048 of 2^64 do) are told apart by the text: a later text wins
 * (the request's over the stored document's, for a script most likely writes what it is given);
 * two in one text are left as they are. A BigInt (a long past 2^53 a script computed) is written
 * with its digits. Any other value as JSON.stringify writes it.
 */
export function jsonTextKeepingIntegers(value: unknown, ...texts: Array<string | undefined>): string {
  // the texts first: a look at every 16th character of each, before any walk over the value
  const exact = exactIntegersOf(...texts);
  if (exact === undefined || !holdsRoundedInteger(value)) return stringifyWithBigInts(value);
  return stringifyLossless(value, (_key, v) => (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isInteger(v) ? exact.get(v) ?? v : v)) ?? 'null';
}

/**
 * The integers past 2^53 written in `texts`, by the number a JS number rounds each to (null: two
 * in one text round alike; a later text wins over an earlier one); undefined when there are none.
 */
export function exactIntegersOf(...texts: Array<string | undefined>): ReadonlyMap<number, bigint | null> | undefined {
  const long = texts.filter((t): t is string => t !== undefined && hasLongDigitRun(t));
  if (long.length === 0) return undefined;
  const exact = new Map<number, bigint | null>();
  for (const text of long) {
    const own = new Map<number, bigint | null>();
    collectExactIntegers(exactJson(text), own);
    for (const [rounded, big] of own) if (big !== null || !exact.has(rounded)) exact.set(rounded, big);
  }
  return exact.size === 0 ? undefined : exact;
}

/** `value` with each integer a number rounded (one `exact` knows) as its exact BigInt; copied only where it changes. */
export function withExactIntegers(value: unknown, exact: ReadonlyMap<number, bigint | null>): unknown {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value) ? exact.get(value) ?? value : value;
  if (Array.isArray(value)) {
    const out = value.map((v) => withExactIntegers(v, exact));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const x = withExactIntegers(v, exact);
      if (x !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = x;
    }
    return out ?? value;
  }
  return value;
}
