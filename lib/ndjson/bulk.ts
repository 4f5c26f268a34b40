import { EsError } from '../errors/index.js';
import { isJsonObject, jsonErrorReason, tokenName } from './json-text.js';
import { LineCursor } from './lines.js';
import { TimeSlice, type ReadableText } from '../cooperative/index.js';

export type BulkAction = 'index' | 'create' | 'update' | 'delete';
const ACTIONS = new Set<string>(['index', 'create', 'update', 'delete']);
/** The members an action line may have (Elasticsearch 8's BulkRequestParser). */
const ACTION_PARAMS = new Set([
  '_index', '_id', 'routing', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'op_type', 'retry_on_conflict',
  'require_alias', 'pipeline', 'dynamic_templates', '_source', 'list_executed_pipelines', 'require_data_stream',
]);

/** Members whose value is an object or array; every other member is a simple value. */
const OBJECT_PARAMS = new Set(['dynamic_templates', '_source']);

/** One item of a `_bulk` body, as written. */
export interface BulkEntry {
  action: BulkAction;
  /** The action line's members (`_index`, `_id`, parameters); `{}` when it has none. */
  meta: Record<string, unknown>;
  /** `_index` as written, or undefined (the path's index applies). */
  index?: string;
  /** The action line as read: trimmed of JSON blanks, re-serialized when it was not in the plain form. */
  actionText: string;
  /** The source line (index, create, update), untouched: it is read by position, whatever it holds. */
  sourceText?: string;
  /** The action line was in the plain form, read without a parse (and goes on as written). */
  plain: boolean;
  /** 1-based line number of the action line. */
  line: number;
}

function malformed(line: number, detail: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `Malformed action/metadata line [${line}], ${detail}`);
}

/**
 * The action lines clients write most (`{"index":{"_index":"x","_id":"1"}}`, either key
 * optional, no escapes, no blanks), read without a JSON parse; anything else is parsed.
 */
const SIMPLE_ACTION = /^\{"(index|create|delete|update)":\{(?:"(_index|_id)":"([^"\\]*)")?(?:,"(_index|_id)":"([^"\\]*)")?\}\}$/;

function simpleActionLine(text: string): Pick<BulkEntry, 'action' | 'meta'> | undefined {
  const m = SIMPLE_ACTION.exec(text);
  if (!m || (m[2] !== undefined && m[2] === m[4]) || (m[2] === undefined && m[4] !== undefined)) return undefined;
  const meta: Record<string, unknown> = {};
  if (m[2] !== undefined) meta[m[2]] = m[3];
  if (m[4] !== undefined) meta[m[4]] = m[5];
  return { action: m[1] as BulkAction, meta };
}

function parseActionLine(text: string, line: number): Pick<BulkEntry, 'action' | 'meta'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new EsError(400, 'illegal_argument_exception', `Malformed action/metadata line [${line}], ${jsonErrorReason(err, text)}`);
  }
  if (!isJsonObject(parsed)) throw malformed(line, `expected START_OBJECT or END_OBJECT but found [${tokenName(parsed)}]`);
  const keys = Object.keys(parsed);
  if (keys.length !== 1) {
    throw malformed(line, keys.length ? `expected END_OBJECT but found [FIELD_NAME]` : 'expected FIELD_NAME but found [END_OBJECT]');
  }
  if (!ACTIONS.has(keys[0])) throw malformed(line, `expected field [create], [delete], [index] or [update] but found [${keys[0]}]`);
  const action = keys[0] as BulkAction;
  const meta = parsed[action];
  if (!isJsonObject(meta)) throw malformed(line, `expected START_OBJECT but found [${tokenName(meta)}]`);
  for (const [k, v] of Object.entries(meta)) {
    if (!ACTION_PARAMS.has(k)) throw new EsError(400, 'illegal_argument_exception', `Action/metadata line [${line}] contains an unknown parameter [${k}]`);
    if (typeof v === 'object' && v !== null && !OBJECT_PARAMS.has(k)) {
      throw malformed(line, `expected a simple value for field [${k}] but found [${tokenName(v)}]`);
    }
  }
  if (meta._index === null) delete meta._index; // a null value is no value
  return { action, meta };
}

/**
 * A `_bulk` body → its items, as Elasticsearch's parser reads it: a blank action line is skipped,
 * an action line that is not exactly one known action with an object of known members fails the
 * whole request, and the line after an index/create/update action is its source, whatever it
 * holds. Both the gateway's access check and the embedded engine read bodies with this reader.
 */
export function readBulk(text: string): BulkEntry[] {
  const entries: BulkEntry[] = [];
  for (const entry of bulkEntries(text)) entries.push(entry);
  return entries;
}

/**
 * `readBulk` for callers that may wait: the event loop gets a turn every 10 ms of reading, so
 * that a body of tens of megabytes does not hold other requests back.
 */
export async function readBulkCooperatively(text: ReadableText): Promise<BulkEntry[]> {
  const entries: BulkEntry[] = [];
  const slice = new TimeSlice();
  for (const entry of bulkEntries(text)) {
    entries.push(entry);
    if (entries.length % 256 === 0) await slice.pause();
  }
  return entries;
}

/** The one reading of a `_bulk` body, entry by entry (see `readBulk`). */
function* bulkEntries(text: ReadableText): Generator<BulkEntry, void, void> {
  if (text.length && text.charCodeAt(text.length - 1) !== 10) {
    throw new EsError(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
  }
  const lines = new LineCursor(text);
  while (lines.next()) {
    const actionText = lines.trimmed();
    if (!actionText) continue;
    const line = lines.number;
    const simple = simpleActionLine(actionText);
    const { action, meta } = simple ?? parseActionLine(actionText, line);
    // a line that needed a parse goes on re-serialized: what was read, and nothing another parser could read otherwise
    const entry: BulkEntry = { action, meta, actionText: simple ? actionText : JSON.stringify({ [action]: meta }), plain: !!simple, line };
    if (meta._index !== undefined) entry.index = String(meta._index);
    if (action !== 'delete') {
      if (!lines.next()) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: source is missing;');
      entry.sourceText = lines.raw();
    }
    yield entry;
  }
}

/**
 * The body that says exactly what `entries` say: one action line and its source per item. The
 * rebuilt body only ever drops characters of `original` (blank lines, blanks around action lines),
 * so when it would be as long, it is `original` itself, which is returned as it is.
 */
export function bulkText(entries: readonly BulkEntry[], original?: string): string {
  if (original !== undefined && entries.every((e) => e.plain)) {
    // plain action lines are substrings of the body: a rebuilt body as long as it is the body
    let length = 0;
    for (const e of entries) length += e.actionText.length + 1 + (e.sourceText === undefined ? 0 : e.sourceText.length + 1);
    if (length === original.length) return original;
  }
  let out = '';
  for (const e of entries) {
    out += e.actionText + '\n';
    if (e.sourceText !== undefined) out += e.sourceText + '\n';
  }
  return out;
}
