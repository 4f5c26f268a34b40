import type { DocValue, DocValues } from '../../index/index.js';
import type { Value } from './types.js';
import { ConvertedValues } from './converted-values.js';

function toNumbers(values: DocValue[]): Value[] {
  return values.some((v) => typeof v === 'bigint') ? values.map((v) => (typeof v === 'bigint' ? Number(v) : v)) : (values as Value[]);
}

/**
 * The doc values of an unsigned_long field as aggregations read them: numbers (a value past 2^53,
 * a BigInt in the column, as the nearest double — what ES's metrics answer for such a field, a
 * double). The terms aggregation keys its buckets by the exact values (`exact`), as ES's does.
 */
export class UnsignedLongValues extends ConvertedValues {
  constructor(exact: DocValues) {
    super(exact, toNumbers);
  }
}

/**
 * A field's values for keying buckets: an unsigned_long's exact ones (BigInts past 2^53, which
 * Maps keep apart and answers write as the integers they are), else the values as they are.
 */
export function exactKeys(values: Map<number, Value[]> | undefined): Map<number, Value[]> | undefined {
  // BigInt keys go where Values go: they are compared with < and >, and counted as Map keys
  return values instanceof UnsignedLongValues ? (values.exact as unknown as Map<number, Value[]>) : values;
}
