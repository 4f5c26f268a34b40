import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { TransformSlice } from '../cooperative/index.js';
import { parse as parseExactly, stringify as stringifyExactly } from 'lossless-json';
import type { EngineRequest, EngineResponse } from '../engine/index.js';
import { readBody } from '../engine/index.js';
import { jsonBody } from '../engine/index.js';
import { holdsRoundedInteger } from '../ndjson/index.js';
import type { Interceptor } from '../engine/index.js';
import { TYPE_FIELD } from './type-field.js';

type Json = Record<string, unknown>;

/**
 * The gateway's type field never leaves the gateway: it is the gateway's bookkeeping (lib/apps
 * keeps a document's app-style type in it), not the user's data. Every answer that carries
 * documents or field lists — GET, mget, `_source`, searches (hits, `fields`, highlights, inner and
 * top hits), scrolls, msearch, explain, term vectors, `_field_caps`, `_mapping`, `GET /{index}`,
 * an update's `get` — is given without it, on both engines.
 *
 * Why on the answer rather than on the request (`_source_excludes=_gateway_type`): a source filter
 * hides it from `_source` only, and replaces the client's own filter where the body has one; the
 * field would still be listed by `fields: ["*"]`, `docvalue_fields`, highlights, `_field_caps`
 * and `_mapping` (and so offered as a facet by the console, which builds its aggregations from
 * the field list). The answer is the one place where every such path meets.
 *
 * Cost: the embedded engine hands its answer as a value (`EngineResponse.value`): its structure is
 * walked — never the inside of a document — and a copy is made only when the field is there. An
 * HTTP engine's answer is read whole (uncompressed: the request's Accept-Encoding is dropped) and
 * parsed only when its bytes hold the field's name; longs past 2^53 stay exact (such an answer is
 * read again by a lossless parser). Other answers (writes, cluster APIs, `_cat`) are not touched.
 * A search cache hit (`x-request-cache: true`) hands the same kept bytes every time: they are looked
 * at on the first hit only.
 *
 * The gateway's own readers of the field (lib/apps' TypedDocuments, the streams' matching) use the
 * engine inside this interceptor.
 */
export function typeFieldHiding(): Interceptor {
  return (next) => (req) => {
    if (!carriesFields(req)) return next(req);
    const asked = req.headers?.['accept-encoding'] === undefined ? req : { ...req, headers: { ...req.headers, 'accept-encoding': undefined } };
    // an answer handed as a value (the embedded engine's) is changed on the value: no step of its own
    return next(asked).then(withoutTypeFieldAnswer);
  };
}

function withoutTypeFieldAnswer(res: EngineResponse): EngineResponse | Promise<EngineResponse> {
  if (res.status !== 200 || !isJson(res)) return res;
  if (res.value !== undefined) {
    const hidden = withoutTypeField(res.value);
    if (hidden === res.value) return res;
    const pretty = Buffer.isBuffer(res.body) && res.body[1] === 0x0a; // `{\n`: the engine wrote it `?pretty`
    return answer(res, jsonBody(hidden, pretty), hidden);
  }
  if (Buffer.isBuffer(res.body) && res.headers['x-request-cache'] === 'true') return cachedAnswer(res, res.body);
  return readAnswer(res);
}

/**
 * A search cache hit's body (lib/cache: the same Buffer on every hit of a kept answer, never
 * changed) without the field: looked at on its first hit only, remembered while the cache holds it,
 * with the headers answered with it (its length added) made for the kept headers (the same object
 * on every hit of the answer but one echoing an X-Opaque-Id): a hit copies neither.
 */
const hiddenCachedAnswers = new WeakMap<Buffer, { bytes: Buffer; from?: EngineResponse['headers']; headers?: EngineResponse['headers'] }>();
function cachedAnswer(res: EngineResponse, kept: Buffer): EngineResponse {
  let hidden = hiddenCachedAnswers.get(kept);
  if (hidden === undefined) hiddenCachedAnswers.set(kept, (hidden = { bytes: hiddenBytes(kept) }));
  if (hidden.from !== res.headers) {
    const made = answer(res, hidden.bytes, undefined);
    hidden.from = res.headers;
    hidden.headers = made.headers;
    return made;
  }
  return { status: res.status, headers: hidden.headers!, body: hidden.bytes };
}

/** An HTTP engine's answer: streamed on with the field dropped as it passes, or read whole. */
async function readAnswer(res: EngineResponse): Promise<EngineResponse> {
  // a large or chunked answer streams on, its members dropped as it passes (the client sees its
  // first bytes before the engine has finished); a small one is read whole
  const length = Number(res.headers['content-length']);
  if (!Buffer.isBuffer(res.body) && !(length <= WHOLE_ANSWER_BYTES)) {
    const source = res.body;
    const hidden = source.pipe(typeFieldRemovalStream());
    // an engine that fails mid-answer fails the answer; a client gone stops the engine's
    source.once('error', (err) => hidden.destroy(err));
    hidden.once('close', () => source.destroy());
    return answer(res, hidden, undefined);
  }
  return answer(res, hiddenBytes(await readBody(res.body)), undefined);
}

/** A whole JSON answer without the field: the same bytes when they do not hold its name. */
function hiddenBytes(bytes: Buffer): Buffer {
  if (!bytes.includes(FIELD_NAME)) return bytes;
  const text = bytes.toString('utf8');
  const parsed: unknown = JSON.parse(text);
  // an integer past 2^53 (a long in a source, a date_nanos sort value) is read again exactly: rare, and slower
  if (holdsRoundedInteger(parsed)) return Buffer.from(stringifyExactly(withoutTypeField(parseExactly(text))) ?? '');
  return Buffer.from(JSON.stringify(withoutTypeField(parsed)));
}

const FIELD_NAME = Buffer.from(`"${TYPE_FIELD}"`);
/** Answers up to this size are read whole (as the proxy path reads them); larger ones stream. */
const WHOLE_ANSWER_BYTES = 256 * 1024;

/** Bytes in, bytes out: `TypeFieldRemoval` over UTF-8 decoded across chunk boundaries. */
function typeFieldRemovalStream(): Transform {
  const decoder = new StringDecoder('utf8');
  const removal = new TypeFieldRemoval();
  const slice = new TransformSlice();
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const out = removal.write(decoder.write(chunk));
      if (out.length) this.push(Buffer.from(out));
      slice.done(done);
    },
    flush(done) {
      const out = removal.write(decoder.end()) + removal.end();
      done(null, out.length ? Buffer.from(out) : undefined);
    },
  });
}

/** Answers of these actions carry no document and no field list. */
const READS_WITHOUT_FIELDS = new Set([
  'indices:data/read/scroll/clear', 'indices:data/read/close_point_in_time', 'indices:data/read/open_point_in_time',
  'indices:data/read/point_in_time/delete', 'indices:data/read/point_in_time/readall',
]);
/** Answers outside `indices:data/read/*` that list fields or carry a document. */
const OTHER_ANSWERS_WITH_FIELDS = new Set([
  'indices:admin/get', 'indices:admin/mappings/get', 'indices:admin/mappings/fields/get', 'indices:data/write/update',
  // `GET /_cluster/state` holds every index's mappings
  'cluster:monitor/state',
]);

/** Could the answer hold the field? A request without a classification (the gateway's own callers acting for a client) might. */
function carriesFields(req: EngineRequest): boolean {
  if (req.method === 'HEAD') return false;
  const action = req.request?.info.action;
  if (action === undefined) return true;
  if (action.startsWith('indices:data/read/')) return !READS_WITHOUT_FIELDS.has(action);
  return OTHER_ANSWERS_WITH_FIELDS.has(action);
}

function isJson(res: EngineResponse): boolean {
  const type = String(res.headers['content-type'] ?? '');
  return type.includes('json') && !type.includes('ndjson');
}

function answer(res: EngineResponse, body: EngineResponse['body'], value: unknown): EngineResponse {
  // the length left out by a rest copy, not a `delete` (which turns the copy into a slow dictionary object)
  const { 'content-length': _length, ...headers } = res.headers;
  if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
  return { status: res.status, headers, body, ...(value === undefined ? {} : { value }) };
}

/**
 * Members whose value is the user's data keyed by field name (a document's source, a hit's
 * `fields` and highlights, term vectors): the field may be one of its members, nothing deeper is
 * looked at.
 */
const KEYED_BY_FIELD = new Set(['_source', 'fields', 'highlight', 'term_vectors', 'ignored_field_values']);
/** Members holding aggregations: below them, members are the user's names of aggregations (up to a top hits' `hits`). */
const AGGREGATIONS = new Set(['aggregations', 'aggs']);

/**
 * The answer without the type field, wherever the answer's structure names it as a field (a
 * member of a source or of a field list, a mapping's `properties`, `_field_caps`' `fields`). The
 * value given is never changed: what holds the field is copied, the rest shared. Returns the
 * value itself when the field is nowhere.
 */
export function withoutTypeField<T>(value: T): T {
  return hide(value, false) as T;
}

function hide(value: unknown, aggregationNames: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = hide(value[i], aggregationNames);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const obj = value as Json;
  let out: Json | undefined;
  for (const key in obj) {
    const child = obj[key];
    if (key === TYPE_FIELD && !aggregationNames) {
      out ??= { ...obj };
      delete out[key];
      continue;
    }
    if (child === null || typeof child !== 'object') continue;
    const hidden = KEYED_BY_FIELD.has(key) && !aggregationNames
      ? withoutMember(child)
      : hide(child, AGGREGATIONS.has(key) ? true : key === 'hits' ? false : aggregationNames);
    if (hidden !== child) (out ??= { ...obj })[key] = hidden;
  }
  return out ?? obj;
}

function withoutMember(value: object): unknown {
  if (Array.isArray(value) || !(TYPE_FIELD in value)) return value;
  const { [TYPE_FIELD]: _hidden, ...rest } = value as Json;
  return rest;
}

interface Scope {
  object: boolean;
  /** Inside a document's data below its top level: member names are the user's, not looked at. */
  userData: boolean;
  /** A source, field list or highlight: its own members are looked at, what they hold is the user's. */
  keyed: boolean;
  /** Below `aggregations`: member names are the user's names of aggregations (up to a top hits' `hits`). */
  aggregationNames: boolean;
  /** The name of the member being read (objects). */
  key?: string;
}

/**
 * The same hiding on an answer that streams (chunked, or too large to read whole): a small JSON
 * scanner drops every `"_gateway_type": …` member of the answer's structure and of the top level
 * of a `_source`, `fields`, `highlight` and the like, never looking deeper into a document. Only a
 * member that may be the field (its name, and the comma before it) is held back until its name is
 * read. Text in, text out: the caller decodes bytes across chunks.
 */
export class TypeFieldRemoval {
  private readonly scopes: Scope[] = [];
  private inString = false;
  private escaped = false;
  /** The member name being read, when it is one to look at. */
  private name: string | undefined;
  private expectingKey = false;
  /** What is held back: a comma, white space and a member name that may be the field's. */
  private held = '';
  private holding = false;
  /** The member being dropped: its value's nesting, and whether the comma after it goes too. */
  private skipping = false;
  private skipDepth = 0;
  private skipInString = false;
  private skipEscaped = false;
  private dropNextComma = false;

  write(piece: string): string {
    let out = '';
    for (let i = 0; i < piece.length; i++) {
      const ch = piece[i];
      if (this.skipping) {
        if (this.skipInString) {
          if (this.skipEscaped) this.skipEscaped = false;
          else if (ch === '\\') this.skipEscaped = true;
          else if (ch === '"') this.skipInString = false;
        } else if (ch === '"') this.skipInString = true;
        else if (ch === '{' || ch === '[') this.skipDepth++;
        else if ((ch === '}' || ch === ']') && this.skipDepth > 0) this.skipDepth--;
        else if (this.skipDepth === 0 && (ch === ',' || ch === '}')) {
          this.skipping = false;
          const dropComma = ch === ',' && this.dropNextComma;
          this.dropNextComma = false;
          if (dropComma) this.expectingKey = true;
          else out += this.structural(ch);
        }
        continue;
      }
      if (this.inString) {
        if (this.holding) this.held += ch;
        else out += ch;
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') {
          this.inString = false;
          if (this.name !== undefined) out += this.memberNamed(this.name);
        } else if (this.name !== undefined) this.name += ch;
        continue;
      }
      if (ch === '"') {
        const top = this.scopes[this.scopes.length - 1];
        if (this.expectingKey && top?.object && !top.userData) {
          // every member name of the structure is read (an aggregation's `hits` turns names back
          // into the structure's); only one that may be dropped is held back
          this.name = '';
          this.holding = !top.aggregationNames;
        }
        this.expectingKey = false;
        this.inString = true;
        if (this.holding) this.held += ch;
        else out += ch;
        continue;
      }
      out += this.structural(ch);
    }
    return out;
  }

  /** A member's name is read: what was held goes out, or the member is dropped. */
  private memberNamed(name: string): string {
    this.name = undefined;
    const top = this.scopes[this.scopes.length - 1];
    top.key = name;
    if (top.aggregationNames) return ''; // an aggregation's name, already out as read
    const held = this.held;
    this.held = '';
    this.holding = false;
    if (name !== TYPE_FIELD) return held;
    // dropped with the comma before it, or (the first member) with the one after it
    this.dropNextComma = !held.startsWith(',');
    this.skipping = true;
    this.skipDepth = 0;
    return '';
  }

  private structural(ch: string): string {
    switch (ch) {
      case '{':
      case '[': {
        const parent = this.scopes[this.scopes.length - 1];
        const userData = parent !== undefined && (parent.userData || parent.keyed);
        const key = parent?.object ? parent.key : undefined;
        const aggregationNames = key !== undefined && AGGREGATIONS.has(key) ? true : key === 'hits' ? false : parent?.aggregationNames === true;
        const keyed = !userData && !aggregationNames && key !== undefined && KEYED_BY_FIELD.has(key);
        this.scopes.push({ object: ch === '{', userData, keyed, aggregationNames });
        this.expectingKey = ch === '{';
        return ch;
      }
      case '}':
      case ']':
        this.scopes.pop();
        this.expectingKey = false;
        return ch;
      case ',': {
        const top = this.scopes[this.scopes.length - 1];
        this.expectingKey = top?.object === true;
        if (top?.object && !top.userData && !top.aggregationNames) {
          // the comma waits with the next member's name: it goes if the member does
          this.holding = true;
          this.held = ',';
          return '';
        }
        return ch;
      }
      default:
        if (this.holding) {
          this.held += ch;
          return '';
        }
        return ch;
    }
  }

  /** What was held back, at the end of the answer. */
  end(): string {
    const rest = this.held;
    this.held = '';
    this.holding = false;
    return rest;
  }
}
