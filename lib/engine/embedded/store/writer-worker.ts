/**
 * The store's writer thread: commits the main thread's write batches to LMDB, one transaction
 * each, in the order they arrive, and answers each once it is on disk. Its commits and fsyncs run
 * beside the main thread's parsing and analysis instead of in between them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { open, type Database } from 'lmdb';
import { encodeDocRecord } from './doc-record.js';
import type { IndexMetadata, StoredDocument } from './types.js';
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

function apply(ops: WriterOp[], packed: PackedDocs | undefined): void {
  for (const o of ops) if (o.op === 'doc') db(o.db, o.format);
  if (packed) for (const name of packed.dbs) db(name, 2);
  root.transactionSync(() => {
    if (packed) for (const { db: name, id, record } of unpackDocs(packed)) db(name, 2).putSync(id, record);
    for (const o of ops) {
      switch (o.op) {
        case 'doc':
          db(o.db, o.format).putSync(o.id, o.format === 2 ? encodeDocRecord(o.doc) : o.doc);
          break;
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
  });
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

port.on('message', (req: WriterRequest) => {
  if ('close' in req) {
    const finish = () => {
      if (syncing || committed.length) return void setTimeout(finish, 1);
      void root.close().then(() => port.postMessage({ closed: true } satisfies WriterReply));
    };
    finish();
    return;
  }
  try {
    apply(req.ops, req.packed);
  } catch (err) {
    port.postMessage({ seq: req.seq, error: String((err as Error).message ?? err) } satisfies WriterReply);
    return;
  }
  committed.push(req.seq);
  sync();
});
