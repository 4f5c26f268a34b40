import { EsError } from '../errors/index.js';
import { canonicalJson, isJsonObject, parseJsonText } from './json-text.js';
import { LineCursor } from './lines.js';

/** One search of an `_msearch` (or `_msearch/template`) body. */
export interface MsearchEntry {
  /** The header line's members (`index`, options); `{}` for an empty header line. */
  header: Record<string, unknown>;
  /** The header line as read, re-serialized (`{}` when it was empty). */
  headerText: string;
  /** The search (or template) body line, parsed. */
  body: Record<string, unknown>;
  /** The body line as read, re-serialized (see `canonicalJson`). */
  bodyText: string;
}

/**
 * The members a header may have: Elasticsearch 8's MultiSearchRequest's, and OpenSearch 2's
 * `cancel_after_time_interval` and `phase_took` (its readMultiLineFormat reads both for the one search).
 */
const HEADER_KEYS = new Set(['index', 'indices', 'search_type', 'preference', 'routing', 'request_cache', 'ignore_unavailable', 'allow_no_indices',
  'expand_wildcards', 'ccs_minimize_roundtrips', 'allow_partial_search_results', 'ignore_throttled', 'type', 'types',
  'cancel_after_time_interval', 'phase_took']);

function headerLine(text: string): Record<string, unknown> {
  const value = parseJsonText(text);
  if (!isJsonObject(value)) throw new EsError(400, 'illegal_argument_exception', 'msearch header must be an object');
  for (const k of Object.keys(value)) {
    if (!HEADER_KEYS.has(k)) throw new EsError(400, 'illegal_argument_exception', `key [${k}] is not supported in the metadata section`);
  }
  return value;
}

/**
 * An `_msearch` body → its searches, as Elasticsearch's MultiSearchRequest reads it: one empty
 * line at the very start is skipped; an empty header line means no options; a header with no
 * body line after it ends the list. Every header and body must be a JSON object. Both the
 * gateway's access check and the embedded engine read bodies with this function.
 */
export function readMsearch(text: string): MsearchEntry[] {
  const lines = new LineCursor(text);
  const entries: MsearchEntry[] = [];
  let first = true;
  while (lines.next()) {
    if (first && lines.to === 0) {
      first = false;
      continue; // "support first line with \n"
    }
    first = false;
    const header = headerLine(lines.trimmed() || '{}');
    if (!lines.next()) break;
    const bodyText = lines.trimmed() || '{}';
    const body = parseJsonText(bodyText);
    if (!isJsonObject(body)) {
      throw new EsError(400, 'parsing_exception', 'Failed to parse object: expecting token of type [START_OBJECT]', { line: 1, col: 1 });
    }
    entries.push({ header, headerText: JSON.stringify(header), body, bodyText: canonicalJson(bodyText, body) });
  }
  return entries;
}

/** The body that says exactly what `entries` say: a header line and a body line per search. */
export function msearchText(entries: readonly MsearchEntry[]): string {
  let out = '';
  for (const e of entries) out += e.headerText + '\n' + e.bodyText + '\n';
  return out;
}
