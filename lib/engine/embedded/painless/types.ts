/**
 * Painless's static types: the primitives, `def`, and the reference types of the subset this
 * engine runs (each a name, with array types written `int[]`). The compiler uses them to choose
 * Java's semantics (integer division, overflow, string concatenation) and to refuse what Java's
 * type rules refuse; `def` defers every such choice to the value at run time.
 */

export type Type = string;

/** A lookup table without a prototype: a script's name such as `constructor` finds nothing in it. */
export function dict<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

export const DEF = 'def';

/** Primitive types, widest last within the numeric ones (binary numeric promotion). */
const NUMERIC_RANK: Record<string, number> = dict({ byte: 1, short: 2, char: 2, int: 3, long: 4, float: 5, double: 6 });

export function isPrimitive(t: Type): boolean {
  return t in NUMERIC_RANK || t === 'boolean';
}

export function isNumeric(t: Type): boolean {
  return t in NUMERIC_RANK;
}

export function isIntegral(t: Type): boolean {
  return t === 'byte' || t === 'short' || t === 'char' || t === 'int' || t === 'long';
}

/** Boxed types and the primitive they hold. */
export const UNBOXED: Record<string, Type> = dict({
  Integer: 'int', Long: 'long', Double: 'double', Float: 'float', Boolean: 'boolean', Character: 'char', Byte: 'byte', Short: 'short',
});

export const BOXED: Record<string, Type> = dict(Object.fromEntries(Object.entries(UNBOXED).map(([b, p]) => [p, b])));

/** Binary numeric promotion (JLS 5.6.2): int at least. */
export function promote(a: Type, b: Type): Type {
  const r = Math.max(NUMERIC_RANK[a] ?? 0, NUMERIC_RANK[b] ?? 0, NUMERIC_RANK.int);
  return r === 6 ? 'double' : r === 5 ? 'float' : r === 4 ? 'long' : 'int';
}

export function promoteUnary(t: Type): Type {
  return (NUMERIC_RANK[t] ?? 0) <= NUMERIC_RANK.int ? 'int' : t;
}

/** Each reference type's direct supertypes (Object is everyone's). */
const SUPERTYPES: Record<string, Type[]> = dict({
  String: ['CharSequence', 'Comparable'],
  CharSequence: [],
  Comparable: [],
  Number: [],
  Integer: ['Number', 'Comparable'],
  Long: ['Number', 'Comparable'],
  Double: ['Number', 'Comparable'],
  Float: ['Number', 'Comparable'],
  Short: ['Number', 'Comparable'],
  Byte: ['Number', 'Comparable'],
  Boolean: ['Comparable'],
  Character: ['Comparable'],
  Iterable: [],
  Collection: ['Iterable'],
  List: ['Collection'],
  ArrayList: ['List'],
  LinkedList: ['List'],
  Set: ['Collection'],
  HashSet: ['Set'],
  LinkedHashSet: ['Set'],
  TreeSet: ['Set'],
  Map: [],
  HashMap: ['Map'],
  LinkedHashMap: ['Map'],
  TreeMap: ['Map'],
  'Map.Entry': [],
  Iterator: [],
  StringBuilder: ['CharSequence'],
  ZonedDateTime: ['Comparable'],
  Instant: ['Comparable'],
  ZoneId: [],
  ZoneOffset: ['ZoneId'],
  DayOfWeek: [],
  Month: [],
  TextStyle: [],
  DateTimeFormatter: [],
  Locale: [],
  ChronoUnit: [],
  Pattern: [],
  Matcher: [],
  Stream: [],
  Collector: [],
  Optional: [],
  Exception: [],
  RuntimeException: ['Exception'],
  IllegalArgumentException: ['RuntimeException'],
  IllegalStateException: ['RuntimeException'],
  NullPointerException: ['RuntimeException'],
  ArithmeticException: ['RuntimeException'],
  ClassCastException: ['RuntimeException'],
  NumberFormatException: ['IllegalArgumentException'],
  UnsupportedOperationException: ['RuntimeException'],
  IndexOutOfBoundsException: ['RuntimeException'],
  Object: [],
});

/** Types that only hold static members (no values of them exist in scripts). */
const STATIC_ONLY = new Set(['Math', 'StrictMath', 'Collections', 'Arrays', 'Objects', 'Collectors', 'Debug', 'System', 'MovingFunctions']);

const JAVA_PACKAGE: Record<string, string> = dict({
  List: 'java.util', ArrayList: 'java.util', LinkedList: 'java.util', Map: 'java.util', HashMap: 'java.util', LinkedHashMap: 'java.util', TreeMap: 'java.util',
  Set: 'java.util', HashSet: 'java.util', LinkedHashSet: 'java.util', TreeSet: 'java.util', Collection: 'java.util', Iterator: 'java.util',
  'Map.Entry': 'java.util', Collections: 'java.util', Arrays: 'java.util', Objects: 'java.util', Locale: 'java.util', Optional: 'java.util',
  ZonedDateTime: 'java.time', Instant: 'java.time', ZoneId: 'java.time', ZoneOffset: 'java.time', DayOfWeek: 'java.time', Month: 'java.time',
  TextStyle: 'java.time.format', DateTimeFormatter: 'java.time.format', ChronoUnit: 'java.time.temporal', Pattern: 'java.util.regex', Matcher: 'java.util.regex',
  Stream: 'java.util.stream', Collectors: 'java.util.stream', Collector: 'java.util.stream', Debug: 'org.elasticsearch.painless.api',
  MovingFunctions: 'org.elasticsearch.search.aggregations.pipeline',
});

/** Names the lexer hack reads as types (Painless's TYPE token), besides the primitives and def. */
export function isTypeName(name: string): boolean {
  return name === DEF || isPrimitive(name) || name === 'void' || name in SUPERTYPES || STATIC_ONLY.has(name);
}

export function isStaticOnly(name: string): boolean {
  return STATIC_ONLY.has(name);
}

export function isArray(t: Type): boolean {
  return t.endsWith('[]');
}

export function elementType(t: Type): Type {
  return t.slice(0, -2);
}

/** The name ES prints for a type in messages: `java.lang.String`, `java.util.ArrayList`, `int`, `def`. */
export function canonicalName(t: Type): string {
  if (isArray(t)) return canonicalName(elementType(t)) + '[]';
  if (t === DEF || isPrimitive(t) || t === 'void') return t;
  return `${JAVA_PACKAGE[t] ?? 'java.lang'}.${t}`;
}

/** Is `from` a subtype of `to` (reference types; reflexive)? */
export function isSubtype(from: Type, to: Type): boolean {
  if (from === to || to === 'Object') return !isPrimitive(from);
  if (isArray(from) || isArray(to)) return false;
  return (SUPERTYPES[from] ?? []).some((s) => isSubtype(s, to));
}

/** A default value for a declared variable without an initializer, as JS source. */
export function defaultValueCode(t: Type): string {
  if (t === 'boolean') return 'false';
  if (t === 'char') return '"\\u0000"';
  return isNumeric(t) ? '0' : 'null';
}
