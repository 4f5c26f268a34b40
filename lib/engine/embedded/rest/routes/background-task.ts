import { errorBody, toEsError } from '../../../../errors/index.js';
import type { EngineContext } from '../types.js';

/** A failure as a stored task result says it: the error object, without its root causes. */
function causeOf(err: unknown): Record<string, unknown> {
  const { error } = errorBody(toEsError(err)) as { error: Record<string, unknown> };
  const { root_cause: _, ...cause } = error;
  return cause;
}

/**
 * Runs `work` as a background task of `action` whose outcome `GET _tasks/{id}` answers (OpenSearch's
 * `wait_for_completion=false` of a resize or an index opening); its id.
 */
export function inBackground(ctx: EngineContext, action: string, description: string, work: () => Promise<Record<string, unknown>>): string {
  const task = ctx.tasks.start({ action, description, cancellable: false });
  void work()
    .then((response) => ctx.tasks.storeResult(task, { response }), (err: unknown) => ctx.tasks.storeResult(task, { error: causeOf(err) }))
    .catch((err: unknown) => console.error(`embedded engine: background ${action} failed`, err))
    .finally(() => ctx.tasks.finish(task));
  return task.fullId;
}
