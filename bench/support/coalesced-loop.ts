import type { LimitFunction } from 'p-limit';

/**
 * Work run again after changes, on the gateway's schedule for a live aggregation
 * (lib/streams/coalesced-runs.ts, without RxJS), for the dashboards' floors: the first change runs
 * it at once, later ones mark it dirty, and the next run starts once the previous one has ended
 * and `intervalMs` has passed since it started — at its room under `limit`, covering the changes
 * made while it waited; never two at once. A run that fails stops the loop (`error`).
 */
export interface CoalescedLoop {
  /** A change the work must see. */
  changed(): void;
  /** Runs started. */
  readonly runs: number;
  readonly error?: Error;
  stop(): void;
}

export function coalescedLoop(work: () => Promise<void>, limit: LimitFunction, intervalMs: number): CoalescedLoop {
  let dirty = false;
  let running = false;
  let stopped = false;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let runs = 0;
  let error: Error | undefined;
  const schedule = () => {
    if (running || timer || stopped || !dirty) return;
    timer = setTimeout(start, Math.max(0, lastStart + intervalMs - performance.now()));
  };
  const start = async () => {
    timer = undefined;
    running = true;
    try {
      await limit(async () => {
        if (stopped) return;
        dirty = false;
        lastStart = performance.now();
        runs++;
        await work();
      });
    } catch (err) {
      error = err as Error;
      stopped = true;
    } finally {
      running = false;
    }
    schedule();
  };
  return {
    changed() {
      dirty = true;
      schedule();
    },
    get runs() {
      return runs;
    },
    get error() {
      return error;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
