import type { IndexHandle } from '../indices/index.js';
import { shardOf } from '../indices/shard-routing.js';
import { bytesOf } from './routes/cat.js';

/**
 * The shard copies of indices on the one node, as the cluster's routing table would hold them and
 * as cluster health counts them: every primary of an open index is STARTED here; a replica can
 * never be assigned beside its primary, so each is UNASSIGNED (reason INDEX_CREATED). The engine
 * keeps an index whole, so a primary's documents are the index's documents its routing sends to
 * that shard, and its store is the index's store shared out by documents.
 */
export interface ShardCopy {
  index: IndexHandle;
  shard: number;
  primary: boolean;
  started: boolean;
  /** Started copies only. */
  docs: number | null;
  storeBytes: number | null;
}

export function numberOfShards(h: IndexHandle): number {
  return Number(h.meta.settings['index.number_of_shards'] ?? '1');
}

export function numberOfReplicas(h: IndexHandle): number {
  return Number(h.meta.settings['index.number_of_replicas'] ?? '1');
}

/** Live documents per shard, by the shard each one's routing (or id) selects. */
export function docsPerShard(h: IndexHandle): number[] {
  const shards = numberOfShards(h);
  if (shards <= 1) return [h.docCount];
  const counts = new Array<number>(shards).fill(0);
  for (const id of h.liveIds()) counts[shardOf(h.meta.settings, id, h.get(id)?.routing)]++;
  return counts;
}

/** The copies of the open indices given, by index (as given), shard, primary first. */
export function shardCopies(handles: IndexHandle[]): ShardCopy[] {
  const out: ShardCopy[] = [];
  for (const h of handles) {
    if (!h.isOpen) continue;
    const docs = docsPerShard(h);
    const total = docs.reduce((a, b) => a + b, 0);
    const overhead = bytesOf(h) - h.storeBytes;
    docs.forEach((n, shard) => {
      const share = total > 0 ? n / total : 1 / docs.length;
      out.push({ index: h, shard, primary: true, started: true, docs: n, storeBytes: overhead + Math.round(h.storeBytes * share) });
      for (let r = 0; r < numberOfReplicas(h); r++) out.push({ index: h, shard, primary: false, started: false, docs: null, storeBytes: null });
    });
  }
  return out;
}
