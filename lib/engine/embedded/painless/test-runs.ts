/**
 * Scripts run on their own (`_scripts/painless/_execute`, painless_test context) run off the event
 * loop. Contract: a run is held to the same bounds as anywhere else (run-bounds.ts: 10^6 steps,
 * MAX_RUN_MS, MAX_SCRIPT_MEMORY_BYTES), but it spends them on a worker thread, so a script that uses
 * its whole budget costs its own request only, not every other request's wait on the event loop.
 * One thread (the machine's other core goes to the event loop); runs wait their turn in a bounded
 * queue, past which they are refused with 429. A thread that overruns its run's limit by GRACE_MS,
 * or dies (its heap), fails its run with a script_exception and is replaced on the next run.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { WALL_FACTOR } from '../../../cooperative/index.js';
import { EsError } from '../../../errors/index.js';
import { writtenDoublePaths } from './json-values.js';
import { MAX_RUN_MS, UncatchableScriptError } from './run-bounds.js';
import type { ResolvedScript } from './script-spec.js';
import { scriptException } from './script-error.js';
import type { TestRunJob, TestRunOutcome } from './test-run-worker.js';

/** Runs waiting for the thread before a new one is refused. */
export const TEST_RUN_QUEUE_LIMIT = 100;
/**
 * Past its longest allowance (MAX_RUN_MS of CPU time, up to WALL_FACTOR times that in wall-clock
 * time for a run starved of CPU), the time a run gets to answer (its own clock check ends it
 * first) before its thread is ended.
 */
const GRACE_MS = 1_000;
/** The thread's heap: a run's values are charged to a 64 MB account long before this. */
const HEAP_MB = 512;

interface Pending {
  job: TestRunJob;
  resolve(result: string): void;
  reject(err: unknown): void;
}

class TestRunThread {
  private worker: Worker | undefined;
  private outcomes: MessagePort | undefined;
  private running: Pending | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private readonly queue: Pending[] = [];
  private nextId = 1;

  run(script: ResolvedScript): Promise<string> {
    if (this.queue.length >= TEST_RUN_QUEUE_LIMIT) {
      return Promise.reject(new EsError(429, 'es_rejected_execution_exception',
        `rejected execution of a painless script: ${TEST_RUN_QUEUE_LIMIT} scripts are already waiting`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, source: script.source, name: script.name, params: script.params, doubles: writtenDoublePaths(script.params) }, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running || !this.queue.length) return;
    const run = this.queue.shift()!;
    this.running = run;
    const worker = this.thread();
    worker.ref(); // a run in progress keeps the process alive; an idle thread does not
    this.watchdog = setTimeout(() => {
      // an outcome already sent but not yet delivered (the event loop was held past this timer) settles the run
      for (let waiting; this.running === run && this.outcomes && (waiting = receiveMessageOnPort(this.outcomes));) this.settle(worker, waiting.message as TestRunOutcome);
      if (this.running === run) this.lose(worker, new UncatchableScriptError('painless_error', `The script ran for longer than the limit of [${MAX_RUN_MS}ms] for one execution.`));
    }, MAX_RUN_MS * WALL_FACTOR + GRACE_MS);
    worker.postMessage(run.job);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./test-run-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }, workerData: { outcomes: port2 }, transferList: [port2] });
    port1.on('message', (outcome: TestRunOutcome) => this.settle(worker, outcome));
    port1.unref();
    this.outcomes = port1;
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', () => this.lose(worker, new Error('the script thread stopped')));
    this.worker = worker;
    return worker;
  }

  private settle(worker: Worker, outcome: TestRunOutcome): void {
    const run = this.running;
    if (worker !== this.worker || !run || run.job.id !== outcome.id) return;
    this.finish(worker);
    if (outcome.ok) run.resolve(outcome.result);
    else if ('error' in outcome) run.reject(new EsError(outcome.error.status, outcome.error.type, outcome.error.reason, outcome.error.extra));
    else run.reject(new Error(outcome.message));
    this.next();
  }

  /** The thread overran or died: its run fails with a script_exception, and the next run starts a new thread. */
  private lose(worker: Worker, err: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.outcomes?.close();
    this.outcomes = undefined;
    const run = this.running;
    this.finish(worker);
    void worker.terminate();
    if (run) {
      const memory = /memory/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
      const cause = err instanceof UncatchableScriptError ? err
        : memory ? new UncatchableScriptError('circuit_breaking_exception', `[script] Data too large: the script thread ran out of its ${HEAP_MB}mb heap`)
          : new UncatchableScriptError('exception', err.message);
      run.reject(scriptException(cause, { source: run.job.source, name: run.job.name }));
    }
    this.next();
  }

  private finish(worker: Worker): void {
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    this.running = undefined;
    worker.unref();
  }
}

const thread = new TestRunThread();

/** Runs a painless_test script off the event loop: its result as Java's toString, or its script_exception. */
export function runTestScript(script: ResolvedScript): Promise<string> {
  return thread.run(script);
}
