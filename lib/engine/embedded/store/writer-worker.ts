/**
 * The store's writer thread: commits the main thread's write batches to LMDB, one transaction
 * each, in the order they arrive, and answers each once it is on disk. Its commits and fsyncs run
 * beside the main thread's parsing and analysis instead of in between them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { open, type Database } from 'lmdb';
import type { IndexMetadata, StoredDocument } from './types.js';
import { docRecordSeqNo } from './doc-record.js';
import { ENV_OPTIONS, unpackDocs, type PackedDocs, type WriterOp, type WriterReply, type WriterRequest } from './writer-protocol.js';

const port = parentPort!;
const root = open({ path: (workerData as { dataDir: string }).dataDir, ...ENV_OPTIONS });
const meta = root.openDB<IndexMetadata, string>({ name: 'indices' });
const cluster = root.openDB<unknown, string>({ name: 'cluster' });
const dbs = new Map<string, Database>();

function db(name: string, format: 1 | 2): Database {
  let d = dbs.get(name);
  if (!d) {
    d = format === 2 ? root.openDB<Buffer, string>({ name, encoding: 'binary' }) : root.openDB<StoredDocument, string>({ name });
    dbs.set(name, d);
  }
  return d;
}

type Batch = { seq: number; ops: WriterOp[]; packed?: PackedDocs };

/** Opens the databases a batch writes to (outside any transaction, as LMDB wants). */
function openDatabases(b: Batch): void {
  for (const o of b.ops) if (o.op === 'doc') db(o.db, 1);
  if (b.packed) for (const name of b.packed.dbs) db(name, 2);
}

/**
 * Whether the stored version of a document is newer than the one about to be written. The main
 * thread prepares writes in sequence-number order but may issue their commits in another (a
 * `_bulk` commits its items by chunks, a single write between them commits at once): the later
 * write stays, as Elasticsearch keeps the operation of the higher sequence number.
 */
function storedIsNewer(d: Database, id: string, seqNo: number): boolean {
  let stored: Uint8Array | undefined;
  try {
    stored = d.getBinary(id) as Uint8Array | undefined;
  } catch {
    return false; // a key LMDB cannot hold: its put fails with LMDB's own error
  }
  return stored !== undefined && stored.length >= 17 && docRecordSeqNo(stored) > seqNo;
}

/** A batch's writes, in the transaction open now. */
function put(b: Batch): void {
  if (b.packed) {
    for (const { db: name, id, record } of unpackDocs(b.packed)) {
      const d = db(name, 2);
      if (!storedIsNewer(d, id, docRecordSeqNo(record))) d.putSync(id, record);
    }
  }
  for (const o of b.ops) {
    switch (o.op) {
      case 'doc': {
        const d = db(o.db, 1);
        let stored: StoredDocument | undefined;
        try {
          stored = d.get(o.id) as StoredDocument | undefined;
        } catch {
          stored = undefined; // as above
        }
        if (!stored || !(stored.q > o.doc.q)) d.putSync(o.id, o.doc);
        break;
      }
      case 'meta':
        meta.putSync(o.meta.name, o.meta);
        break;
      case 'unmeta':
        meta.removeSync(o.name);
        dbs.delete(o.docs);
        break;
      case 'cluster':
        if (o.value === undefined) cluster.removeSync(o.key);
        else cluster.putSync(o.key, o.value);
        break;
    }
  }
}

/**
 * Commits the batches that arrived together in one transaction (many small writes at once cost
 * one commit). When LMDB refuses it, each batch is committed alone, so only the one at fault fails.
 */
function commit(batches: Batch[]): void {
  for (const b of batches) openDatabases(b);
  try {
    root.transactionSync(() => {
      for (const b of batches) put(b);
    });
    for (const b of batches) committed.push(b.seq);
  } catch (err) {
    if (batches.length > 1) {
      for (const b of batches) commit([b]);
      return;
    }
    port.postMessage({ seq: batches[0].seq, error: String((err as Error).message ?? err) } satisfies WriterReply);
  }
}

// Group commit: one fsync at a time; batches committed while it runs wait for the next one.
let syncing = false;
let committed: number[] = [];

function sync(): void {
  if (syncing || !committed.length) return;
  syncing = true;
  const covered = committed;
  committed = [];
  (root as unknown as { sync(done: (err: unknown) => void): void }).sync((err) => {
    syncing = false;
    const error = err ? String((err as Error).message ?? err) : undefined;
    for (const seq of covered) port.postMessage({ seq, error } satisfies WriterReply);
    sync();
  });
}

const queue: Batch[] = [];
let draining = false;

/** Commits what has arrived, then starts the fsync that acknowledges it. */
function drain(): void {
  draining = false;
  if (queue.length) commit(queue.splice(0));
  sync();
}

port.on('message', (req: WriterRequest) => {
  if ('close' in req) {
    drain();
    const finish = () => {
      if (syncing || committed.length) return void setTimeout(finish, 1);
      void root.close().then(() => port.postMessage({ closed: true } satisfies WriterReply));
    };
    finish();
    return;
  }
  queue.push(req);
  // The batches that arrive in the same turn (concurrent single-document writes) go in one transaction.
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
});
