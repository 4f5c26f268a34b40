import type { DocValue, DocValues } from '../../index/index.js';
import { millisOfNanos } from '../../mapping/index.js';
import type { Value } from './types.js';
import { ConvertedValues } from './converted-values.js';

function toMillis(values: DocValue[]): Value[] {
  return values.map((v) => (typeof v === 'bigint' ? millisOfNanos(v) : v));
}

/**
 * The doc values of a date_nanos field as aggregations read them: epoch millis, as ES's
 * aggregations see such a field (buckets, keys and metrics of dates are in milliseconds). Sorting,
 * range queries and fetched values read the nanoseconds from the doc values themselves.
 */
export class MillisOfNanos extends ConvertedValues {
  constructor(nanos: DocValues) {
    super(nanos, toMillis);
  }
}
