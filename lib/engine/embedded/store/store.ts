import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { decodeDocRecord } from './doc-record.js';
import type { DocsRef, IndexMetadata, StoredDocument } from './types.js';
import { StoreWriter } from './writer.js';
import { DocPacker, ENV_OPTIONS, docsDbName, type WriterOp } from './writer-protocol.js';

/** One write of a batch: a document (or tombstone) put, or index metadata put. */
export type StoreWrite =
  | { kind: 'doc'; index: DocsRef; id: string; doc: StoredDocument }
  | { kind: 'meta'; meta: IndexMetadata }
  /** Cluster-level metadata (index templates…) under a key; `value: undefined` removes it. */
  | { kind: 'cluster'; key: string; value: unknown };

/**
 * Durable storage of the embedded engine, on LMDB. Reads happen on the calling thread; writes go
 * to a writer thread (`writer-worker.ts`) that commits them beside the caller's other work.
 *
 * Contract:
 * - `write` commits all writes of one call in one transaction (all or nothing) and resolves once
 *   they are flushed to disk (commits share fsyncs); reads made after it resolves see them.
 * - Writes are committed in the order of the calls, so callers may assign versions in memory and
 *   issue writes without awaiting each other.
 * - Each index's documents live in their own named database (keyed by the index uuid), dropped
 *   with the index; in the index's document format (`IndexMetadata.docFormat`).
 */
export class Store {
  private readonly docDbs = new Map<string, DocDb>();
  /** Where index snapshots (caches of the in-memory index) are kept. */
  private snapshotDir = '';

  private constructor(
    private readonly root: RootDatabase,
    private readonly meta: Database<IndexMetadata, string>,
    private readonly cluster: Database<unknown, string>,
    private readonly writer: StoreWriter,
  ) {}

  static open(dataDir: string): Store {
    const root = open({ path: dataDir, ...ENV_OPTIONS });
    const meta = root.openDB<IndexMetadata, string>({ name: 'indices' });
    const cluster = root.openDB<unknown, string>({ name: 'cluster' });
    const store = new Store(root, meta, cluster, new StoreWriter(dataDir));
    store.snapshotDir = path.join(dataDir, 'snapshots');
    return store;
  }

  private snapshotPath(uuid: string): string {
    return path.join(this.snapshotDir, `${uuid}.idx`);
  }

  /**
   * The last snapshot of an index's in-memory structures, if any. A snapshot is only a cache: the
   * caller checks that it matches the documents in LMDB before using it.
   */
  readSnapshot(uuid: string): Buffer | undefined {
    const file = this.snapshotPath(uuid);
    if (!existsSync(file)) return undefined;
    try {
      return readFileSync(file);
    } catch {
      return undefined;
    }
  }

  /** Writes a snapshot (atomically: a temporary file, synced, renamed over the previous one). */
  writeSnapshot(uuid: string, parts: Buffer[]): void {
    const file = this.snapshotPath(uuid);
    mkdirSync(this.snapshotDir, { recursive: true });
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      for (const p of parts) {
        let off = 0;
        while (off < p.length) off += writeSync(fd, p, off, p.length - off);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  }

  deleteSnapshot(uuid: string): void {
    rmSync(this.snapshotPath(uuid), { force: true });
  }

  /** Cluster-level metadata records, by key. */
  loadCluster(): Array<{ key: string; value: unknown }> {
    return [...this.cluster.getRange()].map(({ key, value }) => ({ key, value }));
  }

  loadIndices(): IndexMetadata[] {
    return [...this.meta.getRange()].map(({ value }) => value);
  }

  private docs(ref: DocsRef): DocDb {
    let db = this.docDbs.get(ref.uuid);
    if (!db) {
      const name = docsDbName(ref.uuid, ref.docFormat);
      db = ref.docFormat === 2
        ? { format: 2, db: this.root.openDB<Buffer, string>({ name, encoding: 'binary' }) }
        : { format: 1, db: this.root.openDB<StoredDocument, string>({ name }) };
      this.docDbs.set(ref.uuid, db);
    }
    return db;
  }

  getDocument(ref: DocsRef, id: string): StoredDocument | undefined {
    const d = this.docs(ref);
    if (d.format === 1) return d.db.get(id);
    const buf = d.db.get(id);
    return buf === undefined ? undefined : decodeDocRecord(buf);
  }

  *documents(ref: DocsRef): Iterable<{ id: string; doc: StoredDocument }> {
    const d = this.docs(ref);
    if (d.format === 1) for (const { key, value } of d.db.getRange()) yield { id: key, doc: value };
    else for (const { key, value } of d.db.getRange()) yield { id: key, doc: decodeDocRecord(value) };
  }

  /**
   * Commits the writes in one transaction on the writer thread, in the order of the calls, and
   * resolves once they are on disk.
   */
  async write(writes: StoreWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const ops: WriterOp[] = [];
    const packer = new DocPacker();
    for (const w of writes) {
      if (w.kind === 'doc') {
        const db = docsDbName(w.index.uuid, w.index.docFormat);
        if (w.index.docFormat === 2) packer.add(db, w.id, w.doc);
        else ops.push({ op: 'doc', db, id: w.id, doc: w.doc });
      } else if (w.kind === 'meta') ops.push({ op: 'meta', meta: w.meta });
      else ops.push({ op: 'cluster', key: w.key, value: w.value });
    }
    await this.writer.write(ops, packer.size ? packer.pack() : undefined);
    // Reads on this thread see the commit from now on.
    this.root.resetReadTxn();
  }

  async deleteIndex(meta: IndexMetadata): Promise<void> {
    // Ordered after every write issued before it. No write for this index can follow (it is gone
    // from memory already), so its documents' database is then dropped from this thread.
    const name = docsDbName(meta.uuid, meta.docFormat);
    await this.writer.write([{ op: 'unmeta', name: meta.name, docs: name }]);
    this.root.resetReadTxn();
    const { db } = this.docs(meta);
    this.docDbs.delete(meta.uuid);
    db.dropSync();
    this.deleteSnapshot(meta.uuid);
  }

  async close(): Promise<void> {
    await this.writer.close();
    await this.root.close();
  }
}

/** An index's document database, in the index's document format. */
type DocDb = { format: 1; db: Database<StoredDocument, string> } | { format: 2; db: Database<Buffer, string> };
