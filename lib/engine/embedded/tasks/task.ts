import type { TaskId } from './task-id.js';

type Json = Record<string, unknown>;

export interface TaskSpec {
  action: string;
  description: string;
  parent?: Task;
  cancellable: boolean;
  /** The request headers the task keeps (X-Opaque-Id); a child task has its parent's. */
  headers?: Readonly<Record<string, string>>;
  /** The task's live status (detailed listings and GET _tasks/{id}). */
  status?: () => Json;
}

/**
 * A running task on this node, as Elasticsearch's task manager describes one. Cancelling is
 * cooperative: the work checks `cancelled` between batches and listens with `onCancel` while it
 * waits; cancelling a parent cancels its children with the same reason.
 */
export class Task implements TaskId {
  readonly startMillis = Date.now();
  private readonly startNanos = process.hrtime.bigint();
  readonly children = new Set<Task>();
  private reason: string | undefined;
  private readonly cancelListeners = new Set<() => void>();
  /** Set by the work that honours `_rethrottle` (requests per second; Infinity: unlimited). */
  rethrottle?: (requestsPerSecond: number) => void;

  constructor(readonly node: string, readonly id: number, private readonly spec: TaskSpec) {}

  get fullId(): string {
    return `${this.node}:${this.id}`;
  }

  get action(): string {
    return this.spec.action;
  }

  get description(): string {
    return this.spec.description;
  }

  get parent(): Task | undefined {
    return this.spec.parent;
  }

  get headers(): Readonly<Record<string, string>> {
    return this.spec.headers ?? this.spec.parent?.headers ?? {};
  }

  get cancellable(): boolean {
    return this.spec.cancellable;
  }

  get cancelled(): boolean {
    return this.reason !== undefined;
  }

  get cancelReason(): string | undefined {
    return this.reason;
  }

  get runningNanos(): number {
    return Number(process.hrtime.bigint() - this.startNanos);
  }

  cancel(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    for (const l of this.cancelListeners) l();
    for (const child of this.children) child.cancel(reason);
  }

  /** Calls `listener` once the task is cancelled; returns its removal. */
  onCancel(listener: () => void): () => void {
    this.cancelListeners.add(listener);
    return () => this.cancelListeners.delete(listener);
  }

  /** Elasticsearch's TaskInfo: status and description only when `detailed`. */
  info(detailed: boolean): Json {
    const out: Json = { node: this.node, id: this.id, type: 'transport', action: this.spec.action };
    if (detailed && this.spec.status) out.status = this.spec.status();
    if (detailed) out.description = this.spec.description;
    out.start_time_in_millis = this.startMillis;
    out.running_time_in_nanos = this.runningNanos;
    out.cancellable = this.spec.cancellable;
    if (this.spec.cancellable) out.cancelled = this.cancelled;
    if (this.spec.parent) out.parent_task_id = this.spec.parent.fullId;
    out.headers = { ...this.headers };
    return out;
  }
}
