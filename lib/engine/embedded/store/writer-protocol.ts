import type { IndexMetadata, StoredDocument } from './types.js';

/** LMDB options both threads open the environment with (they share one environment). */
export const ENV_OPTIONS = { maxDbs: 10_000, compression: false } as const;

/** The name of an index's document database in its document format. */
export function docsDbName(uuid: string, docFormat: 2 | undefined): string {
  return docFormat === 2 ? `docs2:${uuid}` : `docs:${uuid}`;
}

/** One operation of a write, as the writer thread receives it. */
export type WriterOp =
  | { op: 'doc'; db: string; format: 1 | 2; id: string; doc: StoredDocument }
  | { op: 'meta'; meta: IndexMetadata }
  /** An index is deleted: its metadata goes, and the thread forgets its documents' database (which the main thread drops next). */
  | { op: 'unmeta'; name: string; docs: string }
  | { op: 'cluster'; key: string; value: unknown };

/** Main thread → writer: a batch of operations to commit in one transaction, or the end. */
export type WriterRequest = { seq: number; ops: WriterOp[] } | { close: true };

/** Writer → main thread: the batches up to `seq` are committed and on disk (or failed). */
export type WriterReply = { seq: number; error?: string } | { closed: true };
