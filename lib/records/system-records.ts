import type { Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent, NewChange } from '../changes/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';

export interface SystemRecordsOptions {
  /** The system index (`.gateway-…`) the records live in. */
  index: string;
  /** What a record is called in messages ("rule", "search relevancy setting"). */
  what: string;
  /** The stored document's member that holds the record (default `record`). */
  field?: string;
  log?: (line: string) => void;
  /** Told after every change this node applies (its own writes, other nodes' events, a reload). */
  changed?: () => void;
}

type Stored<T> = Record<string, T | string>;

/** Records are kept as they are, never indexed: their contents have any shape. */
const indexBody = (field: string) => ({
  settings: { 'index.hidden': true, number_of_shards: 1 },
  mappings: { dynamic: false, properties: { [field]: { type: 'object', enabled: false }, updated_at: { type: 'date' } } },
});

/**
 * Gateway configuration records (rules, relevancy settings…) stored through the Backend in one
 * system index and held in memory by every node.
 *
 * Contract: a write is applied on the writing node before `put`/`delete` resolve and published on
 * the change bus; every other node applies it when the event arrives (within the bus's delivery
 * time, well under a second). A state older than the one held (by `_version`) is ignored, so a
 * late event never brings back a deleted record. If the feed fails, the node reloads everything
 * once it is live again; an engine that cannot be read at start is retried every second.
 */
export class SystemRecords<T> {
  private readonly records = new Map<string, { record: T; version: number }>();
  /** Versions of deleted records, so that a late event does not bring one back. */
  private readonly deleted = new Map<string, number>();
  private subscription?: Subscription;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private indexReady = false;
  private readonly log: (line: string) => void;
  private readonly field: string;

  constructor(private readonly backend: Backend, private readonly bus: ChangeBus, private readonly options: SystemRecordsOptions) {
    this.log = options.log ?? (() => {});
    this.field = options.field ?? 'record';
  }

  async start(): Promise<void> {
    this.follow();
    await this.bus.subscribed(this.options.index).catch((err: Error) => this.log(`${this.options.what} change feed not live: ${err.message}`));
    await this.loadUntilDone();
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.subscription?.unsubscribe();
  }

  get(id: string): T | undefined {
    return this.records.get(id)?.record;
  }

  /** Every record held, by id. */
  *entries(): IterableIterator<[string, T]> {
    for (const [id, { record }] of this.records) yield [id, record];
  }

  get size(): number {
    return this.records.size;
  }

  /** Stores the record (creating or replacing it); true when it is new. */
  async put(id: string, record: T): Promise<boolean> {
    await this.ensureIndex();
    const doc: Stored<T> = { [this.field]: record, updated_at: new Date().toISOString() };
    const res = await callJson<{ result?: string; _version: number; _seq_no: number; _primary_term: number }>(
      this.backend, 'PUT', `/${this.options.index}/_doc/${encodeURIComponent(id)}`, doc, 'refresh=true',
    );
    if (res.status >= 300) throw new EsError(500, 'exception', `${this.options.what} [${id}] could not be stored: ${JSON.stringify(res.body)}`);
    const { _version: version, _seq_no: seqNo, _primary_term: primaryTerm } = res.body;
    this.apply(id, version, record);
    await this.publish({ kind: 'document', index: this.options.index, type: '_doc', id, op: 'index', version, seqNo, primaryTerm, source: doc as never });
    return res.body.result === 'created';
  }

  /** Removes the record; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const res = await callJson<{ result?: string; _version?: number; _seq_no?: number; _primary_term?: number }>(
      this.backend, 'DELETE', `/${this.options.index}/_doc/${encodeURIComponent(id)}`, undefined, 'refresh=true',
    );
    if (res.status === 404) {
      this.apply(id, this.records.get(id)?.version ?? 0, undefined);
      return false;
    }
    if (res.status >= 300) throw new EsError(500, 'exception', `${this.options.what} [${id}] could not be deleted: ${JSON.stringify(res.body)}`);
    const version = res.body._version ?? 0;
    this.apply(id, version, undefined);
    await this.publish({ kind: 'document', index: this.options.index, type: '_doc', id, op: 'delete', version, seqNo: res.body._seq_no ?? 0, primaryTerm: res.body._primary_term ?? 1 });
    return true;
  }

  /** Reads every stored record again (at start, and after the change feed failed). */
  async reload(): Promise<void> {
    const res = await callJson<{ hits?: { hits: Array<{ _id: string; _version?: number; _source: Stored<T> }> } }>(
      this.backend, 'GET', `/${this.options.index}/_search`, undefined, 'size=10000&version=true',
    );
    if (res.status === 404) return;
    if (res.status >= 300) throw new EsError(500, 'exception', `${this.options.what}s could not be loaded: ${JSON.stringify(res.body)}`);
    const seen = new Set<string>();
    for (const hit of res.body.hits?.hits ?? []) {
      seen.add(hit._id);
      this.apply(hit._id, hit._version ?? 0, hit._source[this.field] as T, true);
    }
    for (const id of [...this.records.keys()]) if (!seen.has(id)) this.records.delete(id);
    this.options.changed?.();
  }

  private async loadUntilDone(): Promise<void> {
    try {
      await this.reload();
    } catch (err) {
      this.log(`${this.options.what}s not loaded yet, retrying: ${(err as Error).message}`);
      if (this.closed) return;
      this.retry = setTimeout(() => void this.loadUntilDone(), 1_000);
      this.retry.unref?.();
    }
  }

  private follow(): void {
    this.subscription = this.bus.changes(this.options.index).subscribe({
      next: (event) => this.onChange(event),
      error: (err: Error) => {
        this.log(`${this.options.what} change feed failed, reloading once it resumes: ${err.message}`);
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.follow();
          this.bus.subscribed(this.options.index).then(() => this.reload()).catch((e: Error) => this.log(`${this.options.what}s not reloaded: ${e.message}`));
        }, 1_000);
        this.retry.unref?.();
      },
    });
  }

  private onChange(event: ChangeEvent): void {
    if (event.kind === 'index') {
      this.records.clear();
      this.indexReady = false;
      this.options.changed?.();
      return;
    }
    if (event.op === 'delete') return this.apply(event.id, event.version, undefined);
    const stored = event.source as unknown as Stored<T> | undefined;
    if (stored?.[this.field] !== undefined) this.apply(event.id, event.version, stored[this.field] as T);
    else void this.reload().catch((err: Error) => this.log(`${this.options.what}s not reloaded: ${err.message}`));
  }

  /** Applies a stored state unless a newer one is already held. */
  private apply(id: string, version: number, record: T | undefined, batch = false): void {
    const held = this.records.get(id)?.version ?? this.deleted.get(id) ?? -1;
    if (version < held) return;
    if (record !== undefined) {
      this.deleted.delete(id);
      this.records.set(id, { record, version });
    } else {
      this.records.delete(id);
      this.deleted.set(id, version);
    }
    if (!batch) this.options.changed?.();
  }

  private async ensureIndex(): Promise<void> {
    if (this.indexReady) return;
    const res = await callJson(this.backend, 'PUT', `/${this.options.index}`, indexBody(this.field));
    if (res.status >= 300 && !JSON.stringify(res.body).includes('resource_already_exists_exception')) {
      throw new EsError(500, 'exception', `index [${this.options.index}] could not be created: ${JSON.stringify(res.body)}`);
    }
    this.indexReady = true;
  }

  private async publish(change: NewChange): Promise<void> {
    try {
      await this.bus.publish(change);
    } catch (err) {
      this.log(`${this.options.what} change [${change.kind === 'document' ? change.id : change.index}] not published: ${(err as Error).message}`);
    }
  }
}
