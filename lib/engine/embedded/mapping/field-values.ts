import { isIP } from 'node:net';
import type { AnalysisRegistry, Analyzer } from '../analysis/index.js';
import { dateFieldValue } from './dates.js';
import type { EpochTime } from './instant.js';
import { INTEGER_TYPES, NUMERIC_TYPES, fieldType, type FieldMapping } from './types.js';
import { documentParsingError } from './errors.js';
import type { EsError } from '../../../errors/index.js';
import { UNSIGNED_LONG_MAX, exactUnsignedLong } from './unsigned-long.js';
import { canonicalIp } from './range-field.js';

export interface IndexedValue {
  terms: string[];
  /** Token positions for analyzed text; absent means 0 for each term. */
  positions?: number[];
  /** The doc value (absent for text); date_nanos values are epoch nanoseconds (BigInt). */
  value?: string | EpochTime | boolean;
  /** The value was left out (ignore_malformed, ignore_above): the field goes to `_ignored`. */
  ignored?: boolean;
}

const IGNORED: IndexedValue = { terms: [], ignored: true };

const INTEGER_RANGES: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [-9223372036854775808, 9223372036854775807],
  unsigned_long: [0, 18446744073709551615],
};

const RANGE_NAME: Record<string, string> = { byte: 'a byte', short: 'a short', integer: 'an integer', long: 'a long', unsigned_long: 'an unsigned long' };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Rounds to the nearest IEEE half-precision value (what a half_float field keeps). */
export function toHalfFloat(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const abs = Math.abs(x);
  if (abs >= 65520) return x > 0 ? Infinity : -Infinity;
  // Half precision: 10 mantissa bits, exponent min -14 (subnormals below).
  const exp = Math.max(Math.floor(Math.log2(abs)), -14);
  const step = 2 ** (exp - 10);
  f32[0] = Math.round(abs / step) * step;
  void u32;
  return Math.sign(x) * f32[0];
}

/** The analyzer that indexes a text field: its own, else the index's `default`, else standard. */
export function indexAnalyzerName(mapping: FieldMapping, registry: AnalysisRegistry): string {
  if (typeof mapping.analyzer === 'string') return mapping.analyzer;
  return registry.hasAnalyzer('default') ? 'default' : 'standard';
}

/** A text value's terms and positions under its index analyzer (fresh arrays, the caller's to keep). */
export function analyzedValue(analyzer: Analyzer, value: unknown): IndexedValue {
  const text = String(value);
  if (analyzer.indexTerms) return analyzer.indexTerms(text);
  const tokens = analyzer.analyze(text);
  return { terms: tokens.map((t) => t.token), positions: tokens.map((t) => t.position) };
}

/** The single term a keyword value is indexed as (after the field's normalizer). */
export function keywordTerm(mapping: FieldMapping, text: string, registry: AnalysisRegistry): string {
  if (typeof mapping.normalizer === 'string') {
    const tokens = registry.normalizer(mapping.normalizer).analyze(text);
    return tokens.map((t) => t.token).join('');
  }
  return text;
}

/** Canonical term of a number, so that 1, 1.0 and "1" index (and are searched) alike. */
/** ES's TokenCountFieldMapper: the number of tokens (position increments when enabled) a text analyzes to under the field's analyzer. */
export function tokenCount(mapping: FieldMapping, value: unknown, registry: AnalysisRegistry): number {
  const tokens = registry.analyzer(typeof mapping.analyzer === 'string' ? mapping.analyzer : 'standard').analyze(String(value));
  return mapping.enable_position_increments === false || !tokens.length ? tokens.length : tokens[tokens.length - 1].position + 1;
}

export function numericTerm(n: number | bigint): string {
  return Object.is(n, -0) ? '0' : String(n);
}

/** A JSON value as a number of a numeric field type, as ES's number parsing (coerce on); undefined when not a number. */
export function coerceNumber(value: unknown, type: string): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) n = Number(value);
  else return undefined;
  if (!Number.isFinite(n)) return undefined;
  if (INTEGER_TYPES.has(type)) n = Math.trunc(n);
  return n;
}

export function coerceBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false' || value === '') return false;
  return undefined;
}

/**
 * A value that does not fit its field's type. Not a closure made in toIndexedValue: that ran for
 * every value indexed, and the bundle the specs and benches run (esbuild keepNames) names each
 * closure it makes with Object.defineProperty, ~1.4 µs a time, ~8% of a 50 MB _bulk's main thread.
 */
function fieldParseFailure(path: string, type: string, id: string, value: unknown, cause?: { type: string; reason: string }): EsError {
  return documentParsingError(`failed to parse field [${path}] of type [${type}] in document with id '${id}'. Preview of field's value: '${String(value)}'`, cause);
}

/**
 * One scalar value of a leaf field → what the index stores, checking that it fits the type.
 * Returns undefined when the value is deliberately not indexed (ignore_above, index: false and no doc values).
 */
export function toIndexedValue(value: string | number | boolean | unknown, mapping: FieldMapping, path: string, id: string, registry: AnalysisRegistry): IndexedValue | undefined {
  const type = fieldType(mapping);
  if (type === 'text' || type === 'match_only_text' || type === 'search_as_you_type') {
    return analyzedValue(registry.analyzer(indexAnalyzerName(mapping, registry)), value);
  }
  if (type === 'keyword' || type === 'constant_keyword' || type === 'wildcard' || type === 'version') {
    const text = String(value);
    if (typeof mapping.ignore_above === 'number' && text.length > mapping.ignore_above) return IGNORED;
    const term = keywordTerm(mapping, text, registry);
    return { terms: [term], value: term };
  }
  if (type === 'token_count') {
    const count = tokenCount(mapping, value, registry);
    return { terms: [numericTerm(count)], value: count };
  }
  if (type === 'unsigned_long') {
    // past 2^53 (a BigInt, or digits in a string): the exact integer, term and doc value alike
    const exact = exactUnsignedLong(value);
    // digits a double prints (a source a script or pipeline wrote again) are read as that double, as before
    if (typeof exact === 'bigint' && String(Number(exact)) !== String(exact)) {
      if (exact < 0n || exact > UNSIGNED_LONG_MAX) {
        if (mapping.ignore_malformed === true) return IGNORED;
        throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `Value [${String(value)}] is out of range for an unsigned long` });
      }
      return { terms: [numericTerm(exact)], value: exact };
    }
    if (typeof value === 'bigint') value = Number(value);
  }
  if (type === 'long' && typeof value === 'bigint') {
    // past 2^53, read exactly from the document's text (withExactUnsignedLongs): the range checked
    // on the integer written, the value indexed as the number it rounds to, as every long past 2^53
    if (value > 9223372036854775807n || value < -9223372036854775808n) {
      if (mapping.ignore_malformed === true) return IGNORED;
      throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `Value [${String(value)}] is out of range for a long` });
    }
    const n = Number(value);
    return { terms: [numericTerm(n)], value: n };
  }
  if (typeof value === 'bigint') value = Number(value);
  if (NUMERIC_TYPES.has(type)) {
    const coerce = mapping.coerce !== false;
    const number = typeof value === 'string' && coerce ? coerceNumber(value, 'double') : typeof value === 'number' ? value : undefined;
    if (number === undefined || !Number.isFinite(number)) {
      if (mapping.ignore_malformed === true) return IGNORED;
      if (typeof value === 'string' && !coerce && value.trim() !== '' && coerceNumber(value, 'double') !== undefined) {
        throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `[coerce] set to false, cannot parse value [${value}]` });
      }
      throw fieldParseFailure(path, type, id, value, typeof value === 'boolean'
        ? { type: 'illegal_argument_exception', reason: `Current token (VALUE_${String(value).toUpperCase()}) not numeric, can not use numeric value accessors` }
        : { type: 'number_format_exception', reason: `For input string: "${String(value)}"` });
    }
    let n = number;
    const range = INTEGER_RANGES[type];
    if (range) {
      if (n < range[0] || n > range[1] || (type === 'long' && (n >= 9223372036854775807 || n < -9223372036854775808))) {
        if (mapping.ignore_malformed === true) return IGNORED;
        throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `Value [${String(value)}] is out of range for ${RANGE_NAME[type]}` });
      }
      if (!Number.isInteger(n)) {
        if (!coerce) {
          if (mapping.ignore_malformed === true) return IGNORED;
          throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `Value [${String(value)}] has a decimal part` });
        }
        n = Math.trunc(n);
      }
    } else if (type === 'float') {
      n = Math.fround(n);
      if (!Number.isFinite(n)) throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `[float] supports only finite values, but got [${String(value)}]` });
    } else if (type === 'half_float') {
      n = toHalfFloat(n);
      if (!Number.isFinite(n)) throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `[half_float] supports only finite values, but got [${String(value)}]` });
    } else if (type === 'scaled_float') {
      const factor = Number(mapping.scaling_factor ?? 1);
      n = Math.round(n * factor) / factor;
    }
    return { terms: [numericTerm(n)], value: n };
  }
  if (type === 'boolean') {
    const b = coerceBoolean(value);
    if (b === undefined) {
      throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `Failed to parse value [${String(value)}] as only [true] or [false] are allowed.` });
    }
    return { terms: [String(b)], value: b };
  }
  if (type === 'date' || type === 'date_nanos') {
    const date = dateFieldValue(value, mapping);
    if (date.problem !== undefined) {
      if (mapping.ignore_malformed === true) return IGNORED;
      throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: date.problem });
    }
    return { terms: [numericTerm(date.value)], value: date.value };
  }
  if (type === 'ip') {
    const text = String(value);
    // one address, one term: as Elasticsearch stores it (::ffff:1.2.3.4 is 1.2.3.4, IPv6 compressed)
    const canonical = canonicalIp(text);
    if (canonical === undefined) {
      if (mapping.ignore_malformed === true) return IGNORED;
      throw fieldParseFailure(path, type, id, value, { type: 'illegal_argument_exception', reason: `'${text}' is not an IP string literal.` });
    }
    return { terms: [canonical], value: canonical };
  }
  // Other types (geo_point, binary…) are stored and indexed by their string form for now.
  const text = String(value);
  return { terms: [text], value: text };
}
