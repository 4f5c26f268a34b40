import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { EsError } from '../errors/index.js';
import { WALL_FACTOR } from '../cooperative/index.js';
import { MAX_SCRIPT_NESTING, nestingDepthCooperatively, ScriptError, tooDeep, type SandboxLimits } from './sandbox.js';
import type { ScriptJob, ScriptOutcome } from './script-worker.js';

export interface ScriptPoolOptions {
  /** Worker threads (default: the machine's cores, 2 to 4). */
  size?: number;
  /** Runs waiting for a worker before new ones are refused with 429 (default 1,000). */
  queueLimit?: number;
  /** Heap of one worker, in MB: a script's allocations past it end that worker only. */
  workerHeapMb?: number;
}

/**
 * A run the sandbox could not stop (its budget is checked between the script's steps, not inside
 * one long native call) has its worker ended this long after it started, in wall-clock time: its
 * budget's longest wall-clock allowance for a run starved of CPU, and a grace period.
 */
const watchdogMs = (limits: SandboxLimits) => limits.timeoutMs * WALL_FACTOR + 500;

interface Running {
  job: ScriptJob;
  resolve(value: unknown): void;
  reject(err: Error): void;
  watchdog: NodeJS.Timeout;
}

class PoolWorker {
  readonly ready: Promise<void>;
  running: Running | undefined;
  private readonly thread: Worker;
  /** Outcomes come on a port of their own, so a late watchdog can read one already sent (settleWaiting). */
  private readonly outcomes: MessagePort;

  constructor(heapMb: number, private readonly onIdle: (w: PoolWorker) => void, private readonly onLost: (w: PoolWorker, err: Error) => void) {
    const { port1, port2 } = new MessageChannel();
    this.outcomes = port1;
    this.thread = new Worker(new URL('./script-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: heapMb }, workerData: { outcomes: port2 }, transferList: [port2] });
    this.thread.unref();
    this.ready = new Promise((resolve, reject) => {
      this.thread.once('message', () => resolve());
      this.thread.once('error', reject);
    });
    this.outcomes.on('message', (m: ScriptOutcome) => this.settle(m));
    this.outcomes.unref();
    this.thread.on('error', (err) => this.onLost(this, err));
    this.thread.on('exit', () => this.onLost(this, new Error('the script worker stopped')));
  }

  start(run: Running): void {
    this.running = run;
    this.thread.postMessage(run.job);
  }

  /**
   * Settles the run with an outcome the worker already sent but the event loop has not delivered
   * yet; false when there is none. A watchdog calls it first: after the loop was held (a long
   * synchronous task, a descheduled process) the timer fires before the waiting message is read,
   * and a run that finished in time must not be reported as overrunning.
   */
  settleWaiting(): boolean {
    const waiting = receiveMessageOnPort(this.outcomes);
    if (!waiting) return false;
    this.settle(waiting.message as ScriptOutcome);
    return true;
  }

  private settle(outcome: ScriptOutcome): void {
    const run = this.running;
    if (!run || run.job.id !== outcome.id) return;
    clearTimeout(run.watchdog);
    this.running = undefined;
    if (outcome.ok) run.resolve(outcome.result === undefined ? undefined : JSON.parse(outcome.result));
    else run.reject(outcome.scriptError ? new ScriptError(outcome.message) : new Error(outcome.message));
    this.onIdle(this);
  }

  end(): Promise<number> {
    this.outcomes.close();
    return this.thread.terminate();
  }
}

/**
 * Pipeline scripts run off the event loop: a pool of worker threads, each running the QuickJS
 * sandbox, so that a tenant's script costs its own request only. Workers start with the first
 * run. A run that outlives its time limit (the sandbox stops it; if it cannot, the pool ends the
 * worker after a grace period) or exhausts its worker's heap fails with a ScriptError and its
 * worker is replaced; other runs go on. Runs wait in a bounded queue when every worker is busy.
 */
export class ScriptPool {
  private readonly size: number;
  private readonly queueLimit: number;
  private readonly heapMb: number;
  private readonly workers: PoolWorker[] = [];
  private readonly idle: PoolWorker[] = [];
  private readonly queue: Running[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ScriptPoolOptions = {}) {
    this.size = options.size ?? Math.max(2, Math.min(4, availableParallelism()));
    this.queueLimit = options.queueLimit ?? 1000;
    this.heapMb = options.workerHeapMb ?? 256;
  }

  /**
   * Compiles the script without running it (a pipeline's definition checked): a large script's
   * compile holds a worker, not the event loop. Rejects with a ScriptError when it does not parse;
   * a script nested too deeply for the parser is refused before it is handed to a worker (unless
   * `scanned` says that was found already).
   */
  async check(source: string, name: string, limits: SandboxLimits, scanned = false): Promise<void> {
    // refused here, not in a worker: a script of a million parentheses (2 MB) sent again and again
    // was copied into a worker's heap (256 MB each) each time, there to wait for that heap's collection.
    // `scanned`: its nesting was scanned as it was read (a multipart file, readForm), and not past the limit
    if (!scanned && (await nestingDepthCooperatively(source)) > MAX_SCRIPT_NESTING) throw tooDeep();
    await this.submit({ source, name, context: null, inputs: {}, limits, compileOnly: true });
  }

  /** Runs the script's `handleRequest()` over `context`; resolves with what it returned. */
  run(source: string, name: string, context: unknown, inputs: unknown, limits: SandboxLimits): Promise<unknown> {
    return this.submit({ source, name, context, inputs: inputs ?? {}, limits });
  }

  private submit(work: Omit<ScriptJob, 'id'>): Promise<unknown> {
    if (this.closed) return Promise.reject(new ScriptError('the gateway is shutting down'));
    if (this.queue.length >= this.queueLimit) {
      return Promise.reject(new EsError(429, 'es_rejected_execution_exception', `rejected execution of a pipeline script: ${this.queueLimit} runs are already waiting`));
    }
    return new Promise((resolve, reject) => {
      // the context crosses to the worker by structured clone (data only: stages' symbol-keyed marks stay here)
      const job: ScriptJob = { id: this.nextId++, ...work };
      this.queue.push({ job, resolve, reject, watchdog: undefined as unknown as NodeJS.Timeout });
      this.dispatch();
    });
  }

  /** Runs in progress and waiting, and the workers started. */
  stats(): { running: number; queued: number; workers: number } {
    return { running: this.workers.filter((w) => w.running).length, queued: this.queue.length, workers: this.workers.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const run of this.queue.splice(0)) run.reject(new ScriptError('the gateway is shutting down'));
    await Promise.all(this.workers.map((w) => w.end()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      let worker = this.idle.pop();
      if (!worker) {
        if (this.workers.length >= this.size) return;
        worker = this.spawn();
        const fresh = worker;
        fresh.ready.then(() => {
          this.idle.push(fresh);
          this.dispatch();
        }, () => {});
        continue;
      }
      const run = this.queue.shift()!;
      const w = worker;
      run.watchdog = setTimeout(() => {
        while (w.running === run && w.settleWaiting());
        if (w.running === run) this.lose(w, new ScriptError(`script exceeded its time limit of ${run.job.limits.timeoutMs} ms`));
      }, watchdogMs(run.job.limits));
      run.watchdog.unref();
      w.start(run);
    }
  }

  private spawn(): PoolWorker {
    const worker = new PoolWorker(this.heapMb, (w) => {
      this.idle.push(w);
      this.dispatch();
    }, (w, err) => this.lose(w, err));
    this.workers.push(worker);
    return worker;
  }

  /** A worker that overran or died: its run fails, it is ended, and another takes its place on demand. */
  private lose(worker: PoolWorker, err: Error): void {
    const at = this.workers.indexOf(worker);
    if (at < 0) return;
    this.workers.splice(at, 1);
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    const run = worker.running;
    worker.running = undefined;
    if (run) {
      clearTimeout(run.watchdog);
      const memory = /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
      run.reject(err instanceof ScriptError ? err : new ScriptError(memory ? `script exceeded its memory limit of ${run.job.limits.memoryMb} MB` : `script failed: ${err.message}`));
    }
    void worker.end();
    if (!this.closed) this.dispatch();
  }
}
