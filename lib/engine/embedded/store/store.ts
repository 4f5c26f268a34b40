import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { decodeDocRecord, encodeDocRecord } from './doc-record.js';
import type { DocsRef, IndexMetadata, StoredDocument } from './types.js';

/** One write of a batch: a document (or tombstone) put, or index metadata put. */
export type StoreWrite =
  | { kind: 'doc'; index: DocsRef; id: string; doc: StoredDocument }
  | { kind: 'meta'; meta: IndexMetadata }
  /** Cluster-level metadata (index templates…) under a key; `value: undefined` removes it. */
  | { kind: 'cluster'; key: string; value: unknown };

/**
 * Durable storage of the embedded engine, on LMDB.
 *
 * Contract:
 * - `write` commits at once, all writes of one call in one transaction (all or nothing), and
 *   resolves once they are flushed to disk; commits share fsyncs.
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
  ) {}

  static open(dataDir: string): Store {
    const root = open({ path: dataDir, maxDbs: 10_000, compression: false });
    const meta = root.openDB<IndexMetadata, string>({ name: 'indices' });
    const cluster = root.openDB<unknown, string>({ name: 'cluster' });
    const store = new Store(root, meta, cluster);
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
      db = ref.docFormat === 2
        ? { format: 2, db: this.root.openDB<Buffer, string>({ name: `docs2:${ref.uuid}`, encoding: 'binary' }) }
        : { format: 1, db: this.root.openDB<StoredDocument, string>({ name: `docs:${ref.uuid}` }) };
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

  private putDocument(ref: DocsRef, id: string, doc: StoredDocument): void {
    const d = this.docs(ref);
    if (d.format === 1) d.db.putSync(id, doc);
    else d.db.putSync(id, encodeDocRecord(doc));
  }

  /**
   * Commits the writes in one transaction, at once (on the calling thread: no handoff to LMDB's
   * writer thread and back, and writes land in exactly the order of the calls), then resolves
   * once they are on disk.
   */
  write(writes: StoreWrite[]): Promise<void> {
    if (writes.length === 0) return Promise.resolve();
    // Databases of new indices are opened before the transaction.
    for (const w of writes) if (w.kind === 'doc') this.docs(w.index);
    this.root.transactionSync(() => {
      for (const w of writes) {
        if (w.kind === 'doc') this.putDocument(w.index, w.id, w.doc);
        else if (w.kind === 'cluster') {
          if (w.value === undefined) this.cluster.removeSync(w.key);
          else this.cluster.putSync(w.key, w.value);
        } else this.meta.putSync(w.meta.name, w.meta);
      }
    });
    return this.durable();
  }

  async deleteIndex(meta: IndexMetadata): Promise<void> {
    const { db } = this.docs(meta);
    this.root.transactionSync(() => {
      this.meta.removeSync(meta.name);
    });
    db.dropSync();
    this.docDbs.delete(meta.uuid);
    this.deleteSnapshot(meta.uuid);
    await this.durable();
  }

  /** The fsync running now, if any, and the one queued after it (for commits made while it runs). */
  private syncing: Promise<void> | undefined;
  private nextSync: Promise<void> | undefined;

  /**
   * Resolves once every commit made so far is on disk. Commits share fsyncs (group commit): one
   * runs at a time, off the event loop, and the commits made while it runs wait for the next one.
   */
  private durable(): Promise<void> {
    if (this.nextSync) return this.nextSync;
    if (!this.syncing) return this.startSync();
    const after = this.syncing.catch(() => undefined);
    this.nextSync = after.then(() => {
      this.nextSync = undefined;
      return this.startSync();
    });
    return this.nextSync;
  }

  private startSync(): Promise<void> {
    const run: Promise<void> = new Promise<void>((resolve, reject) => {
      // lmdb-js's sync(callback): mdb_env_sync(force) on libuv's thread pool (not in its typings).
      (this.root as unknown as { sync(done: (err: unknown) => void): void }).sync((err) => {
        if (this.syncing === run) this.syncing = undefined;
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve();
      });
    });
    this.syncing = run;
    return run;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.syncing, this.nextSync]);
    await this.root.close();
  }
}

/** An index's document database, in the index's document format. */
type DocDb = { format: 1; db: Database<StoredDocument, string> } | { format: 2; db: Database<Buffer, string> };
