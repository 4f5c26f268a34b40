import type { JsonObject } from '../indices/deep.js';

/** The field every document of a data stream carries; Elasticsearch 8 allows no other. */
export const TIMESTAMP_FIELD = '@timestamp';

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
  _meta?: JsonObject;
}
