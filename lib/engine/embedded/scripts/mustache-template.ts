import { LRUCache } from 'lru-cache';
import Mustache from 'mustache';
import { EsError } from '../../../errors/index.js';

/**
 * Mustache as Elasticsearch runs it (mustache.java behind its CustomMustacheFactory): the template
 * is parsed by mustache.js, and rendered here with Elasticsearch's semantics where they differ
 * from mustache.js — values escaped for JSON strings (not HTML), Java's `toString` for whatever is
 * not a string, `size` and numeric indices on lists, `0` a truthy section value, and the
 * `toJson`, `join` and `url` functions.
 */

/** A token as mustache.js's parser gives it: type, name or text, start, end, then per type. */
type Token = [string, string, number, number, ...unknown[]];

export interface CompiledTemplate {
  readonly source: string;
  readonly tokens: readonly Token[];
  readonly encode: (value: string) => string;
}

/** `mustache.max_output_size_bytes`: Elasticsearch's default. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Sections nested deeper than this are refused rather than allowed to exhaust the stack. */
const MAX_DEPTH = 500;
/** The content type a stored template carries when its source was given as an object. */
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

const JOIN_WITH_DELIMITER = /^join delimiter='(.*)'$/s;

/** Jackson's `quoteAsString`: what Elasticsearch writes for `{{value}}` in a JSON template. */
function jsonEscape(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/["\\\u0000-\u001f]/g, (c) => {
    switch (c) {
      case '"': return '\\"';
      case '\\': return '\\\\';
      case '\b': return '\\b';
      case '\t': return '\\t';
      case '\n': return '\\n';
      case '\f': return '\\f';
      case '\r': return '\\r';
      default: return '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    }
  });
}

/** Java's `URLEncoder.encode(s, UTF_8)`: letters, digits and `.-*_` kept, a space as `+`. */
export function formEncode(s: string): string {
  // an unpaired surrogate is encoded as '?', as Java's encoder replaces what it cannot encode
  return encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '?'))
    .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/** The encoder of each content type a template may be compiled for (`options.content_type`). */
const ENCODERS: Record<string, (value: string) => string> = {
  'application/json': jsonEscape,
  'application/json;charset=utf-8': jsonEscape,
  'application/json; charset=UTF-8': jsonEscape,
  'text/plain': (s) => s,
  'application/x-www-form-urlencoded': formEncode,
};

/** Java's `Double.toString` for a number that is not an integer. */
function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) return String(n);
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
}

/**
 * What mustache.java writes for a value (`Object.toString()`): a string as it is, an integer as
 * Jackson read it, a list as `[a, b]`, an object as `{k=v}`.
 */
function javaString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string': return v;
    // an integer within a long is one Jackson read as a long; anything else it read as a double
    case 'number': return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? (Number.isSafeInteger(v) ? String(v) : BigInt(v).toString()) : javaDouble(v);
    case 'bigint':
    case 'boolean': return String(v);
    case 'object':
      if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
      return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${javaString(x)}`).join(', ')}}`;
    default: return String(v);
  }
}

const MISSING = Symbol('missing');

/** One name segment looked up in a scope: a map's key, or a list's `size` or index. */
function member(scope: unknown, key: string): unknown {
  if (Array.isArray(scope)) {
    if (key === 'size') return scope.length;
    if (!/^\d+$/.test(key)) return MISSING;
    const i = Number(key);
    return i < scope.length && scope[i] !== null ? scope[i] : MISSING;
  }
  if (scope !== null && typeof scope === 'object' && Object.prototype.hasOwnProperty.call(scope, key)) return (scope as Record<string, unknown>)[key];
  return MISSING;
}

/** `name` (dotted or `.`) from the innermost scope whose first segment it finds; the rest is looked up there only. */
function lookup(name: string, scopes: unknown[]): unknown {
  if (name === '.') return scopes[scopes.length - 1];
  const parts = name.split('.');
  for (let i = scopes.length - 1; i >= 0; i--) {
    let value = member(scopes[i], parts[0]);
    if (value === MISSING) continue;
    for (let p = 1; p < parts.length && value !== MISSING; p++) value = member(value, parts[p]);
    return value === MISSING ? undefined : value;
  }
  return undefined;
}

/** Values a section renders for (once each); none for null, false, '' and an empty list. */
function sectionValues(v: unknown): unknown[] {
  if (v === undefined || v === null || v === false || v === '') return [];
  return Array.isArray(v) ? v : [v];
}

function scriptException(reason: string, source: string): EsError {
  return new EsError(400, 'script_exception', reason, {
    script_stack: [], script: source, lang: 'mustache', caused_by: { type: 'mustache_exception', reason },
  });
}

function lineOf(source: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** The function a section names, if any: `toJson`, `join`, `join delimiter='…'`, `url`. */
type Fn = { kind: 'toJson' } | { kind: 'join'; delimiter: string } | { kind: 'url' };

function functionOf(name: string): Fn | undefined {
  const lower = name.toLowerCase();
  if (lower === 'tojson') return { kind: 'toJson' };
  if (lower === 'join') return { kind: 'join', delimiter: ',' };
  if (lower === 'url') return { kind: 'url' };
  const m = JOIN_WITH_DELIMITER.exec(name);
  return m ? { kind: 'join', delimiter: m[1] } : undefined;
}

/** The identifier inside `{{#toJson}}…{{/toJson}}`: the section's one piece, as written. */
function functionVariable(token: Token, fnName: string, source: string): string {
  const inner = token[4] as Token[];
  if (inner.length !== 1) throw scriptException(`Mustache function [${fnName}] must contain one and only one identifier`, source);
  const [type, value, start, end] = inner[0];
  return type === 'text' ? value : source.slice(start, end);
}

/** Checks what mustache.java checks while compiling: functions with one identifier, no partials. */
function check(tokens: Token[], source: string, depth: number): void {
  if (depth > MAX_DEPTH) throw scriptException(`sections nested deeper than ${MAX_DEPTH}`, source);
  for (const token of tokens) {
    const [type, value] = token;
    if (type === '>') throw scriptException(`Template ${value} not found`, source);
    if (type === '#' || type === '^') {
      const fn = type === '#' ? functionOf(value) : undefined;
      if (fn && fn.kind !== 'url') functionVariable(token, fn.kind, source);
      check(token[4] as Token[], source, depth + 1);
    }
  }
}

// A private writer, used only for its parser: its cache is cleared after each parse (inline
// templates come from clients; the compiled ones worth keeping are kept below, bounded).
const parser = new Mustache.Writer();
const inlineCache = new LRUCache<string, CompiledTemplate>({ max: 256 });

/**
 * Compiles a template for `contentType` (a stored template's `options.content_type`; JSON when
 * none). A template that does not parse is a 400 `script_exception`, as Elasticsearch's.
 */
export function compileTemplate(source: string, contentType?: string): CompiledTemplate {
  const cacheable = contentType === undefined;
  const cached = cacheable ? inlineCache.get(source) : undefined;
  if (cached) return cached;
  const encode = ENCODERS[contentType ?? 'application/json'];
  if (!encode) throw new EsError(400, 'illegal_argument_exception', `No encoder found for media type [${contentType}]`);
  checkTripleMustaches(source);
  let tokens: Token[];
  try {
    tokens = parser.parse(source) as Token[];
  } catch (err) {
    const message = (err as Error).message;
    const at = /\bat (\d+)$/.exec(message);
    throw scriptException(`${at ? message.slice(0, at.index).trimEnd() : message} @[query-template:${lineOf(source, at ? Number(at[1]) : 0)}]`, source);
  } finally {
    parser.clearCache();
  }
  check(tokens, source, 0);
  const compiled: CompiledTemplate = { source, tokens, encode };
  if (cacheable) inlineCache.set(source, compiled);
  return compiled;
}

/**
 * mustache.java's check of an unescaped variable: `{{{name` must close with `}}}`; one closed with
 * `}}` and anything but a third `}` is refused ('Improperly closed variable'), where mustache.js
 * would read on. Templates that change their delimiters (`{{=<% %>=}}`) are left to the parser.
 */
function checkTripleMustaches(source: string): void {
  if (source.includes('{{=')) return;
  for (let open = source.indexOf('{{{'); open >= 0; open = source.indexOf('{{{', open + 3)) {
    const close = source.indexOf('}}', open + 3);
    if (close < 0) return; // unclosed: the parser's own error
    if (source[close + 2] !== '}') throw scriptException(`Improperly closed variable in query-template:${lineOf(source, open)}`, source);
    open = close;
  }
}

/** Output bounded by `mustache.max_output_size_bytes`, checked as it grows. */
class Output {
  private readonly parts: string[] = [];
  private length = 0;

  write(s: string): void {
    this.length += s.length;
    if (this.length > MAX_OUTPUT_BYTES) throw sizeExceeded();
    this.parts.push(s);
  }

  text(): string {
    const text = this.parts.join('');
    if (Buffer.byteLength(text) > MAX_OUTPUT_BYTES) throw sizeExceeded();
    return text;
  }
}

function sizeExceeded(): EsError {
  return new EsError(400, 'parse_exception', 'Mustache script result size limit exceeded');
}

function renderTokens(t: CompiledTemplate, tokens: readonly Token[], scopes: unknown[], out: Output): void {
  for (const token of tokens) {
    const [type, value] = token;
    switch (type) {
      case 'text':
        out.write(value);
        break;
      case 'name':
      case '&': {
        const v = lookup(value, scopes);
        if (v !== undefined && v !== null) out.write(type === 'name' ? t.encode(javaString(v)) : javaString(v));
        break;
      }
      case '#': {
        const fn = functionOf(value);
        if (fn) renderFunction(t, fn, token, scopes, out);
        else for (const v of sectionValues(lookup(value, scopes))) renderTokens(t, token[4] as Token[], [...scopes, v], out);
        break;
      }
      case '^':
        if (!sectionValues(lookup(value, scopes)).length) renderTokens(t, token[4] as Token[], scopes, out);
        break;
      default:
        // comments ('!') and delimiter changes ('=') write nothing; partials were refused at compile
        break;
    }
  }
}

/** Elasticsearch's mustache functions; their output is written as it is, not encoded again. */
function renderFunction(t: CompiledTemplate, fn: Fn, token: Token, scopes: unknown[], out: Output): void {
  if (fn.kind === 'url') {
    const inner = new Output();
    renderTokens(t, token[4] as Token[], scopes, inner);
    out.write(formEncode(inner.text()));
    return;
  }
  const name = functionVariable(token, fn.kind, t.source);
  const v = lookup(name, scopes);
  if (fn.kind === 'toJson') {
    if (v === undefined || v === null) return;
    out.write(typeof v === 'object' ? JSON.stringify(v) : javaString(v));
    return;
  }
  // join: a list's values joined; anything else leaves the identifier as written, as in Elasticsearch
  out.write(Array.isArray(v) ? v.map(javaString).join(fn.delimiter) : name);
}

/** The template rendered with `params` (a JSON object). */
export function renderTemplate(t: CompiledTemplate, params: Record<string, unknown>): string {
  const out = new Output();
  renderTokens(t, t.tokens, [params], out);
  return out.text();
}
