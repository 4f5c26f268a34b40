/**
 * The thread that runs scripts given to `_scripts/painless/_execute` in the painless_test context
 * (test-runs.ts): the same compiler and runtime as the event loop's, under the same run bounds.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { EsError } from '../../../errors/index.js';
import { compileScript } from './compile.js';
import { TEST_CONTEXT } from './contexts.js';
import { fromJson, markWrittenDoublesAt, type JsonPath } from './json-values.js';
import { javaToString } from './values.js';

export interface TestRunJob {
  id: number;
  source: string;
  name: string;
  params: Record<string, unknown>;
  /** The params' numbers written as doubles (`2.0`): structured clone keeps values, not how they were written. */
  doubles: JsonPath[];
}

export type TestRunOutcome =
  | { id: number; ok: true; result: string }
  | { id: number; ok: false; error: { status: number; type: string; reason: string; extra: Record<string, unknown> } }
  | { id: number; ok: false; message: string };

function outcomeOf(job: TestRunJob): TestRunOutcome {
  try {
    markWrittenDoublesAt(job.params, job.doubles);
    const result = compileScript(job.source, TEST_CONTEXT, job.name).run({ params: fromJson(job.params) });
    return { id: job.id, ok: true, result: javaToString(result) };
  } catch (e) {
    if (e instanceof EsError) return { id: job.id, ok: false, error: { status: e.status, type: e.type, reason: e.reason, extra: e.extra } };
    return { id: job.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

// outcomes go on the port the pool gave for them, so a late watchdog can read one already sent
const outcomes = (workerData as { outcomes: MessagePort }).outcomes;
parentPort!.on('message', (job: TestRunJob) => outcomes.postMessage(outcomeOf(job)));
