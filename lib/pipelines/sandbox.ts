import { threadCpuMs, TimeSlice, WALL_FACTOR } from '../cooperative/index.js';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from 'quickjs-emscripten';

export interface SandboxLimits {
  /**
   * Time budget of one script run, in ms of the CPU time of the thread running it
   * (PIPELINE_SCRIPT_TIMEOUT_MS): a run starved of CPU by a busy machine is not charged for the
   * wait, up to WALL_FACTOR times the budget in wall-clock time.
   */
  timeoutMs: number;
  /** Heap limit of one script run, in MB (PIPELINE_SCRIPT_MEMORY_MB). */
  memoryMb: number;
}

/** A user script failed: it threw, overran its time or memory, or returned something unusable. */
export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** The compiled QuickJS module is shared; every run gets its own runtime and context. */
let quickjs: QuickJSWASMModule | undefined;
let loading: Promise<QuickJSWASMModule> | undefined;

/**
 * The interrupt check of one run: false until the run has used its budget. Time is read from the
 * wall clock until the budget has passed, then from this thread's CPU clock, so a run that
 * waited for a CPU (a machine busy with other work) gets the rest of its budget, up to
 * WALL_FACTOR times the budget in wall-clock time.
 */
function budgetCheck(timeoutMs: number): () => boolean {
  const started = Date.now();
  const cpuAtStart = threadCpuMs();
  let recheckAt = started + timeoutMs;
  return () => {
    const now = Date.now();
    if (now <= recheckAt) return false;
    if (now - started >= timeoutMs * WALL_FACTOR || cpuAtStart === undefined) return true;
    const used = threadCpuMs()! - cpuAtStart;
    if (used >= timeoutMs) return true;
    recheckAt = now + Math.max(10, timeoutMs - used);
    return false;
  };
}

export async function loadSandbox(): Promise<void> {
  if (quickjs) return;
  loading ??= newSandboxModule();
  quickjs = await loading;
}

/**
 * The WebAssembly heap of one QuickJS module grows to this much at most. Some allocations escape
 * QuickJS's memory accounting (a script's limit, PIPELINE_SCRIPT_MEMORY_MB): a script filling
 * arrays of a million elements grew an unbounded heap to 2 GB, in every worker, before its limit
 * stopped it. At this size the module's allocations fail, and the script with them, as out of memory.
 * The heap never shrinks, and needs not: a run frees all it took when its runtime is disposed, and
 * the next one reuses it. (Replacing a grown module by a fresh one, as before the cap, left the old
 * heaps to a garbage collector that a worker's small JavaScript heap seldom runs: a worker failing
 * such scripts again and again held several of them.)
 */
const WASM_HEAP_MAX_BYTES = 256 * 1024 * 1024;
/** The module's own starting size (Emscripten's INITIAL_MEMORY of the release build), in 64 KB pages. */
const WASM_INITIAL_PAGES = 256;

/** Node's WebAssembly global (the project's TypeScript libraries do not declare it). */
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => object } };

function newSandboxModule(): Promise<QuickJSWASMModule> {
  const wasmMemory = new wasm.Memory({ initial: WASM_INITIAL_PAGES, maximum: WASM_HEAP_MAX_BYTES / 65_536 });
  return newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory }));
}

function engine(): QuickJSWASMModule {
  if (!quickjs) throw new Error('the script sandbox is not loaded (call loadSandbox first)');
  return quickjs;
}

/**
 * What a script sees besides `context` and `inputs`: a silent console. Nothing of the host is
 * reachable: the QuickJS context has no require, process, file system, network or timers, and
 * data crosses the boundary only as JSON text.
 */
const PRELUDE = `
globalThis.context = JSON.parse(__input).context;
globalThis.inputs = JSON.parse(__input).inputs;
delete globalThis.__input;
globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
`;

const DRIVER = `(async () => {
  if (typeof handleRequest !== 'function') throw new Error('the script defines no function handleRequest()');
  const result = await handleRequest(context);
  return result === undefined || result === null ? '' : JSON.stringify(result);
})()`;

/** Brackets a script may nest: far past any written by hand, far below what the parser's stack holds. */
export const MAX_SCRIPT_NESTING = 1_000;

/**
 * The deepest nesting of `(`, `[` and `{` in a script, outside its strings and comments, in one
 * linear scan that stops past `limit`: a script of a million nested parentheses is refused here,
 * in a few milliseconds, instead of being copied into the parser to overflow its stack.
 */
export function nestingDepth(source: string, limit = MAX_SCRIPT_NESTING): number {
  const scan = new NestingScan(source, limit);
  scan.step(source.length);
  return scan.max;
}

/** Characters of a script scanned between two looks at the clock (`nestingDepthCooperatively`). */
const NESTING_STEP_CHARS = 64 * 1024;

/**
 * `nestingDepth`, a time slice at a time: the scan of a legal 2 MB script takes 10–20 ms of the
 * event loop's thread (the pool runs it before handing a script to a worker).
 */
export async function nestingDepthCooperatively(source: string, limit = MAX_SCRIPT_NESTING): Promise<number> {
  const scan = new NestingScan(source, limit);
  const slice = new TimeSlice();
  while (!scan.step(NESTING_STEP_CHARS)) await slice.pause();
  return scan.max;
}

/** The code units that begin or end something in code: brackets, quotes, a slash. */
const MARKS = new Uint8Array(128);
for (const c of '()[]{}"\'`/') MARKS[c.charCodeAt(0)] = 1;

const enum Within { Code, Quoted, Escaped, Slash, LineComment, BlockComment, BlockStar }

/**
 * The scan behind `nestingDepth`, resumable and fed in pieces: a script's text (`step`), or its
 * UTF-8 bytes as they arrive (`writeBytes`, a multipart body's file part: a multi-byte character's
 * bytes are never ASCII, so brackets, quotes and comments read the same in bytes as in text). One
 * code unit at a time through a small state machine, so a string or comment may span pieces.
 */
export class NestingScan {
  max = 0;
  private depth = 0;
  private i = 0;
  private within = Within.Code;
  private quote = 0;

  constructor(private readonly source = '', private readonly limit = MAX_SCRIPT_NESTING) {}

  /** True once the nesting went past the limit (the scan then stops). */
  get over(): boolean {
    return this.max > this.limit;
  }

  /** Scans on from where it stopped; true once the scan is over (the end, or past the limit). */
  step(chars: number): boolean {
    const { source } = this;
    const until = Math.min(source.length, this.i + chars);
    let i = this.i;
    for (; i < until && !this.over; i++) {
      const c = source.charCodeAt(i);
      // most of a script is plain code: one look at a table
      if (this.within !== Within.Code || MARKS[c] === 1) this.take(c);
    }
    this.i = i;
    return this.over || i >= source.length;
  }

  /** Scans `bytes` more of the script's UTF-8; true once past the limit. */
  writeBytes(bytes: Uint8Array): boolean {
    for (let i = 0; i < bytes.length && !this.over; i++) {
      const c = bytes[i]!;
      if (this.within !== Within.Code || MARKS[c] === 1) this.take(c);
    }
    return this.over;
  }

  private take(c: number): void {
    switch (this.within) {
      case Within.Quoted:
        // a string or template literal, to its closing quote (escapes included)
        if (c === 92) this.within = Within.Escaped;
        else if (c === this.quote) this.within = Within.Code;
        return;
      case Within.Escaped:
        this.within = Within.Quoted;
        return;
      case Within.LineComment:
        if (c === 10) this.within = Within.Code;
        return;
      case Within.BlockComment:
        if (c === 42) this.within = Within.BlockStar;
        return;
      case Within.BlockStar:
        this.within = c === 47 ? Within.Code : c === 42 ? Within.BlockStar : Within.BlockComment;
        return;
      case Within.Slash:
        if (c === 47) return void (this.within = Within.LineComment);
        if (c === 42) return void (this.within = Within.BlockComment);
        this.within = Within.Code;
        return this.take(c);
      case Within.Code:
        if (c === 40 || c === 91 || c === 123) {
          if (++this.depth > this.max) this.max = this.depth;
        } else if (c === 41 || c === 93 || c === 125) this.depth = Math.max(0, this.depth - 1);
        else if (c === 34 || c === 39 || c === 96) {
          this.quote = c;
          this.within = Within.Quoted;
        } else if (c === 47) this.within = Within.Slash;
        return;
      default: {
        const unknown: never = this.within;
        return unknown;
      }
    }
  }
}

/** The refusal of a script nested past MAX_SCRIPT_NESTING. */
export const tooDeep = (): ScriptError => new ScriptError(`the script is nested too deeply to compile (more than ${MAX_SCRIPT_NESTING} levels)`);

/** Throws a ScriptError when the source does not parse. */
export function checkSyntax(source: string, name: string): void {
  if (nestingDepth(source) > MAX_SCRIPT_NESTING) throw tooDeep();
  const runtime = engine().newRuntime();
  const vm = runtime.newContext();
  try {
    let result: ReturnType<typeof vm.evalCode>;
    try {
      result = vm.evalCode(source, name, { compileOnly: true });
    } catch (err) {
      if (err instanceof RangeError) throw new ScriptError('the script is nested too deeply to compile');
      throw err;
    }
    if (result.error) {
      const message = describe(vm, result.error);
      result.error.dispose();
      throw new ScriptError(message);
    }
    result.value.dispose();
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

/**
 * Runs the script's `handleRequest()` over `context` in a fresh runtime and context, synchronously
 * (promises settle through QuickJS's own job queue; there are no host timers to wait for).
 * Resolves with what it returned (undefined for nothing) or throws a ScriptError.
 */
export function runScript(source: string, name: string, context: unknown, inputs: unknown, limits: SandboxLimits): unknown {
  const runtime = engine().newRuntime();
  const overBudget = budgetCheck(limits.timeoutMs);
  let timedOut = false;
  runtime.setMemoryLimit(limits.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(512 * 1024);
  runtime.setInterruptHandler(() => (timedOut ||= overBudget()));
  const vm = runtime.newContext();
  const fail = (handle: QuickJSHandle): never => {
    // running out of memory says so even when it took the script past its time
    const described = describe(vm, handle);
    handle.dispose();
    if (/out of memory/i.test(described)) throw new ScriptError(`script exceeded its memory limit of ${limits.memoryMb} MB`);
    throw new ScriptError(timedOut ? `script exceeded its time limit of ${limits.timeoutMs} ms` : described);
  };
  try {
    const input = vm.newString(JSON.stringify({ context, inputs: inputs ?? {} }));
    vm.setProp(vm.global, '__input', input);
    input.dispose();
    for (const [code, file] of [[PRELUDE, 'prelude.js'], [source, name]]) {
      const step = vm.evalCode(code, file);
      if (step.error) fail(step.error);
      else step.value.dispose();
    }
    const started = vm.evalCode(DRIVER, 'driver.js');
    if (started.error) fail(started.error);
    const promise = (started as { value: QuickJSHandle }).value;
    try {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) fail(jobs.error);
      const state = vm.getPromiseState(promise);
      if (state.type === 'pending') throw new ScriptError('handleRequest() never settled (scripts have no timers or I/O to wait for)');
      if (state.type === 'rejected') fail(state.error);
      const value = (state as { value: QuickJSHandle }).value;
      const text = vm.getString(value);
      value.dispose();
      if (text === '') return undefined;
      return JSON.parse(text);
    } finally {
      promise.dispose();
    }
  } catch (err) {
    if (err instanceof ScriptError) throw err;
    // QuickJS itself gave up (e.g. out of memory while building the error)
    const message = (err as Error)?.message ?? String(err);
    if (timedOut) throw new ScriptError(`script exceeded its time limit of ${limits.timeoutMs} ms`);
    throw new ScriptError(/memory/i.test(message) ? `script exceeded its memory limit of ${limits.memoryMb} MB` : `script failed: ${message}`);
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // a runtime stopped mid-allocation may not tear down cleanly: what it held may stay taken in
      // this module's heap, so the next runs get a fresh module (this one is left to the collector)
      replaceModule();
    }
  }
}

let replacing = false;

function replaceModule(): void {
  if (replacing) return;
  replacing = true;
  newSandboxModule().then(
    (fresh) => {
      quickjs = fresh;
      replacing = false;
    },
    () => (replacing = false),
  );
}

function describe(vm: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const dumped = vm.dump(handle) as unknown;
    if (dumped && typeof dumped === 'object') {
      const { name, message } = dumped as { name?: string; message?: string };
      if (message !== undefined) return name && name !== 'Error' ? `${name}: ${message}` : String(message);
    }
    return typeof dumped === 'string' ? dumped : JSON.stringify(dumped);
  } catch {
    return 'script failed (its error could not be read)';
  }
}
