import { EsError } from '../../../errors/index.js';
import type { IndexHandle } from '../indices/index.js';
import { ByteSize } from './cat-table.js';
import { numberOfReplicas } from './shard-copies.js';
import { timeValue } from './routes/search-target.js';

/** The request's `timeout` for a write waiting on its shard copies, as Elasticsearch's default (one minute). */
const DEFAULT_TIMEOUT = '1m';

/**
 * The shard copies a write to `handle` waits for, as Elasticsearch's ActiveShardCount reads
 * `wait_for_active_shards` (or the index's `index.write.wait_for_active_shards`): a number, or
 * `all` (the primary and every replica).
 */
function requiredCopies(handle: IndexHandle, raw: string | null): number {
  const value = raw ?? String(handle.meta.settings['index.write.wait_for_active_shards'] ?? '1');
  if (value === 'all') return numberOfReplicas(handle) + 1;
  if (value === 'default' || value === '') return 1;
  if (!/^-?\d+$/.test(value)) throw new EsError(400, 'number_format_exception', `For input string: "${value}"`);
  const n = Number(value);
  if (n < 0) throw new EsError(400, 'illegal_argument_exception', `shard count cannot be a negative value`);
  return n;
}

/**
 * Waits, before a write to `handle`, for the shard copies `wait_for_active_shards` asks: on the
 * one node only the primary is ever active (a replica is never assigned beside it), so a write
 * asking more waits its `timeout` and fails 503 as Elasticsearch's ReplicationOperation does
 * (UnavailableShardsException); `request` describes the write in the reason.
 */
export async function awaitActiveShards(handle: IndexHandle, params: { get(name: string): string | null }, request: string): Promise<void> {
  const needed = requiredCopies(handle, params.get('wait_for_active_shards'));
  if (needed <= 1) return;
  const timeout = params.get('timeout') ?? DEFAULT_TIMEOUT;
  const ms = timeValue('timeout', timeout);
  await new Promise((resolve) => setTimeout(resolve, ms));
  throw new EsError(503, 'unavailable_shards_exception',
    `[${handle.name}][0] Not enough active copies to meet shard count of [${needed}] (have 1, needed ${needed}). Timeout: [${timeout}], request: [${request}]`,
    { index_uuid: handle.uuid, shard: '0', index: handle.name });
}

/** How Elasticsearch's BulkShardRequest names one document write in that reason (a source over 2 KB is not shown). */
export function shardWriteDescription(index: string, op: 'index' | 'delete', id: string, sourceText?: string): string {
  const source = sourceText === undefined ? ''
    : Buffer.byteLength(sourceText) > 2048 ? `, source[n/a, actual length: [${new ByteSize(Buffer.byteLength(sourceText))}], max length: 2kb]` : `, source[${sourceText}]`;
  return `BulkShardRequest [[${index}][0]] containing [${op} {[${index}][_doc][${id}]${source}}]`;
}
