import type { IndexHandle } from '../indices/index.js';
import { numberOfShards, shardCopies } from './shard-copies.js';
import type { EngineContext } from './types.js';

/**
 * How each primary came to be on the one node, as `_recovery` and `_cat/recovery` both report it:
 * every recovery is DONE; from an empty store when the index was created since the node started,
 * else from the store it had (at the node's start). Closed indices are included, as Elasticsearch's
 * RecoveryRequest expands and accepts them: a closed index's shards are recovered from their
 * existing store when it closes; here, at the latest of its creation and the node's start.
 */
export interface RecoveredShard {
  index: IndexHandle;
  shard: number;
  /** Recovered from an empty store (EMPTY_STORE), else from the existing one. */
  fresh: boolean;
  start: number;
  /** Files and bytes in the store, all reused: none had to be copied. */
  files: number;
  bytes: number;
}

export function recoveredShards(ctx: EngineContext, handles: IndexHandle[]): RecoveredShard[] {
  const startedAt = ctx.node.startedAt;
  const recovered: RecoveredShard[] = [];
  for (const copy of shardCopies(handles)) {
    if (!copy.started) continue;
    const created = Number(copy.index.meta.settings['index.creation_date'] ?? 0);
    const fresh = created >= startedAt;
    const bytes = fresh ? 0 : copy.storeBytes ?? 0;
    recovered.push({ index: copy.index, shard: copy.shard, fresh, start: fresh ? created : startedAt, files: fresh || !copy.docs ? 0 : 1, bytes });
  }
  for (const h of handles.filter((c) => !c.isOpen)) {
    const start = Math.max(Number(h.meta.settings['index.creation_date'] ?? 0), startedAt);
    const shards = numberOfShards(h);
    const bytes = Math.round(h.storeBytes / shards);
    for (let shard = 0; shard < shards; shard++) recovered.push({ index: h, shard, fresh: false, start, files: bytes > 0 ? 1 : 0, bytes });
  }
  return recovered;
}
