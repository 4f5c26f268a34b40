/**
 * The aggregation phase a time slice at a time. Aggregations are synchronous code, so the phase
 * cannot pause where it stands; instead it runs in passes, and what a pass finished is kept:
 * every run of an aggregation over a bucket's documents (`AggregationType.run`, sub-aggregations
 * included) and every run of a pipeline's per-bucket script (bucket_script, bucket_selector,
 * moving_fn) is a step. A pass replays the steps done before from this record and does new ones
 * until its slice is used up, then stops (`AggregationPaused`); the caller gives the event loop a
 * turn and starts the next pass, until one completes. A step that holds steps (a bucket
 * aggregation's run over its sub-aggregations' runs) is not kept when the pass stops inside it:
 * the next pass runs it again, replaying the steps it holds.
 *
 * Contract: the aggregation phase is deterministic for one request (the same documents, the same
 * `now`, the same order of runs), so a step is known by its place — the n-th step of its key
 * within the step that runs it — in every pass, and its kept result is what it would compute
 * again. A step runs at
 * most once: a scripted_metric's combine and reduce, which may change the state they are given,
 * are not run twice. A pass finishes one new step at least; from the start of its first new step
 * it goes on for the longer of SLICE_MS and the time it took to get there (its replay), so the
 * passes together cost at most about twice the phase in one piece, and a pass holds the event loop
 * for about twice its replay or SLICE_MS, plus the step it was in. Work a step that holds steps does
 * before and between them is done again at each pass that enters it: what costs more than a step
 * is a step of its own (`asStep`), so a replay costs little.
 */
import { SLICE_MS } from '../../../../cooperative/index.js';

/** Thrown out of a pass whose slice is used up: not a failure, the phase goes on in the next pass. */
export class AggregationPaused extends Error {
  constructor() {
    super('the aggregation phase paused');
    this.name = 'AggregationPaused';
  }
}

interface Done {
  value: unknown;
  /** Buckets the step counted against `search.max_buckets` (counted again when it is replayed). */
  buckets: number;
}

/** A step, by its place: the n-th step of a key within the step that runs it (or within the phase). */
interface Step {
  done?: Done;
  /** The steps it runs, by key then place; dropped once it is done (a replay does not enter it). */
  inner: Map<object, Step[]>;
  /** Steps of each key it started in its current run. */
  calls: Map<object, number>;
}

const newStep = (): Step => ({ inner: new Map(), calls: new Map() });

export class AggregationSteps {
  private readonly phase = newStep();
  /** The steps running now, the phase first. */
  private running: Step[] = [this.phase];
  private passStarted = 0;
  /** performance.now() past which a new step pauses the pass (NaN: no new step started yet in this pass). */
  private until = NaN;
  /** A new step finished in this pass (the pass may pause before the next). */
  private moved = false;

  /** Starts a pass. */
  begin(): void {
    this.phase.calls.clear();
    this.running = [this.phase];
    this.passStarted = performance.now();
    this.until = NaN;
    this.moved = false;
  }

  /**
   * A new step is to start: the first of a pass sets the pass's end, as long again as the replay
   * took to get there (SLICE_MS at least); false once that end has passed and a new step finished.
   */
  private mayStart(): boolean {
    const now = performance.now();
    if (Number.isNaN(this.until)) this.until = now + Math.max(SLICE_MS, now - this.passStarted);
    return !this.moved || now < this.until;
  }

  /**
   * The result of the next step of `key` in the step running now: kept from an earlier pass, or
   * computed by `fn` now (and kept); `counter` is the response's bucket count, which a replayed
   * step adds its buckets to. Throws AggregationPaused instead of starting a new step once the
   * pass's slice is used up.
   */
  step<T>(key: object, counter: { count: number } | undefined, fn: () => T): T {
    const outer = this.running[this.running.length - 1];
    const n = outer.calls.get(key) ?? 0;
    outer.calls.set(key, n + 1);
    let places = outer.inner.get(key);
    if (!places) outer.inner.set(key, (places = []));
    const step = (places[n] ??= newStep());
    if (step.done) {
      // counted once already at this point of an earlier pass, within the limit
      if (counter) counter.count += step.done.buckets;
      return step.done.value as T;
    }
    // a pass finishes one new step at least, so every pass moves the phase on
    if (!this.mayStart()) throw new AggregationPaused();
    const before = counter?.count ?? 0;
    step.calls.clear();
    this.running.push(step);
    let value: T;
    try {
      value = fn();
    } finally {
      this.running.pop();
    }
    step.done = { value, buckets: (counter?.count ?? 0) - before };
    step.inner.clear();
    this.moved = true;
    return value;
  }
}

/** `fn()` as the next step of `key` when the phase runs in passes (`steps`), else at once. */
export function asStep<T>(steps: AggregationSteps | undefined, key: object, counter: { count: number } | undefined, fn: () => T): T {
  return steps ? steps.step(key, counter, fn) : fn();
}
