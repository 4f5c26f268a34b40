/**
 * Painless `long` is Java's 64-bit two's complement integer. A long is held as a JS number while it
 * is a safe integer (|v| < 2^53: every operation on those is exact as a double) and as a BigInt past
 * that, never a BigInt inside the safe range — so `===` and `<` compare longs by value either way,
 * and the common case pays only a type check. Results wrap at 64 bits as Java's do
 * (`Long.MAX_VALUE + 1 == Long.MIN_VALUE`).
 */
import { ScriptRuntimeError } from './script-error.js';

export type Long = number | bigint;

/** A 64-bit result in the representation above: wrapped, then a number when safe. */
export function normLong(b: bigint): Long {
  const w = BigInt.asIntN(64, b);
  return w >= -9007199254740991n && w <= 9007199254740991n ? Number(w) : w;
}

function big(x: Long): bigint {
  return typeof x === 'bigint' ? x : BigInt(x);
}

export function ladd(x: Long, y: Long): Long {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x + y;
    if (Number.isSafeInteger(r)) return r;
  }
  return normLong(big(x) + big(y));
}

export function lsub(x: Long, y: Long): Long {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x - y;
    if (Number.isSafeInteger(r)) return r;
  }
  return normLong(big(x) - big(y));
}

export function lmul(x: Long, y: Long): Long {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x * y;
    if (Number.isSafeInteger(r)) return r;
  }
  return normLong(big(x) * big(y));
}

function divideByZero(): never {
  throw new ScriptRuntimeError('arithmetic_exception', '/ by zero');
}

/** Java's long division: truncates; `Long.MIN_VALUE / -1` wraps to itself. */
export function lquot(x: Long, y: Long): Long {
  if (y === 0) divideByZero();
  if (typeof x === 'number' && typeof y === 'number') return Math.trunc(x / y) + 0;
  return normLong(big(x) / big(y));
}

export function lrem(x: Long, y: Long): Long {
  if (y === 0) divideByZero();
  if (typeof x === 'number' && typeof y === 'number') return (x % y) + 0;
  return normLong(big(x) % big(y));
}

export function lneg(x: Long): Long {
  return typeof x === 'number' ? 0 - x : normLong(-x);
}

/** Bitwise operators and shifts on longs (the shift distance taken mod 64, as Java's). */
export function long64(op: string, x: Long, y: Long): Long {
  const a = BigInt.asIntN(64, big(x));
  const n = BigInt(Number(BigInt.asUintN(6, big(y))));
  switch (op) {
    case '&':
      return normLong(a & big(y));
    case '|':
      return normLong(a | big(y));
    case '^':
      return normLong(a ^ big(y));
    case '<<':
      return normLong(a << n);
    case '>>':
      return normLong(a >> n);
    default:
      return normLong(BigInt.asUintN(64, a) >> n);
  }
}

/** A long as a double (Java's widening: the nearest double). */
export function longToDouble(x: Long): number {
  return typeof x === 'number' ? x : Number(x);
}

/** Java's narrowing of a long to int: its low 32 bits. */
export function longToInt(x: Long): number {
  return typeof x === 'number' ? Number(BigInt.asIntN(32, BigInt(x))) : Number(BigInt.asIntN(32, x));
}

/** A long literal's text (decimal, hex, octal; no suffix) as a long; undefined when it does not fit 64 bits. */
export function longLiteral(digits: string, negative: boolean): Long | undefined {
  const octal = /^0[0-7]+$/.test(digits);
  let b = BigInt(octal ? '0o' + digits.slice(1) : digits);
  if (octal || /^0[xX]/.test(digits)) {
    if (b > 0xffffffffffffffffn) return undefined;
    b = BigInt.asIntN(64, b); // hex and octal literals are bit patterns
  }
  if (negative) b = -b;
  if (b > 9223372036854775807n || b < -9223372036854775808n) return undefined;
  return normLong(b);
}
