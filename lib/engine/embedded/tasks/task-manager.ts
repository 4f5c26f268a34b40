import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { Store } from '../store/index.js';
import { Task, type TaskSpec } from './task.js';
import { WorkQueue } from './work-queue.js';
import { formatTaskId, type TaskId } from './task-id.js';

type Json = Record<string, unknown>;

const RESULT_KEY = 'task_result:';
/** GET _tasks/{id}?wait_for_completion=true waits this long unless told otherwise (Elasticsearch's default). */
export const DEFAULT_WAIT_MS = 30_000;

/** What Elasticsearch stores in `.tasks` for a finished background task, and GET _tasks/{id} answers. */
export interface TaskResult {
  completed: true;
  task: Json;
  response?: Json;
  error?: Json;
}

/** Which running tasks a listing (or a cancel by filter) is about. */
export interface TaskFilter {
  actions?: string[];
  parent?: TaskId;
  nodes?: (nodeId: string) => boolean;
}

/**
 * The engine's task manager: ids `<node id>:<number>`, the running tasks, and the stored results
 * of background tasks (`wait_for_completion=false`). Results are kept in the store as cluster
 * records (Elasticsearch keeps them in its `.tasks` index), so they survive a restart; numbering
 * goes on above the highest stored id, so a new task never takes an old result's id.
 */
export class TaskManager {
  private seq = 0;
  private readonly running = new Map<number, Task>();
  private readonly finished = new Map<number, Array<() => void>>();
  private readonly results = new Map<string, TaskResult>();
  /** Background by-scroll work runs through this queue (a concurrency limit; the rest wait). */
  readonly background = new WorkQueue();

  constructor(readonly nodeId: string, private readonly store?: Store) {
    for (const { key, value } of store?.loadCluster() ?? []) {
      if (!key.startsWith(RESULT_KEY)) continue;
      const id = key.slice(RESULT_KEY.length);
      this.results.set(id, value as TaskResult);
      const n = Number(id.slice(id.lastIndexOf(':') + 1));
      if (id.startsWith(`${nodeId}:`) && n > this.seq) this.seq = n;
    }
  }

  /** Registers a task (a child joins its parent's children). */
  start(spec: TaskSpec): Task {
    const task = new Task(this.nodeId, ++this.seq, spec);
    this.running.set(task.id, task);
    spec.parent?.children.add(task);
    if (spec.parent?.cancelled) task.cancel(spec.parent.cancelReason!);
    return task;
  }

  /** The task is over: it leaves the running list, and whoever waits for it is told. */
  finish(task: Task): void {
    this.running.delete(task.id);
    task.parent?.children.delete(task);
    for (const wake of this.finished.get(task.id) ?? []) wake();
    this.finished.delete(task.id);
  }

  /** Stores a background task's outcome (what GET _tasks/{id} answers from then on). */
  async storeResult(task: Task, outcome: { response: Json } | { error: Json }): Promise<void> {
    const result: TaskResult = { completed: true, task: task.info(true), ...outcome };
    this.results.set(task.fullId, result);
    await this.store?.write([{ kind: 'cluster', key: RESULT_KEY + task.fullId, value: result }]);
  }

  runningTask(id: TaskId): Task | undefined {
    return id.node === this.nodeId ? this.running.get(id.id) : undefined;
  }

  /** Running tasks that pass the filter, oldest first. */
  list(filter: TaskFilter = {}): Task[] {
    const patterns = filter.actions?.length ? filter.actions : undefined;
    return [...this.running.values()].filter((t) =>
      (!patterns || patterns.some((p) => simpleMatch(p, t.action))) &&
      (!filter.parent || (t.parent !== undefined && t.parent.node === filter.parent.node && t.parent.id === filter.parent.id)) &&
      (!filter.nodes || filter.nodes(t.node)),
    );
  }

  /**
   * GET _tasks/{id}: the running task, or its stored result; with `waitMs`, waits for a running
   * task to finish first (a task that stored no result answers with its state when it finished).
   */
  async get(id: TaskId, waitMs: number | undefined): Promise<Json> {
    const task = this.runningTask(id);
    const text = formatTaskId(id);
    if (!task) return this.stored(id);
    if (waitMs === undefined) return { completed: false, task: task.info(true) };
    await this.waitFor(task, waitMs);
    const stored = this.results.get(text);
    return stored ? { ...stored } : { completed: true, task: task.info(true) };
  }

  /** Waits until `task` is finished, at most `waitMs` (then Elasticsearch's timeout error). */
  waitFor(task: Task, waitMs: number): Promise<void> {
    if (!this.running.has(task.id)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        wakers.splice(wakers.indexOf(done), 1);
        reject(new EsError(500, 'elasticsearch_timeout_exception', 'Timed out waiting for completion of task'));
      }, waitMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const wakers = this.finished.get(task.id) ?? [];
      wakers.push(done);
      this.finished.set(task.id, wakers);
    });
  }

  private stored(id: TaskId): Json {
    const text = formatTaskId(id);
    const result = this.results.get(text);
    if (result) return { ...result };
    if (id.node !== this.nodeId) {
      throw new EsError(404, 'resource_not_found_exception', `task [${text}] belongs to the node [${id.node}] which isn't part of the cluster and there is no record of the task`, {
        caused_by: { type: 'resource_not_found_exception', reason: `task [${text}] isn't running and hasn't stored its results` },
      });
    }
    throw new EsError(404, 'resource_not_found_exception', `task [${text}] isn't running and hasn't stored its results`);
  }
}
