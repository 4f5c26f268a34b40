import { EsError } from '../../../../errors/index.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

/**
 * The dangling indices API. An index is dangling when a node's data directory holds it but the
 * cluster's metadata does not; the one node's data directory is the metadata's, so there are none:
 * the list is empty, and an import or delete names no dangling index: refused as Elasticsearch
 * refuses an unknown UUID (which it checks before `accept_data_loss`).
 */
function danglingIndices(req: RestRequest, ctx: EngineContext): RestResponse {
  if (req.method === 'GET') {
    return { status: 200, body: { _nodes: { total: 1, successful: 1, failed: 0 }, cluster_name: ctx.clusterName, dangling_indices: [] } };
  }
  booleanParam(req.params, 'accept_data_loss', false);
  throw new EsError(400, 'illegal_argument_exception', `No dangling index found for UUID [${req.pathParams.index_uuid}]`);
}

export const danglingRoutes: Route[] = [{ id: 'dangling_indices', handler: danglingIndices }];
