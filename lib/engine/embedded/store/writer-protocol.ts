import { docRecordMaxBytes, writeDocRecord } from './doc-record.js';
import type { IndexMetadata, StoredDocument } from './types.js';

/** LMDB options both threads open the environment with (they share one environment). */
/**
 * The LMDB environment's options, the same in both threads. `noSubdir: false`: the data directory
 * is a directory whatever its name (LMDB takes a path with an extension, `gateway.data`, for a file).
 */
export const ENV_OPTIONS = { maxDbs: 10_000, compression: false, noSubdir: false } as const;

/**
 * The most indices the environment can hold: one document database each, beside the store's own
 * (`indices`, `cluster`) with room to spare. Index creation is refused before this (the shard
 * limit, Indices.createInMemory), so LMDB's MDB_DBS_FULL is never reached.
 */
export const MAX_INDEX_DATABASES = ENV_OPTIONS.maxDbs - 16;

/** The name of an index's document database in its document format. */
export function docsDbName(uuid: string, docFormat: 2 | undefined): string {
  return docFormat === 2 ? `docs2:${uuid}` : `docs:${uuid}`;
}

/** One operation of a write, as the writer thread receives it. */
export type WriterOp =
  /** A document of an index in the first format (msgpack objects); format 2 documents travel packed. */
  | { op: 'doc'; db: string; id: string; doc: StoredDocument }
  | { op: 'meta'; meta: IndexMetadata }
  /** An index is deleted: its metadata goes, and the thread forgets its documents' database (which the main thread drops next). */
  | { op: 'unmeta'; name: string; docs: string }
  | { op: 'cluster'; key: string; value: unknown };

/**
 * Document records (format 2) of a batch, packed into one transferred buffer (no copy, no
 * structured clone of an object per document): for each, a uint16 index into `dbs`, a uint32 key
 * length and the key's UTF-8 bytes, a uint32 record length and the record (`doc-record.ts`).
 */
export interface PackedDocs {
  dbs: string[];
  count: number;
  bytes: ArrayBuffer;
  length: number;
}

/** Main thread → writer: a batch of operations to commit in one transaction, or the end. */
export type WriterRequest = { seq: number; ops: WriterOp[]; packed?: PackedDocs } | { close: true };

/** Writer → main thread: the batches up to `seq` are committed and on disk (or failed). */
export type WriterReply = { seq: number; error?: string } | { closed: true };

/** Packs format-2 document writes (db name, id, record) for the writer thread. */
export class DocPacker {
  private readonly dbs: string[] = [];
  private readonly entries: Array<{ db: number; id: string; doc: StoredDocument }> = [];
  private maxBytes = 0;

  add(db: string, id: string, doc: StoredDocument): void {
    let i = this.dbs.indexOf(db);
    if (i < 0) i = this.dbs.push(db) - 1;
    this.entries.push({ db: i, id, doc });
    this.maxBytes += 10 + 3 * id.length + docRecordMaxBytes(doc);
  }

  get size(): number {
    return this.entries.length;
  }

  pack(): PackedDocs {
    // A buffer of its own (never a slice of the shared pool): its memory is handed over to the writer thread.
    const buf = Buffer.allocUnsafeSlow(this.maxBytes);
    let off = 0;
    for (const e of this.entries) {
      buf.writeUInt16LE(e.db, off);
      const idBytes = buf.write(e.id, off + 6, 'utf8');
      buf.writeUInt32LE(idBytes, off + 2);
      off += 6 + idBytes;
      const end = writeDocRecord(buf, off + 4, e.doc);
      buf.writeUInt32LE(end - off - 4, off);
      off = end;
    }
    return { dbs: this.dbs, count: this.entries.length, bytes: buf.buffer as ArrayBuffer, length: off };
  }
}

/** The packed documents back as (db, key, record) triples, the record a view into the buffer. */
export function* unpackDocs(packed: PackedDocs): Iterable<{ db: string; id: string; record: Buffer }> {
  const buf = Buffer.from(packed.bytes, 0, packed.length);
  let off = 0;
  for (let i = 0; i < packed.count; i++) {
    const db = packed.dbs[buf.readUInt16LE(off)];
    const idBytes = buf.readUInt32LE(off + 2);
    const id = buf.toString('utf8', off + 6, off + 6 + idBytes);
    off += 6 + idBytes;
    const n = buf.readUInt32LE(off);
    yield { db, id, record: buf.subarray(off + 4, off + 4 + n) };
    off += 4 + n;
  }
}
