/**
 * JSON in and out of scripts. Elasticsearch reads a JSON number written with a fraction or an
 * exponent (`2.0`, `1e3`) as a Double and any other as an Integer or Long; JSON.parse forgets how
 * a number was written, so the texts a script reads (its `params`, a document's `_source`) are
 * looked at once more when they hold such numbers with integral values, and those are remembered
 * per containing object and key (`markWrittenDoubles`) until `fromJson` turns them into doubles.
 */
import { parse as parseLossless } from 'lossless-json';
import { JDouble, JLong, JavaObject, MapEntry, arrayItems, isJavaArray, unbox } from './values.js';

const WRITTEN_DOUBLES = new WeakMap<object, Set<string | number>>();

/** A number written with a fraction or an exponent and an integral value (`2.0`, `1.50e2`): maybe somewhere in `text`. */
const INTEGRAL_DECIMAL = /\d\.0*(?![0-9])|\d[eE]/;

class WrittenNumber {
  constructor(readonly text: string) {}
}

/**
 * Records which numbers of `value` (JSON.parse of `text`) were written as decimals with integral
 * values, for `fromJson` to read them as doubles. Cheap when `text` holds none (a regex test).
 */
export function markWrittenDoubles(value: unknown, text: string): void {
  if (value === null || typeof value !== 'object' || !INTEGRAL_DECIMAL.test(text)) return;
  let exact: unknown;
  try {
    exact = parseLossless(text, null, { parseNumber: (s: string) => new WrittenNumber(s), onDuplicateKey: ({ newValue }) => newValue });
  } catch {
    return;
  }
  walk(value, exact);
}

function walk(plain: unknown, exact: unknown): void {
  if (plain === null || typeof plain !== 'object' || exact === null || typeof exact !== 'object') return;
  const mark = (key: string | number, written: unknown) => {
    if (written instanceof WrittenNumber && /[.eE]/.test(written.text) && Number.isInteger(Number(written.text))) {
      let keys = WRITTEN_DOUBLES.get(plain);
      if (!keys) WRITTEN_DOUBLES.set(plain, (keys = new Set()));
      keys.add(key);
    } else walk((plain as Record<string | number, unknown>)[key], written);
  };
  if (Array.isArray(plain)) {
    if (!Array.isArray(exact)) return;
    for (let i = 0; i < plain.length; i++) mark(i, exact[i]);
  } else {
    for (const k of Object.keys(plain)) mark(k, (exact as Record<string, unknown>)[k]);
  }
}

/** A key's way down from a value to a number it holds. */
export type JsonPath = Array<string | number>;

/** Where `value`'s numbers written as doubles are: the marks of `markWrittenDoubles`, for a copy made on another thread. */
export function writtenDoublePaths(value: unknown, path: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  if (value === null || typeof value !== 'object') return out;
  const keys = WRITTEN_DOUBLES.get(value);
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (keys?.has(k)) out.push([...path, k]);
    else writtenDoublePaths(v, [...path, k], out);
  }
  return out;
}

/** Marks the numbers at `paths` (from `writtenDoublePaths`) of a copy of the value as written doubles. */
export function markWrittenDoublesAt(value: unknown, paths: readonly JsonPath[]): void {
  for (const path of paths) {
    let container = value;
    for (const k of path.slice(0, -1)) container = container !== null && typeof container === 'object' ? (container as Record<string | number, unknown>)[k] : undefined;
    if (container === null || typeof container !== 'object') continue;
    let keys = WRITTEN_DOUBLES.get(container);
    if (!keys) WRITTEN_DOUBLES.set(container, (keys = new Set()));
    keys.add(path[path.length - 1]);
  }
}

function writtenDouble(container: object, key: string | number): boolean {
  return WRITTEN_DOUBLES.get(container)?.has(key) === true;
}

/** A JSON value as a script sees it: objects as Maps, arrays as Lists, numbers with their Java type. */
export function fromJson(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v === undefined ? null : v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      out[i] = typeof x === 'number' && writtenDouble(v, i) ? new JDouble(x) : fromJson(x);
    }
    return out;
  }
  const out = new Map<unknown, unknown>();
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    out.set(k, typeof x === 'number' && writtenDouble(v, k) ? new JDouble(x) : fromJson(x));
  }
  return out;
}

/** Sets a key on a plain object even when it is `__proto__`. */
function defineKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/**
 * A script's value as JSON: Maps as objects (keys as strings), Sets and Lists as arrays, doubles
 * as numbers; a long past 2^53 (a BigInt) stays a BigInt, for the answer to write its digits
 * (Long.MIN_VALUE is -9223372036854775808, not the double -9223372036854776000).
 */
export function toJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
    case 'function':
      return String(v.name || 'lambda');
  }
  if (v instanceof JDouble || v instanceof JLong) return unbox(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (isJavaArray(v)) return arrayItems(v).map(toJson);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) defineKey(out, k === null ? 'null' : typeof k === 'string' ? k : String(toJson(k)), toJson(x));
    return out;
  }
  if (v instanceof Set) return [...v].map(toJson);
  if (v instanceof MapEntry) {
    const out: Record<string, unknown> = {};
    defineKey(out, String(toJson(v.key)), toJson(v.value));
    return out;
  }
  if (v instanceof JavaObject) {
    const j = (v as unknown as { toJson?: () => unknown }).toJson;
    if (typeof j === 'function') return j.call(v);
  }
  return String(v);
}
