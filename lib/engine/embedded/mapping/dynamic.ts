import type { FieldMapping } from './types.js';
import { looksLikeDynamicDate } from './dates.js';

/**
 * The gateway's convention for every index of this engine: a dynamically mapped string is text
 * with a `keyword` sub-field (as Elasticsearch does) and a `raw` keyword sub-field, so `{field}.raw`
 * sorts and aggregates on every engine.
 */
export function dynamicStringMapping(): FieldMapping {
  return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 }, raw: { type: 'keyword' } } };
}

export interface DynamicOptions {
  dateDetection: boolean;
  numericDetection: boolean;
  /** `dynamic_date_formats` of the mapping; ES's defaults when absent. */
  dynamicDateFormats?: string[];
}

/**
 * Elasticsearch's dynamic field mapping for one JSON value; undefined when the value does not
 * introduce a field (null, empty array, array of nulls).
 */
export function dynamicMappingFor(value: unknown, opts: DynamicOptions): FieldMapping | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const m = dynamicMappingFor(v, opts);
      if (m) return m;
    }
    return undefined;
  }
  switch (typeof value) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return Number.isInteger(value) && !Object.is(value, -0) ? { type: 'long' } : { type: 'float' };
    case 'bigint':
      // an integer past 2^53 read exactly (see withExactUnsignedLongs): a long, as any integer
      return { type: 'long' };
    case 'string': {
      if (opts.dateDetection) {
        const date = looksLikeDynamicDate(value, opts.dynamicDateFormats);
        if (date) return date;
      }
      if (opts.numericDetection && value.trim() !== '' && !Number.isNaN(Number(value))) {
        return /^-?\d+$/.test(value.trim()) ? { type: 'long' } : { type: 'float' };
      }
      return dynamicStringMapping();
    }
    case 'object':
      return { properties: {} };
    default:
      return undefined;
  }
}
