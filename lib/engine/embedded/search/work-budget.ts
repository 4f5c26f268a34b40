import { eventLoopTurn, WHOLE_SLICE, type SliceLength } from '../../../cooperative/index.js';
import { withSearchClock } from '../painless/index.js';

/**
 * `search.default_search_timeout` of this engine: a search that names no `timeout` stops
 * collecting after this long and answers what it has with `timed_out: true` (Elasticsearch's
 * default is -1, none; here no search may run forever).
 */
export const DEFAULT_SEARCH_TIMEOUT_MS = 30_000;

/** The longest a search's scripts may hold the event loop in one piece of work that cannot pause. */
export const MAX_SYNC_SCRIPT_MS = 1_000;

/** Work written as a generator: it yields where it may pause, and returns its result. */
export type Work<T> = Generator<void, T, void>;

/**
 * The clock of one request's long work. Contract: a long loop calls `check()` every few thousand
 * units of work (one clock read); when it answers true, the loop's generator yields and `drive`
 * gives the event loop a turn before resuming it. `timedOut` turns true once the deadline has
 * passed and stays so: loops that see it stop, and the work answers what it has.
 */
export class WorkBudget {
  /** Never pauses, never times out: work run to completion at once (`runAtOnce`). */
  static readonly unbounded = new WorkBudget(Infinity, false);

  timedOut = false;
  private sliceEnd: number;

  /**
   * `deadline` in performance.now() milliseconds (Infinity: none); `sliceLength`: how long a
   * stretch may hold the event loop (a background task's share of a slice); `pauseFor`: what a
   * pause awaits (others' turn: a turn of the event loop).
   */
  constructor(
    readonly deadline: number, private readonly cooperative = true, private readonly sliceLength: SliceLength = WHOLE_SLICE,
    private readonly pauseFor: () => Promise<void> = eventLoopTurn,
  ) {
    this.sliceEnd = performance.now() + sliceLength();
  }

  /** A budget of `timeoutMs` from `started` (performance.now() ms); a negative timeout is none. */
  static of(started: number, timeoutMs: number, sliceLength: SliceLength = WHOLE_SLICE, pauseFor: () => Promise<void> = eventLoopTurn): WorkBudget {
    return new WorkBudget(timeoutMs < 0 ? Infinity : started + timeoutMs, true, sliceLength, pauseFor);
  }

  /** True when the current slice is used up (the caller should yield); records a passed deadline. */
  check(): boolean {
    if (!this.cooperative) return false;
    const now = performance.now();
    if (now >= this.deadline) this.timedOut = true;
    return now >= this.sliceEnd;
  }

  /** Gives the event loop a turn when the slice is used up; for async callers between steps. */
  async pause(): Promise<void> {
    if (this.check()) await this.turn();
  }

  /**
   * Runs synchronous work of the search with the scripts it runs held to this budget's deadline
   * (painless/run-bounds.ts), and to MAX_SYNC_SCRIPT_MS from now: scripts in work that cannot
   * pause (an aggregation, a runtime field's values) hold the event loop at most that long; past
   * it the search has timed out, as past its deadline.
   */
  within<T>(fn: () => T): T {
    if (this.deadline === Infinity && !this.cooperative) return withSearchClock(this, fn);
    const clock = { deadline: Math.min(this.deadline, performance.now() + MAX_SYNC_SCRIPT_MS), timedOut: this.timedOut };
    try {
      return withSearchClock(clock, fn);
    } finally {
      if (clock.timedOut) this.timedOut = true;
    }
  }

  /** Runs work to its end, giving the event loop a turn at each pause it asks for. */
  async drive<T>(work: Work<T>): Promise<T> {
    for (;;) {
      const step = this.within(() => work.next());
      if (step.done) return step.value;
      await this.turn();
    }
  }

  /** Gives the event loop a turn now, and starts a new slice. */
  async turn(): Promise<void> {
    await this.pauseFor();
    this.sliceEnd = performance.now() + this.sliceLength();
  }
}

/** Runs work synchronously to its end (its pauses are skipped). */
export function runAtOnce<T>(work: Work<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
