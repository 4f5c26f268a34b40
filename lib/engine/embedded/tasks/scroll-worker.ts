import type { Task } from './task.js';

type Json = Record<string, unknown>;

/** setTimeout's longest delay: a longer throttle sleeps in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Which counters a response shows: `_update_by_query` has no `created`, `_delete_by_query` neither `updated`. */
export interface StatusFields {
  updated: boolean;
  created: boolean;
}

/** What one batch did, counted by the operation's own code. */
export interface BatchCounts {
  updated: number;
  created: number;
  deleted: number;
  noops: number;
  versionConflicts: number;
}

/**
 * One worker of a by-scroll operation (`_reindex`, `_update_by_query`, `_delete_by_query`): its
 * counters as Elasticsearch's BulkByScrollTask.Status reports them, and its throttle. The
 * throttle waits before each batch until `last batch size / requests_per_second` seconds have
 * passed since the last batch started; a rethrottle that speeds the work up takes effect at
 * once, one that slows it down from the next batch (Elasticsearch's rule).
 */
export class ScrollWorker implements BatchCounts {
  total = 0;
  updated = 0;
  created = 0;
  deleted = 0;
  batches = 0;
  versionConflicts = 0;
  noops = 0;
  throttledMillis = 0;
  private lastBatchStart = 0;
  private lastBatchSize = 0;
  private wakeAt = 0;
  private wake: (() => void) | undefined;

  /** `requestsPerSecond`: Infinity for no throttling. */
  constructor(readonly sliceId: number | undefined, public requestsPerSecond: number) {}

  batchStarted(size: number): void {
    this.batches++;
    this.lastBatchStart = Date.now();
    this.lastBatchSize = size;
  }

  private dueAt(): number {
    return this.lastBatchStart + (this.lastBatchSize / this.requestsPerSecond) * 1000;
  }

  rethrottle(requestsPerSecond: number): void {
    this.requestsPerSecond = requestsPerSecond;
    if (this.wakeAt && this.dueAt() < this.wakeAt) {
      this.wakeAt = this.dueAt();
      this.wake?.();
    }
  }

  /** Waits as the throttle says before the next batch; a cancel ends the wait at once. */
  async throttle(task: Task): Promise<void> {
    if (this.lastBatchSize === 0) return;
    this.wakeAt = this.dueAt();
    const started = Date.now();
    const stopCancel = task.onCancel(() => this.wake?.());
    try {
      while (!task.cancelled && Date.now() < this.wakeAt) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(this.wakeAt - Date.now(), MAX_TIMER_MS));
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      stopCancel();
      this.wake = undefined;
      // Elasticsearch counts the delay the batch was finally scheduled with: a rethrottle to
      // unlimited leaves nothing counted, a cancel counts what was waited
      this.throttledMillis += Math.max(0, Math.min(this.wakeAt, Date.now()) - started);
      this.wakeAt = 0;
    }
  }

  /** Elasticsearch's status object (the task's `status`, a response's counters, one entry of `slices`). */
  status(fields: StatusFields, cancelReason: string | undefined): Json {
    const out: Json = {};
    if (this.sliceId !== undefined) out.slice_id = this.sliceId;
    out.total = this.total;
    if (fields.updated) out.updated = this.updated;
    if (fields.created) out.created = this.created;
    out.deleted = this.deleted;
    out.batches = this.batches;
    out.version_conflicts = this.versionConflicts;
    out.noops = this.noops;
    out.retries = { bulk: 0, search: 0 };
    out.throttled_millis = Math.round(this.throttledMillis);
    out.requests_per_second = rpsValue(this.requestsPerSecond);
    if (cancelReason !== undefined) out.canceled = cancelReason;
    out.throttled_until_millis = this.wakeAt ? Math.max(0, Math.round(this.wakeAt - Date.now())) : 0;
    return out;
  }
}

export function rpsValue(rps: number): number {
  return rps === Infinity ? -1 : rps;
}

const SUMMED = ['total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'throttled_millis'] as const;

/**
 * A sliced operation's status: the slices' counters summed, requests_per_second summed, the
 * nearest throttled_until, and each slice's own status under `slices` (Elasticsearch's merge).
 */
export function mergedStatus(slices: Json[], fields: StatusFields, cancelReason: string | undefined): Json {
  const out: Json = {};
  for (const k of SUMMED) {
    if ((k === 'updated' && !fields.updated) || (k === 'created' && !fields.created)) continue;
    out[k] = 0;
  }
  let rps = 0;
  let until = Infinity;
  for (const s of slices) {
    for (const k of SUMMED) if (k in out) out[k] = (out[k] as number) + ((s[k] as number | undefined) ?? 0);
    const r = s.requests_per_second as number;
    rps = rps === -1 || r === -1 ? -1 : rps + r;
    until = Math.min(until, s.throttled_until_millis as number);
  }
  const ordered: Json = {
    total: out.total,
    ...(fields.updated ? { updated: out.updated } : {}),
    ...(fields.created ? { created: out.created } : {}),
    deleted: out.deleted,
    batches: out.batches,
    version_conflicts: out.version_conflicts,
    noops: out.noops,
    retries: { bulk: 0, search: 0 },
    throttled_millis: out.throttled_millis,
    requests_per_second: rps,
  };
  if (cancelReason !== undefined) ordered.canceled = cancelReason;
  ordered.throttled_until_millis = until === Infinity ? 0 : until;
  ordered.slices = slices;
  return ordered;
}
