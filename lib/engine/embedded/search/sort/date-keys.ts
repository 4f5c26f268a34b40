import { EsError } from '../../../../errors/index.js';
import { clampedEpochNanos, dateFormatOf, millisOfNanos, nanosOfMillis, parseInstant, type EpochTime, type FieldMapping } from '../../mapping/index.js';
import type { SortSpec } from './sort-spec.js';

/**
 * Sort keys of a date field in one index: epoch millis for `date`, epoch nanoseconds (BigInts) for
 * `date_nanos` — or the resolution `numeric_type` asks for (`date` or `date_nanos`), ES's way to
 * sort indices that map the field as date in one and date_nanos in another on one scale. Without
 * it each index keeps its own resolution and the raw longs are compared, as ES does.
 */
export interface DateKeys {
  /** A document's key, picked from its values, in the sort's resolution. */
  key(picked: EpochTime): EpochTime;
  /** A `search_after` or `missing` value: a number is a key already, text a date in the sort's format. */
  parse(value: unknown): EpochTime;
}

export function dateKeys(spec: Extract<SortSpec, { kind: 'field' }>, type: string, mapping: FieldMapping | undefined): DateKeys {
  const nanos = spec.numericType === 'date_nanos' || (type === 'date_nanos' && spec.numericType !== 'date');
  const format = spec.format ?? dateFormatOf(mapping ?? { type });
  return {
    key(picked) {
      if (nanos) return typeof picked === 'number' ? nanosOfMillis(picked) : picked;
      return typeof picked === 'bigint' ? millisOfNanos(picked) : picked;
    },
    parse(value) {
      if (typeof value === 'number') return nanos ? BigInt(Math.trunc(value)) : value;
      if (typeof value === 'bigint') return nanos ? value : Number(value);
      const instant = parseInstant(value, format);
      if (instant === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to parse date field [${String(value)}] with format [${format}]`);
      return nanos ? clampedEpochNanos(instant) : instant.millis;
    },
  };
}
