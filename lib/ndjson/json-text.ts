import { parse as parseLossless } from 'lossless-json';
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
 * A linear scan without recursion, run before JSON.parse so that nothing recursing over the value
 * later (query, mapping, aggregation and document parsers) can meet a deeper one.
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

/** `jsonNestingDepthError` as Elasticsearch answers it for a request body. */
export function checkJsonNestingDepth(text: string): void {
  const reason = jsonNestingDepthError(text);
  if (reason) throw new EsError(400, 'x_content_parse_exception', reason);
}

/** A line (or body) that must be JSON: parsed, or Elasticsearch's `x_content_parse_exception`. */
export function parseJsonText(text: string): unknown {
  checkJsonNestingDepth(text);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new EsError(400, 'x_content_parse_exception', jsonErrorReason(err, text), {
      caused_by: { type: 'json_parse_exception', reason: (err as Error).message },
    });
  }
}

/** An integer literal that JSON.parse may round: 16 digits or more. */
const LONG_INTEGER = /\d{16}/;

/**
 * The text to forward for a JSON value read from `text`: the value re-serialized, so that nothing
 * read differently by another parser (a duplicate key, an odd blank) goes on. A text holding
 * integers a JS number would round goes on as it is instead, once a parser that keeps them and
 * refuses duplicate keys has read it.
 */
export function canonicalJson(text: string, value: unknown): string {
  if (!LONG_INTEGER.test(text)) return JSON.stringify(value);
  try {
    parseLossless(text);
  } catch (err) {
    throw new EsError(400, 'x_content_parse_exception', `[1:1] ${(err as Error).message}`);
  }
  return text;
}
