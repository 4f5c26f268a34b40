import { WHOLE_SLICE, type SliceLength } from '../../../cooperative/index.js';
import { errorBody, toEsError } from '../../../errors/index.js';
import { termsSliceOf } from '../search/slice.js';
import type { Task } from './task.js';
import type { TaskManager } from './task-manager.js';
import type { WorkQueue } from './work-queue.js';
import { ScrollWorker, mergedStatus, type StatusFields } from './scroll-worker.js';

type Json = Record<string, unknown>;

export const CANCELED_BY_USER = 'by user request';

/** A document a by-scroll operation works on (the operation's own target type extends it). */
export interface ScrollTarget {
  id: string;
}

/**
 * One `_reindex`, `_update_by_query` or `_delete_by_query`, described for the runner: how to find
 * its documents (in scroll order), how to split and pace them, and what to do with a batch. The
 * documents are found when the task runs: a background task searches when the queue gives it its
 * turn, not while its request is answered.
 */
export interface ScrollJob<T extends ScrollTarget> {
  action: string;
  description: string;
  fields: StatusFields;
  /** The request headers its tasks keep (rest/task-headers). */
  headers?: Readonly<Record<string, string>>;
  /** `slice`: how long a stretch of its work may hold the event loop (its share, in the background). */
  findTargets(slice: SliceLength): Promise<T[]>;
  /** Number of slices (1: not sliced). */
  slices: number;
  /** `max_docs` over the whole operation (split between slices). */
  maxDocs?: number;
  batchSize: number;
  /** Infinity: unlimited. */
  requestsPerSecond: number;
  /** A manually sliced request (`"slice": {"id", "max"}`): its slice id, shown in its status. */
  sliceId?: number;
  /** Does one batch's writes, counting them in `worker`, in stretches of `slice`; returns the failures that abort the operation. */
  processBatch(batch: T[], worker: ScrollWorker, slice: SliceLength): Promise<Json[]>;
  /** Runs once the work is over, before the response is built (e.g. `refresh`). */
  afterAll?(): Promise<void> | void;
}

/** The documents of slice `id` of `max`: the partition a sliced scroll on `_id` makes (Elasticsearch's TermsSliceQuery). */
export function inSlice(id: string, slice: number, max: number): boolean {
  return termsSliceOf(id, max) === slice;
}

interface SliceOutcome {
  worker: ScrollWorker;
  task: Task;
  failures: Json[];
  took: number;
}

async function runSlice<T extends ScrollTarget>(job: ScrollJob<T>, task: Task, worker: ScrollWorker, targets: T[], slice: SliceLength): Promise<SliceOutcome> {
  const started = performance.now();
  worker.total = targets.length;
  task.rethrottle = (rps) => worker.rethrottle(rps);
  const failures: Json[] = [];
  for (let from = 0; from < targets.length && !task.cancelled; from += job.batchSize) {
    await worker.throttle(task);
    if (task.cancelled) break;
    const batch = targets.slice(from, from + job.batchSize);
    worker.batchStarted(batch.length);
    failures.push(...(await job.processBatch(batch, worker, slice)));
    if (failures.length) break;
  }
  return { worker, task, failures, took: performance.now() - started };
}

function maxDocsOf(maxDocs: number | undefined, slice: number, slices: number): number | undefined {
  if (maxDocs === undefined) return undefined;
  return Math.floor(maxDocs / slices) + (slice < maxDocs % slices ? 1 : 0);
}

/** Elasticsearch's BulkByScrollResponse: took, timed_out, the status counters (no slice id), failures. */
function responseOf(status: Json, failures: Json[], took: number): Json {
  const { slice_id: _, ...counters } = status;
  return { took: Math.round(took), timed_out: false, ...counters, failures };
}

/**
 * Runs a by-scroll operation as a task: sliced into child tasks when asked, throttled and
 * cancellable between batches. `onTask` hears the task as soon as it exists (a background request
 * answers with its id). With `storeResult`, the outcome (the response, or the error the work
 * failed with) is stored for GET _tasks/{id} before the task leaves the running list, so whoever
 * waits for the task finds its result.
 */
export async function runScrollJob<T extends ScrollTarget>(
  manager: TaskManager, job: ScrollJob<T>, opts: { onTask?: (task: Task) => void; storeResult?: boolean; queue?: WorkQueue } = {},
): Promise<{ status: number; body: Json }> {
  const started = performance.now();
  const fields = job.fields;
  let workers: ScrollWorker[] = [];
  let children: Task[] = [];
  // a rethrottle before the work runs (queued, or looking for its documents) sets the rate it will start with
  let requestsPerSecond = job.requestsPerSecond;
  const parentStatus = (): Json =>
    children.length
      ? mergedStatus(workers.map((w, i) => w.status(fields, children[i].cancelReason)), fields, parent.cancelReason)
      : (workers[0] ?? new ScrollWorker(job.sliceId, requestsPerSecond)).status(fields, parent.cancelReason);
  const parent = manager.start({ action: job.action, description: job.description, cancellable: true, headers: job.headers, status: parentStatus });
  parent.rethrottle = (rps) => (requestsPerSecond = rps);
  opts.onTask?.(parent);
  let release: (() => void) | undefined;
  try {
    // Queued behind the background work already running (its id is known meanwhile).
    if (opts.queue) release = await opts.queue.acquire(parent);
    // cancelled while it waited: it ends without looking for its documents
    // background tasks share a slice of the event loop (WorkQueue.sliceLength)
    const slice = opts.queue?.sliceLength ?? WHOLE_SLICE;
    const targets = parent.cancelled ? [] : await job.findTargets(slice);
    let outcomes: SliceOutcome[];
    if (job.slices > 1) {
      const perSlice = requestsPerSecond / job.slices;
      workers = Array.from({ length: job.slices }, (_, i) => new ScrollWorker(i, perSlice));
      children = workers.map((w) => manager.start({ action: job.action, description: job.description, cancellable: true, parent, status: () => w.status(fields, undefined) }));
      parent.rethrottle = (rps) => {
        const open = children.filter((c) => c.rethrottle && !c.cancelled);
        for (const c of children) c.rethrottle?.(rps / Math.max(1, open.length));
      };
      outcomes = await Promise.all(workers.map((w, i) => {
        const mine = targets.filter((t) => inSlice(t.id, i, job.slices));
        const limit = maxDocsOf(job.maxDocs, i, job.slices);
        return runSlice(job, children[i], w, limit === undefined ? mine : mine.slice(0, limit), slice).finally(() => manager.finish(children[i]));
      }));
    } else {
      workers = [new ScrollWorker(job.sliceId, requestsPerSecond)];
      outcomes = [await runSlice(job, parent, workers[0], job.maxDocs === undefined ? targets : targets.slice(0, job.maxDocs), slice)];
    }
    await job.afterAll?.();
    const failures = outcomes.flatMap((o) => o.failures);
    const body = responseOf(parentStatus(), failures, performance.now() - started);
    const status = failures.reduce((max, f) => Math.max(max, Number(f.status) || 500), 200);
    if (opts.storeResult) await manager.storeResult(parent, { response: body });
    return { status, body };
  } catch (err) {
    if (opts.storeResult) {
      const { error } = errorBody(toEsError(err)) as { error: Json };
      const { root_cause: _, ...cause } = error;
      await manager.storeResult(parent, { error: cause });
    }
    throw err;
  } finally {
    release?.();
    manager.finish(parent);
  }
}

/** `wait_for_completion=false`: the job runs on after the answer `{"task": id}`, when the background queue gives it a turn. */
export function startInBackground<T extends ScrollTarget>(manager: TaskManager, job: ScrollJob<T>): Json {
  let id = '';
  runScrollJob(manager, job, { onTask: (task) => (id = task.fullId), storeResult: true, queue: manager.background }).catch((err: unknown) => {
    const e = toEsError(err);
    if (e.status >= 500) console.error('embedded engine: background task failed', err);
  });
  return { task: id };
}
