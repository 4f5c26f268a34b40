import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

/**
 * `GET /_dangling`. An index is dangling when a node's data directory holds it but the cluster's
 * metadata does not; the one node's data directory is the metadata's, so there are none (and
 * none to import or delete: those are not served).
 */
function listDanglingIndices(_req: RestRequest, ctx: EngineContext): RestResponse {
  return { status: 200, body: { _nodes: { total: 1, successful: 1, failed: 0 }, cluster_name: ctx.clusterName, dangling_indices: [] } };
}

export const danglingRoutes: Route[] = [{ id: 'dangling_indices.list_dangling_indices', handler: listDanglingIndices }];
