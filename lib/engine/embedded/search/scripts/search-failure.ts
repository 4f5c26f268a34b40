import { EsError } from '../../../../errors/index.js';

/**
 * A script that fails while a search runs fails the search as a shard failure does in ES: a
 * `search_phase_execution_exception` ("all shards failed") whose shard failure is the
 * script_exception, and so is its root cause — unless a breaker stopped the script (what its runs
 * keep outgrew their memory account): then the search answers the breaker's 429 and its
 * circuit_breaking_exception as the root cause, so a client backs off as from any tripped breaker.
 * Other errors pass as they are.
 */
export function asSearchFailure(err: unknown, indexName: string | undefined, phase: 'query' | 'fetch' = 'query'): unknown {
  if (!(err instanceof EsError) || err.type !== 'script_exception') return err;
  const cause = { type: err.type, reason: err.reason, ...err.extra };
  const { caused_by: causedBy, ...script } = cause as typeof cause & { caused_by?: { type?: unknown } };
  const tripped = causedBy?.type === 'circuit_breaking_exception';
  const root = tripped ? causedBy : script;
  return new EsError(tripped ? 429 : err.status, 'search_phase_execution_exception', 'all shards failed', {
    root_cause: [root],
    phase,
    grouped: true,
    failed_shards: [{ shard: 0, index: indexName ?? null, node: 'embedded', reason: cause }],
  });
}
