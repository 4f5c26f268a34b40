import type { RestRequest } from './types.js';

/**
 * The request headers a task keeps, as Elasticsearch's Task.HEADERS_TO_COPY: a client's
 * X-Opaque-Id, shown in the task's `headers` (and `_cat/tasks`' x_opaque_id) of every task the
 * request starts.
 */
export function taskHeaders(req: RestRequest): Readonly<Record<string, string>> {
  const raw = req.headers['x-opaque-id'];
  const opaqueId = Array.isArray(raw) ? raw[0] : raw;
  return opaqueId === undefined ? {} : { 'X-Opaque-Id': opaqueId };
}
