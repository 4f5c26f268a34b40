import { Worker } from 'node:worker_threads';
import type { PackedDocs, WriterOp, WriterReply, WriterRequest } from './writer-protocol.js';

/**
 * The main thread's end of the writer thread (`writer-worker.ts`): batches go out in call order
 * and each call resolves once its batch is committed and on disk. The thread keeps the process
 * alive only while batches are outstanding.
 */
export class StoreWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(): void; reject(err: Error): void }>();
  private seq = 0;
  /** Set once the thread is gone: every later write fails with it. */
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private closed: (() => void) | undefined;

  constructor(dataDir: string) {
    this.worker = new Worker(new URL('./writer-worker.js', import.meta.url), { workerData: { dataDir } });
    this.worker.unref();
    this.worker.on('message', (reply: WriterReply) => this.onReply(reply));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      this.fail(new Error(`store writer thread exited (code ${code})`));
      this.closed?.();
    });
  }

  write(ops: WriterOp[], packed?: PackedDocs): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new Error('store is closed'));
    const seq = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, ops, packed } satisfies WriterRequest, packed ? [packed.bytes] : []);
    });
  }

  /** Waits for outstanding batches, then stops the thread (it closes its side of the environment). */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = new Promise<void>((resolve) => {
        this.closed = resolve;
        if (this.failure) return resolve();
        this.worker.ref();
        this.worker.postMessage({ close: true } satisfies WriterRequest);
      });
    }
    return this.closing;
  }

  private onReply(reply: WriterReply): void {
    if ('closed' in reply) {
      void this.worker.terminate();
      return;
    }
    const w = this.waiting.get(reply.seq);
    if (!w) return;
    this.waiting.delete(reply.seq);
    if (this.waiting.size === 0 && !this.closing) this.worker.unref();
    if (reply.error !== undefined) w.reject(new Error(`store write failed: ${reply.error}`));
    else w.resolve();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }
}
