import { EsError } from '../errors/index.js';

/**
 * A request target (path and query string) in the one reading the gateway decides on and the
 * engine acts on. Every transport (HTTP, each WebSocket frame, each pipeline stage's call) reads
 * its target here first; later steps read `path` and `querystring` as given here, and nothing
 * after this can read them another way:
 *
 * - each path segment is percent-decoded once and re-encoded one way; empty segments (`//`) are
 *   dropped, as Elasticsearch's router drops them; `.` and `..` name nothing and are refused;
 * - each query parameter's name and value are decoded once (`%73ource` is `source`, `+` a space);
 *   a parameter given twice keeps its last value, as Elasticsearch reads it; the query string is
 *   re-serialized from those values;
 * - the `source` parameter is a request body spelled in the URL: it is taken out of the query
 *   string and handed back as the body (with `source_content_type`), so that it is read, authorized
 *   and forwarded exactly like a body. When the request has a body of its own, `source` is dropped:
 *   the engine would read the body.
 *
 * A target that cannot be decoded (a broken escape, bytes that are not UTF-8) is a 400.
 */
export interface RequestTarget {
  /** The canonical path: `/` + the decoded segments, each re-encoded by `encodeSegment`. */
  path: string;
  /** The decoded path segments, empty ones dropped. */
  segments: readonly string[];
  /** The canonical query string, without `?` ('' when none); `source` and `source_content_type` taken out. */
  querystring: string;
  /** The parameters it was made of, decoded (`source` and `source_content_type` included). */
  params: ReadonlyMap<string, string>;
  /** The body the `source` parameter carried, when there was one. */
  source?: { text: string; contentType: string };
}

/** Characters a canonical path segment keeps as they are; every other one is percent-encoded. */
const SEGMENT_KEEPS = /^[A-Za-z0-9\-_.~!$'()*,;:@=&]*$/;
/** A path that is canonical already: segments of kept characters, none empty, none `.` or `..`. */
const CANONICAL_PATH = /^(?:\/[A-Za-z0-9\-_.~!$'()*,;:@=&]+)+$/;
const DOT_SEGMENT = /\/\.\.?(?=\/|$)/;
/** A query string whose names and values need no decoding. */
const PLAIN_QUERY = /^[A-Za-z0-9\-_.~!$'()*,;:@/?=&]*$/;

const NO_PARAMS: ReadonlyMap<string, string> = new Map();

const badTarget = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/** `hasBody`: the request carries a body of its own (then `source` is dropped, not used). */
export function requestTarget(rawPath: string, rawQuery: string, hasBody = false): RequestTarget {
  const { path, segments } = canonicalPath(rawPath);
  if (rawQuery === '') return { path, segments, querystring: '', params: NO_PARAMS };
  const params = queryParams(rawQuery);
  const sourceText = params.get('source');
  const contentType = params.get('source_content_type');
  const plain = PLAIN_QUERY.test(rawQuery) && sourceText === undefined && contentType === undefined && params.size === countPairs(rawQuery);
  const querystring = plain ? rawQuery : serializeQuery(params);
  const target: RequestTarget = { path, segments, querystring, params };
  if (sourceText !== undefined && !hasBody) target.source = { text: sourceText, contentType: contentType || 'application/json' };
  return target;
}

/** The path's segments, decoded, and the canonical path made of them. */
export function canonicalPath(rawPath: string): { path: string; segments: string[] } {
  if (CANONICAL_PATH.test(rawPath) && !DOT_SEGMENT.test(rawPath)) return { path: rawPath, segments: rawPath.slice(1).split('/') };
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    const segment = decodeStrictly(raw, false);
    if (segment === '.' || segment === '..') throw badTarget(`invalid path segment [${segment}] in [${rawPath}]`);
    if (segment === '') throw badTarget(`empty path segment in [${rawPath}]`);
    segments.push(segment);
  }
  return { path: '/' + segments.map(encodeSegment).join('/'), segments };
}

/** One segment, percent-encoded but for the characters a canonical segment keeps. */
export function encodeSegment(segment: string): string {
  if (SEGMENT_KEEPS.test(segment)) return segment;
  let out = '';
  for (const ch of segment) out += SEGMENT_KEEPS.test(ch) ? ch : encodeURIComponent(ch);
  return out;
}

/** Parameters in order of first appearance, each with its last value (Elasticsearch keeps the last). */
export function queryParams(rawQuery: string, lenient = false): Map<string, string> {
  const params = new Map<string, string>();
  const decode = lenient ? decodeLeniently : decodeStrictly;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), true);
    if (name === '') {
      if (lenient) continue;
      throw badTarget(`a query parameter without a name in [${rawQuery}]`);
    }
    params.delete(name); // its place is its last spelling's, as its value is
    params.set(name, value);
  }
  return params;
}

function countPairs(rawQuery: string): number {
  let n = 0;
  for (const pair of rawQuery.split('&')) if (pair !== '') n++;
  return n;
}

/** The canonical query string of decoded parameters (`source` and `source_content_type`, a body's, left out). */
export function serializeQuery(params: ReadonlyMap<string, string>, keepSource = false): string {
  const out: string[] = [];
  for (const [name, value] of params) {
    if (!keepSource && (name === 'source' || name === 'source_content_type')) continue;
    out.push(value === '' ? encodeQueryPart(name) : `${encodeQueryPart(name)}=${encodeQueryPart(value)}`);
  }
  return out.join('&');
}

/**
 * A query string (without `?`) saying these parameters, in `requestTarget`'s one encoding: for a
 * request built in-process or handed on — the one serializer of outgoing query strings. A parameter
 * with an empty value is written by its name; an undefined one is left out.
 */
export function queryString(params: ReadonlyMap<string, string> | Iterable<readonly [string, string]> | Readonly<Record<string, string | number | boolean | undefined>>): string {
  const pairs: Iterable<readonly [string, unknown]> = Symbol.iterator in params ? (params as Iterable<readonly [string, string]>) : Object.entries(params);
  const out: string[] = [];
  for (const [name, value] of pairs) {
    if (value === undefined) continue; // left out
    const text = String(value);
    out.push(text === '' ? encodeQueryPart(name) : `${encodeQueryPart(name)}=${encodeQueryPart(text)}`);
  }
  return out.join('&');
}

const QUERY_KEEPS = /^[A-Za-z0-9\-_.~!$'()*,;:@/?]*$/;

function encodeQueryPart(s: string): string {
  if (QUERY_KEEPS.test(s)) return s;
  let out = '';
  for (const ch of s) out += QUERY_KEEPS.test(ch) ? ch : encodeURIComponent(ch);
  return out;
}

/** Percent-decoding that keeps what does not decode as it is (for readers of a target no edge read). */
function decodeLeniently(raw: string, plusIsSpace: boolean): string {
  try {
    return decodeStrictly(raw, plusIsSpace);
  } catch {
    return raw;
  }
}

/** Percent-decoding that refuses what does not decode to well-formed UTF-8 (as Elasticsearch does). */
function decodeStrictly(raw: string, plusIsSpace: boolean): string {
  const text = plusIsSpace && raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw badTarget(`cannot decode [${raw}]: an escape sequence is incomplete or not UTF-8`);
  }
}

/** A comma-list parameter's items (`_source_includes=a, b`), trimmed, empty ones dropped; none when absent. */
export function paramList(params: ReadonlyMap<string, string>, name: string): string[] {
  const v = params.get(name);
  return v === undefined ? [] : v.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

/** A comma-list path parameter's names (`/_index_template/a,b`), as the engine splits them: untrimmed; none when absent. */
export function pathNames(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',');
}
