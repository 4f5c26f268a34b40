import { finalize, map, Observable, share } from 'rxjs';
import { coalescedRuns } from './coalesced-runs.js';

/** A computation shared by the streams that ask the same, as one of them holds it. */
export interface SharedRun<R> {
  /** Every value computed (numbered by run), while subscribed; the first subscriber starts it. */
  readonly values: Observable<{ run: number; value: R; position?: string }>;
  /** Runs started so far: a stream ignores the values of runs that started before it read its own answer. */
  readonly runs: number;
}

export interface SharedRunSpec<R> {
  /** Changes that may alter the answer (their positions): subscribed once for every stream. */
  triggers: Observable<string | undefined>;
  compute(): Promise<R>;
  intervalMs: number;
  settleMs: number;
}

interface Entry<R> {
  values: Observable<{ run: number; value: R; position?: string }>;
  runs: number;
}

/**
 * Computations shared by key: streams that ask the same (a hundred browsers on one search UI)
 * join one pipeline — triggers → `coalescedRuns` → values, shared with
 * `share({ resetOnRefCountZero: true })` — instead of computing the same answer a hundred times.
 * The first stream's spec builds it; it stops (and its key is free again) when the last leaves.
 */
export class SharedRuns {
  private readonly entries = new Map<string, Entry<unknown>>();
  /** Computations made since start, every key. */
  computations = 0;

  /** `limit`: the node's limit on live computations in flight (see CoalescedRunsOptions.limit). */
  constructor(private readonly limit?: <R>(work: () => Promise<R>) => Promise<R>) {}

  /** Keys computing now. */
  get size(): number {
    return this.entries.size;
  }

  join<R>(key: string, spec: () => SharedRunSpec<R>): SharedRun<R> {
    let entry = this.entries.get(key) as Entry<R> | undefined;
    if (!entry) {
      const { triggers, compute, intervalMs, settleMs } = spec();
      const made: Entry<R> = { values: undefined as unknown as Entry<R>['values'], runs: 0 };
      made.values = triggers.pipe(
        coalescedRuns(compute, {
          intervalMs,
          settleMs,
          limit: this.limit,
          onStart: () => {
            made.runs++;
            this.computations++;
          },
        }),
        map((r) => ({ run: made.runs, value: r.value, position: r.trigger })),
        finalize(() => {
          if (this.entries.get(key) === made) this.entries.delete(key);
        }),
        share({ resetOnRefCountZero: true }),
      );
      this.entries.set(key, made as Entry<unknown>);
      entry = made;
    }
    const e = entry;
    return {
      values: e.values,
      get runs() {
        return e.runs;
      },
    };
  }
}
