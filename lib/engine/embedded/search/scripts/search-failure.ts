import { EsError } from '../../../../errors/index.js';

/**
 * A script that fails while a search runs fails the search as a shard failure does in ES: a
 * `search_phase_execution_exception` ("all shards failed") whose root cause and shard failure are
 * the script_exception. Other errors pass as they are.
 */
export function asSearchFailure(err: unknown, indexName: string | undefined, phase: 'query' | 'fetch' = 'query'): unknown {
  if (!(err instanceof EsError) || err.type !== 'script_exception') return err;
  const cause = { type: err.type, reason: err.reason, ...err.extra };
  const { caused_by: _ignored, ...root } = cause as typeof cause & { caused_by?: unknown };
  return new EsError(err.status, 'search_phase_execution_exception', 'all shards failed', {
    root_cause: [root],
    phase,
    grouped: true,
    failed_shards: [{ shard: 0, index: indexName ?? null, node: 'embedded', reason: cause }],
  });
}
