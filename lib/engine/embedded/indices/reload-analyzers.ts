import { toEsError } from '../../../errors/index.js';
import type { IndexHandle } from './index-handle.js';

export interface ReloadDetails {
  index: string;
  reloaded_analyzers: string[];
  reloaded_node_ids: string[];
}

export interface ReloadAnalyzersResponse {
  _shards: { total: number; successful: number; failed: number; failures?: ShardFailure[] };
  reload_details: ReloadDetails[];
}

interface ShardFailure {
  shard: number;
  index: string;
  status: string;
  reason: { type: string; reason: string; [k: string]: unknown };
}

const STATUS_NAMES: Record<number, string> = { 400: 'BAD_REQUEST', 404: 'NOT_FOUND', 500: 'INTERNAL_SERVER_ERROR' };

/**
 * ES's reload of search analyzers (`_reload_search_analyzers`, and what a synonyms set change
 * runs over every open index), on this single node. ES asks each node holding a copy of an index
 * once: here the primary, reloaded, and, when the index has replicas, one unassigned copy that
 * counts in `total` only. Given a synonyms set, only indices with an analyzer on it are listed;
 * without one, every index is, even with nothing to reload. An index whose analyzers fail to
 * build keeps the ones it had and is a shard failure.
 */
export function reloadSearchAnalyzers(handles: readonly IndexHandle[], nodeId: string, synonymsSet?: string): ReloadAnalyzersResponse {
  let total = 0;
  let successful = 0;
  const failures: ShardFailure[] = [];
  const details: ReloadDetails[] = [];
  for (const h of handles) {
    total += Number(h.meta.settings['index.number_of_replicas'] ?? '1') > 0 ? 2 : 1;
    let reloaded: string[];
    try {
      reloaded = h.reloadSearchAnalyzers(synonymsSet);
    } catch (err) {
      const e = toEsError(err);
      failures.push({ shard: 0, index: h.name, status: STATUS_NAMES[e.status] ?? String(e.status), reason: { type: e.type, reason: e.reason, ...e.extra } });
      continue;
    }
    successful++;
    if (reloaded.length || synonymsSet === undefined) details.push({ index: h.name, reloaded_analyzers: reloaded, reloaded_node_ids: [nodeId] });
  }
  const shards = failures.length ? { total, successful, failed: failures.length, failures } : { total, successful, failed: 0 };
  return { _shards: shards, reload_details: details };
}
