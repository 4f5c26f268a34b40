import type { AnalysisRegistry } from '../analysis/index.js';
import { parseDateValue } from './dates.js';
import { INTEGER_TYPES, NUMERIC_TYPES, fieldType, type FieldMapping } from './types.js';
import { documentParsingError } from './errors.js';

export interface IndexedValue {
  terms: string[];
  /** Token positions for analyzed text; absent means 0 for each term. */
  positions?: number[];
  /** The doc value (absent for text). */
  value?: string | number | boolean;
}

const INTEGER_RANGES: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER * 1024, Number.MAX_SAFE_INTEGER * 1024],
  unsigned_long: [0, 18446744073709551615],
};

/** The analyzer that indexes a text field: its own, else the index's `default`, else standard. */
export function indexAnalyzerName(mapping: FieldMapping, registry: AnalysisRegistry): string {
  if (typeof mapping.analyzer === 'string') return mapping.analyzer;
  return registry.hasAnalyzer('default') ? 'default' : 'standard';
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
export function numericTerm(n: number): string {
  return Object.is(n, -0) ? '0' : String(n);
}

export function coerceNumber(value: unknown, type: string): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) n = Number(value);
  else if (typeof value === 'boolean') return undefined;
  else return undefined;
  if (!Number.isFinite(n)) return undefined;
  if (INTEGER_TYPES.has(type)) n = Math.trunc(n);
  if (type === 'float' || type === 'half_float') n = Math.fround(n) === n ? n : n;
  return n;
}

export function coerceBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false' || value === '') return false;
  return undefined;
}

/**
 * One scalar value of a leaf field → what the index stores, checking that it fits the type.
 * Returns undefined when the value is deliberately not indexed (ignore_above, index: false and no doc values).
 */
export function toIndexedValue(value: string | number | boolean | unknown, mapping: FieldMapping, path: string, id: string, registry: AnalysisRegistry): IndexedValue | undefined {
  const type = fieldType(mapping);
  const fail = (cause?: { type: string; reason: string }) =>
    documentParsingError(`failed to parse field [${path}] of type [${type}] in document with id '${id}'. Preview of field's value: '${String(value)}'`, cause);
  if (type === 'text' || type === 'match_only_text' || type === 'search_as_you_type') {
    const text = String(value);
    const tokens = registry.analyzer(indexAnalyzerName(mapping, registry)).analyze(text);
    return { terms: tokens.map((t) => t.token), positions: tokens.map((t) => t.position) };
  }
  if (type === 'keyword' || type === 'constant_keyword' || type === 'wildcard' || type === 'version') {
    const text = String(value);
    if (typeof mapping.ignore_above === 'number' && text.length > mapping.ignore_above) return undefined;
    const term = keywordTerm(mapping, text, registry);
    return { terms: [term], value: term };
  }
  if (NUMERIC_TYPES.has(type)) {
    const n = coerceNumber(value, type);
    if (n === undefined) {
      if (mapping.ignore_malformed === true) return undefined;
      throw fail(typeof value === 'boolean'
        ? { type: 'illegal_argument_exception', reason: `Current token (VALUE_${String(value).toUpperCase()}) not numeric, can not use numeric value accessors` }
        : { type: 'number_format_exception', reason: `For input string: "${String(value)}"` });
    }
    const range = INTEGER_RANGES[type];
    if (range && (n < range[0] || n > range[1])) {
      throw fail({ type: 'illegal_argument_exception', reason: `Value [${String(value)}] is out of range for ${type === 'long' ? 'a long' : type === 'integer' ? 'an integer' : `a ${type}`}` });
    }
    return { terms: [numericTerm(n)], value: n };
  }
  if (type === 'boolean') {
    const b = coerceBoolean(value);
    if (b === undefined) {
      throw fail({ type: 'illegal_argument_exception', reason: `Failed to parse value [${String(value)}] as only [true] or [false] are allowed.` });
    }
    return { terms: [String(b)], value: b };
  }
  if (type === 'date' || type === 'date_nanos') {
    const ms = parseDateValue(value, typeof mapping.format === 'string' ? mapping.format : undefined);
    if (ms === undefined) {
      if (mapping.ignore_malformed === true) return undefined;
      throw fail({
        type: 'illegal_argument_exception',
        reason: `failed to parse date field [${String(value)}] with format [${typeof mapping.format === 'string' ? mapping.format : 'strict_date_optional_time||epoch_millis'}]`,
      });
    }
    return { terms: [numericTerm(ms)], value: ms };
  }
  // Other types (ip, geo_point, binary…) are stored and indexed by their string form for now.
  const text = String(value);
  return { terms: [text], value: text };
}
