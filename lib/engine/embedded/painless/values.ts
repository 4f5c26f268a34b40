/**
 * How Java values are held while a script runs. Primitives are JS numbers, booleans and one-char
 * strings (char); String is a JS string; List is an Array, Map a Map, Set a Set. A `def` value
 * keeps its Java type in its representation: an integral number is an int (a long past 32 bits),
 * any other number a double — and a double whose value is integral is boxed as a `JDouble`, so
 * that `def x = 10.0; x / 4` divides as doubles (2.5) and `def y = 10; y / 4` as ints (2).
 */
import { ScriptRuntimeError } from './script-error.js';
import { normLong } from './long-arithmetic.js';

/** A double whose value is integral, where a `def` value is held. */
export class JDouble {
  constructor(readonly v: number) {}
}

/**
 * A Long whose value an int could hold, where a `def` value is held (a long doc value, a `long`
 * given to `def`): so that `doc['n'].value * 1000000` multiplies as longs, as in Elasticsearch,
 * instead of overflowing as ints. A long outside the int range needs no box (its value says long).
 */
export class JLong {
  constructor(readonly v: number) {}
  valueOf(): number {
    return this.v;
  }
  toJSON(): number {
    return this.v;
  }
}

/** A long as a `def` value: one in the int range boxed (see JLong). */
export function boxLong(x: number | bigint): number | bigint | JLong {
  return typeof x === 'number' && x >= -2147483648 && x <= 2147483647 ? new JLong(x) : x;
}

/** A double as a `def` value: integral ones boxed. */
export function boxDouble(x: number): number | JDouble {
  return Number.isInteger(x) ? new JDouble(x) : x;
}

/** A `def` number as a JS number. */
export function unbox(v: unknown): unknown {
  return v instanceof JDouble || v instanceof JLong ? v.v : v;
}

/** A number a script holds: an int, a long (a BigInt past 2^53, see long-arithmetic.ts) or a double. */
export function isNumber(v: unknown): v is number | bigint | JDouble | JLong {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof JDouble || v instanceof JLong;
}

export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;

/** The Java kind of a `def` number: int, long or double. */
export function numberKind(v: number | bigint | JDouble | JLong): 'int' | 'long' | 'double' {
  if (typeof v === 'bigint' || v instanceof JLong) return 'long';
  if (v instanceof JDouble) return 'double';
  if (!Number.isInteger(v)) return 'double';
  return v >= INT_MIN && v <= INT_MAX ? 'int' : 'long';
}

/**
 * Java arrays. An array of a primitive type is a typed array of the element's width (`long[]` a
 * BigInt64Array, `double[]` a Float64Array, `int[]` an Int32Array…): zero-filled, one flat buffer
 * outside the JS heap, so a script's `new long[1000000]` is 8 MB the collector never scans, and
 * it holds Java's values (an int[] slot wraps as Java's int does). Its elements are read and
 * written through `elementAt` / `setElement`, which turn them into the runtime's representation
 * (a long as a number, a char as a one-char string, a boolean as a boolean). An array of
 * references (`String[]`, `def[]`, `int[][]`'s outer level) is a JS array marked with its
 * element type.
 */
const JAVA_ARRAY = Symbol('javaArray');

export type PrimitiveArray = Int8Array | Int16Array | Int32Array | BigInt64Array | Float32Array | Float64Array | Uint16Array | Uint8Array;
export type JavaArrayValue = unknown[] | PrimitiveArray;

type PrimitiveArrayClass = new (length: number) => PrimitiveArray;

const PRIMITIVE_ARRAYS: ReadonlyMap<string, PrimitiveArrayClass> = new Map<string, PrimitiveArrayClass>([
  ['byte', Int8Array], ['short', Int16Array], ['int', Int32Array], ['long', BigInt64Array],
  ['float', Float32Array], ['double', Float64Array], ['char', Uint16Array], ['boolean', Uint8Array],
]);
const ELEMENT_TYPES: ReadonlyMap<unknown, string> = new Map([...PRIMITIVE_ARRAYS].map(([t, c]) => [c, t]));

/** A new zero-filled array of `length` elements of a primitive type (undefined for a reference type). */
export function newPrimitiveArray(elementType: string, length: number): PrimitiveArray | undefined {
  const C = PRIMITIVE_ARRAYS.get(elementType);
  return C ? new C(length) : undefined;
}

/** Bytes one element of an array of `elementType` takes (a reference: 8). */
export function elementBytes(elementType: string): number {
  return PRIMITIVE_ARRAYS.get(elementType)?.prototype.BYTES_PER_ELEMENT ?? 8;
}

export function isPrimitiveArray(v: unknown): v is PrimitiveArray {
  return ArrayBuffer.isView(v) && ELEMENT_TYPES.has(v.constructor);
}

/** `items` marked as a Java array of a reference type (`String[]`, `def[]`). */
export function referenceArray<T>(items: T[], elementType: string): T[] {
  (items as unknown as Record<symbol, string>)[JAVA_ARRAY] = elementType;
  return items;
}

/** `items` as a Java array of `elementType` (a primitive type's as its typed array). */
export function javaArray(items: unknown[], elementType: string): JavaArrayValue {
  const typed = newPrimitiveArray(elementType, items.length);
  if (!typed) return referenceArray(items, elementType);
  for (let i = 0; i < items.length; i++) setElement(typed, i, items[i]);
  return typed;
}

export function isJavaArray(v: unknown): v is JavaArrayValue {
  return isPrimitiveArray(v) || (Array.isArray(v) && (v as unknown as Record<symbol, unknown>)[JAVA_ARRAY] !== undefined);
}

export function arrayElementType(v: JavaArrayValue): string {
  return isPrimitiveArray(v) ? ELEMENT_TYPES.get(v.constructor)! : (v as unknown as Record<symbol, string>)[JAVA_ARRAY];
}

/** Element `i` (in bounds) of a Java array, as a `def` value (a double boxed as `boxDouble` does). */
export function elementAt(a: JavaArrayValue, i: number): unknown {
  if (!isPrimitiveArray(a)) return a[i];
  const x = a[i];
  if (typeof x === 'bigint') return boxLong(normLong(x));
  switch (a.constructor) {
    case Float64Array:
    case Float32Array:
      return boxDouble(x);
    case Uint16Array:
      return String.fromCharCode(x);
    case Uint8Array:
      return x !== 0;
  }
  return x;
}

/** Stores `v` (of the array's element type, or its def form) at `i` (in bounds). */
export function setElement(a: JavaArrayValue, i: number, v: unknown): void {
  if (!isPrimitiveArray(a)) {
    a[i] = v;
    return;
  }
  const u = unbox(v);
  if (a.constructor === Uint8Array) {
    a[i] = u ? 1 : 0;
    return;
  }
  // a char is a one-char string; stored in a numeric array, its code
  const x = typeof u === 'string' ? u.charCodeAt(0) : u;
  if (a instanceof BigInt64Array) a[i] = typeof x === 'bigint' ? x : BigInt(Math.trunc(Number(x)) || 0);
  else a[i] = Number(x);
}

/** The elements of a Java array as `def` values, in order (one at a time: a large array is not copied). */
export function* arrayElements(a: JavaArrayValue): Generator<unknown, void, undefined> {
  for (let i = 0; i < a.length; i++) yield elementAt(a, i);
}

/** A Java array's elements as a JS array of `def` values. */
export function arrayItems(a: JavaArrayValue): unknown[] {
  return isPrimitiveArray(a) ? Array.from(arrayElements(a)) : a;
}

/**
 * Objects of the runtime's own classes (Map.Entry, ZonedDateTime, doc values…) name their Java
 * class; the runtime finds their methods by it, never on the JS object itself.
 */
export abstract class JavaObject {
  abstract readonly javaClass: string;
}

export class MapEntry extends JavaObject {
  readonly javaClass = 'Map.Entry';
  constructor(
    readonly map: Map<unknown, unknown>,
    readonly key: unknown,
    public value: unknown,
  ) {
    super();
  }
}

/** The Java class name of a runtime value, as ES prints it in errors (`java.lang.Integer`…). */
export function javaClassName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'java.lang.String';
    case 'boolean':
      return 'java.lang.Boolean';
    case 'number': {
      const k = numberKind(v);
      return k === 'int' ? 'java.lang.Integer' : k === 'long' ? 'java.lang.Long' : 'java.lang.Double';
    }
    case 'bigint':
      return 'java.lang.Long';
    case 'function':
      return 'java.lang.invoke.LambdaForm';
  }
  if (v instanceof JDouble) return 'java.lang.Double';
  if (v instanceof JLong) return 'java.lang.Long';
  if (isJavaArray(v)) return `${arrayElementType(v)}[]`;
  if (Array.isArray(v)) return 'java.util.ArrayList';
  if (v instanceof Map) return 'java.util.HashMap';
  if (v instanceof Set) return 'java.util.HashSet';
  if (v instanceof JavaObject) return QUALIFIED[v.javaClass] ?? v.javaClass;
  return 'java.lang.Object';
}

const QUALIFIED: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  'Map.Entry': 'java.util.HashMap$Node',
  ZonedDateTime: 'java.time.ZonedDateTime',
  Instant: 'java.time.Instant',
  DayOfWeek: 'java.time.DayOfWeek',
  Month: 'java.time.Month',
  ZoneId: 'java.time.ZoneRegion',
  TextStyle: 'java.time.format.TextStyle',
  DateTimeFormatter: 'java.time.format.DateTimeFormatter',
  Locale: 'java.util.Locale',
  ChronoUnit: 'java.time.temporal.ChronoUnit',
  Iterator: 'java.util.ArrayList$Itr',
  StringBuilder: 'java.lang.StringBuilder',
  Pattern: 'java.util.regex.Pattern',
  Matcher: 'java.util.regex.Matcher',
  Stream: 'java.util.stream.ReferencePipeline',
  Optional: 'java.util.Optional',
  Collector: 'java.util.stream.Collectors$CollectorImpl',
  GeoPoint: 'org.elasticsearch.common.geo.GeoPoint',
});

/** Java's Double.toString: `2.0`, `0.1`, `1.0E10`, `1.0E-5`, `NaN`, `Infinity`. */
export function doubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return s.includes('.') ? s : s + '.0';
  }
  // Scientific: one digit before the point, at least one after, exponent without '+'.
  const [mantissa, exp] = x.toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : mantissa + '.0';
  return `${m}E${Number(exp)}`;
}

/** Java's String.valueOf of a runtime value (string concatenation, toString()). */
export function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isInteger(v) ? String(v) : doubleToString(v);
    case 'bigint':
      return String(v);
  }
  if (v instanceof JDouble) return doubleToString(v.v);
  if (v instanceof JLong) return String(v.v);
  if (isJavaArray(v)) return `[${JVM_ARRAY_CODES[arrayElementType(v)] ?? 'L' + arrayElementType(v) + ';'}@${hashHex(v)}`;
  if (Array.isArray(v)) return `[${v.map(javaToString).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${javaToString(k)}=${javaToString(x)}`).join(', ')}}`;
  if (v instanceof Set) return `[${[...v].map(javaToString).join(', ')}]`;
  if (v instanceof MapEntry) return `${javaToString(v.key)}=${javaToString(v.value)}`;
  if (v instanceof JavaObject && typeof (v as unknown as { toJavaString?: () => string }).toJavaString === 'function') {
    return (v as unknown as { toJavaString: () => string }).toJavaString();
  }
  return javaClassName(v) + '@' + hashHex(v);
}

/** How the JVM names an array class of a primitive element (`[I` for int[]): its toString's prefix. */
const JVM_ARRAY_CODES: Record<string, string> = { byte: 'B', short: 'S', int: 'I', long: 'J', float: 'F', double: 'D', char: 'C', boolean: 'Z' };

const identities = new WeakMap<object, number>();
let nextIdentity = 0x1b6d3586;

function hashHex(o: object): string {
  let h = identities.get(o);
  if (h === undefined) identities.set(o, (h = nextIdentity = (nextIdentity * 31 + 7) >>> 0));
  return h.toString(16);
}

/** Painless `==` on references: equals(), with numbers compared by value across their types. */
export function javaEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (isNumber(a) && isNumber(b)) return unbox(a) === unbox(b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (isJavaArray(a) || isJavaArray(b)) return false;
    return a.length === b.length && a.every((x, i) => javaEquals(x, b[i]));
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !javaEquals(v, b.get(k))) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((x) => b.has(x));
  if (a instanceof MapEntry && b instanceof MapEntry) return javaEquals(a.key, b.key) && javaEquals(a.value, b.value);
  const eq = (a as { javaEquals?: (o: unknown) => boolean }).javaEquals;
  return typeof eq === 'function' ? eq.call(a, b) : false;
}

/** Java's hashCode for the values a script can hold (HashMap keys are compared by value here). */
export function javaHashCode(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'string') {
    let h = 0;
    for (let i = 0; i < v.length; i++) h = (Math.imul(h, 31) + v.charCodeAt(i)) | 0;
    return h;
  }
  if (typeof v === 'boolean') return v ? 1231 : 1237;
  if (typeof v === 'number' && Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX) return v;
  // Long.hashCode: the two halves xor-ed
  if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint' || v instanceof JLong) {
    const bits = BigInt.asUintN(64, BigInt(unbox(v) as number | bigint));
    return Number(BigInt.asIntN(32, bits ^ (bits >> 32n)));
  }
  if (Array.isArray(v)) return v.reduce((h: number, x) => (Math.imul(h, 31) + javaHashCode(x)) | 0, 1);
  return 0;
}

/** The key a Map holds for a value: doubles by value (a JDouble is a fresh object each time). */
export function mapKey(k: unknown): unknown {
  return k instanceof JDouble || k instanceof JLong ? k.v : k;
}

/** Java's natural order (Comparable) for sorting and compareTo; throws as Java does for mixed kinds. */
export function naturalCompare(a: unknown, b: unknown): number {
  if (isNumber(a) && isNumber(b)) {
    const x = unbox(a) as number;
    const y = unbox(b) as number;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a === null || b === null || a === undefined || b === undefined) throw new ScriptRuntimeError('null_pointer_exception', 'Cannot compare a null value');
  const cmp = (a as { compareTo?: (o: unknown) => number }).compareTo;
  if (a instanceof JavaObject && typeof cmp === 'function') return cmp.call(a, b);
  throw new ScriptRuntimeError('class_cast_exception', `class ${javaClassName(a)} cannot be cast to class java.lang.Comparable`);
}
