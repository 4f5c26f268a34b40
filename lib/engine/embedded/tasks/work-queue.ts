import { SLICE_MS } from '../../../cooperative/index.js';
import type { Task } from './task.js';

/** Background by-scroll tasks (`wait_for_completion=false`) that run at once; the others wait their turn. */
export const MAX_RUNNING_BACKGROUND_TASKS = 4;

/**
 * A first-come, first-served queue in front of background work, with a concurrency limit. A
 * task that has to wait is queued, not refused: it exists (GET _tasks lists it, its id was
 * answered) and runs when a slot frees. A task cancelled while it waits takes its turn at once,
 * so that it ends (doing nothing) without waiting for the work ahead of it.
 */
export class WorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit = MAX_RUNNING_BACKGROUND_TASKS) {}

  /**
   * A running task's stretch of work (SliceLength): the tasks share one slice, so the few that run
   * at once hold the event loop about SLICE_MS in a turn where each takes its stretch, not each a
   * whole slice (four update_by_query tasks held it 60–80 ms).
   */
  readonly sliceLength = (): number => SLICE_MS / Math.max(1, this.running);

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.running;
  }

  /** Waits for a slot for `task`; resolves with its release (to call once, when the work is over). */
  async acquire(task: Task): Promise<() => void> {
    if (task.cancelled) return () => {};
    if (this.running < this.limit) {
      this.running++;
      return this.releaser();
    }
    const slot = await new Promise<boolean>((resolve) => {
      const turn = () => {
        stopListening();
        resolve(true);
      };
      // Cancelled while waiting: leaves the queue without a slot (its work will do nothing).
      const stopListening = task.onCancel(() => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      });
      this.waiting.push(turn);
    });
    return slot ? this.releaser() : () => {};
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next(); // the slot passes on: `running` stays
      else this.running--;
    };
  }
}
