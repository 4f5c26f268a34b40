import type { Config } from '../config/index.js';
import type { ChangeBus } from './change-bus.js';
import { MemoryChangeBus } from './memory-bus.js';
import { RedisChangeBus, type RedisChangeBusOptions } from './redis-bus.js';

export type { ChangeEvent, DocumentChange, IndexChange, DocumentOp, IndexOp, MappingChange, NewChange } from './change-event.js';
export { DEFAULT_HISTORY_BYTES, DEFAULT_HISTORY_LENGTH, STRUCTURE_CHANNEL, type ChangeBus, type ChangeBusConnection, type ChangeBusOptions, type ChangeBusStats } from './change-bus.js';
export { comparePositions, formatPosition, parsePosition, historyGone, isHistoryGone, HistoryGone, type Position } from './position.js';
export { busUnavailable } from './bus-errors.js';
export { followStructure } from './structure.js';
export { MemoryChangeBus } from './memory-bus.js';
export { RedisChangeBus, changeChannel, type RedisChangeBusOptions } from './redis-bus.js';
export { connectRedis, parseRedisUrl, type RedisConnection, type RedisTarget } from './redis-connection.js';

/** The deployment's bus: Redis pub/sub between nodes when REDIS_URL is set, in-process otherwise. */
export function createChangeBus(config: Pick<Config, 'redisUrl'> & Partial<Pick<Config, 'redisPingMs' | 'redisShardedPubSub'>>, options: RedisChangeBusOptions = {}): ChangeBus {
  return config.redisUrl
    ? new RedisChangeBus(config.redisUrl, { livenessMs: config.redisPingMs, sharded: config.redisShardedPubSub, ...options })
    : new MemoryChangeBus(options);
}
export { changeOf, typeOfSource, TYPE_FIELD, type WriteAck } from './write-changes.js';
export { bulkChanges, captureBulk, type BulkCapture } from './bulk-capture.js';
export { ChangePublisher, type IndexChangeHandler } from './change-publisher.js';
