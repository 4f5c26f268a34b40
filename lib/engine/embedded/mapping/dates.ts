import { fieldType, type FieldMapping } from './types.js';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT, parseDate, parseInstant } from './date-format.js';
import { nanosRangeProblem } from './date-nanos.js';
import { epochNanosOf, type EpochTime } from './instant.js';

/** ES's default `dynamic_date_formats`. */
export const DEFAULT_DYNAMIC_DATE_FORMATS = ['strict_date_optional_time', 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd'];

/** Parses `strict_date_optional_time` to epoch millis; undefined when the text is not one. */
export function parseStrictDateOptionalTime(text: string): number | undefined {
  return parseDate(text, 'strict_date_optional_time');
}

/**
 * Date detection of a dynamically mapped string: the first of `dynamic_date_formats` that parses
 * it decides the mapping (`{type: date}` for the default ISO format, with the format otherwise).
 */
export function looksLikeDynamicDate(text: string, formats: string[] = DEFAULT_DYNAMIC_DATE_FORMATS): FieldMapping | undefined {
  // A bare number ("2015") is not detected as a date by ES's dynamic detection.
  if (/^\d+$/.test(text)) return undefined;
  for (const f of formats) {
    if (parseDate(text, f) === undefined) continue;
    if (f === 'strict_date_optional_time') return { type: 'date' };
    if (f === DEFAULT_DYNAMIC_DATE_FORMATS[1]) return { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' };
    return { type: 'date', format: f };
  }
  return undefined;
}

/**
 * A date field value → epoch millis, under the field's `format` (default
 * `strict_date_optional_time||epoch_millis`); undefined when the value does not parse.
 */
export function parseDateValue(value: unknown, format = DEFAULT_DATE_FORMAT): number | undefined {
  return parseDate(value, format);
}

/** The format a date field parses and prints with: its own, else its type's default (date_nanos prints nanoseconds). */
export function dateFormatOf(mapping: FieldMapping): string {
  if (typeof mapping.format === 'string') return mapping.format;
  return fieldType(mapping) === 'date_nanos' ? DEFAULT_DATE_NANOS_FORMAT : DEFAULT_DATE_FORMAT;
}

/** A date field's value as the index keeps it, or ES's reason (an illegal_argument_exception's) why it cannot be one. */
export type DateFieldValue = { value: EpochTime; problem?: undefined } | { value?: undefined; problem: string };

/**
 * A value of a date field as the index keeps it: epoch millis for `date`, epoch nanoseconds for
 * `date_nanos` (see `EpochTime`). It cannot be one when it does not parse with the field's format,
 * or, for date_nanos, when it lies outside 1970 to 2262.
 */
export function dateFieldValue(value: unknown, mapping: FieldMapping): DateFieldValue {
  const format = dateFormatOf(mapping);
  const instant = parseInstant(value, format);
  if (instant === undefined) return { problem: `failed to parse date field [${String(value)}] with format [${format}]` };
  if (fieldType(mapping) !== 'date_nanos') return { value: instant.millis };
  const problem = nanosRangeProblem(instant);
  return problem === undefined ? { value: epochNanosOf(instant) } : { problem };
}
