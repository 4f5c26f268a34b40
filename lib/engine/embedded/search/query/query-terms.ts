import { EsError } from '../../../../errors/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { canonicalIp, coerceBoolean, coerceNumber, dateFieldValue, exactUnsignedLong, fieldType, keywordTerm, numericTerm, NUMERIC_TYPES, type FieldMapping } from '../../mapping/index.js';

/**
 * The indexed term a term-level query value looks for in a field of this mapping, or undefined
 * when no document can match. Text fields are not analyzed (as ES's term query); keywords go
 * through their normalizer; numbers, dates and booleans are compared by value.
 */
export function queryTerm(mapping: FieldMapping, value: string | number | boolean, registry: AnalysisRegistry): string | undefined {
  const type = fieldType(mapping);
  if (type === 'keyword' || type === 'constant_keyword' || type === 'wildcard' || type === 'version') {
    return keywordTerm(mapping, String(value), registry);
  }
  if (type === 'unsigned_long') {
    // an integer past 2^53 (its digits, as the search body keeps them) looks for its exact term
    const exact = exactUnsignedLong(value);
    if (typeof exact === 'bigint') return numericTerm(exact);
  }
  if (NUMERIC_TYPES.has(type)) {
    const n = coerceNumber(value, 'double');
    if (n === undefined) {
      throw new EsError(400, 'query_shard_exception', `failed to create query: For input string: "${String(value)}"`, {
        caused_by: { type: 'number_format_exception', reason: `For input string: "${String(value)}"` },
      });
    }
    if ((type === 'long' || type === 'integer' || type === 'short' || type === 'byte' || type === 'token_count') && !Number.isInteger(n)) return undefined;
    return numericTerm(n);
  }
  if (type === 'ip') {
    // an address as indexed (a CIDR block is a range: rewrite-query's)
    const canonical = canonicalIp(String(value).trim());
    if (canonical === undefined) throw new EsError(400, 'query_shard_exception', `failed to create query: '${String(value)}' is not an IP string literal.`);
    return canonical;
  }
  if (type === 'boolean') {
    const b = coerceBoolean(value);
    if (b === undefined) {
      throw new EsError(400, 'query_shard_exception', `failed to create query: Can't parse boolean value [${String(value)}], expected [true] or [false]`);
    }
    return String(b);
  }
  if (type === 'date' || type === 'date_nanos') {
    const date = dateFieldValue(value, mapping);
    if (date.problem !== undefined) throw new EsError(400, 'query_shard_exception', `failed to create query: ${date.problem}`);
    return numericTerm(date.value);
  }
  return String(value);
}
