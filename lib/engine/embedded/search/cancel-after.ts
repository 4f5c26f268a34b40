import { EsError } from '../../../errors/index.js';

/**
 * OpenSearch's `cancel_after_time_interval` (the search's, or the dynamic cluster setting
 * `search.cancel_after_time_interval`): TransportSearchAction wraps the search with
 * TimeoutTaskCancellationUtility, which cancels the search task once the interval has passed and
 * no answer was sent, with the reason `Cancellation timeout of <interval> is expired`. Unlike a
 * `timeout` (partial hits, `timed_out: true`), a cancelled search fails.
 */
export interface CancelAfter {
  ms: number;
  /** The interval as OpenSearch's TimeValue prints it in the reason (`10s`, `1.5m`). */
  text: string;
}

/** Whether a search started at `started` (performance.now() ms) has outlived its interval. */
export function cancelDue(cancel: CancelAfter | undefined, started: number): cancel is CancelAfter {
  return cancel !== undefined && performance.now() - started >= cancel.ms;
}

/**
 * The failure of a cancelled search, as OpenSearch answers it: its shard's query phase throws
 * TaskCancelledException ("cancelled task with reason: …"), every shard has failed, and
 * SearchPhaseExecutionException takes the shard failure's status (TaskCancelledException sets
 * none: 500).
 */
export function cancelledSearch(cancel: CancelAfter, indexName: string | undefined): EsError {
  const cause = { type: 'task_cancelled_exception', reason: `cancelled task with reason: Cancellation timeout of ${cancel.text} is expired` };
  return new EsError(500, 'search_phase_execution_exception', 'all shards failed', {
    root_cause: [cause],
    phase: 'query',
    grouped: true,
    failed_shards: [{ shard: 0, index: indexName ?? null, node: 'embedded', reason: cause }],
  });
}
