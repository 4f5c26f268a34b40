import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { checkSyntax, loadSandbox, runScript, ScriptError, type SandboxLimits } from './sandbox.js';

/** One script run, as the pool sends it to a worker. */
export interface ScriptJob {
  id: number;
  source: string;
  name: string;
  context: unknown;
  inputs: unknown;
  limits: SandboxLimits;
  /** Compile only (a pipeline's definition checked): no run, no result. */
  compileOnly?: true;
}

/** Its outcome: the script's result as JSON text (`undefined`: it returned nothing), or its failure. */
export type ScriptOutcome =
  | { id: number; ok: true; result: string | undefined }
  | { id: number; ok: false; scriptError: boolean; message: string };

/**
 * A worker thread of the script pool: runs jobs one at a time in the QuickJS sandbox. A script
 * stuck past its limits only holds this thread; the pool ends it if it does not answer in time.
 */
const port = parentPort!;
// outcomes go on the port the pool gave for them; jobs and the ready signal on the worker's own
const outcomes = (workerData as { outcomes: MessagePort }).outcomes;
await loadSandbox();
port.on('message', (job: ScriptJob) => {
  let outcome: ScriptOutcome;
  try {
    const result = job.compileOnly ? checkSyntax(job.source, job.name) : runScript(job.source, job.name, job.context, job.inputs, job.limits);
    outcome = { id: job.id, ok: true, result: result === undefined ? undefined : JSON.stringify(result) };
  } catch (err) {
    outcome = { id: job.id, ok: false, scriptError: err instanceof ScriptError, message: (err as Error)?.message ?? String(err) };
  }
  outcomes.postMessage(outcome);
});
port.postMessage({ ready: true });
