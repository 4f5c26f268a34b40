import type { JsonObject } from '../indices/deep.js';

/** The field every document of a data stream carries; Elasticsearch 8 allows no other. */
export const TIMESTAMP_FIELD = '@timestamp';

/**
 * The timestamp field a data stream template names: OpenSearch's `data_stream.timestamp_field.name`
 * (a template may name another field than `@timestamp`), else `@timestamp`.
 */
export function timestampFieldOf(dataStream: JsonObject | undefined): string {
  const named = (dataStream?.timestamp_field as JsonObject | undefined)?.name;
  return typeof named === 'string' && named !== '' ? named : TIMESTAMP_FIELD;
}

/** One backing index of a data stream, oldest first; the last one is the write index. */
export interface BackingIndex {
  index_name: string;
  index_uuid: string;
}

/** What the store keeps about one data stream (cluster metadata, `data_stream:{name}`). */
export interface DataStreamMetadata {
  name: string;
  indices: BackingIndex[];
  /** A cumulative count of the stream's rollovers, from 1: the number of its newest backing index. */
  generation: number;
  /** The index template the stream was created from (the one that matched its name then). */
  template: string;
  hidden: boolean;
  allowCustomRouting: boolean;
  /** OpenSearch's custom timestamp field (its template's `data_stream.timestamp_field.name`); absent: `@timestamp`. */
  timestampField?: string;
  _meta?: JsonObject;
}
