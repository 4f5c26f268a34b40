/**
 * The whitelist: every method, getter and static member a script may reach, per Java class (after
 * Painless's own whitelists, java.lang/java.util/java.time and its augmentations such as
 * `splitOnToken`, `List.getLength` or `Collection.any`). A method is found by `name/arity`; its
 * parameter types say how `def` arguments are converted and its return type how the result is
 * held. Nothing outside these tables is reachable from a script: no JS property is ever read by
 * name from a script's value.
 */
import type { Matcher as Re2Matcher } from 're2js';
import { createHash } from 'node:crypto';
import * as MovingFunctions from './moving-functions.js';
import { ScriptRuntimeError } from './script-error.js';
import { charge, spend } from './run-bounds.js';
import { ladd, longToInt, normLong, type Long } from './long-arithmetic.js';
import {
  CHRONO_UNITS, ChronoUnit, DATE_TIME_FORMATTERS, DAYS, DateTimeFormatter, DayOfWeek, Instant, JavaLocale, LOCALES, MONTHS, Month, TEXT_STYLES, TextStyle, UTC, ZoneOffset,
  ZonedDateTime, parseIsoInstant, zoneOf,
} from './java-time.js';
import {
  INT_MAX, INT_MIN, JDouble, JLong, JavaObject, MapEntry, boxDouble, doubleToString, isJavaArray, isNumber, isPrimitiveArray, javaArray, arrayElements, referenceArray, javaClassName, javaEquals, javaHashCode, javaToString,
  mapKey, naturalCompare, numberKind, unbox,
} from './values.js';

export interface Method {
  /** Parameter types: primitives are converted from `def` arguments; references pass as they are. */
  params: string[];
  ret: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fn: (self: any, ...args: any[]) => unknown;
}

export type Members = Map<string, Method>;

/** The largest string and list a method may build (runtime.ts's MAX_STRING_LENGTH, MAX_ARRAY_LENGTH). */
const LIMITS = { string: 64 * 1024 * 1024, array: 16 * 1024 * 1024 };

export function fail(type: string, message: string): never {
  throw new ScriptRuntimeError(type, message);
}

/** A string a method built, charged to the run's memory (run-bounds.ts). */
function built(s: string): string {
  charge(s.length);
  return s;
}

function checkIndex(i: number, length: number): number {
  if (i < 0 || i >= length) fail('index_out_of_bounds_exception', `Index ${i} out of bounds for length ${length}`);
  return i;
}

/** Calls a lambda (or other functional value) a script passed to a method. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function callFn(f: unknown, ...args: unknown[]): any {
  if (typeof f !== 'function') fail('class_cast_exception', `Cannot cast ${javaClassName(f)} to a functional interface`);
  return (f as (...a: unknown[]) => unknown)(...args);
}

function truthy(v: unknown): boolean {
  if (typeof v !== 'boolean') fail('class_cast_exception', `Cannot cast ${javaClassName(v)} to boolean`);
  return v;
}

function comparatorOf(c: unknown): (a: unknown, b: unknown) => number {
  if (c === null || c === undefined) return naturalCompare;
  return (a, b) => Number(unbox(callFn(c, a, b)));
}

/** Java's stable sort (TimSort is stable; Array.prototype.sort is too). */
function sortList(list: unknown[], c: unknown): void {
  spendSorting(list.length);
  list.sort(comparatorOf(c));
}

/** The steps of sorting `n` elements (n log n comparisons). */
function spendSorting(n: number): void {
  if (n > 1) spend(Math.ceil(n * Math.log2(n)));
}

type Entry = [string, Method];

function m(key: string, ret: string, params: string[], fn: Method['fn']): Entry {
  return [key, { params, ret, fn }];
}

function table(...parts: Array<Entry[] | Members>): Members {
  const out: Members = new Map();
  for (const p of parts) for (const [k, v] of p) out.set(k, v);
  return out;
}

// ---------------------------------------------------------------- java.lang.Object
const OBJECT: Entry[] = [
  m('equals/1', 'boolean', ['def'], (s, o) => javaEquals(s, o)),
  m('hashCode/0', 'int', [], (s) => javaHashCode(s)),
  m('toString/0', 'String', [], (s) => javaToString(s)),
];

const COMPARABLE: Entry[] = [m('compareTo/1', 'int', ['def'], (s, o) => naturalCompare(s, o))];

// ---------------------------------------------------------------- java.lang.String
function str(s: unknown): string {
  if (typeof s !== 'string') fail('class_cast_exception', `Cannot cast ${javaClassName(s)} to java.lang.String`);
  return s;
}

function substring(s: string, begin: number, end = s.length): string {
  if (begin < 0 || end > s.length || begin > end) fail('string_index_out_of_bounds_exception', `begin ${begin}, end ${end}, length ${s.length}`);
  return s.substring(begin, end);
}

function indexArg(x: unknown): string {
  if (typeof x === 'number') return String.fromCharCode(x);
  return str(x);
}

/** Painless's splitOnToken: split on a literal token (no regex), trailing empty strings kept. */
function splitOnToken(s: string, token: string, limit = 0): string[] {
  if (token === '') fail('illegal_argument_exception', 'Cannot split on empty token');
  let parts = s.split(token);
  if (limit > 0 && parts.length > limit) parts = [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(token)];
  return referenceArray(parts, 'java.lang.String');
}

function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}

const STRING: Members = table(OBJECT, COMPARABLE, [
  m('length/0', 'int', [], (s: string) => s.length),
  m('charAt/1', 'char', ['int'], (s: string, i: number) => {
    if (i < 0 || i >= s.length) fail('string_index_out_of_bounds_exception', `Index ${i} out of bounds for length ${s.length}`);
    return s[i];
  }),
  m('substring/1', 'String', ['int'], (s: string, b: number) => substring(s, b)),
  m('substring/2', 'String', ['int', 'int'], (s: string, b: number, e: number) => substring(s, b, e)),
  m('indexOf/1', 'int', ['def'], (s: string, x: unknown) => s.indexOf(indexArg(x))),
  m('indexOf/2', 'int', ['def', 'int'], (s: string, x: unknown, from: number) => s.indexOf(indexArg(x), from)),
  m('lastIndexOf/1', 'int', ['def'], (s: string, x: unknown) => s.lastIndexOf(indexArg(x))),
  m('lastIndexOf/2', 'int', ['def', 'int'], (s: string, x: unknown, from: number) => s.lastIndexOf(indexArg(x), from)),
  m('contains/1', 'boolean', ['def'], (s: string, x: unknown) => s.includes(str(x))),
  m('startsWith/1', 'boolean', ['def'], (s: string, x: unknown) => s.startsWith(str(x))),
  m('startsWith/2', 'boolean', ['def', 'int'], (s: string, x: unknown, at: number) => s.startsWith(str(x), at)),
  m('endsWith/1', 'boolean', ['def'], (s: string, x: unknown) => s.endsWith(str(x))),
  m('toLowerCase/0', 'String', [], (s: string) => s.toLowerCase()),
  m('toLowerCase/1', 'String', ['def'], (s: string) => s.toLowerCase()),
  m('toUpperCase/0', 'String', [], (s: string) => s.toUpperCase()),
  m('toUpperCase/1', 'String', ['def'], (s: string) => s.toUpperCase()),
  m('trim/0', 'String', [], (s: string) => javaTrim(s)),
  m('strip/0', 'String', [], (s: string) => s.trim()),
  m('isEmpty/0', 'boolean', [], (s: string) => s.length === 0),
  m('isBlank/0', 'boolean', [], (s: string) => s.trim().length === 0),
  m('replace/2', 'String', ['def', 'def'], (s: string, a: unknown, b: unknown) => {
    const from = typeof a === 'string' ? a : indexArg(a);
    const to = typeof b === 'string' ? b : indexArg(b);
    return from === '' ? s : built(s.split(from).join(to));
  }),
  m('equalsIgnoreCase/1', 'boolean', ['def'], (s: string, o: unknown) => typeof o === 'string' && s.toLowerCase() === o.toLowerCase()),
  m('compareToIgnoreCase/1', 'int', ['def'], (s: string, o: unknown) => naturalCompare(s.toLowerCase(), str(o).toLowerCase())),
  m('concat/1', 'String', ['def'], (s: string, o: unknown) => built(s + str(o))),
  m('repeat/1', 'String', ['int'], (s: string, n: number) => {
    if (n < 0) fail('illegal_argument_exception', `count is negative: ${n}`);
    if (s.length * n > LIMITS.string) fail('circuit_breaking_exception', `[painless] a string of ${s.length * n} elements would be larger than the limit of [${LIMITS.string}]`);
    charge(s.length * n);
    return s.repeat(n);
  }),
  m('splitOnToken/1', 'String[]', ['def'], (s: string, t: unknown) => splitOnToken(s, str(t))),
  m('splitOnToken/2', 'String[]', ['def', 'int'], (s: string, t: unknown, limit: number) => splitOnToken(s, str(t), limit)),
  m('toCharArray/0', 'char[]', [], (s: string) => javaArray(s.split(''), 'char')),
  m('chars/0', 'Stream', [], (s: string) => new Stream([...s].map((c) => c.charCodeAt(0)), 'int')),
  m('encodeBase64/0', 'String', [], (s: string) => Buffer.from(s, 'utf8').toString('base64')),
  m('decodeBase64/0', 'String', [], (s: string) => Buffer.from(s, 'base64').toString('utf8')),
  m('sha1/0', 'String', [], (s: string) => createHash('sha1').update(s, 'utf8').digest('hex')),
  m('sha256/0', 'String', [], (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')),
  m('replaceAll/2', 'String', ['def', 'def'], (s: string, p: unknown, f: unknown) => regexReplace(s, p, f, true)),
  m('replaceFirst/2', 'String', ['def', 'def'], (s: string, p: unknown, f: unknown) => regexReplace(s, p, f, false)),
]);

// ---------------------------------------------------------------- numbers, booleans
/** A boxed number's value as a double (a long past 2^53, a BigInt, to its nearest double). */
function doubleOf(s: unknown): number {
  return typeof s === 'bigint' ? Number(s) : (unbox(s) as number);
}

/** A boxed number's intValue(): a long's low 32 bits, a double's saturating truncation. */
function intOf(s: unknown): number {
  return typeof s === 'bigint' ? longToInt(s) : toIntValue(unbox(s) as number);
}

const NUMBER: Members = table(OBJECT, COMPARABLE, [
  m('intValue/0', 'int', [], (s) => intOf(s)),
  m('longValue/0', 'long', [], (s) => (typeof s === 'bigint' ? s : Math.trunc(unbox(s) as number))),
  m('doubleValue/0', 'double', [], (s) => doubleOf(s)),
  m('floatValue/0', 'float', [], (s) => Math.fround(doubleOf(s))),
  m('shortValue/0', 'short', [], (s) => (intOf(s) << 16) >> 16),
  m('byteValue/0', 'byte', [], (s) => (intOf(s) << 24) >> 24),
  m('isNaN/0', 'boolean', [], (s) => Number.isNaN(doubleOf(s))),
  m('isInfinite/0', 'boolean', [], (s) => !Number.isFinite(doubleOf(s)) && !Number.isNaN(doubleOf(s))),
]);

/** Java's (int) of a double: NaN → 0, saturating, truncating. */
export function toIntValue(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= INT_MAX) return INT_MAX;
  if (x <= INT_MIN) return INT_MIN;
  return Math.trunc(x) | 0;
}

const BOOLEAN: Members = table(OBJECT, COMPARABLE, [m('booleanValue/0', 'boolean', [], (s) => s)]);

const CHARACTER: Members = table(OBJECT, COMPARABLE, [m('charValue/0', 'char', [], (s) => s)]);

// ---------------------------------------------------------------- collections
function list(s: unknown): unknown[] {
  return s as unknown[];
}

/** The elements a library method walks, each a step of the run (run-bounds.ts). */
function each(s: unknown): Iterable<unknown> {
  if (Array.isArray(s)) {
    spend(s.length);
    return s;
  }
  if (isPrimitiveArray(s)) {
    spend(s.length);
    return arrayElements(s);
  }
  if (s instanceof Set) {
    spend(s.size);
    return s.values();
  }
  if (s instanceof Map) {
    spend(s.size);
    return [...s.entries()].map(([k, v]) => new MapEntry(s, k, v));
  }
  const it = (s as { iterate?: () => Iterable<unknown> }).iterate;
  if (s instanceof JavaObject && typeof it === 'function') return it.call(s);
  return fail('class_cast_exception', `Cannot iterate over ${javaClassName(s)}`);
}

function contains(s: unknown, x: unknown): boolean {
  if (s instanceof Set) return s.has(mapKey(x)) || [...s].some((y) => javaEquals(x, y));
  for (const y of each(s)) if (javaEquals(x, y)) return true;
  return false;
}

function addAll(s: unknown, other: unknown): boolean {
  const items = [...each(other)];
  if (s instanceof Set) {
    const n = s.size;
    for (const x of items) s.add(mapKey(x));
    return s.size !== n;
  }
  const l = list(s);
  if (l.length + items.length > LIMITS.array) fail('circuit_breaking_exception', `[painless] a list of ${l.length + items.length} elements would be larger than the limit of [${LIMITS.array}]`);
  charge(8 * items.length);
  for (const x of items) l.push(x);
  return items.length > 0;
}

function removeIf(s: unknown, p: unknown): boolean {
  if (s instanceof Set) {
    let changed = false;
    for (const x of [...s]) if (truthy(callFn(p, x))) changed = s.delete(x) || changed;
    return changed;
  }
  const l = list(s);
  const kept = l.filter((x) => !truthy(callFn(p, x)));
  const changed = kept.length !== l.length;
  l.length = 0;
  l.push(...kept);
  return changed;
}

/** Sums as Painless's Collection.sum(): doubles. */
function sum(s: unknown, f?: unknown): number {
  let total = 0;
  for (const x of each(s)) total += Number(unbox(f === undefined ? x : callFn(f, x)));
  return total;
}

const COLLECTION: Members = table(OBJECT, [
  m('size/0', 'int', [], (s) => (s instanceof Set ? s.size : list(s).length)),
  m('isEmpty/0', 'boolean', [], (s) => (s instanceof Set ? s.size === 0 : list(s).length === 0)),
  m('contains/1', 'boolean', ['def'], (s, x) => contains(s, x)),
  m('containsAll/1', 'boolean', ['def'], (s, o) => [...each(o)].every((x) => contains(s, x))),
  m('add/1', 'boolean', ['def'], (s, x) => {
    charge(8);
    if (s instanceof Set) {
      const n = s.size;
      s.add(mapKey(x));
      return s.size !== n;
    }
    list(s).push(x);
    return true;
  }),
  m('addAll/1', 'boolean', ['def'], (s, o) => addAll(s, o)),
  m('clear/0', 'void', [], (s) => (s instanceof Set ? s.clear() : void (list(s).length = 0))),
  m('removeIf/1', 'boolean', ['def'], (s, p) => removeIf(s, p)),
  m('removeAll/1', 'boolean', ['def'], (s, o) => {
    const other = [...each(o)];
    return removeIf(s, (x: unknown) => other.some((y) => javaEquals(x, y)));
  }),
  m('retainAll/1', 'boolean', ['def'], (s, o) => {
    const other = [...each(o)];
    return removeIf(s, (x: unknown) => !other.some((y) => javaEquals(x, y)));
  }),
  m('iterator/0', 'Iterator', [], (s) => new JavaIterator([...each(s)])),
  m('forEach/1', 'void', ['def'], (s, f) => {
    for (const x of [...each(s)]) callFn(f, x);
  }),
  m('stream/0', 'Stream', [], (s) => new Stream([...each(s)])),
  // Painless's augmentations of Iterable/Collection
  m('any/1', 'boolean', ['def'], (s, p) => [...each(s)].some((x) => truthy(callFn(p, x)))),
  m('every/1', 'boolean', ['def'], (s, p) => [...each(s)].every((x) => truthy(callFn(p, x)))),
  m('each/1', 'def', ['def'], (s, f) => {
    for (const x of [...each(s)]) callFn(f, x);
    return s;
  }),
  m('find/1', 'def', ['def'], (s, p) => [...each(s)].find((x) => truthy(callFn(p, x))) ?? null),
  m('findAll/1', 'List', ['def'], (s, p) => [...each(s)].filter((x) => truthy(callFn(p, x)))),
  m('collect/1', 'List', ['def'], (s, f) => [...each(s)].map((x) => callFn(f, x))),
  m('join/1', 'String', ['def'], (s, d) => built([...each(s)].map(javaToString).join(str(d)))),
  m('sum/0', 'double', [], (s) => sum(s)),
  m('sum/1', 'double', ['def'], (s, f) => sum(s, f)),
]);

function listIndex(l: unknown[], i: number): number {
  // Painless reads a negative index from the end (list[-1] is the last element).
  return checkIndex(i < 0 ? i + l.length : i, l.length);
}

const LIST: Members = table(COLLECTION, [
  m('get/1', 'def', ['int'], (s, i: number) => list(s)[listIndex(list(s), i)]),
  m('set/2', 'def', ['int', 'def'], (s, i: number, v) => {
    const l = list(s);
    const at = listIndex(l, i);
    const old = l[at];
    l[at] = v;
    return old;
  }),
  m('add/2', 'void', ['int', 'def'], (s, i: number, v) => {
    const l = list(s);
    if (i < 0 || i > l.length) fail('index_out_of_bounds_exception', `Index: ${i}, Size: ${l.length}`);
    l.splice(i, 0, v);
  }),
  m('addAll/2', 'boolean', ['int', 'def'], (s, i: number, o) => {
    const items = [...each(o)];
    list(s).splice(i, 0, ...items);
    return items.length > 0;
  }),
  m('remove/1', 'def', ['int'], (s, i: number) => list(s).splice(listIndex(list(s), i), 1)[0]),
  m('indexOf/1', 'int', ['def'], (s, x) => list(s).findIndex((y) => javaEquals(x, y))),
  m('lastIndexOf/1', 'int', ['def'], (s, x) => {
    const l = list(s);
    for (let i = l.length - 1; i >= 0; i--) if (javaEquals(x, l[i])) return i;
    return -1;
  }),
  m('sort/1', 'void', ['def'], (s, c) => sortList(list(s), c)),
  m('subList/2', 'List', ['int', 'int'], (s, a: number, b: number) => {
    const l = list(s);
    if (a < 0 || b > l.length || a > b) fail('index_out_of_bounds_exception', `fromIndex: ${a}, toIndex: ${b}, size: ${l.length}`);
    return l.slice(a, b);
  }),
  m('getLength/0', 'int', [], (s) => list(s).length),
  m('replaceAll/1', 'void', ['def'], (s, f) => {
    const l = list(s);
    for (let i = 0; i < l.length; i++) l[i] = callFn(f, l[i]);
  }),
]);

const SET: Members = table(COLLECTION, [m('remove/1', 'boolean', ['def'], (s: Set<unknown>, x) => s.delete(mapKey(x)))]);

function map(s: unknown): Map<unknown, unknown> {
  return s as Map<unknown, unknown>;
}

const MAP: Members = table(OBJECT, [
  m('get/1', 'def', ['def'], (s, k) => map(s).get(mapKey(k)) ?? null),
  m('put/2', 'def', ['def', 'def'], (s, k, v) => {
    charge(32);
    const old = map(s).get(mapKey(k));
    map(s).set(mapKey(k), v);
    return old ?? null;
  }),
  m('putAll/1', 'void', ['def'], (s, o) => {
    for (const [k, v] of map(o)) map(s).set(k, v);
  }),
  m('putIfAbsent/2', 'def', ['def', 'def'], (s, k, v) => {
    const old = map(s).get(mapKey(k));
    if (old === undefined || old === null) map(s).set(mapKey(k), v);
    return old ?? null;
  }),
  m('containsKey/1', 'boolean', ['def'], (s, k) => map(s).has(mapKey(k))),
  m('containsValue/1', 'boolean', ['def'], (s, v) => [...map(s).values()].some((x) => javaEquals(v, x))),
  m('remove/1', 'def', ['def'], (s, k) => {
    const old = map(s).get(mapKey(k));
    map(s).delete(mapKey(k));
    return old ?? null;
  }),
  m('getOrDefault/2', 'def', ['def', 'def'], (s, k, d) => (map(s).has(mapKey(k)) ? map(s).get(mapKey(k)) : d)),
  m('keySet/0', 'Set', [], (s) => new Set(map(s).keys())),
  m('values/0', 'Collection', [], (s) => [...map(s).values()]),
  m('entrySet/0', 'Set', [], (s) => new Set([...map(s)].map(([k, v]) => new MapEntry(map(s), k, v)))),
  m('size/0', 'int', [], (s) => map(s).size),
  m('isEmpty/0', 'boolean', [], (s) => map(s).size === 0),
  m('clear/0', 'void', [], (s) => map(s).clear()),
  m('forEach/1', 'void', ['def'], (s, f) => {
    for (const [k, v] of [...map(s)]) callFn(f, k, v);
  }),
  m('computeIfAbsent/2', 'def', ['def', 'def'], (s, k, f) => {
    const key = mapKey(k);
    const old = map(s).get(key);
    if (old !== undefined && old !== null) return old;
    const v = callFn(f, k);
    if (v !== null && v !== undefined) map(s).set(key, v);
    return v ?? null;
  }),
  m('computeIfPresent/2', 'def', ['def', 'def'], (s, k, f) => {
    const key = mapKey(k);
    const old = map(s).get(key);
    if (old === undefined || old === null) return null;
    const v = callFn(f, k, old);
    if (v === null || v === undefined) map(s).delete(key);
    else map(s).set(key, v);
    return v ?? null;
  }),
  m('compute/2', 'def', ['def', 'def'], (s, k, f) => {
    const key = mapKey(k);
    const v = callFn(f, k, map(s).get(key) ?? null);
    if (v === null || v === undefined) map(s).delete(key);
    else map(s).set(key, v);
    return v ?? null;
  }),
  m('merge/3', 'def', ['def', 'def', 'def'], (s, k, v, f) => {
    const key = mapKey(k);
    const old = map(s).get(key);
    const nv = old === undefined || old === null ? v : callFn(f, old, v);
    if (nv === null || nv === undefined) map(s).delete(key);
    else map(s).set(key, nv);
    return nv ?? null;
  }),
  // Painless's augmentations of Map
  m('each/1', 'def', ['def'], (s, f) => {
    for (const [k, v] of [...map(s)]) callFn(f, k, v);
    return s;
  }),
  m('any/1', 'boolean', ['def'], (s, p) => [...map(s)].some(([k, v]) => truthy(callFn(p, k, v)))),
  m('every/1', 'boolean', ['def'], (s, p) => [...map(s)].every(([k, v]) => truthy(callFn(p, k, v)))),
  m('count/1', 'int', ['def'], (s, p) => [...map(s)].filter(([k, v]) => truthy(callFn(p, k, v))).length),
  m('collect/1', 'List', ['def'], (s, f) => [...map(s)].map(([k, v]) => callFn(f, k, v))),
  m('findAll/1', 'Map', ['def'], (s, p) => new Map([...map(s)].filter(([k, v]) => truthy(callFn(p, k, v))))),
]);

const MAP_ENTRY: Members = table(OBJECT, [
  m('getKey/0', 'def', [], (s: MapEntry) => s.key),
  m('getValue/0', 'def', [], (s: MapEntry) => s.value),
  m('setValue/1', 'def', ['def'], (s: MapEntry, v) => {
    const old = s.value;
    s.value = v;
    s.map.set(s.key, v);
    return old;
  }),
]);

export class JavaIterator extends JavaObject {
  readonly javaClass = 'Iterator';
  private i = 0;
  constructor(private readonly items: unknown[]) {
    super();
  }
  hasNext(): boolean {
    return this.i < this.items.length;
  }
  next(): unknown {
    if (this.i >= this.items.length) fail('no_such_element_exception', 'No more elements');
    return this.items[this.i++];
  }
}

const ITERATOR: Members = table(OBJECT, [
  m('hasNext/0', 'boolean', [], (s: JavaIterator) => s.hasNext()),
  m('next/0', 'def', [], (s: JavaIterator) => s.next()),
]);

const ARRAY: Members = table(OBJECT);

// ---------------------------------------------------------------- streams
export class Stream extends JavaObject {
  readonly javaClass = 'Stream';
  constructor(
    readonly items: unknown[],
    /** What a terminal `sum`/`average` gives: an IntStream's ints, a DoubleStream's doubles. */
    readonly numeric?: 'int' | 'long' | 'double',
  ) {
    super();
  }
  iterate(): Iterable<unknown> {
    return this.items;
  }
}

export class Optional extends JavaObject {
  readonly javaClass = 'Optional';
  constructor(readonly value: unknown) {
    super();
  }
  get(): unknown {
    if (this.value === null || this.value === undefined) fail('no_such_element_exception', 'No value present');
    return this.value;
  }
}

export class Collector extends JavaObject {
  readonly javaClass = 'Collector';
  constructor(readonly finish: (items: unknown[]) => unknown) {
    super();
  }
}

function streamOf(s: unknown): Stream {
  return s as Stream;
}

const STREAM: Members = table(OBJECT, [
  m('filter/1', 'Stream', ['def'], (s, p) => new Stream(streamOf(s).items.filter((x) => truthy(callFn(p, x))), streamOf(s).numeric)),
  m('map/1', 'Stream', ['def'], (s, f) => new Stream(streamOf(s).items.map((x) => callFn(f, x)), streamOf(s).numeric)),
  m('mapToInt/1', 'Stream', ['def'], (s, f) => new Stream(streamOf(s).items.map((x) => unbox(callFn(f, x))), 'int')),
  m('mapToLong/1', 'Stream', ['def'], (s, f) => new Stream(streamOf(s).items.map((x) => unbox(callFn(f, x))), 'long')),
  m('mapToDouble/1', 'Stream', ['def'], (s, f) => new Stream(streamOf(s).items.map((x) => unbox(callFn(f, x))), 'double')),
  m('boxed/0', 'Stream', [], (s) => new Stream(streamOf(s).items.map((x) => (streamOf(s).numeric === 'double' ? boxDouble(x as number) : x)))),
  m('sorted/0', 'Stream', [], (s) => {
    spendSorting(streamOf(s).items.length);
    return new Stream([...streamOf(s).items].sort(naturalCompare), streamOf(s).numeric);
  }),
  m('sorted/1', 'Stream', ['def'], (s, c) => {
    spendSorting(streamOf(s).items.length);
    return new Stream([...streamOf(s).items].sort(comparatorOf(c)), streamOf(s).numeric);
  }),
  m('distinct/0', 'Stream', [], (s) => {
    const out: unknown[] = [];
    for (const x of streamOf(s).items) {
      spend(out.length + 1);
      if (!out.some((y) => javaEquals(x, y))) out.push(x);
    }
    return new Stream(out, streamOf(s).numeric);
  }),
  m('limit/1', 'Stream', ['long'], (s, n: number) => new Stream(streamOf(s).items.slice(0, n), streamOf(s).numeric)),
  m('skip/1', 'Stream', ['long'], (s, n: number) => new Stream(streamOf(s).items.slice(n), streamOf(s).numeric)),
  m('forEach/1', 'void', ['def'], (s, f) => {
    for (const x of streamOf(s).items) callFn(f, x);
  }),
  m('count/0', 'long', [], (s) => streamOf(s).items.length),
  m('sum/0', 'def', [], (s) => {
    const total = streamOf(s).items.reduce((a: number, x) => a + Number(unbox(x)), 0);
    return streamOf(s).numeric === 'double' ? boxDouble(total) : total;
  }),
  m('average/0', 'Optional', [], (s) => {
    const items = streamOf(s).items;
    return new Optional(items.length ? items.reduce((a: number, x) => a + Number(unbox(x)), 0) / items.length : null);
  }),
  m('anyMatch/1', 'boolean', ['def'], (s, p) => streamOf(s).items.some((x) => truthy(callFn(p, x)))),
  m('allMatch/1', 'boolean', ['def'], (s, p) => streamOf(s).items.every((x) => truthy(callFn(p, x)))),
  m('noneMatch/1', 'boolean', ['def'], (s, p) => !streamOf(s).items.some((x) => truthy(callFn(p, x)))),
  m('findFirst/0', 'Optional', [], (s) => new Optional(streamOf(s).items[0] ?? null)),
  m('findAny/0', 'Optional', [], (s) => new Optional(streamOf(s).items[0] ?? null)),
  m('max/0', 'Optional', [], (s) => new Optional([...streamOf(s).items].sort(naturalCompare).pop() ?? null)),
  m('min/0', 'Optional', [], (s) => new Optional([...streamOf(s).items].sort(naturalCompare)[0] ?? null)),
  m('max/1', 'Optional', ['def'], (s, c) => new Optional([...streamOf(s).items].sort(comparatorOf(c)).pop() ?? null)),
  m('min/1', 'Optional', ['def'], (s, c) => new Optional([...streamOf(s).items].sort(comparatorOf(c))[0] ?? null)),
  m('reduce/2', 'def', ['def', 'def'], (s, id, f) => streamOf(s).items.reduce((a, x) => callFn(f, a, x), id)),
  m('collect/1', 'def', ['def'], (s, c) => {
    if (!(c instanceof Collector)) fail('class_cast_exception', `Cannot cast ${javaClassName(c)} to java.util.stream.Collector`);
    return c.finish(streamOf(s).items);
  }),
  m('toList/0', 'List', [], (s) => [...streamOf(s).items]),
  m('toArray/0', 'def[]', [], (s) => referenceArray([...streamOf(s).items], 'java.lang.Object')),
]);

const OPTIONAL: Members = table(OBJECT, [
  m('isPresent/0', 'boolean', [], (s: Optional) => s.value !== null && s.value !== undefined),
  m('isEmpty/0', 'boolean', [], (s: Optional) => s.value === null || s.value === undefined),
  m('get/0', 'def', [], (s: Optional) => s.get()),
  m('getAsInt/0', 'int', [], (s: Optional) => s.get()),
  m('getAsLong/0', 'long', [], (s: Optional) => s.get()),
  m('getAsDouble/0', 'double', [], (s: Optional) => Number(unbox(s.get()))),
  m('orElse/1', 'def', ['def'], (s: Optional, d) => (s.value === null || s.value === undefined ? d : s.value)),
  m('ifPresent/1', 'void', ['def'], (s: Optional, f) => {
    if (s.value !== null && s.value !== undefined) callFn(f, s.value);
  }),
]);

// ---------------------------------------------------------------- StringBuilder
export class StringBuilder extends JavaObject {
  readonly javaClass = 'StringBuilder';
  constructor(public text = '') {
    super();
  }
  toJavaString(): string {
    return this.text;
  }
}

const STRING_BUILDER: Members = table(OBJECT, [
  m('append/1', 'StringBuilder', ['def'], (s: StringBuilder, x) => {
    const more = javaToString(x);
    if (s.text.length + more.length > LIMITS.string) fail('circuit_breaking_exception', `[painless] a string of ${s.text.length + more.length} elements would be larger than the limit of [${LIMITS.string}]`);
    charge(more.length);
    s.text += more;
    return s;
  }),
  m('length/0', 'int', [], (s: StringBuilder) => s.text.length),
  m('charAt/1', 'char', ['int'], (s: StringBuilder, i: number) => s.text[checkIndex(i, s.text.length)]),
  m('reverse/0', 'StringBuilder', [], (s: StringBuilder) => {
    s.text = [...s.text].reverse().join('');
    return s;
  }),
  m('insert/2', 'StringBuilder', ['int', 'def'], (s: StringBuilder, i: number, x) => {
    s.text = s.text.slice(0, i) + javaToString(x) + s.text.slice(i);
    return s;
  }),
  m('deleteCharAt/1', 'StringBuilder', ['int'], (s: StringBuilder, i: number) => {
    checkIndex(i, s.text.length);
    s.text = s.text.slice(0, i) + s.text.slice(i + 1);
    return s;
  }),
  m('setLength/1', 'void', ['int'], (s: StringBuilder, n: number) => {
    s.text = s.text.slice(0, n).padEnd(n, '\u0000');
  }),
]);

// ---------------------------------------------------------------- regexes
export class JavaPattern extends JavaObject {
  readonly javaClass = 'Pattern';
  constructor(
    readonly source: string,
    readonly re: import('re2js').RE2JS,
  ) {
    super();
  }
  toJavaString(): string {
    return this.source;
  }
}

export class JavaMatcher extends JavaObject {
  readonly javaClass = 'Matcher';
  constructor(readonly m: Re2Matcher) {
    super();
  }
}

function pattern(p: unknown): JavaPattern {
  if (!(p instanceof JavaPattern)) fail('class_cast_exception', `Cannot cast ${javaClassName(p)} to java.util.regex.Pattern`);
  return p;
}

function regexReplace(s: string, p: unknown, f: unknown, all: boolean): string {
  const re = pattern(p);
  const matcher = re.re.matcher(s);
  let out = '';
  let last = 0;
  while (matcher.find()) {
    out += s.slice(last, matcher.start()) + javaToString(callFn(f, new JavaMatcher(matcher)));
    last = matcher.end();
    if (!all) break;
    if (matcher.end() === matcher.start() && last >= s.length) break;
  }
  return out + s.slice(last);
}

const PATTERN: Members = table(OBJECT, [
  m('matcher/1', 'Matcher', ['def'], (s: JavaPattern, x) => new JavaMatcher(s.re.matcher(str(x)))),
  m('split/1', 'String[]', ['def'], (s: JavaPattern, x) => referenceArray(s.re.split(str(x), 0), 'java.lang.String')),
  m('pattern/0', 'String', [], (s: JavaPattern) => s.source),
]);

const MATCHER: Members = table(OBJECT, [
  m('matches/0', 'boolean', [], (s: JavaMatcher) => s.m.matches()),
  m('find/0', 'boolean', [], (s: JavaMatcher) => s.m.find()),
  m('lookingAt/0', 'boolean', [], (s: JavaMatcher) => s.m.lookingAt()),
  m('group/0', 'String', [], (s: JavaMatcher) => s.m.group()),
  m('group/1', 'String', ['def'], (s: JavaMatcher, g) => s.m.group(typeof g === 'string' ? g : Number(unbox(g)))),
  m('namedGroup/1', 'String', ['def'], (s: JavaMatcher, g) => s.m.group(str(g))),
  m('groupCount/0', 'int', [], (s: JavaMatcher) => s.m.groupCount()),
  m('start/0', 'int', [], (s: JavaMatcher) => s.m.start()),
  m('end/0', 'int', [], (s: JavaMatcher) => s.m.end()),
  m('replaceAll/1', 'String', ['def'], (s: JavaMatcher, r) => s.m.replaceAll(str(r), true)),
]);

// ---------------------------------------------------------------- java.time
function zdt(s: unknown): ZonedDateTime {
  return s as ZonedDateTime;
}

const TEMPORAL_PLUS: Array<[string, number]> = [['Nanos', 1e-6], ['Seconds', 1000], ['Minutes', 60_000], ['Hours', 3_600_000], ['Days', 86_400_000], ['Weeks', 604_800_000]];

const ZONED_DATE_TIME: Members = table(OBJECT, COMPARABLE, [
  m('getYear/0', 'int', [], (s) => zdt(s).year),
  m('getMonthValue/0', 'int', [], (s) => zdt(s).monthValue),
  m('getMonth/0', 'Month', [], (s) => MONTHS[zdt(s).monthValue - 1]),
  m('getDayOfMonth/0', 'int', [], (s) => zdt(s).dayOfMonth),
  m('getDayOfYear/0', 'int', [], (s) => zdt(s).dayOfYear),
  m('getDayOfWeek/0', 'DayOfWeek', [], (s) => zdt(s).dayOfWeek),
  m('getDayOfWeekEnum/0', 'DayOfWeek', [], (s) => zdt(s).dayOfWeek),
  m('getHour/0', 'int', [], (s) => zdt(s).hour),
  m('getMinute/0', 'int', [], (s) => zdt(s).minute),
  m('getSecond/0', 'int', [], (s) => zdt(s).second),
  m('getNano/0', 'int', [], (s) => zdt(s).nano),
  m('getZone/0', 'ZoneId', [], (s) => zdt(s).zone),
  m('getOffset/0', 'ZoneId', [], (s) => zdt(s).zone),
  m('toInstant/0', 'Instant', [], (s) => zdt(s).instant),
  m('toEpochSecond/0', 'long', [], (s) => Math.floor(zdt(s).instant.millis / 1000)),
  m('isBefore/1', 'boolean', ['def'], (s, o) => zdt(s).compareTo(o) < 0),
  m('isAfter/1', 'boolean', ['def'], (s, o) => zdt(s).compareTo(o) > 0),
  m('isEqual/1', 'boolean', ['def'], (s, o) => zdt(s).compareTo(o) === 0),
  m('withZoneSameInstant/1', 'ZonedDateTime', ['def'], (s, z) => zdt(s).withZone(z as ZoneOffset)),
  m('plusMonths/1', 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMonths(n)),
  m('minusMonths/1', 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMonths(-n)),
  m('plusYears/1', 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMonths(12 * n)),
  m('minusYears/1', 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMonths(-12 * n)),
  m('format/1', 'String', ['def'], (s, f) => formatter(f).format(zdt(s))),
  ...TEMPORAL_PLUS.flatMap(([unit, ms]): Entry[] => [
    m(`plus${unit}/1`, 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMillis(n * ms)),
    m(`minus${unit}/1`, 'ZonedDateTime', ['long'], (s, n: number) => zdt(s).plusMillis(-n * ms)),
  ]),
]);

function formatter(f: unknown): DateTimeFormatter {
  if (!(f instanceof DateTimeFormatter)) fail('class_cast_exception', `Cannot cast ${javaClassName(f)} to java.time.format.DateTimeFormatter`);
  return f;
}

const DATE_TIME_FORMATTER: Members = table(OBJECT, [
  m('format/1', 'String', ['def'], (s: DateTimeFormatter, v) => s.format(v as ZonedDateTime)),
  m('parse/1', 'ZonedDateTime', ['def'], (s: DateTimeFormatter, t) => s.parse(str(t))),
]);

const INSTANT: Members = table(OBJECT, COMPARABLE, [
  m('toEpochMilli/0', 'long', [], (s: Instant) => s.millis),
  m('getEpochSecond/0', 'long', [], (s: Instant) => Math.floor(s.millis / 1000)),
  m('getNano/0', 'int', [], (s: Instant) => (((s.millis % 1000) + 1000) % 1000) * 1_000_000 + s.nanoOfMilli),
  m('plusMillis/1', 'Instant', ['long'], (s: Instant, n: number) => new Instant(s.millis + n, s.nanoOfMilli)),
  m('minusMillis/1', 'Instant', ['long'], (s: Instant, n: number) => new Instant(s.millis - n, s.nanoOfMilli)),
  m('plusSeconds/1', 'Instant', ['long'], (s: Instant, n: number) => new Instant(s.millis + n * 1000, s.nanoOfMilli)),
  m('minusSeconds/1', 'Instant', ['long'], (s: Instant, n: number) => new Instant(s.millis - n * 1000, s.nanoOfMilli)),
  m('isBefore/1', 'boolean', ['def'], (s: Instant, o) => s.compareTo(o) < 0),
  m('isAfter/1', 'boolean', ['def'], (s: Instant, o) => s.compareTo(o) > 0),
  m('atZone/1', 'ZonedDateTime', ['def'], (s: Instant, z) => new ZonedDateTime(s, z as ZoneOffset)),
]);

const DAY_OF_WEEK: Members = table(OBJECT, COMPARABLE, [
  m('getValue/0', 'int', [], (s: DayOfWeek) => s.value),
  m('ordinal/0', 'int', [], (s: DayOfWeek) => s.value - 1),
  m('name/0', 'String', [], (s: DayOfWeek) => s.name),
  m('getDisplayName/2', 'String', ['def', 'def'], (s: DayOfWeek, style) => s.displayName(style as TextStyle)),
  m('plus/1', 'DayOfWeek', ['long'], (s: DayOfWeek, n: number) => DAYS[(((s.value - 1 + n) % 7) + 7) % 7]),
  m('minus/1', 'DayOfWeek', ['long'], (s: DayOfWeek, n: number) => DAYS[(((s.value - 1 - n) % 7) + 7) % 7]),
]);

const MONTH: Members = table(OBJECT, COMPARABLE, [
  m('getValue/0', 'int', [], (s: Month) => s.value),
  m('ordinal/0', 'int', [], (s: Month) => s.value - 1),
  m('name/0', 'String', [], (s: Month) => s.name),
  m('getDisplayName/2', 'String', ['def', 'def'], (s: Month, style) => s.displayName(style as TextStyle)),
]);

const CHRONO_UNIT: Members = table(OBJECT, [
  m('between/2', 'long', ['def', 'def'], (s: ChronoUnit, a, b) => s.between(a as ZonedDateTime, b as ZonedDateTime)),
  m('name/0', 'String', [], (s: ChronoUnit) => s.name),
]);

const ZONE: Members = table(OBJECT, [m('getId/0', 'String', [], (s: ZoneOffset) => s.id)]);

// ---------------------------------------------------------------- exceptions
export class ThrowableValue extends JavaObject {
  constructor(
    readonly javaClass: string,
    readonly message: string | null,
  ) {
    super();
  }
  toJavaString(): string {
    return `java.lang.${this.javaClass}${this.message === null ? '' : ': ' + this.message}`;
  }
}

const THROWABLE: Members = table(OBJECT, [
  m('getMessage/0', 'String', [], (s: ThrowableValue) => s.message),
  m('getLocalizedMessage/0', 'String', [], (s: ThrowableValue) => s.message),
]);

/** Classes whose values scripts hold, by Java class name (the runtime's `javaClass`, or a value's own kind). */
const CLASSES = new Map<string, Members>([
  ['String', STRING],
  ['Number', NUMBER],
  ['Integer', NUMBER],
  ['Long', NUMBER],
  ['Double', NUMBER],
  ['Float', NUMBER],
  ['Short', NUMBER],
  ['Byte', NUMBER],
  ['Boolean', BOOLEAN],
  ['Character', CHARACTER],
  ['Object', table(OBJECT)],
  ['Comparable', table(OBJECT, COMPARABLE)],
  ['CharSequence', STRING],
  ['Iterable', COLLECTION],
  ['Collection', COLLECTION],
  ['List', LIST],
  ['ArrayList', LIST],
  ['LinkedList', LIST],
  ['Set', SET],
  ['HashSet', SET],
  ['LinkedHashSet', SET],
  ['TreeSet', SET],
  ['Map', MAP],
  ['HashMap', MAP],
  ['LinkedHashMap', MAP],
  ['TreeMap', MAP],
  ['Map.Entry', MAP_ENTRY],
  ['Iterator', ITERATOR],
  ['Array', ARRAY],
  ['Stream', STREAM],
  ['Optional', OPTIONAL],
  ['Collector', table(OBJECT)],
  ['StringBuilder', STRING_BUILDER],
  ['Pattern', PATTERN],
  ['Matcher', MATCHER],
  ['ZonedDateTime', ZONED_DATE_TIME],
  ['Instant', INSTANT],
  ['DayOfWeek', DAY_OF_WEEK],
  ['Month', MONTH],
  ['ChronoUnit', CHRONO_UNIT],
  ['ZoneId', ZONE],
  ['ZoneOffset', ZONE],
  ['DateTimeFormatter', DATE_TIME_FORMATTER],
  ['TextStyle', table(OBJECT)],
  ['Locale', table(OBJECT)],
]);

for (const t of ['Exception', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException', 'NullPointerException', 'ArithmeticException',
  'ClassCastException', 'NumberFormatException', 'UnsupportedOperationException', 'IndexOutOfBoundsException']) {
  CLASSES.set(t, THROWABLE);
}

/** Lets other modules (doc values of search scripts) add the classes of the values they hand to scripts. */
export function defineClass(name: string, members: Members): void {
  CLASSES.set(name, members);
}

export function membersOfClass(name: string): Members | undefined {
  return CLASSES.get(name);
}

export { table as memberTable, m as method, OBJECT as OBJECT_MEMBERS, LIST as LIST_MEMBERS, MAP as MAP_MEMBERS };

/** The member table of a runtime value's class. */
export function membersOf(v: unknown): Members | undefined {
  switch (typeof v) {
    case 'string':
      return STRING;
    case 'number':
    case 'bigint':
      return NUMBER;
    case 'boolean':
      return BOOLEAN;
    case 'object':
      if (v === null) return undefined;
      if (v instanceof JDouble || v instanceof JLong) return NUMBER;
      if (isJavaArray(v)) return ARRAY;
      if (Array.isArray(v)) return LIST;
      if (v instanceof Map) return MAP;
      if (v instanceof Set) return SET;
      if (v instanceof JavaObject) return CLASSES.get(v.javaClass);
      return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- static members
export interface StaticField {
  type: string;
  value: unknown;
}

function parseNumberText(s: unknown, integral: boolean, radix = 10): number {
  const text = str(s);
  const ok = integral ? (radix === 10 ? /^[+-]?\d+$/ : /^[+-]?[0-9a-zA-Z]+$/).test(text) : /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(text.trim());
  const n = integral ? parseInt(text, radix) : Number(text.trim().replace(/[fFdD]$/, ''));
  if (!ok || Number.isNaN(n) && !/NaN/.test(text)) fail('number_format_exception', `For input string: "${text}"${radix !== 10 ? ` under radix ${radix}` : ''}`);
  return n;
}

function parseIntChecked(s: unknown, radix = 10): number {
  const n = parseNumberText(s, true, radix);
  if (n < INT_MIN || n > INT_MAX) fail('number_format_exception', `For input string: "${String(s)}"${radix !== 10 ? ` under radix ${radix}` : ''}`);
  return n;
}

function mathFn(f: (...x: number[]) => number, arity = 1): Method {
  return { params: Array(arity).fill('double'), ret: 'double', fn: (_s, ...args: number[]) => f(...args) };
}

/** Math.round: half up, to a long. */
function javaRound(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.floor(x + 0.5);
}

function statics(entries: Entry[]): Members {
  return new Map(entries);
}

const MATH_STATICS = statics([
  ...(['abs', 'sqrt', 'cbrt', 'exp', 'expm1', 'log', 'log10', 'log1p', 'floor', 'ceil', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'sign'] as const)
    .map((name): Entry => [`${name === 'sign' ? 'signum' : name}/1`, mathFn(Math[name])]),
  ['max/2', mathFn(Math.max, 2)],
  ['min/2', mathFn(Math.min, 2)],
  ['pow/2', mathFn(Math.pow, 2)],
  ['atan2/2', mathFn(Math.atan2, 2)],
  ['hypot/2', mathFn(Math.hypot, 2)],
  ['rint/1', mathFn((x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  })],
  ['toRadians/1', mathFn((x) => (x * Math.PI) / 180)],
  ['toDegrees/1', mathFn((x) => (x * 180) / Math.PI)],
  ['random/0', mathFn(() => Math.random(), 0)],
  m('round/1', 'long', ['double'], (_s, x: number) => javaRound(x)),
]);

const INTEGER_STATICS = statics([
  m('parseInt/1', 'int', ['def'], (_s, x) => parseIntChecked(x)),
  m('parseInt/2', 'int', ['def', 'int'], (_s, x, r: number) => parseIntChecked(x, r)),
  m('valueOf/1', 'Integer', ['def'], (_s, x) => (typeof x === 'string' ? parseIntChecked(x) : toIntValue(Number(unbox(x))))),
  m('toString/1', 'String', ['int'], (_s, x: number) => String(x)),
  m('toHexString/1', 'String', ['int'], (_s, x: number) => (x >>> 0).toString(16)),
  m('toBinaryString/1', 'String', ['int'], (_s, x: number) => (x >>> 0).toString(2)),
  m('compare/2', 'int', ['int', 'int'], (_s, a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0)),
  m('max/2', 'int', ['int', 'int'], (_s, a: number, b: number) => Math.max(a, b)),
  m('min/2', 'int', ['int', 'int'], (_s, a: number, b: number) => Math.min(a, b)),
  m('sum/2', 'int', ['int', 'int'], (_s, a: number, b: number) => (a + b) | 0),
  m('signum/1', 'int', ['int'], (_s, a: number) => Math.sign(a)),
]);

/** Long.parseLong: a decimal integer as an exact long (a BigInt past 2^53), NumberFormatException past 64 bits. */
function parseLongText(s: unknown): Long {
  const text = str(s);
  if (!/^[+-]?\d+$/.test(text)) fail('number_format_exception', `For input string: "${text}"`);
  const v = BigInt(text);
  if (v > 9223372036854775807n || v < -9223372036854775808n) fail('number_format_exception', `For input string: "${text}"`);
  return normLong(v);
}

const LONG_STATICS = statics([
  m('parseLong/1', 'long', ['def'], (_s, x) => parseLongText(x)),
  m('valueOf/1', 'Long', ['def'], (_s, x) => (typeof x === 'string' ? parseLongText(x) : typeof x === 'bigint' ? x : Math.trunc(Number(unbox(x))))),
  m('toString/1', 'String', ['long'], (_s, x: Long) => String(x)),
  m('compare/2', 'int', ['long', 'long'], (_s, a: Long, b: Long) => (a < b ? -1 : a > b ? 1 : 0)),
  m('max/2', 'long', ['long', 'long'], (_s, a: Long, b: Long) => (a >= b ? a : b)),
  m('min/2', 'long', ['long', 'long'], (_s, a: Long, b: Long) => (a <= b ? a : b)),
  m('sum/2', 'long', ['long', 'long'], (_s, a: Long, b: Long) => ladd(a, b)),
  m('signum/1', 'int', ['long'], (_s, a: Long) => (a > 0 ? 1 : a < 0 ? -1 : 0)),
]);

const DOUBLE_STATICS = statics([
  m('parseDouble/1', 'double', ['def'], (_s, x) => parseNumberText(x, false)),
  m('valueOf/1', 'Double', ['def'], (_s, x) => boxDouble(typeof x === 'string' ? parseNumberText(x, false) : Number(unbox(x)))),
  m('toString/1', 'String', ['double'], (_s, x: number) => doubleToString(x)),
  m('isNaN/1', 'boolean', ['double'], (_s, x: number) => Number.isNaN(x)),
  m('isInfinite/1', 'boolean', ['double'], (_s, x: number) => x === Infinity || x === -Infinity),
  m('isFinite/1', 'boolean', ['double'], (_s, x: number) => Number.isFinite(x)),
  m('compare/2', 'int', ['double', 'double'], (_s, a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0)),
  m('max/2', 'double', ['double', 'double'], (_s, a: number, b: number) => Math.max(a, b)),
  m('min/2', 'double', ['double', 'double'], (_s, a: number, b: number) => Math.min(a, b)),
  m('sum/2', 'double', ['double', 'double'], (_s, a: number, b: number) => a + b),
]);

const FLOAT_STATICS = statics([
  m('parseFloat/1', 'float', ['def'], (_s, x) => Math.fround(parseNumberText(x, false))),
  m('valueOf/1', 'Float', ['def'], (_s, x) => boxDouble(Math.fround(typeof x === 'string' ? parseNumberText(x, false) : Number(unbox(x))))),
  m('toString/1', 'String', ['float'], (_s, x: number) => doubleToString(x)),
  m('isNaN/1', 'boolean', ['float'], (_s, x: number) => Number.isNaN(x)),
]);

const BOOLEAN_STATICS = statics([
  m('parseBoolean/1', 'boolean', ['def'], (_s, x) => typeof x === 'string' && x.toLowerCase() === 'true'),
  m('valueOf/1', 'Boolean', ['def'], (_s, x) => (typeof x === 'string' ? x.toLowerCase() === 'true' : x === true)),
  m('toString/1', 'String', ['boolean'], (_s, x: boolean) => String(x)),
  m('compare/2', 'int', ['boolean', 'boolean'], (_s, a: boolean, b: boolean) => (a === b ? 0 : a ? 1 : -1)),
]);

function charCode(c: unknown): string {
  if (typeof c === 'number') return String.fromCharCode(c);
  return str(c);
}

const CHARACTER_STATICS = statics([
  m('isDigit/1', 'boolean', ['def'], (_s, c) => /^\p{Nd}$/u.test(charCode(c))),
  m('isLetter/1', 'boolean', ['def'], (_s, c) => /^\p{L}$/u.test(charCode(c))),
  m('isLetterOrDigit/1', 'boolean', ['def'], (_s, c) => /^[\p{L}\p{Nd}]$/u.test(charCode(c))),
  m('isAlphabetic/1', 'boolean', ['def'], (_s, c) => /^\p{Alphabetic}$/u.test(charCode(c))),
  m('isWhitespace/1', 'boolean', ['def'], (_s, c) => /^[\s\u001c-\u001f]$/.test(charCode(c)) && !/^[\u00a0\u2007\u202f]$/.test(charCode(c))),
  m('isUpperCase/1', 'boolean', ['def'], (_s, c) => /^\p{Lu}$/u.test(charCode(c))),
  m('isLowerCase/1', 'boolean', ['def'], (_s, c) => /^\p{Ll}$/u.test(charCode(c))),
  m('toUpperCase/1', 'char', ['def'], (_s, c) => charCode(c).toUpperCase()),
  m('toLowerCase/1', 'char', ['def'], (_s, c) => charCode(c).toLowerCase()),
  m('getNumericValue/1', 'int', ['def'], (_s, c) => {
    const ch = charCode(c);
    return /[0-9]/.test(ch) ? Number(ch) : /[a-zA-Z]/.test(ch) ? ch.toLowerCase().charCodeAt(0) - 87 : -1;
  }),
  m('toString/1', 'String', ['def'], (_s, c) => charCode(c)),
]);

const STRING_STATICS = statics([
  m('valueOf/1', 'String', ['def'], (_s, x) => javaToString(x)),
  m('join/2', 'String', ['def', 'def'], (_s, d, items) => built([...each(items)].map(javaToString).join(str(d)))),
]);

const OBJECTS_STATICS = statics([
  m('equals/2', 'boolean', ['def', 'def'], (_s, a, b) => javaEquals(a, b)),
  m('isNull/1', 'boolean', ['def'], (_s, a) => a === null || a === undefined),
  m('nonNull/1', 'boolean', ['def'], (_s, a) => a !== null && a !== undefined),
  m('requireNonNull/1', 'def', ['def'], (_s, a) => (a === null || a === undefined ? fail('null_pointer_exception', 'null') : a)),
  m('requireNonNull/2', 'def', ['def', 'def'], (_s, a, msg) => (a === null || a === undefined ? fail('null_pointer_exception', javaToString(msg)) : a)),
  m('requireNonNullElse/2', 'def', ['def', 'def'], (_s, a, b) => (a === null || a === undefined ? b : a)),
  m('toString/1', 'String', ['def'], (_s, a) => javaToString(a)),
  m('toString/2', 'String', ['def', 'def'], (_s, a, d) => (a === null || a === undefined ? javaToString(d) : javaToString(a))),
  m('hashCode/1', 'int', ['def'], (_s, a) => javaHashCode(a)),
]);

const COLLECTIONS_STATICS = statics([
  m('sort/1', 'void', ['def'], (_s, l) => sortList(list(l), null)),
  m('sort/2', 'void', ['def', 'def'], (_s, l, c) => sortList(list(l), c)),
  m('reverse/1', 'void', ['def'], (_s, l) => void list(l).reverse()),
  m('max/1', 'def', ['def'], (_s, c) => [...each(c)].reduce((a, b) => (naturalCompare(a, b) >= 0 ? a : b))),
  m('min/1', 'def', ['def'], (_s, c) => [...each(c)].reduce((a, b) => (naturalCompare(a, b) <= 0 ? a : b))),
  m('max/2', 'def', ['def', 'def'], (_s, c, cmp) => [...each(c)].reduce((a, b) => (comparatorOf(cmp)(a, b) >= 0 ? a : b))),
  m('min/2', 'def', ['def', 'def'], (_s, c, cmp) => [...each(c)].reduce((a, b) => (comparatorOf(cmp)(a, b) <= 0 ? a : b))),
  m('frequency/2', 'int', ['def', 'def'], (_s, c, x) => [...each(c)].filter((y) => javaEquals(x, y)).length),
  m('emptyList/0', 'List', [], () => []),
  m('emptyMap/0', 'Map', [], () => new Map()),
  m('emptySet/0', 'Set', [], () => new Set()),
  m('singletonList/1', 'List', ['def'], (_s, x) => [x]),
  m('singleton/1', 'Set', ['def'], (_s, x) => new Set([mapKey(x)])),
  m('nCopies/2', 'List', ['int', 'def'], (_s, n: number, x) => {
    if (n > LIMITS.array) fail('circuit_breaking_exception', `[painless] a list of ${n} elements would be larger than the limit of [${LIMITS.array}]`);
    spend(Math.max(0, n));
    charge(8 * Math.max(0, n));
    return Array(Math.max(0, n)).fill(x);
  }),
  m('unmodifiableList/1', 'List', ['def'], (_s, l) => l),
  m('unmodifiableMap/1', 'Map', ['def'], (_s, l) => l),
  m('unmodifiableSet/1', 'Set', ['def'], (_s, l) => l),
]);

const ARRAYS_STATICS = statics([
  m('asList/1', 'List', ['def'], (_s, a) => [...each(a)]),
  m('sort/1', 'void', ['def'], (_s, a) => {
    // a primitive array sorts by value (NaN last, -0.0 before 0.0), as Java's Arrays.sort does
    if (isPrimitiveArray(a)) {
      spend(a.length);
      a.sort();
    } else list(a).sort(naturalCompare);
  }),
  m('toString/1', 'String', ['def'], (_s, a) => (a === null ? 'null' : `[${[...each(a)].map(javaToString).join(', ')}]`)),
  m('stream/1', 'Stream', ['def'], (_s, a) => new Stream([...each(a)])),
]);

function listOf(max: number): Entry[] {
  return Array.from({ length: max + 1 }, (_, n): Entry => m(`of/${n}`, 'List', Array(n).fill('def'), (_s, ...xs) => xs));
}

const LIST_STATICS = statics(listOf(10));
const SET_STATICS = statics(Array.from({ length: 11 }, (_, n): Entry => m(`of/${n}`, 'Set', Array(n).fill('def'), (_s, ...xs) => new Set(xs.map(mapKey)))));
const MAP_STATICS = statics(Array.from({ length: 11 }, (_, n): Entry => m(`of/${2 * n}`, 'Map', Array(2 * n).fill('def'), (_s, ...xs) => {
  const out = new Map();
  for (let i = 0; i < xs.length; i += 2) out.set(mapKey(xs[i]), xs[i + 1]);
  return out;
})));

const COLLECTORS_STATICS = statics([
  m('toList/0', 'Collector', [], () => new Collector((items) => [...items])),
  m('toSet/0', 'Collector', [], () => new Collector((items) => new Set(items.map(mapKey)))),
  m('joining/0', 'Collector', [], () => new Collector((items) => items.map(javaToString).join(''))),
  m('joining/1', 'Collector', ['def'], (_s, d) => new Collector((items) => items.map(javaToString).join(str(d)))),
  m('joining/3', 'Collector', ['def', 'def', 'def'], (_s, d, p, e) => new Collector((items) => str(p) + items.map(javaToString).join(str(d)) + str(e))),
  m('counting/0', 'Collector', [], () => new Collector((items) => items.length)),
  m('toMap/2', 'Collector', ['def', 'def'], (_s, kf, vf) => new Collector((items) => {
    const out = new Map();
    for (const x of items) {
      const k = mapKey(callFn(kf, x));
      if (out.has(k)) fail('illegal_state_exception', `Duplicate key ${javaToString(k)}`);
      out.set(k, callFn(vf, x));
    }
    return out;
  })),
  m('groupingBy/1', 'Collector', ['def'], (_s, kf) => new Collector((items) => {
    const out = new Map<unknown, unknown[]>();
    for (const x of items) {
      const k = mapKey(callFn(kf, x));
      if (!out.has(k)) out.set(k, []);
      out.get(k)!.push(x);
    }
    return out;
  })),
]);

const INSTANT_STATICS = statics([
  m('ofEpochMilli/1', 'Instant', ['long'], (_s, ms: number) => new Instant(ms)),
  m('ofEpochSecond/1', 'Instant', ['long'], (_s, s: number) => new Instant(s * 1000)),
  m('ofEpochSecond/2', 'Instant', ['long', 'long'], (_s, s: number, n: number) => new Instant(s * 1000 + Math.floor(n / 1e6), n % 1e6)),
  m('parse/1', 'Instant', ['def'], (_s, t) => parseIsoInstant(str(t)).instant),
]);

const ZONED_STATICS = statics([
  m('parse/1', 'ZonedDateTime', ['def'], (_s, t) => {
    const p = parseIsoInstant(str(t));
    return new ZonedDateTime(p.instant, p.zone);
  }),
  m('ofInstant/2', 'ZonedDateTime', ['def', 'def'], (_s, i, z) => new ZonedDateTime(i as Instant, z as ZoneOffset)),
  m('parse/2', 'ZonedDateTime', ['def', 'def'], (_s, t, f) => formatter(f).parse(str(t))),
]);

const FORMATTER_STATICS = statics([m('ofPattern/1', 'DateTimeFormatter', ['def'], (_s, p) => new DateTimeFormatter(str(p)))]);

const ZONE_STATICS = statics([m('of/1', 'ZoneId', ['def'], (_s, id) => zoneOf(str(id)))]);

const DAY_STATICS = statics([m('of/1', 'DayOfWeek', ['int'], (_s, n: number) => (n >= 1 && n <= 7 ? DAYS[n - 1] : fail('date_time_exception', `Invalid value for DayOfWeek: ${n}`)))]);

const SYSTEM_STATICS = statics([
  m('currentTimeMillis/0', 'long', [], () => Date.now()),
  m('nanoTime/0', 'long', [], () => Math.floor(performance.now() * 1e6)),
]);

/** Numbers of a `double[]` (or any list of numbers) given to MovingFunctions. */
function doubles(v: unknown): number[] {
  if (isPrimitiveArray(v)) return Array.from(v, Number);
  if (!Array.isArray(v)) fail('class_cast_exception', `Cannot cast ${javaClassName(v)} to double[]`);
  return (v as unknown[]).map((x) => Number(unbox(x)));
}

const MOVING_FUNCTIONS_STATICS = statics([
  m('max/1', 'double', ['def'], (_s, v) => MovingFunctions.max(doubles(v))),
  m('min/1', 'double', ['def'], (_s, v) => MovingFunctions.min(doubles(v))),
  m('sum/1', 'double', ['def'], (_s, v) => MovingFunctions.sum(doubles(v))),
  m('unweightedAvg/1', 'double', ['def'], (_s, v) => MovingFunctions.unweightedAvg(doubles(v))),
  m('linearWeightedAvg/1', 'double', ['def'], (_s, v) => MovingFunctions.linearWeightedAvg(doubles(v))),
  m('stdDev/2', 'double', ['def', 'double'], (_s, v, avg: number) => MovingFunctions.stdDev(doubles(v), avg)),
  m('ewma/2', 'double', ['def', 'double'], (_s, v, alpha: number) => MovingFunctions.ewma(doubles(v), alpha)),
  m('holt/3', 'double', ['def', 'double', 'double'], (_s, v, alpha: number, beta: number) => MovingFunctions.holt(doubles(v), alpha, beta)),
  m('holtWinters/6', 'double', ['def', 'double', 'double', 'double', 'int', 'boolean'],
    (_s, v, alpha: number, beta: number, gamma: number, period: number, multiplicative: boolean) => MovingFunctions.holtWinters(doubles(v), alpha, beta, gamma, period, multiplicative)),
]);

const STATIC_METHODS = new Map<string, Members>([
  ['MovingFunctions', MOVING_FUNCTIONS_STATICS],
  ['System', SYSTEM_STATICS],
  ['Math', MATH_STATICS],
  ['StrictMath', MATH_STATICS],
  ['Integer', INTEGER_STATICS],
  ['Long', LONG_STATICS],
  ['Double', DOUBLE_STATICS],
  ['Float', FLOAT_STATICS],
  ['Boolean', BOOLEAN_STATICS],
  ['Character', CHARACTER_STATICS],
  ['String', STRING_STATICS],
  ['Objects', OBJECTS_STATICS],
  ['Collections', COLLECTIONS_STATICS],
  ['Arrays', ARRAYS_STATICS],
  ['List', LIST_STATICS],
  ['Set', SET_STATICS],
  ['Map', MAP_STATICS],
  ['Collectors', COLLECTORS_STATICS],
  ['Instant', INSTANT_STATICS],
  ['ZonedDateTime', ZONED_STATICS],
  ['ZoneId', ZONE_STATICS],
  ['DayOfWeek', DAY_STATICS],
  ['DateTimeFormatter', FORMATTER_STATICS],
]);

const INT_FIELDS = { MAX_VALUE: { type: 'int', value: INT_MAX }, MIN_VALUE: { type: 'int', value: INT_MIN } };

const STATIC_FIELDS = new Map<string, Record<string, StaticField>>([
  ['Math', { PI: { type: 'double', value: Math.PI }, E: { type: 'double', value: Math.E } }],
  ['Integer', INT_FIELDS],
  ['Long', { MAX_VALUE: { type: 'long', value: 9223372036854775807n }, MIN_VALUE: { type: 'long', value: -9223372036854775808n } }],
  ['Double', {
    MAX_VALUE: { type: 'double', value: Number.MAX_VALUE }, MIN_VALUE: { type: 'double', value: Number.MIN_VALUE },
    POSITIVE_INFINITY: { type: 'double', value: Infinity }, NEGATIVE_INFINITY: { type: 'double', value: -Infinity }, NaN: { type: 'double', value: NaN },
  }],
  ['Float', { MAX_VALUE: { type: 'float', value: 3.4028234663852886e38 }, MIN_VALUE: { type: 'float', value: 1.401298464324817e-45 } }],
  ['Short', { MAX_VALUE: { type: 'short', value: 32767 }, MIN_VALUE: { type: 'short', value: -32768 } }],
  ['Byte', { MAX_VALUE: { type: 'byte', value: 127 }, MIN_VALUE: { type: 'byte', value: -128 } }],
  ['Boolean', { TRUE: { type: 'Boolean', value: true }, FALSE: { type: 'Boolean', value: false } }],
  ['TextStyle', Object.fromEntries(Object.entries(TEXT_STYLES).map(([k, v]) => [k, { type: 'TextStyle', value: v }]))],
  ['Locale', Object.fromEntries(Object.entries(LOCALES).map(([k, v]) => [k, { type: 'Locale', value: v as JavaLocale }]))],
  ['DayOfWeek', Object.fromEntries(DAYS.map((d) => [d.name, { type: 'DayOfWeek', value: d }]))],
  ['Month', Object.fromEntries(MONTHS.map((d) => [d.name, { type: 'Month', value: d }]))],
  ['ChronoUnit', Object.fromEntries(Object.entries(CHRONO_UNITS).map(([k, v]) => [k, { type: 'ChronoUnit', value: v }]))],
  ['ZoneOffset', { UTC: { type: 'ZoneOffset', value: UTC } }],
  ['DateTimeFormatter', Object.fromEntries(Object.entries(DATE_TIME_FORMATTERS).map(([k, v]) => [k, { type: 'DateTimeFormatter', value: v }]))],
]);

export function staticMethod(type: string, key: string): Method | undefined {
  return STATIC_METHODS.get(type)?.get(key);
}

export function staticField(type: string, name: string): StaticField | undefined {
  const fields = STATIC_FIELDS.get(type);
  return fields && Object.hasOwn(fields, name) ? fields[name] : undefined;
}

/** Whether a number value (def) is of this numeric kind — for `instanceof Integer` and friends. */
export function isNumberOfKind(v: unknown, kind: 'int' | 'long' | 'double'): boolean {
  return isNumber(v) && numberKind(v) === kind;
}
