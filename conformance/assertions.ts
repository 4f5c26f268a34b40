import { compileExtendedRegex, slashedPattern } from './extended-regex.js';

/** An assertion that did not hold; `expected`/`actual` are shown in verbose output. */
export class AssertionFailure extends Error {
  constructor(
    message: string,
    readonly expected?: unknown,
    readonly actual?: unknown,
  ) {
    super(message);
  }
}

/**
 * `match`: equal values, where numbers compare by value (the suites' `1` matches `1.0`)
 * and a `/regex/` expected string matches the actual value's text.
 */
export function assertMatch(field: string, actual: unknown, expected: unknown): void {
  if (typeof expected === 'string') {
    const pattern = slashedPattern(expected);
    if (pattern !== undefined) {
      if (actual === undefined || actual === null) {
        throw new AssertionFailure(`field [${field}] is missing, expected to match ${expected}`, expected, actual);
      }
      const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
      if (!compileExtendedRegex(pattern).test(text)) {
        throw new AssertionFailure(`field [${field}] does not match the regex`, expected, actual);
      }
      return;
    }
  }
  const difference = findDifference(actual, expected, '');
  if (difference !== undefined) {
    const where = difference === '' ? '' : ` at [${difference}]`;
    throw new AssertionFailure(`field [${field}] does not match${where}`, expected, actual);
  }
}

/** The first path where `actual` differs from `expected`, or undefined when they are equal. */
export function findDifference(actual: unknown, expected: unknown, at: string): string | undefined {
  if (expected === null || expected === undefined) {
    return actual === null || actual === undefined ? undefined : at;
  }
  if (typeof expected === 'number' || typeof expected === 'bigint') {
    return (typeof actual === 'number' || typeof actual === 'bigint') && Number(actual) === Number(expected)
      ? undefined
      : at;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return at;
    for (let i = 0; i < expected.length; i++) {
      const inner = findDifference(actual[i], expected[i], join(at, String(i)));
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return at;
    const expectedRecord = expected as Record<string, unknown>;
    const actualRecord = actual as Record<string, unknown>;
    const expectedKeys = Object.keys(expectedRecord);
    const actualKeys = Object.keys(actualRecord);
    for (const key of actualKeys) {
      if (!(key in expectedRecord)) return join(at, key);
    }
    for (const key of expectedKeys) {
      if (!(key in actualRecord)) return join(at, key);
      const inner = findDifference(actualRecord[key], expectedRecord[key], join(at, key));
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  return actual === expected ? undefined : at;
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

/** Truthiness as the Java runner defines it for `is_true` / `is_false`. */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (value === 0 || value === '' || value === '0') return false;
  if (typeof value === 'string' && value.toLowerCase() === 'false') return false;
  return true;
}

export function assertIsTrue(field: string, actual: unknown): void {
  if (!isTruthy(actual)) {
    throw new AssertionFailure(`field [${field}] is not true`, 'a true value', actual);
  }
}

export function assertIsFalse(field: string, actual: unknown): void {
  if (isTruthy(actual)) {
    throw new AssertionFailure(`field [${field}] is not false`, 'a false value', actual);
  }
}

export function assertLength(field: string, actual: unknown, expected: unknown): void {
  let length: number | undefined;
  if (typeof actual === 'string' || Array.isArray(actual)) length = actual.length;
  else if (actual !== null && typeof actual === 'object') length = Object.keys(actual).length;
  if (length === undefined || length !== Number(expected)) {
    throw new AssertionFailure(`field [${field}] does not have length ${String(expected)}`, expected, length ?? actual);
  }
}

export type Comparison = 'gt' | 'gte' | 'lt' | 'lte';

export function assertComparison(op: Comparison, field: string, actual: unknown, expected: unknown): void {
  const order = compare(actual, expected);
  const holds =
    order !== undefined &&
    ((op === 'gt' && order > 0) ||
      (op === 'gte' && order >= 0) ||
      (op === 'lt' && order < 0) ||
      (op === 'lte' && order <= 0));
  if (!holds) {
    throw new AssertionFailure(`field [${field}] is not ${op} ${String(expected)}`, `${op} ${String(expected)}`, actual);
  }
}

function compare(actual: unknown, expected: unknown): number | undefined {
  if (typeof actual === 'string' && typeof expected === 'string') {
    return actual < expected ? -1 : actual > expected ? 1 : 0;
  }
  const a = toNumber(actual);
  const e = toNumber(expected);
  if (a === undefined || e === undefined) return undefined;
  return a - e;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

/**
 * `contains`: the actual array holds each expected item, where an expected object only
 * needs its own keys to match (the element may carry more).
 */
export function assertContains(field: string, actual: unknown, expected: unknown): void {
  if (!Array.isArray(actual)) {
    throw new AssertionFailure(`field [${field}] is not an array`, expected, actual);
  }
  const wanted = Array.isArray(expected) ? expected : [expected];
  for (const item of wanted) {
    if (!actual.some((element) => containsSubset(element, item))) {
      throw new AssertionFailure(`field [${field}] does not contain the expected item`, item, actual);
    }
  }
}

function containsSubset(element: unknown, item: unknown): boolean {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) return false;
    const record = element as Record<string, unknown>;
    return Object.entries(item).every(
      ([key, value]) => key in record && findDifference(record[key], value, '') === undefined,
    );
  }
  return findDifference(element, item, '') === undefined;
}

/** `close_to: { field: { value: 1.5, error: 0.01 } }`. */
export function assertCloseTo(field: string, actual: unknown, expected: unknown): void {
  const spec = (expected ?? {}) as { value?: unknown; error?: unknown };
  const value = toNumber(spec.value);
  const error = toNumber(spec.error);
  const a = toNumber(actual);
  if (value === undefined || error === undefined) {
    throw new AssertionFailure(`close_to on [${field}] needs numeric value and error`, expected, actual);
  }
  if (a === undefined || Math.abs(a - value) > error) {
    throw new AssertionFailure(`field [${field}] is not within ${error} of ${value}`, expected, actual);
  }
}

export function assertExists(field: string, actual: unknown): void {
  if (actual === undefined || actual === null) {
    throw new AssertionFailure(`field [${field}] does not exist`, 'a value', actual);
  }
}

/** `is_after`: the actual timestamp is later than the expected one. */
export function assertIsAfter(field: string, actual: unknown, expected: unknown): void {
  const a = Date.parse(String(actual));
  const e = Date.parse(String(expected));
  if (Number.isNaN(a) || Number.isNaN(e) || !(a > e)) {
    throw new AssertionFailure(`field [${field}] is not after ${String(expected)}`, expected, actual);
  }
}
