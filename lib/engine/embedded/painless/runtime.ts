/**
 * The one object compiled scripts reach: every member access, `def` operation, conversion and
 * constructor a script performs is a call of one of these helpers, which find methods in the
 * whitelist (members.ts) by the value's Java class. A script holds no other reference: it cannot
 * name a JS global, a prototype or a constructor. Helpers that may throw record the script offset
 * they run for (`position`), so that the error points at the expression that failed.
 */
import { compileJavaRegex } from '../regex/index.js';
import { ScriptRuntimeError } from './script-error.js';
import { LoopLimitError, MAX_LOOP_COUNTER, UncatchableScriptError, bounds, charge, checkClock, spend } from './run-bounds.js';
import {
  JavaPattern, StringBuilder, ThrowableValue, callFn, fail, membersOf, staticField, staticMethod, toIntValue,
  type Method, type StaticField,
} from './members.js';
import { dict, isSubtype, UNBOXED } from './types.js';
import { ladd, lmul, lneg, long64, longToDouble, longToInt, lquot, lrem, lsub, normLong, type Long } from './long-arithmetic.js';
import {
  INT_MAX, INT_MIN, JDouble, JLong, JavaObject, MapEntry, arrayElements, arrayElementType, boxDouble, boxLong, doubleToString, elementAt, elementBytes, isJavaArray, isNumber, isPrimitiveArray,
  javaArray, javaClassName, javaEquals, javaToString, mapKey, newPrimitiveArray, referenceArray, numberKind, setElement, unbox, type JavaArrayValue,
} from './values.js';

/**
 * The largest string and array a script may build. Java would run out of heap (and ES's circuit
 * breakers trip) long before a script's loop budget ends a doubling string; here that would be the
 * whole engine's heap.
 */
export const MAX_STRING_LENGTH = 64 * 1024 * 1024;
export const MAX_ARRAY_LENGTH = 16 * 1024 * 1024;

export function tooLarge(what: string, size: number, limit: number): never {
  throw new ScriptRuntimeError('circuit_breaking_exception', `[painless] ${what === 'array' ? 'an' : 'a'} ${what} of ${size} elements would be larger than the limit of [${limit}]`);
}

function concat(a: string, b: string, p: number): string {
  const length = a.length + b.length;
  if (length > MAX_STRING_LENGTH) {
    position.at = p;
    tooLarge('string', length, MAX_STRING_LENGTH);
  }
  // Short results are charged by the statements that build them; long ones by size.
  if (length > 256) {
    position.at = p;
    charge(length);
  }
  return a + b;
}

/** The offset of the expression the script is evaluating, for its error (see the module comment). */
export const position = { at: -1 };

export { MAX_LOOP_COUNTER, LoopLimitError };

/**
 * Calls of a script's own functions one run may make: recursion that branches (`f(n+1) + f(n+1)`)
 * runs no loop, and would hold the event loop without end. Set by each run (compile.ts).
 */
export const MAX_FUNCTION_CALLS = 1_000_000;
export const callBudget = { left: MAX_FUNCTION_CALLS };

function callLimit(p: number): never {
  position.at = p;
  throw new LoopLimitError(`The maximum number of function calls [${MAX_FUNCTION_CALLS}] in a script has been reached.`);
}


function npe(): never {
  fail('null_pointer_exception', 'Cannot invoke "Object.getClass()" because "callArgs[0]" is null');
}

function capitalized(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}

// ---------------------------------------------------------------- conversions

function classCast(v: unknown, to: string): never {
  if (v === null || v === undefined) fail('null_pointer_exception', `Cannot cast null to ${to}`);
  fail('class_cast_exception', `Cannot cast ${javaClassName(v)} to ${to}`);
}

/** `def` → int, implicitly: an Integer (or a char); anything else is a ClassCastException, as in Painless. */
function toInt(v: unknown, p: number): number {
  position.at = p;
  if (typeof v === 'number' && Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX) return v;
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  return classCast(v, 'int');
}

function toLong(v: unknown, p: number): Long {
  position.at = p;
  if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return v;
  if (v instanceof JLong) return v.v;
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  return classCast(v, 'long');
}

function toDouble(v: unknown, p: number): number {
  position.at = p;
  if (typeof v === 'number') return v;
  if (v instanceof JDouble || v instanceof JLong) return v.v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  return classCast(v, 'double');
}

function toFloat(v: unknown, p: number): number {
  return Math.fround(toDouble(v, p));
}

function toBool(v: unknown, p: number): boolean {
  position.at = p;
  if (typeof v === 'boolean') return v;
  return classCast(v, 'boolean');
}

function toChar(v: unknown, p: number): string {
  position.at = p;
  if (typeof v === 'string' && v.length === 1) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String.fromCharCode(v & 0xffff);
  return classCast(v, 'char');
}

/** A `def` value where a reference type is expected (String, List, Map…): checked, null allowed. */
function toRef(v: unknown, type: string, p: number): unknown {
  position.at = p;
  if (v === null || v === undefined) return null;
  if (!isInstance(v, type)) classCast(v, type === 'String' ? 'java.lang.String' : type);
  return v;
}

/** An explicit numeric cast of a `def` value (`(int) x`): any Number, as Java's xxxValue(). */
function castNumber(v: unknown, to: string, p: number): Long | string {
  position.at = p;
  let x: number | bigint;
  if (isNumber(v)) x = unbox(v) as number | bigint;
  else if (typeof v === 'string' && v.length === 1) x = v.charCodeAt(0);
  else return classCast(v, to);
  return convertNumber(x, to);
}

/** Java's primitive conversion of a number to `to` (narrowing wraps, double → int or long saturates). */
function convertNumber(x: number | bigint, to: string): Long | string {
  if (typeof x === 'bigint') {
    if (to === 'long') return x;
    if (to === 'float' || to === 'double') return convertNumber(longToDouble(x), to);
    return convertNumber(longToInt(x), to);
  }
  switch (to) {
    case 'int':
      return Number.isInteger(x) ? Number(BigInt.asIntN(32, BigInt(x))) : toIntValue(x);
    case 'long':
      if (Number.isNaN(x)) return 0;
      if (Number.isSafeInteger(x)) return x;
      if (x >= 9223372036854775807) return 9223372036854775807n;
      if (x <= -9223372036854775808) return -9223372036854775808n;
      return normLong(BigInt(Math.trunc(x)));
    case 'short':
      return ((convertNumber(x, 'int') as number) << 16) >> 16;
    case 'byte':
      return ((convertNumber(x, 'int') as number) << 24) >> 24;
    case 'char':
      return String.fromCharCode((convertNumber(x, 'int') as number) & 0xffff);
    case 'float':
      return Math.fround(x);
    default:
      return x;
  }
}

/** Is the value an instance of the (static) type? */
function isInstance(v: unknown, type: string): boolean {
  if (v === null || v === undefined) return false;
  if (type === 'def' || type === 'Object') return true;
  if (type.endsWith('[]')) return isJavaArray(v);
  const boxed = UNBOXED[type];
  if (boxed) {
    if (type === 'Boolean') return typeof v === 'boolean';
    if (type === 'Character') return typeof v === 'string' && v.length === 1;
    if (!isNumber(v)) return false;
    const k = numberKind(v);
    return type === 'Integer' || type === 'Short' || type === 'Byte' ? k === 'int' : type === 'Long' ? k === 'long' || k === 'int' : k === 'double';
  }
  if (type === 'Number') return isNumber(v);
  if (typeof v === 'string') return isSubtype('String', type);
  if (typeof v === 'boolean') return isSubtype('Boolean', type);
  if (isNumber(v)) {
    const k = numberKind(v);
    return isSubtype(k === 'int' ? 'Integer' : k === 'long' ? 'Long' : 'Double', type);
  }
  if (isJavaArray(v)) return false;
  if (Array.isArray(v)) return isSubtype('ArrayList', type);
  if (v instanceof Map) return isSubtype('HashMap', type);
  if (v instanceof Set) return isSubtype('HashSet', type);
  if (v instanceof JavaObject) return isSubtype(v.javaClass, type) || (v.javaClass.startsWith('ScriptDocValues') && isSubtype('List', type));
  return false;
}

// ---------------------------------------------------------------- arithmetic on def values

type Kind = 'int' | 'long' | 'double' | 'string';

function numeric(v: unknown, op: string): number {
  if (typeof v === 'number') return v;
  if (v instanceof JDouble || v instanceof JLong) return v.v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  if (v === null || v === undefined) fail('null_pointer_exception', `Cannot apply [${op}] operation to a null value`);
  return fail('class_cast_exception', `Cannot apply [${op}] operation to type [${javaClassName(v)}]`);
}

/** The promoted kind of two `def` operands (binary numeric promotion on their runtime types). */
function kindOf(a: unknown, b: unknown): Kind {
  const ka = isNumber(a) ? numberKind(a) : 'int';
  const kb = isNumber(b) ? numberKind(b) : 'int';
  if (ka === 'double' || kb === 'double') return 'double';
  if (ka === 'long' || kb === 'long') return 'long';
  return 'int';
}

/** A `def` operand of a long operation (an int, long or char) as a long. */
function longOperand(v: unknown, op: string): Long {
  return typeof v === 'bigint' ? v : numeric(v, op);
}

function result(x: number, kind: Kind): unknown {
  if (kind === 'double') return boxDouble(x);
  if (kind === 'int') return x | 0;
  return x;
}

function add(a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  if (typeof a === 'string' || typeof b === 'string') return concat(javaToString(a), javaToString(b), p);
  const k = kindOf(a, b);
  if (k === 'long') return boxLong(ladd(longOperand(a, '+'), longOperand(b, '+')));
  return result(numeric(a, '+') + numeric(b, '+'), k);
}

function sub(a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, b);
  if (k === 'long') return boxLong(lsub(longOperand(a, '-'), longOperand(b, '-')));
  return result(numeric(a, '-') - numeric(b, '-'), k);
}

function mul(a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, b);
  if (k === 'long') return boxLong(lmul(longOperand(a, '*'), longOperand(b, '*')));
  const x = numeric(a, '*');
  const y = numeric(b, '*');
  return k === 'int' ? Math.imul(x, y) : result(x * y, k);
}

function divide(x: number, y: number, k: Kind): number {
  if (k === 'double') return x / y;
  if (y === 0) fail('arithmetic_exception', '/ by zero');
  return k === 'int' ? (x / y) | 0 : Math.trunc(x / y);
}

function remainder(x: number, y: number, k: Kind): number {
  if (k !== 'double' && y === 0) fail('arithmetic_exception', '/ by zero');
  return x % y;
}

function div(a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, b);
  if (k === 'long') return boxLong(lquot(longOperand(a, '/'), longOperand(b, '/')));
  return result(divide(numeric(a, '/'), numeric(b, '/'), k), k);
}

function rem(a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, b);
  if (k === 'long') return boxLong(lrem(longOperand(a, '%'), longOperand(b, '%')));
  return result(remainder(numeric(a, '%'), numeric(b, '%'), k), k);
}

function neg(a: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, 0);
  if (k === 'long') return boxLong(lneg(longOperand(a, '-')));
  return result(-numeric(a, '-'), k);
}

function plus(a: unknown, p: number): unknown {
  position.at = p;
  const k = kindOf(a, 0);
  if (k === 'long') return boxLong(longOperand(a, '+'));
  return result(numeric(a, '+'), k);
}

function integral(v: unknown, op: string): Long {
  if (typeof v === 'bigint') return v;
  const x = numeric(v, op);
  if (!Number.isInteger(x) || v instanceof JDouble) fail('class_cast_exception', `Cannot apply [${op}] operation to type [java.lang.Double]`);
  return x;
}

/** Bitwise and shifts: int kinds with JS's 32-bit operators, longs with BigInt; `&`, `|`, `^` on booleans are logical. */
function bitwise(op: '&' | '|' | '^' | '<<' | '>>' | '>>>', a: unknown, b: unknown, p: number): unknown {
  position.at = p;
  if ((op === '&' || op === '|' || op === '^') && typeof a === 'boolean' && typeof b === 'boolean') {
    return op === '&' ? a && b : op === '|' ? a || b : a !== b;
  }
  const x = integral(a, op);
  const y = integral(b, op);
  const long = op.length === 1 ? kindOf(a, b) === 'long' : kindOf(a, 0) === 'long';
  return long ? boxLong(long64(op, x, y)) : int32(op, x as number, y as number);
}

export function int32(op: string, x: number, y: number): number {
  switch (op) {
    case '&':
      return x & y;
    case '|':
      return x | y;
    case '^':
      return x ^ y;
    case '<<':
      return x << y;
    case '>>':
      return x >> y;
    default:
      return (x >>> y) | 0;
  }
}

function bnot(a: unknown, p: number): unknown {
  position.at = p;
  const x = integral(a, '~');
  return kindOf(a, 0) === 'long' ? boxLong(long64('^', x, -1)) : ~(x as number);
}

function compare(op: string, a: unknown, b: unknown, p: number): boolean {
  position.at = p;
  // a long past 2^53 (a BigInt) compares with a number by value
  const x = typeof a === 'bigint' ? a : numeric(a, op);
  const y = typeof b === 'bigint' ? b : numeric(b, op);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

/** `===`: identity, with primitives (numbers, strings, booleans) compared by value. */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof JDouble || b instanceof JDouble || a instanceof JLong || b instanceof JLong) return unbox(a) === unbox(b) && numberKind(a as number) === numberKind(b as number);
  return a === b || ((a === null || a === undefined) && (b === null || b === undefined));
}

function idiv(x: number, y: number, p: number): number {
  if (y === 0) {
    position.at = p;
    fail('arithmetic_exception', '/ by zero');
  }
  return (x / y) | 0;
}

function ldiv(x: Long, y: Long, p: number): Long {
  position.at = p;
  return lquot(x, y);
}

function lremainder(x: Long, y: Long, p: number): Long {
  position.at = p;
  return lrem(x, y);
}

function irem(x: number, y: number, p: number): number {
  if (y === 0) {
    position.at = p;
    fail('arithmetic_exception', '/ by zero');
  }
  return x % y;
}

// ---------------------------------------------------------------- members

function listIndex(length: number, i: unknown): number {
  const n = typeof i === 'number' && Number.isInteger(i) ? i : typeof i === 'string' && /^-?\d+$/.test(i) ? Number(i) : NaN;
  if (Number.isNaN(n)) fail('class_cast_exception', `Cannot cast ${javaClassName(i)} to int`);
  const at = n < 0 ? n + length : n;
  if (at < 0 || at >= length) fail('index_out_of_bounds_exception', `Index ${n} out of bounds for length ${length}`);
  return at;
}

/**
 * An array's index: an int, a negative one counting from the end (Painless flips it before the
 * access), and out of bounds Java's ArrayIndexOutOfBoundsException with the flipped index.
 */
function arrayIndex(length: number, i: unknown): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) fail('class_cast_exception', `Cannot cast ${javaClassName(i)} to int`);
  const at = i < 0 ? i + length : i;
  if (at < 0 || at >= length) fail('array_index_out_of_bounds_exception', `Index ${at} out of bounds for length ${length}`);
  return at;
}

function findGetter(v: unknown, name: string): Method | undefined {
  const members = membersOf(v);
  const cap = capitalized(name);
  return members?.get(`get${cap}/0`) ?? members?.get(`is${cap}/0`);
}

/** `x.name`: a Map's key, a List's index (`list.0`), an array's length, else a getter (`getName()`/`isName()`). */
function get(v: unknown, name: string, p: number): unknown {
  position.at = p;
  if (v === null || v === undefined) npe();
  if (v instanceof Map) return v.get(name) ?? null;
  if (isJavaArray(v) && name === 'length') return v.length;
  if (Array.isArray(v) && /^\d+$/.test(name)) return v[listIndex(v.length, Number(name))];
  const getter = findGetter(v, name);
  if (!getter) fail('illegal_argument_exception', `dynamic getter [${javaClassName(v)}, ${name}] not found`);
  return returned(getter, getter.fn(v));
}

function set(v: unknown, name: string, value: unknown, p: number): unknown {
  position.at = p;
  if (v === null || v === undefined) npe();
  if (v instanceof Map) {
    v.set(name, value);
    return value;
  }
  if (Array.isArray(v) && /^\d+$/.test(name)) {
    v[listIndex(v.length, Number(name))] = value;
    return value;
  }
  const setter = membersOf(v)?.get(`set${capitalized(name)}/1`);
  if (!setter) fail('illegal_argument_exception', `dynamic setter [${javaClassName(v)}, ${name}] not found`);
  setter.fn(v, argument(setter.params[0], value, p));
  return value;
}

function nsGet(v: unknown, name: string, p: number): unknown {
  return v === null || v === undefined ? null : get(v, name, p);
}

/** `x[key]`: a Map's value, a List's or an array's element (negative indexes count from the end). */
function idx(v: unknown, key: unknown, p: number): unknown {
  position.at = p;
  if (v === null || v === undefined) npe();
  if (v instanceof Map) return v.get(mapKey(key)) ?? null;
  if (isJavaArray(v)) return elementAt(v, arrayIndex(v.length, unbox(key)));
  if (Array.isArray(v)) return v[listIndex(v.length, unbox(key))];
  if (v instanceof JavaObject) {
    const getter = membersOf(v)?.get('get/1');
    if (getter) return returned(getter, getter.fn(v, argument(getter.params[0], key, p)));
  }
  return fail('illegal_argument_exception', `Attempting to address a non-array-like type [${javaClassName(v)}] as an array.`);
}

function setIdx(v: unknown, key: unknown, value: unknown, p: number): unknown {
  position.at = p;
  if (v === null || v === undefined) npe();
  if (v instanceof Map) {
    v.set(mapKey(key), value);
    return value;
  }
  if (isJavaArray(v)) {
    setElement(v, arrayIndex(v.length, unbox(key)), value);
    return value;
  }
  if (Array.isArray(v)) {
    v[listIndex(v.length, unbox(key))] = value;
    return value;
  }
  return fail('illegal_argument_exception', `Attempting to address a non-array-like type [${javaClassName(v)}] as an array.`);
}

/** A `def` argument converted to a method's parameter type (primitives by Painless's implicit casts). */
function argument(type: string, v: unknown, p: number): unknown {
  switch (type) {
    case 'int':
    case 'short':
    case 'byte':
      return toInt(v, p);
    case 'long':
      return toLong(v, p);
    case 'double':
      return toDouble(v, p);
    case 'float':
      return toFloat(v, p);
    case 'boolean':
      return toBool(v, p);
    case 'char':
      return toChar(v, p);
    default:
      return v;
  }
}

/** A method's result as a `def` value: doubles boxed when integral, void as null. */
function returned(m: Method, v: unknown): unknown {
  if (m.ret === 'double' || m.ret === 'float') return boxDouble(v as number);
  if ((m.ret === 'long' || m.ret === 'Long') && (typeof v === 'number' || typeof v === 'bigint')) return boxLong(v);
  if (m.ret === 'void' || v === undefined) return null;
  return v;
}

function lookup(v: unknown, key: string, dynamic: boolean): Method {
  if (v === null || v === undefined) npe();
  const m = membersOf(v)?.get(key);
  if (!m) fail('illegal_argument_exception', `${dynamic ? 'dynamic' : 'member'} method [${javaClassName(v)}, ${key}] not found`);
  return m;
}

/** A call on a `def` receiver: found by the value's class, arguments converted, result as a `def` value. */
function call(v: unknown, key: string, args: unknown[], p: number): unknown {
  position.at = p;
  const m = lookup(v, key, true);
  for (let i = 0; i < args.length; i++) args[i] = argument(m.params[i], args[i], p);
  const r = m.fn(v, ...args);
  position.at = p;
  return returned(m, r);
}

/** A call on a receiver of a known static type: the compiler converted the arguments and reads the result by the declared type. */
function invoke(v: unknown, key: string, args: unknown[], p: number): unknown {
  position.at = p;
  const m = lookup(v, key, false);
  const r = m.fn(v, ...args);
  position.at = p;
  return r === undefined ? null : r;
}

function nsCall(v: unknown, key: string, args: () => unknown[], p: number): unknown {
  return v === null || v === undefined ? null : call(v, key, args(), p);
}

// ---------------------------------------------------------------- construction

function newObject(type: string, args: unknown[], p: number): unknown {
  position.at = p;
  switch (type) {
    case 'ArrayList':
    case 'LinkedList':
      if (args.length === 1 && !isNumber(args[0])) return [...iterate(args[0], p)];
      return [];
    case 'HashMap':
    case 'LinkedHashMap':
    case 'TreeMap':
      if (args.length === 1 && args[0] instanceof Map) return new Map(args[0]);
      return new Map();
    case 'HashSet':
    case 'LinkedHashSet':
    case 'TreeSet':
      if (args.length === 1 && !isNumber(args[0])) return new Set([...iterate(args[0], p)].map(mapKey));
      return new Set();
    case 'StringBuilder':
      return new StringBuilder(args.length === 1 && typeof args[0] === 'string' ? args[0] : '');
    default:
      if (/Exception$/.test(type)) return new ThrowableValue(type, args.length ? javaToString(args[0]) : null);
      return fail('illegal_argument_exception', `constructor [${type}, <init>/${args.length}] not found`);
  }
}

/**
 * `new T[n]…`: zero-filled (false, '\u0000', null). An array's bytes are charged to the run's memory
 * account before it is made: an element its width (a long 8, an int 4, a byte 1), a reference 8.
 */
function newArray(elementType: string, sizes: number[], p: number): JavaArrayValue {
  position.at = p;
  const [n, ...rest] = sizes;
  if (n < 0) fail('negative_array_size_exception', String(n));
  const total = sizes.reduce((a, b) => a * b, 1);
  if (total > MAX_ARRAY_LENGTH) tooLarge('array', total, MAX_ARRAY_LENGTH);
  charge((rest.length ? 8 : elementBytes(elementType)) * n + 16);
  if (rest.length === 0) {
    const typed = newPrimitiveArray(elementType, n);
    if (typed) return typed;
  }
  // filled one by one: a JS array made at its full length past ~100k elements is a dictionary
  const items: unknown[] = [];
  for (let i = 0; i < n; i++) items.push(rest.length ? newArray(elementType, rest, p) : null);
  return referenceArray(items, rest.length ? elementType + '[]'.repeat(rest.length) : elementType);
}

function mapOf(entries: Array<[unknown, unknown]>): Map<unknown, unknown> {
  const m = new Map<unknown, unknown>();
  for (const [k, v] of entries) m.set(mapKey(k), v);
  return m;
}

/** What a for-each loop walks: a List's or array's elements, a Set's, a doc values list's… */
function iterate(v: unknown, p: number): Iterable<unknown> {
  position.at = p;
  if (v === null || v === undefined) npe();
  if (Array.isArray(v)) return v;
  if (isPrimitiveArray(v)) return arrayElements(v);
  if (v instanceof Set) return [...v];
  if (v instanceof JavaObject) {
    const it = (v as { iterate?: () => Iterable<unknown> }).iterate;
    if (typeof it === 'function') return [...it.call(v)];
  }
  return fail('illegal_argument_exception', `Cannot iterate over [${javaClassName(v)}]`);
}

// ---------------------------------------------------------------- regexes, exceptions, limits

function regex(source: string, flags: string, p: number): JavaPattern {
  position.at = p;
  const javaFlags: string[] = [];
  for (const f of flags) {
    if (f === 'i') javaFlags.push('CASE_INSENSITIVE');
    else if (f === 'm') javaFlags.push('MULTILINE');
    else if (f === 's') javaFlags.push('DOTALL');
    else if (f === 'l') javaFlags.push('LITERAL');
    else if (f === 'x') javaFlags.push('COMMENTS');
  }
  try {
    return new JavaPattern(source, compileJavaRegex(source, javaFlags.join('|')));
  } catch (e) {
    return fail('pattern_syntax_exception', (e as Error).message);
  }
}

/** A regex scan of `s` spends a step per KiB it reads (a long scan per iteration still reaches the clock check). */
function spendScan(s: string): void {
  if (s.length > 1024) spend(s.length >> 10);
}

function findIn(s: unknown, pattern: JavaPattern, p: number): boolean {
  position.at = p;
  if (typeof s !== 'string') classCast(s, 'java.lang.CharSequence');
  spendScan(s);
  return pattern.re.matcher(s).find();
}

function matchesAll(s: unknown, pattern: JavaPattern, p: number): boolean {
  position.at = p;
  if (typeof s !== 'string') classCast(s, 'java.lang.CharSequence');
  spendScan(s);
  return pattern.re.matcher(s).matches();
}

const EXCEPTION_TYPES: Record<string, string> = dict({
  Exception: 'exception', RuntimeException: 'runtime_exception', IllegalArgumentException: 'illegal_argument_exception',
  IllegalStateException: 'illegal_state_exception', NullPointerException: 'null_pointer_exception', ArithmeticException: 'arithmetic_exception',
  ClassCastException: 'class_cast_exception', NumberFormatException: 'number_format_exception', UnsupportedOperationException: 'unsupported_operation_exception',
  IndexOutOfBoundsException: 'index_out_of_bounds_exception',
});

const JAVA_EXCEPTION_CLASS = dict(Object.fromEntries(Object.entries(EXCEPTION_TYPES).map(([k, v]) => [v, k])));

function throwValue(v: unknown, p: number): never {
  position.at = p;
  if (!(v instanceof ThrowableValue)) return classCast(v, 'java.lang.Throwable');
  const err = new ScriptRuntimeError(EXCEPTION_TYPES[v.javaClass] ?? 'exception', v.message ?? 'null');
  (err as ScriptRuntimeError & { thrown?: ThrowableValue }).thrown = v;
  throw err;
}

/** In a `catch (Type e)`: the exception as a script value when it is a `Type`; otherwise it is thrown on. */
function caught(err: unknown, type: string): ThrowableValue | undefined {
  if (err instanceof UncatchableScriptError || !(err instanceof ScriptRuntimeError)) return undefined;
  const value = (err as ScriptRuntimeError & { thrown?: ThrowableValue }).thrown ?? new ThrowableValue(JAVA_EXCEPTION_CLASS[err.javaType] ?? 'RuntimeException', err.message);
  return isSubtype(value.javaClass, type) ? value : undefined;
}

function loopLimit(p: number): never {
  position.at = p;
  throw new LoopLimitError();
}

/** A back-edge's clock check (every 1024 steps, see run-bounds.ts). */
function tick(p: number): void {
  position.at = p;
  checkClock();
}

function staticMember(type: string, key: string): Method {
  const m = staticMethod(type, key);
  if (!m) throw new Error(`no static method ${type}.${key}`);
  return m;
}

function staticValue(type: string, name: string): StaticField['value'] {
  const f = staticField(type, name);
  if (!f) throw new Error(`no static field ${type}.${name}`);
  return f.value;
}

/** Debug.explain(x): stops the script and reports what `x` is (ES's painless_explain_error). */
function explain(v: unknown, p: number): never {
  position.at = p;
  throw new ScriptRuntimeError('painless_explain_error', null as unknown as string, {
    painless_class: javaClassName(v).replace(/^java\.util\.HashMap\$Node$/, 'java.util.Map.Entry'),
    to_string: javaToString(v),
    java_class: javaClassName(v),
  });
}

/** `Type::method` as a function value: the static method of that name taking as many arguments as it is given. */
function callStatic(type: string, name: string, args: unknown[], p: number): unknown {
  position.at = p;
  const m = staticMethod(type, `${name}/${args.length}`);
  if (!m) fail('illegal_argument_exception', `static method [${type}, ${name}/${args.length}] not found`);
  for (let i = 0; i < args.length; i++) args[i] = argument(m.params[i], args[i], p);
  return returned(m, m.fn(null, ...args));
}

export const RUNTIME = Object.freeze({
  imul: Math.imul,
  fround: Math.fround,
  c2i: (c: string) => c.charCodeAt(0),
  concat,
  callStatic,
  boxD: boxDouble,
  boxL: boxLong,
  num: unbox,
  toInt, toLong, toDouble, toFloat, toBool, toChar, toRef,
  castNumber,
  convert: convertNumber,
  isInstance,
  add, sub, mul, div, rem, neg, plus, bitwise, bnot, compare,
  eq: javaEquals,
  same,
  idiv, ldiv, irem,
  ladd, lsub, lmul, lneg, lrem: lremainder, l2d: longToDouble,
  int32, long64,
  str: javaToString,
  dstr: doubleToString,
  get, set, nsGet, idx, setIdx, call, invoke, nsCall,
  newObject, newArray, mapOf,
  javaArray,
  iterate,
  regex, findIn, matchesAll,
  throwValue, caught,
  loopLimit,
  tick,
  budget: bounds,
  callLimit,
  calls: callBudget,
  staticMember, staticValue,
  explain,
  callFn,
  entry: (m: Map<unknown, unknown>, k: unknown, v: unknown) => new MapEntry(m, k, v),
});

export type Runtime = typeof RUNTIME;
