/** What a successful write did to one document. */
export type DocumentOp = 'index' | 'create' | 'update' | 'delete';

/** What happened to a whole index; either one ends every stream on that index. */
export type IndexOp = 'delete' | 'close';

/**
 * A change to one document, as published after the engine acknowledged the write.
 * Events are shared by every subscriber of a node (parsed once): treat them as immutable.
 */
export interface DocumentChange {
  readonly kind: 'document';
  readonly index: string;
  /** The app-addressed type, or `_doc` for index-addressed writes. */
  readonly type: string;
  readonly id: string;
  readonly op: DocumentOp;
  /** `_version` after the write. */
  readonly version: number;
  /** `_seq_no` / `_primary_term` after the write: with `version`, what streams de-duplicate on. */
  readonly seqNo: number;
  readonly primaryTerm: number;
  /** The document's full new `_source` (for partial updates too); absent for `delete`. */
  readonly source?: Readonly<Record<string, unknown>>;
  /** Assigned by the bus at publish; see `position.ts` for the format. */
  readonly position: string;
  /** Milliseconds since the Unix epoch, when the write was acknowledged. */
  readonly time: number;
}

/** An index was deleted or closed: streams on it end with a final error object. */
export interface IndexChange {
  readonly kind: 'index';
  readonly index: string;
  readonly op: IndexOp;
  readonly position: string;
  readonly time: number;
}

export type ChangeEvent = DocumentChange | IndexChange;

/**
 * The mappings of the indices `index` names (an index name, a list or a pattern, as the request
 * named them) may have changed: an index was created or a mapping put. Not in any index's
 * history, and no stream ends on it: it is what caches of mappings drop.
 */
export interface MappingChange {
  readonly index: string;
  readonly time: number;
}

/** What a caller hands to `ChangeBus.publish`: the bus assigns `position`, and `time` if omitted. */
export type NewChange =
  | (Omit<DocumentChange, 'position' | 'time'> & { readonly time?: number })
  | (Omit<IndexChange, 'position' | 'time'> & { readonly time?: number });

/** The published event: the change with the position the bus assigned, and a time. */
export function stampChange(change: NewChange, position: string, now = Date.now()): ChangeEvent {
  return { ...change, time: change.time ?? now, position } as ChangeEvent;
}
