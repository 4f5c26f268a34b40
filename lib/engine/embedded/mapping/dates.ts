import type { FieldMapping } from './types.js';
import { DEFAULT_DATE_FORMAT, parseDate } from './date-format.js';

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
