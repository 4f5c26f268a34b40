import type { EngineAccess } from '../../backend.js';
import { IndexAccess, authorizedIndices, type ResolveCheck } from '../access/index.js';
import type { EngineContext } from './types.js';

/**
 * What the index expressions of a route's request need, by the route's endpoint (its first `_`
 * segment) and, where the endpoint reads and acts, its method: searches, reads and index
 * monitoring read, by-query operations write or delete. Other endpoints (index administration)
 * need reach to the indices, whatever the operation. The actions are Elasticsearch's (OpenSearch's
 * for `_upgrade`), as the gateway's route table names them.
 */
const RESOLVE_CHECKS: Record<string, ResolveCheck | ((method: string) => ResolveCheck)> = {
  _search: { op: 'read', action: 'indices:data/read/search' },
  _count: { op: 'read', action: 'indices:data/read/search' },
  _msearch: { op: 'read', action: 'indices:data/read/search' },
  _knn_search: { op: 'read', action: 'indices:data/read/knn_search' },
  _field_caps: { op: 'read', action: 'indices:data/read/field_caps' },
  _validate: { op: 'read', action: 'indices:admin/validate/query' },
  _explain: { op: 'read', action: 'indices:data/read/explain' },
  _termvectors: { op: 'read', action: 'indices:data/read/tv' },
  _mtermvectors: { op: 'read', action: 'indices:data/read/mtv' },
  _mget: { op: 'read', action: 'indices:data/read/mget' },
  _pit: { op: 'read', action: 'indices:data/read/open_point_in_time' },
  _search_shards: { op: 'read', action: 'indices:admin/shards/search_shards' },
  _rank_eval: { op: 'read', action: 'indices:data/read/rank_eval' },
  // a reindex resolves its source only (its destination is a write target)
  _reindex: { op: 'read', action: 'indices:data/read/search' },
  _update_by_query: { op: 'write', action: 'indices:data/write/update/byquery' },
  _delete_by_query: { op: 'delete', action: 'indices:data/write/delete/byquery' },
  _segments: { op: 'read', action: 'indices:monitor/segments' },
  _recovery: { op: 'read', action: 'indices:monitor/recovery' },
  _shard_stores: { op: 'read', action: 'indices:monitor/shard_stores' },
  _upgrade: (method) => (method === 'GET' || method === 'HEAD' ? { op: 'read', action: 'indices:monitor/upgrade' } : { op: 'write', action: 'indices:admin/upgrade' }),
};

function resolveCheckOf(method: string, endpoint: string | undefined): ResolveCheck {
  const known = endpoint !== undefined && Object.hasOwn(RESOLVE_CHECKS, endpoint) ? RESOLVE_CHECKS[endpoint] : undefined;
  if (known) return typeof known === 'function' ? known(method) : known;
  if (endpoint !== undefined) return { op: undefined, action: `indices:admin/${endpoint.slice(1)}` };
  return { op: undefined, action: method === 'DELETE' ? 'indices:admin/delete' : method === 'PUT' || method === 'POST' ? 'indices:admin/create' : 'indices:admin/get' };
}

/**
 * The engine's context for one request carrying rights: the same engine, its indices seen
 * through the view that checks the rights where an index is resolved and touched, and read
 * without the fields its field rules hide (`onHiddenField` told when the request names one). A request
 * without rights keeps the engine's own context (no work at all).
 */
export function authorizedContext(ctx: EngineContext, access: EngineAccess, method: string, endpoint: string | undefined, onHiddenField?: () => void): EngineContext {
  const rights = IndexAccess.of(access);
  const check = { ...resolveCheckOf(method, endpoint) };
  if (rights.fields && readsFields(check, method, endpoint)) check.readsFields = true;
  return { ...ctx, indices: authorizedIndices(ctx.indices, rights, check, onHiddenField), access: rights, onHiddenField };
}

/** Index administration that shows mappings: `GET /{index}`, `GET /{index}/_mapping`, the cluster state's metadata. */
const MAPPING_READS = new Set([undefined, '_mapping', '_mappings', '_cluster']);

/**
 * Does the request read its indices' fields (field rules then hide some)? Searches and document
 * reads do (their operation is `read`); of the index administration, only the reads that show
 * mappings — never one that changes an index through the handles it resolves.
 */
function readsFields(check: ResolveCheck, method: string, endpoint: string | undefined): boolean {
  if (check.op === 'read') return true;
  return check.op === undefined && (method === 'GET' || method === 'HEAD') && MAPPING_READS.has(endpoint);
}
