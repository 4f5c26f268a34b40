import type { Mappings } from '../mapping/index.js';

export type FlatSettings = Record<string, string | string[]>;

export interface AliasDefinition {
  filter?: unknown;
  index_routing?: string;
  search_routing?: string;
  is_write_index?: boolean;
  is_hidden?: boolean;
}

/** What the store keeps about one index. */
export interface IndexMetadata {
  name: string;
  uuid: string;
  /** Epoch millis. */
  creationDate: number;
  state: 'open' | 'close';
  /** Flat settings with `index.` keys, values as ES shows them (strings, string arrays). */
  settings: FlatSettings;
  mappings: Mappings;
  aliases: Record<string, AliasDefinition>;
  /**
   * How the index's documents are stored: 2 = binary records (`doc-record.ts`) in `docs2:{uuid}`;
   * absent = the first format, a msgpack object per document in `docs:{uuid}` (indices created
   * before format 2 keep it).
   */
  docFormat?: 2;
}

/** What the store needs to find an index's documents. */
export type DocsRef = Pick<IndexMetadata, 'uuid' | 'docFormat'>;

/** One document version as stored: the source as JSON text, or a tombstone. */
export interface StoredDocument {
  /** _version */
  v: number;
  /** _seq_no */
  q: number;
  /** _primary_term */
  t: number;
  /** Source JSON text; absent for a tombstone. */
  s?: string;
  /** Routing, when given. */
  r?: string;
}
