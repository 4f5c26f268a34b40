import { EsError } from '../../../errors/index.js';
import { markWrittenDoubles } from '../painless/index.js';
import type { RestRequest } from './types.js';
import { eventLoopTurn } from '../../../cooperative/index.js';
import { exactJson, hasLongDigitRun, holdsRoundedInteger, jsonErrorReason, parseJsonWithin, tokenName } from '../../../ndjson/index.js';

export { jsonErrorReason };

/** The body's text, or the `source` parameter's when the body is empty; undefined when neither. */
function bodyText(req: RestRequest): string | undefined {
  // a body the caller parsed is not blank: its text (a large one is a rope of the pieces it was
  // decoded in) is not read here, since the first read copies all of it flat (~0.1 s for 20 MB)
  if (req.json !== undefined || req.body.trim()) return req.body;
  return req.params.get('source') ?? undefined;
}

/** The body of an API request (search, mapping, settings…) as a JSON object; undefined if empty. */
export function requestBody(req: RestRequest): Record<string, unknown> | undefined {
  const text = bodyText(req);
  return text === undefined ? undefined : withScriptNumbers(parsedObject(req) ?? jsonObject(text), text);
}

/** A search body: `requestBody`, with `search_after` read exactly (see `withExactSearchAfter`). */
export function searchRequestBody(req: RestRequest): Record<string, unknown> | undefined {
  const text = bodyText(req);
  return text === undefined ? undefined : withExactSearchAfter(withScriptNumbers(parsedObject(req) ?? jsonObject(text), text), text);
}

/**
 * A body that may hold scripts: its numbers written as decimals (`2.0`) are remembered as
 * doubles for the scripts' `params` (ES reads them as Doubles; see painless/json-values.ts).
 */
function withScriptNumbers(body: Record<string, unknown>, text: string): Record<string, unknown> {
  if (namesScriptOrRuntime(body)) markWrittenDoubles(body, text);
  return body;
}

/**
 * Does a member name of the body hold `script` or `runtime` (a script, script_score, script_fields,
 * runtime_mappings…), or a template's `source` text? Read from the parsed body, not by searching its whole text: a 20 MB
 * search text was scanned twice in one piece (~10-25 ms of the event loop a request).
 */
function namesScriptOrRuntime(body: Record<string, unknown>): boolean {
  const stack: unknown[] = [body];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      // for…in, not Object.entries: a body of 100,000 ranges made 100,000 pairs arrays to collect
      const o = v as Record<string, unknown>;
      for (const k in o) {
        const x = o[k];
        if (k.includes('script') || k.includes('runtime')) return true;
        // a search template's source written as a string renders to a body that may hold one
        if (k === 'source' && typeof x === 'string' && (x.includes('script') || x.includes('runtime'))) return true;
        if (x !== null && typeof x === 'object') stack.push(x);
      }
    }
  }
  return false;
}

/** The body the caller parsed already (a large one), when it is an object: no second parse. */
function parsedObject(req: RestRequest): Record<string, unknown> | undefined {
  const v = req.json;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * A search body (`text` parsed) whose integers past 2^53 are read exactly where that changes the
 * answer: `search_after` values as BigInts (ES reads them as longs, and a date_nanos sort value —
 * epoch nanoseconds, 1.5e18 for 2018 — is past what a JS number holds exactly); in `query` and
 * `post_filter`, as the digits written (a string, which every query reads as the number it spells),
 * so that a term or range on an unsigned_long (up to 2^64 - 1) or a keyword compares the value
 * given, not its nearest double. The rest of the body is as JSON.parse reads it.
 */
export function withExactSearchAfter(body: Record<string, unknown>, text: string): Record<string, unknown> {
  const sortValues = Array.isArray(body.search_after);
  const queries = EXACT_QUERY_KEYS.filter((k) => body[k] !== undefined && holdsRoundedInteger(body[k]));
  if ((!sortValues && !queries.length) || !hasLongDigitRun(text)) return body;
  const exact = exactJson(text) as Record<string, unknown>;
  const out = { ...body };
  if (sortValues) out.search_after = exact.search_after;
  for (const k of queries) out[k] = integersAsText(exact[k]);
  return out;
}

const EXACT_QUERY_KEYS = ['query', 'post_filter'] as const;

/** A JSON value with its BigInts written as their digits. */
function integersAsText(v: unknown): unknown {
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return v.map(integersAsText);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, integersAsText(x)]));
  return v;
}

/** A JSON value from text, with Elasticsearch's parse errors (`x_content_parse_exception` caused by `json_parse_exception`). */
export function jsonValue(text: string): unknown {
  return parseJsonWithin(
    text,
    (reason) => new EsError(400, 'x_content_parse_exception', reason),
    (err) =>
      new EsError(400, 'x_content_parse_exception', jsonErrorReason(err, text), {
        caused_by: { type: 'json_parse_exception', reason: (err as Error).message },
      }),
  );
}

/** A JSON object (a request body, a rendered search template) from text, with Elasticsearch's parse errors. */
export function jsonObject(text: string): Record<string, unknown> {
  const value = jsonValue(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EsError(400, 'parsing_exception', `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenName(value)}]`, { line: 1, col: 1 });
  }
  return value as Record<string, unknown>;
}

/** A document text of at least this many characters is parsed in an event loop turn of its own. */
export const LARGE_SOURCE_CHARS = 64 * 1024;

/**
 * `documentSource` for a single-document write: a large text (a credential naming 100,000 index
 * patterns, a document of 10,000 fields) is one native parse of tens of ms, so it gets a turn of
 * its own, apart from the work that read the request before it and the indexing after it.
 */
export async function documentSourceApart(text: string): Promise<Record<string, unknown>> {
  if (text.length < LARGE_SOURCE_CHARS) return documentSource(text);
  await eventLoopTurn();
  const source = documentSource(text);
  await eventLoopTurn();
  return source;
}

/** A document source (index, create, bulk source lines): ES's document parsing errors. */
export function documentSource(text: string): Record<string, unknown> {
  if (!text.trim()) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: source is missing;');
  }
  const value = parseJsonWithin(
    text,
    (tooDeep) =>
      new EsError(400, 'document_parsing_exception', `${tooDeep.slice(0, tooDeep.indexOf(']') + 1)} failed to parse: ${tooDeep.slice(tooDeep.indexOf(']') + 2)}`, {
        caused_by: { type: 'x_content_parse_exception', reason: tooDeep },
      }),
    (err) => {
      const reason = jsonErrorReason(err, text);
      return new EsError(400, 'document_parsing_exception', `${reason.slice(0, reason.indexOf(']') + 1)} failed to parse: ${(err as Error).message}`, {
        caused_by: { type: 'json_parse_exception', reason },
      });
    },
  );
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EsError(400, 'document_parsing_exception', `[1:1] failed to parse: Malformed content, must start with an object, found [${tokenName(value)}]`);
  }
  return value as Record<string, unknown>;
}

export function requireBody(req: RestRequest): Record<string, unknown> {
  const body = requestBody(req);
  if (!body) throw new EsError(400, 'parse_exception', 'request body is required');
  return body;
}
