import type { DocValue, DocValues } from '../../index/index.js';
import { millisOfNanos } from '../../mapping/index.js';
import type { Value } from './types.js';

function toMillis(values: DocValue[]): Value[] {
  return values.map((v) => (typeof v === 'bigint' ? millisOfNanos(v) : v));
}

/**
 * The doc values of a date_nanos field as aggregations read them: epoch millis, as ES's
 * aggregations see such a field (buckets, keys and metrics of dates are in milliseconds). Sorting,
 * range queries and fetched values read the nanoseconds from the doc values themselves.
 */
export class MillisOfNanos extends Map<number, Value[]> {
  constructor(private readonly nanos: DocValues) {
    super();
  }

  override get(ord: number): Value[] | undefined {
    const values = this.nanos.get(ord);
    return values && toMillis(values);
  }

  override has(ord: number): boolean {
    return this.nanos.has(ord);
  }

  override values(): MapIterator<Value[]> {
    return new Map([...this.nanos.entries()].map(([ord, values]) => [ord, toMillis(values)])).values();
  }
}
