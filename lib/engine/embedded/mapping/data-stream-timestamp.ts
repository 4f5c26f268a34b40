import { documentParsingError } from './errors.js';
import type { Mappings } from './types.js';

const TIMESTAMP_FIELD = '@timestamp';

/** Whether an index's mappings carry the `_data_stream_timestamp` meta field (a data stream's backing index). */
function timestampRequired(mappings: Mappings): boolean {
  const meta = mappings._data_stream_timestamp as { enabled?: unknown } | undefined;
  return meta !== undefined && meta !== null && (meta.enabled === true || meta.enabled === 'true');
}

/** The field the meta field names (OpenSearch's `timestamp_field.name`), else `@timestamp`. */
function timestampField(mappings: Mappings): string {
  const named = (mappings._data_stream_timestamp as { timestamp_field?: { name?: unknown } } | undefined)?.timestamp_field?.name;
  return typeof named === 'string' && named !== '' ? named : TIMESTAMP_FIELD;
}

/**
 * The `_data_stream_timestamp` meta field's rule: every document of a data stream's backing
 * index has exactly one value of its timestamp field (`@timestamp`, or the field OpenSearch's
 * `timestamp_field` names). `valuesOf`: the indexed values of a field in the document (undefined
 * when it has none).
 */
export function checkDataStreamTimestamp(mappings: Mappings, valuesOf: (field: string) => readonly unknown[] | undefined): void {
  if (!timestampRequired(mappings)) return;
  const field = timestampField(mappings);
  const values = valuesOf(field);
  let reason: string | undefined;
  if (!values || values.length === 0) reason = `data stream timestamp field [${field}] is missing`;
  else if (values.length > 1) reason = `data stream timestamp field [${field}] encountered multiple values`;
  if (reason) throw documentParsingError(`failed to parse: ${reason}`, { type: 'illegal_argument_exception', reason });
}
