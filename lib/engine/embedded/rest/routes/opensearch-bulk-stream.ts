/**
 * OpenSearch 2.17's streaming bulk (`POST|PUT /_bulk/stream`, `/{index}/_bulk/stream`), served beside
 * `_bulk`: the paths exist only in OpenSearch, so answering them cannot mislead an Elasticsearch
 * client. OpenSearch applies the body's chunks by batches (`batch_size` chunks, 1 by default, or what
 * `batch_interval` gathers) and streams one bulk answer per batch; the engine reads the body whole,
 * so it is one batch and one answer, `_bulk`'s. The batch parameters are checked as
 * RestBulkStreamingAction checks them.
 */
import { EsError } from '../../../../errors/index.js';
import { integerParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { bulk } from './bulk.js';
import { timeValue } from './search-target.js';

function checkBatches(req: RestRequest): void {
  const interval = req.params.get('batch_interval');
  if (interval !== null) {
    const ms = timeValue('batch_interval', interval);
    if (ms <= 0) throw new EsError(400, 'illegal_argument_exception', `The batch_interval value should be non-negative [${ms}ms].`);
  }
  const size = integerParam(req.params, 'batch_size');
  if (size !== undefined && size <= 0) throw new EsError(400, 'illegal_argument_exception', `The batch_size value should be non-negative [${size}].`);
}

async function bulkStream(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkBatches(req);
  return bulk(req, ctx);
}

export const openSearchBulkStreamRoutes: Route[] = [
  { id: 'opensearch.bulk_stream', handler: bulkStream },
];
