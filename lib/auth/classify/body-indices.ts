import type { Operation } from './classification.js';

/**
 * Index expressions named inside request bodies. Each reader returns the targets it found, one
 * per (expression, operation): `expression` is `null` for an item that names no index (it falls
 * back to the path's index, or to every index), and `*` for an index it cannot read (not a
 * string, or a body that is not JSON), so that authorization stays strict. Readers never throw.
 */
export interface BodyTarget {
  expression: string | null;
  operation: Operation;
}

/** The expression reported when a body names an index the classifier cannot read. */
export const UNREADABLE = '*';

type Body = Buffer | string | undefined;

class Targets {
  private readonly seen = new Set<string>();
  private lastExpression: string | null | undefined;
  private lastOperation: Operation | undefined;
  readonly list: BodyTarget[] = [];
  add(expression: string | null, operation: Operation): void {
    if (this.lastExpression === expression && this.lastOperation === operation) return;
    this.lastExpression = expression;
    this.lastOperation = operation;
    const key = `${operation}\u0000${expression ?? ''}\u0000${expression === null ? 0 : 1}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ expression, operation });
  }
  /** A JSON value standing for index names: a comma list, a list of names, or something unreadable. */
  addValue(value: unknown, operation: Operation): void {
    for (const e of expressionsOf(value)) this.add(e, operation);
  }
}

/** A JSON value that names indices → the expressions it names; `[UNREADABLE]` when it is not names. */
export function expressionsOf(value: unknown): string[] {
  if (typeof value === 'string') return splitExpressions(value);
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) out.push(...(typeof v === 'string' ? splitExpressions(v) : [UNREADABLE]));
    return out.length ? out : [UNREADABLE];
  }
  return [UNREADABLE];
}

/** A comma list as written ("a,b*,-c") → its expressions; an empty list reads as `*`. */
export function splitExpressions(list: string): string[] {
  const out = list.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return out.length ? out : [UNREADABLE];
}

function isBlank(body: Body): boolean {
  if (body === undefined) return true;
  if (typeof body === 'string') return body.trim().length === 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** The body as a JSON object, `undefined` when absent, `null` when unreadable (not JSON, not an object). */
function jsonObject(body: Body): Record<string, unknown> | undefined | null {
  if (isBlank(body)) return undefined;
  try {
    const v: unknown = JSON.parse(typeof body === 'string' ? body : body!.toString('utf8'));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Targets read from a JSON object body: none when there is no body; when it cannot be read (not
 * JSON, not an object, or `readable` says no), an unreadable target for each of `unreadableAs`;
 * else what `collect` adds.
 */
function objectBodyTargets(
  body: Body,
  unreadableAs: Operation[],
  collect: (json: Record<string, unknown>, t: Targets) => void,
  readable: (json: Record<string, unknown>) => boolean = () => true,
): BodyTarget[] {
  const t = new Targets();
  const json = jsonObject(body);
  if (json === undefined) return t.list;
  if (json === null || !readable(json)) {
    for (const op of unreadableAs) t.add(UNREADABLE, op);
    return t.list;
  }
  collect(json, t);
  return t.list;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Walks newline-delimited lines without copying the body: `visit` gets each line's bounds
 * (trailing "\r" and surrounding blanks trimmed) and returns how many following lines to skip.
 */
function eachLine(body: Buffer | string, visit: (text: () => string, empty: boolean, last: boolean) => number): void {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const n = buf.length;
  let pos = 0;
  let skip = 0;
  while (pos < n) {
    let end = buf.indexOf(0x0a, pos);
    if (end < 0) end = n;
    if (skip > 0) {
      skip--;
      pos = end + 1;
      continue;
    }
    let s = pos;
    let e = end;
    while (s < e && (buf[s] === 0x20 || buf[s] === 0x09 || buf[s] === 0x0d)) s++;
    while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x09 || buf[e - 1] === 0x0d)) e--;
    const from = s;
    const to = e;
    skip = visit(() => buf.toString('utf8', from, to), s === e, end >= n - 1);
    pos = end + 1;
  }
}

const BULK_ACTIONS: Record<string, Operation> = { index: 'write', create: 'write', update: 'write', delete: 'delete' };

type BulkAction = [expression: string | null, operation: Operation, hasSource: boolean];

function readBulkActionLine(line: string): BulkAction[] | null {
  const parsed = parseLine(line);
  let result: BulkAction[] | null = null;
  if (isObject(parsed)) {
    // ES rejects a line with more than one action; reading every one of them is the strict answer.
    for (const [key, meta] of Object.entries(parsed)) {
      const op = BULK_ACTIONS[key];
      if (!op || !isObject(meta)) continue;
      result ??= [];
      const hasSource = key !== 'delete';
      if (!('_index' in meta)) result.push([null, op, hasSource]);
      else if (typeof meta._index === 'string' && meta._index.length) result.push([meta._index, op, hasSource]);
      else result.push([UNREADABLE, op, hasSource]);
    }
  }
  return result;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;

/** The fast scanner's result, kept in module state so that scanning one line allocates nothing. */
const scan = { pos: 0, op: 'write' as Operation, index: null as string | null, lastIndexBytes: Buffer.alloc(0), lastIndex: '' };

function skipSpace(buf: Buffer, end: number): void {
  while (scan.pos < end && isSpace(buf[scan.pos])) scan.pos++;
}

/** A string without escapes; returns its start (its end is `scan.pos - 1`), or -1. */
function plainString(buf: Buffer, end: number): number {
  if (buf[scan.pos] !== QUOTE) return -1;
  const from = ++scan.pos;
  while (scan.pos < end && buf[scan.pos] !== QUOTE) {
    if (buf[scan.pos] === BACKSLASH) return -1;
    scan.pos++;
  }
  if (scan.pos >= end) return -1;
  scan.pos++;
  return from;
}

function bytesEqual(buf: Buffer, from: number, to: number, ascii: string): boolean {
  if (to - from !== ascii.length) return false;
  for (let k = 0; k < ascii.length; k++) if (buf[from + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

function bulkOperation(buf: Buffer, from: number, to: number): Operation | undefined {
  if (bytesEqual(buf, from, to, 'index') || bytesEqual(buf, from, to, 'create') || bytesEqual(buf, from, to, 'update')) return 'write';
  if (bytesEqual(buf, from, to, 'delete')) return 'delete';
  return undefined;
}

/**
 * The common action line — `{"op":{"k":"v","k2":1,…}}` with flat scalar members and no escapes —
 * read straight from the bytes into `scan`: 'action', 'other' (not a bulk action), or 'slow' for
 * anything else, which then goes through JSON.parse. JSON.parse on every action line of a large
 * bulk would cost more than everything else together.
 */
function scanBulkActionLine(buf: Buffer, start: number, end: number): 'action' | 'other' | 'slow' {
  scan.pos = start;
  if (buf[scan.pos++] !== 0x7b) return 'slow';
  skipSpace(buf, end);
  const keyFrom = plainString(buf, end);
  if (keyFrom < 0) return 'slow';
  const keyTo = scan.pos - 1;
  skipSpace(buf, end);
  if (buf[scan.pos++] !== 0x3a) return 'slow';
  skipSpace(buf, end);
  if (buf[scan.pos++] !== 0x7b) return 'slow';
  let index: string | null = null;
  skipSpace(buf, end);
  if (buf[scan.pos] === 0x7d) scan.pos++;
  else {
    for (;;) {
      skipSpace(buf, end);
      const kFrom = plainString(buf, end);
      if (kFrom < 0) return 'slow';
      const isIndex = bytesEqual(buf, kFrom, scan.pos - 1, '_index');
      skipSpace(buf, end);
      if (buf[scan.pos++] !== 0x3a) return 'slow';
      skipSpace(buf, end);
      if (buf[scan.pos] === QUOTE) {
        const vFrom = plainString(buf, end);
        if (vFrom < 0) return 'slow';
        if (isIndex) index = decodeIndex(buf, vFrom, scan.pos - 1);
      } else {
        // a number, true, false or null: nothing nested
        const from = scan.pos;
        while (scan.pos < end) {
          const c = buf[scan.pos];
          if (c === 0x2c || c === 0x7d || isSpace(c)) break;
          if (c === 0x7b || c === 0x5b || c === QUOTE) return 'slow';
          scan.pos++;
        }
        if (scan.pos === from) return 'slow';
        if (isIndex) index = UNREADABLE;
      }
      skipSpace(buf, end);
      const c = buf[scan.pos++];
      if (c === 0x2c) continue;
      if (c === 0x7d) break;
      return 'slow';
    }
  }
  skipSpace(buf, end);
  if (buf[scan.pos++] !== 0x7d) return 'slow';
  skipSpace(buf, end);
  if (scan.pos !== end) return 'slow';
  const op = bulkOperation(buf, keyFrom, keyTo);
  if (!op) return 'other';
  scan.op = op;
  scan.index = index;
  return 'action';
}

/** `_index` values repeat line after line: decode only when the bytes change. */
function decodeIndex(buf: Buffer, from: number, to: number): string {
  if (from === to) return UNREADABLE;
  const last = scan.lastIndexBytes;
  if (last.length === to - from) {
    let k = 0;
    while (k < last.length && last[k] === buf[from + k]) k++;
    if (k === last.length) return scan.lastIndex;
  }
  scan.lastIndexBytes = Buffer.from(buf.subarray(from, to));
  scan.lastIndex = buf.toString('utf8', from, to);
  return scan.lastIndex;
}

/**
 * `_bulk`: the target of every action line; source lines are skipped unread. A line that is not
 * an action (unparseable, unknown action) is skipped and the next line read as an action — the
 * engine rejects such a request anyway.
 */
export function bulkTargets(body: Body): BodyTarget[] {
  const t = new Targets();
  if (body === undefined) return t.list;
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const n = buf.length;
  let pos = 0;
  let sourceNext = false;
  while (pos < n) {
    let end = buf.indexOf(0x0a, pos);
    if (end < 0) end = n;
    if (sourceNext) {
      sourceNext = false;
      pos = end + 1;
      continue;
    }
    let s = pos;
    let e = end;
    while (s < e && isSpace(buf[s])) s++;
    while (e > s && isSpace(buf[e - 1])) e--;
    pos = end + 1;
    if (s === e) continue; // ES skips an empty action line
    const fast = scanBulkActionLine(buf, s, e);
    if (fast === 'other') continue;
    if (fast === 'action') {
      t.add(scan.index, scan.op);
      if (scan.op !== 'delete') sourceNext = true;
      continue;
    }
    const actions = readBulkActionLine(buf.toString('utf8', s, e));
    if (!actions) continue;
    for (const [expression, op, hasSource] of actions) {
      t.add(expression, op);
      if (hasSource) sourceNext = true;
    }
  }
  return t.list;
}

/**
 * `_msearch` and `_msearch/template`: each header line's `index` (or `indices`); a header without
 * one targets the path's indices. Search bodies are skipped unread; an unparseable header is
 * skipped with its body.
 */
export function msearchTargets(body: Body): BodyTarget[] {
  const t = new Targets();
  if (body === undefined) return t.list;
  let first = true;
  eachLine(body, (text, empty, last) => {
    if (empty && first) {
      first = false;
      return 0; // ES tolerates one leading newline
    }
    first = false;
    if (last) return 0; // a header with no search body after it is not a search
    if (empty) {
      t.add(null, 'read');
      return 1;
    }
    const header = parseLine(text());
    if (!isObject(header)) return 1;
    const named = ['index', 'indices'].filter((k) => k in header);
    if (!named.length) t.add(null, 'read');
    for (const k of named) t.addValue(header[k], 'read');
    return 1;
  });
  return t.list;
}

/** `_mget` and `_mtermvectors`: `docs[]._index`; `ids` and docs without `_index` use the path's index. */
export function docsTargets(body: Body): BodyTarget[] {
  return objectBodyTargets(body, ['read'], (json, t) => {
    if ('ids' in json) t.add(null, 'read');
    if (!('docs' in json)) return;
    if (!Array.isArray(json.docs)) {
      t.add(UNREADABLE, 'read');
      return;
    }
    for (const doc of json.docs) {
      if (!isObject(doc)) continue; // the engine rejects it
      if (!('_index' in doc)) t.add(null, 'read');
      else t.addValue(typeof doc._index === 'string' ? doc._index : undefined, 'read');
    }
  });
}

/** `_reindex`: reads `source.index` (a name, comma list or list), writes `dest.index`. */
export function reindexTargets(body: Body): BodyTarget[] {
  return objectBodyTargets(body, ['read', 'write'], (json, t) => {
    const source = json.source;
    if (source !== undefined) {
      if (isObject(source) && 'index' in source) t.addValue(source.index, 'read');
      else t.add(UNREADABLE, 'read');
    }
    const dest = json.dest;
    if (dest !== undefined) {
      if (isObject(dest) && 'index' in dest) t.addValue(typeof dest.index === 'string' ? dest.index : undefined, 'write');
      else t.add(UNREADABLE, 'write');
    }
  });
}

/** The declarative API: each `query[].index` (a query without one uses the path's index). */
export function declarativeTargets(body: Body): BodyTarget[] {
  return objectBodyTargets(body, ['read'], (json, t) => {
    const queries = Array.isArray(json.query) ? json.query : json.query === undefined ? [] : [json.query];
    for (const q of queries) {
      if (!isObject(q)) continue;
      if (!('index' in q) || q.index === undefined) t.add(null, 'read');
      else t.addValue(q.index, 'read');
    }
  });
}

/**
 * `POST /_aliases`: `add`/`remove` write the indices they name and write (add) or delete (remove)
 * the aliases; `remove_index` deletes its indices.
 */
export function aliasActionTargets(body: Body): BodyTarget[] {
  return objectBodyTargets(body, ['write'], (json, t) => {
    for (const entry of json.actions as unknown[]) {
      if (!isObject(entry)) continue;
      for (const [kind, spec] of Object.entries(entry)) {
        if (!isObject(spec)) continue;
        const indexOp: Operation = kind === 'remove_index' ? 'delete' : 'write';
        for (const k of ['index', 'indices']) if (k in spec) t.addValue(spec[k], indexOp);
        if (kind === 'remove_index') continue;
        for (const k of ['alias', 'aliases']) if (k in spec) t.addValue(spec[k], kind === 'remove' ? 'delete' : 'write');
      }
    }
  }, (json) => Array.isArray(json.actions));
}

/** Credential bodies: the index patterns a new or changed credential would grant. */
export function credentialTargets(body: Body): BodyTarget[] {
  return objectBodyTargets(body, ['write'], (json, t) => {
    if ('indices' in json) t.addValue(json.indices, 'write');
  });
}
