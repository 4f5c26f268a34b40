import { Observable, type OperatorFunction } from 'rxjs';

export interface CoalescedRunsOptions {
  /** At most one run starts per this many ms. */
  intervalMs: number;
  /**
   * An engine that shows a change at its next refresh (Elasticsearch): the last change is run
   * once more this long after it, when it is visible. 0: an acknowledged write is visible at once.
   */
  settleMs: number;
  /** Told when a run starts (before `work` is called). */
  onStart?: (run: number) => void;
  /**
   * Runs `work` when the node has room for it (a limit on live computations shared by every
   * feed of the node: under more changes than it can compute, answers come later, the node
   * stays responsive). Absent: at once.
   */
  limit?: <R>(work: () => Promise<R>) => Promise<R>;
}

/** One run's outcome: its number (from 1), its value, and the last trigger it covers. */
export interface Run<T, R> {
  run: number;
  value: R;
  trigger: T;
}

/**
 * Turns triggers (changes that may alter an answer) into runs of `work` (computing the answer
 * again), coalesced: the first trigger starts a run at once, later ones mark the answer dirty and
 * the next run starts when the interval since the previous one's start has passed and it has
 * finished — never two at once, never more than one waiting, whatever the rate of triggers. A
 * run that fails errors the output. The source completing or erroring does the same to the output
 * (runs in progress are dropped).
 *
 * A run starts when `work` is called: one that waits for room under `limit` covers the triggers
 * that arrive while it waits (it reads the answer after them), and its `trigger` is the last of
 * them. Marking the answer clean when the run was only queued made every trigger of that wait
 * cost one run more: under more changes than the node computes, each feed computed twice for
 * each wait, which made the waits longer (the dashboards bench at 100 feeds: p50 of seconds).
 */
export function coalescedRuns<T, R>(work: () => Promise<R>, options: CoalescedRunsOptions): OperatorFunction<T, Run<T, R>> {
  return (triggers) =>
    new Observable<Run<T, R>>((subscriber) => {
      let dirty = false;
      let running = false;
      let stopped = false;
      let lastStart = -Infinity;
      let runs = 0;
      let latest: T | undefined;
      let timer: NodeJS.Timeout | undefined;
      let settle: NodeJS.Timeout | undefined;

      const schedule = () => {
        if (running || timer || stopped) return;
        timer = setTimeout(start, Math.max(0, lastStart + options.intervalMs - Date.now()));
        timer.unref();
      };
      const start = async () => {
        timer = undefined;
        if (!dirty || stopped) return;
        running = true;
        let run = 0;
        let trigger: T;
        // the run starts here, with room under the limit: what came while it waited is covered
        const begin = (): Promise<R> => {
          if (stopped) return Promise.resolve(undefined as R);
          dirty = false;
          lastStart = Date.now();
          run = ++runs;
          trigger = latest as T;
          options.onStart?.(run);
          return work();
        };
        let value: R;
        try {
          value = await (options.limit ? options.limit(begin) : begin());
        } catch (err) {
          if (!stopped) subscriber.error(err);
          return;
        } finally {
          running = false;
        }
        if (stopped) return;
        subscriber.next({ run, value, trigger: trigger! });
        if (dirty) schedule();
      };
      const mark = () => {
        dirty = true;
        schedule();
      };
      const subscription = triggers.subscribe({
        next: (trigger) => {
          latest = trigger;
          mark();
          if (options.settleMs > 0) {
            clearTimeout(settle);
            settle = setTimeout(mark, options.settleMs);
            settle.unref();
          }
        },
        error: (err) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      return () => {
        stopped = true;
        clearTimeout(timer);
        clearTimeout(settle);
        subscription.unsubscribe();
      };
    });
}
