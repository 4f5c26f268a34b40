/**
 * The bounds of one script run: statements, wall-clock time and memory. Contract:
 *
 * - Statements: every loop iteration, every call of one of the script's functions or lambdas and
 *   every element a library method walks (forEach, stream operations, distinct, sort, copies)
 *   spends one step of a budget shared by the whole run (`script.painless.max_loop_counter`,
 *   1,000,000). Painless counts per loop and per function; shared, a loop calling a function that
 *   loops runs 10^6 steps, not 10^12.
 * - Time: a run in a search reads the clock as it starts, and every run every 1024 steps (a regex
 *   scan spends a step per KiB). Past the run's own limit (MAX_RUN_MS of CPU time, see checkClock) it
 *   fails; past the deadline of the search it runs for (`withSearchClock`), it marks the search
 *   timed out and throws SearchTimedOut, which the search's per-document loops catch to answer
 *   what they collected (`timed_out: true`), as Elasticsearch does.
 * - Memory: strings, arrays and collections a run builds are charged, by size, to a ScriptMemory
 *   account: the run's own, or one an aggregation or fetch phase shares among its runs (what they
 *   keep outlives each run). Past its limit the run fails with a circuit_breaking_exception.
 *
 * Runs are synchronous and the engine runs on one thread, so the bounds of the run in progress
 * are one module-level value, saved and restored around a nested run (a runtime field a script
 * reads).
 */
import { threadCpuMs, WALL_FACTOR } from '../../../cooperative/index.js';
import { LOOP_LIMIT_MESSAGE, ScriptRuntimeError } from './script-error.js';

/** Painless's `script.painless.max_loop_counter`: here the steps of a whole run. */
export const MAX_LOOP_COUNTER = 1_000_000;

/** Wall-clock time one run may take (Elasticsearch leaves it to the JVM; here it would be the whole engine's time). */
export const MAX_RUN_MS = 2_000;

/** Bytes the values a run (or a phase's runs together) builds may take: strings 1 byte a character, arrays 8 a slot. */
export const MAX_SCRIPT_MEMORY_BYTES = 64 * 1024 * 1024;

/** A failure a script cannot catch (Painless's PainlessError and the bounds' failures). */
export class UncatchableScriptError extends ScriptRuntimeError {}

/** The step budget ran out: Painless's PainlessError. */
export class LoopLimitError extends UncatchableScriptError {
  constructor(message = LOOP_LIMIT_MESSAGE) {
    super('painless_error', message);
  }
}

/** Not a script failure: the search the run belongs to reached its `timeout`. */
export class SearchTimedOut extends Error {
  constructor() {
    super('the search reached its timeout');
    this.name = 'SearchTimedOut';
  }
}

/** What a search's scripts share: its deadline (performance.now() ms) and whether it has passed. */
export interface SearchClock {
  readonly deadline: number;
  timedOut: boolean;
}

/** Bytes charged to the runs that share the account. */
export class ScriptMemory {
  used = 0;
  constructor(readonly limit = MAX_SCRIPT_MEMORY_BYTES) {}

  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) {
      const would = this.used;
      this.used -= bytes;
      throw new UncatchableScriptError('circuit_breaking_exception',
        `[script] Data too large, data for [painless allocations] would be [${would}/${humanBytes(would)}], which is larger than the limit of [${this.limit}/${humanBytes(this.limit)}]`,
        { bytes_wanted: would, bytes_limit: this.limit, durability: 'TRANSIENT' });
    }
  }
}

function humanBytes(n: number): string {
  const units = ['b', 'kb', 'mb', 'gb'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)}${units[u]}`;
}

/** A clock that never runs out: runs outside a search, and work its timeout does not cut short (fetch, reduce). */
export const NO_SEARCH_CLOCK: SearchClock = { deadline: Infinity, timedOut: false };

interface Bounds {
  steps: number;
  /** performance.now() ms: the earlier of the run's own limit and the search's deadline (NaN: set at the first clock check). */
  deadline: number;
  /** performance.now() ms the outermost run's time started from (NaN until it is set with the deadline). */
  started: number;
  /** This thread's CPU ms and the performance.now() ms when they were read, once a run passed CPU_MARK_MS (NaN before). */
  cpuMark: number;
  cpuMarkAt: number;
  clock: SearchClock;
  memory: ScriptMemory;
  depth: number;
}

/** The run in progress (the compiled code reads `steps` at every back-edge). */
export const bounds: Bounds = { steps: MAX_LOOP_COUNTER, deadline: Infinity, started: NaN, cpuMark: NaN, cpuMarkAt: NaN, clock: NO_SEARCH_CLOCK, memory: new ScriptMemory(), depth: 0 };

/** A run this long (wall clock) reads the thread's CPU clock once, to be charged by CPU time at its limit. */
const CPU_MARK_MS = 100;

let searchClock: SearchClock = NO_SEARCH_CLOCK;

/** Runs `fn` (synchronous work of a search) with its scripts held to the search's clock. */
export function withSearchClock<T>(clock: SearchClock, fn: () => T): T {
  const outer = searchClock;
  searchClock = clock;
  try {
    return fn();
  } finally {
    searchClock = outer;
  }
}

/** The account of a run that shares none: one object, emptied at each outermost run. */
const ownMemory = new ScriptMemory();

/**
 * Starts a run under fresh bounds (`memory`: an account shared with other runs, if any); the
 * caller saves `bounds` before and restores them with `leaveRun` after. A nested run (a runtime
 * field a script reads) gets its own steps and keeps the outer run's deadline and memory.
 */
export function enterRun(memory: ScriptMemory | undefined): void {
  if (bounds.depth === 0) {
    const clock = searchClock;
    if (clock.timedOut) throw new SearchTimedOut();
    if (clock.deadline !== Infinity) {
      // One clock read per run in a search: a cheap script never reaches a back-edge's check.
      const now = performance.now();
      if (now >= clock.deadline) {
        clock.timedOut = true;
        throw new SearchTimedOut();
      }
      bounds.started = now;
      bounds.deadline = Math.min(now + MAX_RUN_MS, clock.deadline);
    } else {
      // Outside a search the run's own limit starts at its first clock check (1024 steps in).
      bounds.started = NaN;
      bounds.deadline = NaN;
    }
    bounds.cpuMark = NaN;
    bounds.clock = clock;
    if (memory) bounds.memory = memory;
    else {
      ownMemory.used = 0;
      bounds.memory = ownMemory;
    }
  } else if (memory) bounds.memory = memory;
  bounds.steps = MAX_LOOP_COUNTER;
  bounds.depth++;
}

/** Ends a run: the bounds saved before `enterRun` are in force again. */
export function leaveRun(steps: number, deadline: number, clock: SearchClock, memory: ScriptMemory): void {
  bounds.depth--;
  bounds.steps = steps;
  bounds.deadline = deadline;
  bounds.clock = clock;
  bounds.memory = memory;
}

/** Spends `n` steps of the run (a library method walking `n` elements); checks the clock as a back-edge does. */
export function spend(n: number): void {
  if (bounds.depth === 0) return;
  const before = bounds.steps;
  bounds.steps -= n;
  if (bounds.steps < 0) throw new LoopLimitError();
  if ((before >> 10) !== (bounds.steps >> 10)) checkClock();
}

/** Charges `bytes` to the run's memory account. */
export function charge(bytes: number): void {
  if (bounds.depth === 0) return;
  bounds.memory.charge(bytes);
}

/**
 * The clock check of a back-edge (every 1024 steps): the run's limit, then the search's deadline.
 * The run's limit is MAX_RUN_MS of this thread's CPU time where the system tells it (read once when
 * the run passes CPU_MARK_MS, and again at the limit: a run that waited for a CPU on a busy machine
 * is given the rest), and never more than WALL_FACTOR times that in wall-clock time. The search's
 * `timeout` is wall-clock time, as in Elasticsearch.
 */
export function checkClock(): void {
  const now = performance.now();
  if (Number.isNaN(bounds.deadline)) {
    bounds.started = now;
    bounds.deadline = Math.min(now + MAX_RUN_MS, bounds.clock.deadline);
  }
  if (Number.isNaN(bounds.cpuMark) && now - bounds.started >= CPU_MARK_MS) {
    bounds.cpuMark = threadCpuMs() ?? Infinity;
    bounds.cpuMarkAt = now;
  }
  if (now < bounds.deadline) return;
  if (now >= bounds.clock.deadline) {
    bounds.clock.timedOut = true;
    throw new SearchTimedOut();
  }
  if (Number.isFinite(bounds.cpuMark) && now - bounds.started < MAX_RUN_MS * WALL_FACTOR) {
    // the time before the mark is counted as if the run had the CPU all along
    const used = bounds.cpuMarkAt - bounds.started + (threadCpuMs() ?? Infinity) - bounds.cpuMark;
    if (used < MAX_RUN_MS) {
      bounds.deadline = Math.min(now + Math.max(10, MAX_RUN_MS - used), bounds.clock.deadline);
      return;
    }
  }
  throw new UncatchableScriptError('painless_error', `The script ran for longer than the limit of [${MAX_RUN_MS}ms] for one execution.`);
}
