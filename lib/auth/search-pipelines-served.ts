import { callJson, type Backend } from '../engine/index.js';

const served = new WeakMap<Backend, Promise<boolean>>();

/**
 * Whether the engine runs OpenSearch's search pipelines, so that a search may carry
 * `search_pipeline=_none` (an index's default pipeline is the admin's program over every search of
 * the index: a credential bounded by max_size or field rules runs none). The embedded engine does;
 * an HTTP engine is asked once (`GET /_search/pipeline`: OpenSearch lists its pipelines, 200, or
 * answers `{}`; Elasticsearch has no such API and would refuse the unknown parameter on every
 * search, so it is not sent there). A failed lookup is asked again on the next search.
 */
export function servesSearchPipelines(backend: Backend): Promise<boolean> {
  if (backend.kind === 'embedded') return Promise.resolve(true);
  let known = served.get(backend);
  if (!known) {
    known = callJson<Record<string, unknown>>(backend, 'GET', '/_search/pipeline').then(
      (reply) => reply.status === 200 || (reply.status === 404 && isEmptyObject(reply.body)),
    );
    served.set(backend, known);
    known.catch(() => served.delete(backend));
  }
  return known;
}

function isEmptyObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}
