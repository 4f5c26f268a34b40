import type { DocValue, DocValues } from '../../index/index.js';
import type { Value } from './types.js';

/**
 * A doc values column as aggregations read it: each document's values converted (`convert`) from
 * what the column holds (BigInts: date_nanos' nanoseconds, an unsigned_long's values past 2^53) to
 * aggregation Values; `exact` is the column itself.
 */
export class ConvertedValues extends Map<number, Value[]> {
  constructor(
    readonly exact: DocValues,
    private readonly convert: (values: DocValue[]) => Value[],
  ) {
    super();
  }

  override get(ord: number): Value[] | undefined {
    const values = this.exact.get(ord);
    return values && this.convert(values);
  }

  override has(ord: number): boolean {
    return this.exact.has(ord);
  }

  override values(): MapIterator<Value[]> {
    return new Map([...this.exact.entries()].map(([ord, values]) => [ord, this.convert(values)])).values();
  }
}
