import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { IndexMetadata, StoredDocument } from './types.js';

/** One write of a batch: a document (or tombstone) put, or index metadata put. */
export type StoreWrite =
  | { kind: 'doc'; uuid: string; id: string; doc: StoredDocument }
  | { kind: 'meta'; meta: IndexMetadata }
  /** Cluster-level metadata (index templates…) under a key; `value: undefined` removes it. */
  | { kind: 'cluster'; key: string; value: unknown };

/**
 * Durable storage of the embedded engine, on LMDB.
 *
 * Contract:
 * - `write` resolves only once the writes are committed *and* flushed to disk; all writes of one
 *   call land in one transaction (all or nothing).
 * - Writes issued in a given order are applied in that order (lmdb-js keeps a single write queue),
 *   so callers may assign versions in memory and issue writes without awaiting each other.
 * - Each index's documents live in their own named database (keyed by the index uuid), dropped
 *   with the index.
 */
export class Store {
  private readonly docDbs = new Map<string, Database<StoredDocument, string>>();
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

  private docs(uuid: string): Database<StoredDocument, string> {
    let db = this.docDbs.get(uuid);
    if (!db) {
      db = this.root.openDB<StoredDocument, string>({ name: `docs:${uuid}` });
      this.docDbs.set(uuid, db);
    }
    return db;
  }

  getDocument(uuid: string, id: string): StoredDocument | undefined {
    return this.docs(uuid).get(id);
  }

  *documents(uuid: string): Iterable<{ id: string; doc: StoredDocument }> {
    for (const { key, value } of this.docs(uuid).getRange()) yield { id: key, doc: value };
  }

  async write(writes: StoreWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const apply = () => {
      for (const w of writes) {
        if (w.kind === 'doc') void this.docs(w.uuid).put(w.id, w.doc);
        else if (w.kind === 'cluster') void (w.value === undefined ? this.cluster.remove(w.key) : this.cluster.put(w.key, w.value));
        else void this.meta.put(w.meta.name, w.meta);
      }
    };
    if (writes.length === 1 && writes[0].kind !== 'cluster') {
      const w = writes[0];
      await (w.kind === 'doc' ? this.docs(w.uuid).put(w.id, w.doc) : this.meta.put(w.meta.name, w.meta));
    } else {
      await this.root.transaction(apply);
    }
    await this.root.flushed;
  }

  async deleteIndex(meta: IndexMetadata): Promise<void> {
    const db = this.docs(meta.uuid);
    await this.root.transaction(() => {
      void this.meta.remove(meta.name);
    });
    await db.drop();
    this.docDbs.delete(meta.uuid);
    this.deleteSnapshot(meta.uuid);
    await this.root.flushed;
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
