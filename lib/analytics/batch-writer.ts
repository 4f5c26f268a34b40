import { callJson, readJson, type Backend } from '../engine/index.js';

export interface BatchWriterOptions {
  /** The system index written to (created with `indexBody` by the first batch, if missing). */
  index: string;
  indexBody: object;
  /** Records held at most while they wait: one more is dropped and counted. */
  maxQueued: number;
  /** Records per `_bulk` at most. */
  maxBatch: number;
  /** How long a record waits at most before its batch is sent. */
  flushMs: number;
  /** Records whose `time` (epoch ms) is older than this many days are purged: at `purge()` and daily. */
  retentionDays: number;
  log?: (line: string) => void;
}

export interface BatchWriterStats {
  queued: number;
  written: number;
  dropped: number;
  failed: number;
}

const DAY_MS = 24 * 3600_000;

/**
 * Records written in the background, in `_bulk` batches, through the Backend: whoever records
 * never waits for the engine nor fails with it. The queue is bounded (`maxQueued`): a record that
 * does not fit is dropped and counted, as is a batch the engine refuses. A record with an id
 * replaces the one of that id (a merged search-as-you-type record). Records older than the
 * retention are purged daily.
 *
 * One batch is written at a time: a full batch at once, a partial one `flushMs` after its first
 * record. Records queued while a batch is written wait for the next full batch or for the timer —
 * never a write each (under load that was a store commit every few records).
 */
export class BatchWriter<T extends object> {
  private queue: Array<{ id?: string; record: T }> = [];
  private timer?: NodeJS.Timeout;
  /** The batch being written, if any; when it ends it schedules what is queued. */
  private writing?: Promise<void>;
  private indexReady = false;
  private readonly counts = { written: 0, dropped: 0, failed: 0 };
  private readonly log: (line: string) => void;
  private readonly purgeTimer: NodeJS.Timeout;

  constructor(private readonly backend: Backend, private readonly options: BatchWriterOptions) {
    this.log = options.log ?? (() => {});
    this.purgeTimer = setInterval(() => void this.purge(), DAY_MS);
    this.purgeTimer.unref();
  }

  /** Queues the record; false when the queue is full (the record is dropped). */
  add(record: T, id?: string): boolean {
    if (this.queue.length >= this.options.maxQueued) {
      this.counts.dropped++;
      return false;
    }
    this.queue.push({ id, record });
    this.schedule();
    return true;
  }

  /** Writes everything queued now (and waits for a write in progress): what a test or a shutdown awaits. */
  async flush(): Promise<void> {
    while (this.writing || this.queue.length) {
      this.cancelTimer();
      if (this.writing) await this.writing;
      else this.startBatch();
    }
  }

  /** A full batch is written now, a partial one when the timer fires; nothing while a batch is written. */
  private schedule(): void {
    if (this.writing || this.queue.length === 0) return;
    if (this.queue.length >= this.options.maxBatch) this.startBatch();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.writing && this.queue.length) this.startBatch();
      }, this.options.flushMs);
      this.timer.unref?.();
    }
  }

  private startBatch(): void {
    this.cancelTimer();
    const batch = this.queue.splice(0, this.options.maxBatch);
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
      this.schedule();
    });
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  stats(): BatchWriterStats {
    return { queued: this.queue.length, ...this.counts };
  }

  /** Stops the daily purge and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.purgeTimer);
    await this.flush();
  }

  /** Drops the records older than the retention (daily; a caller runs it once at start too). */
  async purge(now = Date.now()): Promise<void> {
    const before = now - this.options.retentionDays * DAY_MS;
    const res = await callJson(this.backend, 'POST', `/${this.options.index}/_delete_by_query`, { query: { range: { time: { lt: before } } } }, 'conflicts=proceed&ignore_unavailable=true&refresh=true')
      .catch((err: Error) => ({ status: 502, body: err.message }));
    if (res.status >= 300 && res.status !== 404) this.log(`${this.options.index}: old records not purged: ${JSON.stringify(res.body)}`);
  }

  private async write(batch: Array<{ id?: string; record: T }>): Promise<void> {
    try {
      await this.ensureIndex();
      const lines = batch.map(({ id, record }) => `${id === undefined ? '{"index":{}}' : `{"index":{"_id":${JSON.stringify(id)}}}`}\n${JSON.stringify(record)}\n`).join('');
      const res = await this.backend.request({ method: 'POST', path: `/${this.options.index}/_bulk`, querystring: '', headers: { 'content-type': 'application/x-ndjson' }, body: lines });
      const reply = await readJson<{ items?: Array<{ index?: { status: number } }> }>(res);
      if (res.status >= 300) throw new Error(`the engine answered ${res.status}`);
      const failed = reply?.items?.filter((i) => (i.index?.status ?? 500) >= 300).length ?? 0;
      this.counts.written += batch.length - failed;
      this.counts.failed += failed;
    } catch (err) {
      this.counts.failed += batch.length;
      this.log(`${this.options.index}: ${batch.length} records not written: ${(err as Error).message}`);
    }
  }

  private async ensureIndex(): Promise<void> {
    if (this.indexReady) return;
    const res = await callJson(this.backend, 'PUT', `/${this.options.index}`, this.options.indexBody);
    if (res.status >= 300 && !JSON.stringify(res.body).includes('resource_already_exists_exception')) {
      throw new Error(`index [${this.options.index}] could not be created: ${JSON.stringify(res.body)}`);
    }
    this.indexReady = true;
  }
}

/**
 * What keeps records in a system index in the background (search analytics, request logs): their
 * BatchWriter, and what a gateway does with it — flush for tests and shutdown, stats, close, purge.
 */
export abstract class BackgroundRecords<T extends object> {
  protected readonly writer: BatchWriter<T>;

  protected constructor(backend: Backend, options: BatchWriterOptions) {
    this.writer = new BatchWriter<T>(backend, options);
  }

  /** Writes what is queued (tests, shutdown). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  stats(): BatchWriterStats {
    return this.writer.stats();
  }

  close(): Promise<void> {
    return this.writer.close();
  }

  /** Drops the records older than the retention (daily; once at start too). */
  purge(now = Date.now()): Promise<void> {
    return this.writer.purge(now);
  }
}
