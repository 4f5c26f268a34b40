import { documentParsingError } from './errors.js';
import type { Mappings } from './types.js';

const TIMESTAMP_FIELD = '@timestamp';

/** Whether an index's mappings carry the `_data_stream_timestamp` meta field (a data stream's backing index). */
function timestampRequired(mappings: Mappings): boolean {
  const meta = mappings._data_stream_timestamp as { enabled?: unknown } | undefined;
  return meta !== undefined && meta !== null && (meta.enabled === true || meta.enabled === 'true');
}

/**
 * The `_data_stream_timestamp` meta field's rule: every document of a data stream's backing
 * index has exactly one `@timestamp` value. `values`: the indexed values of `@timestamp` in the
 * document (undefined when it has none).
 */
export function checkDataStreamTimestamp(mappings: Mappings, values: readonly unknown[] | undefined): void {
  if (!timestampRequired(mappings)) return;
  let reason: string | undefined;
  if (!values || values.length === 0) reason = `data stream timestamp field [${TIMESTAMP_FIELD}] is missing`;
  else if (values.length > 1) reason = `data stream timestamp field [${TIMESTAMP_FIELD}] encountered multiple values`;
  if (reason) throw documentParsingError(`failed to parse: ${reason}`, { type: 'illegal_argument_exception', reason });
}
