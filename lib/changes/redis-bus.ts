import { setTimeout as sleep } from 'node:timers/promises';
import { connectRedis, isCluster, type RedisConnection } from './redis-connection.js';
import { Observable, Subject } from 'rxjs';
import type { ChangeEvent, IndexChange, MappingChange, NewChange } from './change-event.js';
import { DEFAULT_HISTORY_BYTES, DEFAULT_HISTORY_LENGTH, type ChangeBus, type ChangeBusConnection, type ChangeBusOptions, type ChangeBusStats } from './change-bus.js';
import { LocalFanOut } from './local-fan-out.js';
import { checkResumable, formatPosition, historyGone, newEpoch, parsePosition, type Position } from './position.js';
import { busClosed, busUnavailable } from './bus-errors.js';

/**
 * Redis keys of one index. The `{index}` braces are a Redis Cluster hash tag: the three keys of
 * an index land on one slot, so the scripts below stay valid on a cluster. (Index names cannot
 * contain `:`, so the keys of two indices never collide.)
 *   gw:changes:{i}          pub/sub channel: every event of index i, as JSON
 *   gw:changes:{i}:history  Redis Stream: the last ≤ historyLength events, at most historyBytes
 *                           of them, entry id `<offset>-0`
 *   gw:changes:{i}:meta     hash: epoch, top (offset of the latest event), bytes (of the history)
 */
export function changeChannel(index: string): string {
  return `gw:changes:{${index}}`;
}
const CHANNEL_PREFIX = 'gw:changes:{';
/** pub/sub channel of every index event (delete, close), for the nodes' caches: no history. */
const INDEX_EVENTS_CHANNEL = 'gw:index-events';
const MAPPING_EVENTS_CHANNEL = 'gw:mapping-events';
const historyKey = (index: string) => `gw:changes:{${index}}:history`;
const metaKey = (index: string) => `gw:changes:{${index}}:meta`;

/**
 * Lua shared by the scripts below: the history's epoch, a fresh one (ARGV[1]) when the meta hash
 * is missing, in which case orphaned stream entries are dropped. KEYS: meta, history.
 */
const ENSURE_EPOCH = `local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then
  epoch = ARGV[1]
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'epoch', epoch, 'top', 0, 'bytes', 0)
end
`;

/**
 * Publish and history append in one script, so they are atomic per index. A missing meta hash
 * means a new life of the history (first use, or Redis lost its data): a fresh epoch, and any
 * orphaned stream entries are dropped so offsets restart at 1.
 * An index event also goes to the channel of every index event (ARGV[5], '' for a document
 * event), before its index's channel: a node has dropped its caches of an index by the time its
 * streams on that index see the event.
 * The history is trimmed exactly, oldest first, to at most ARGV[2] events and ARGV[6] bytes of
 * event JSON (the meta hash counts them), each trimmed entry read for its size: amortised O(1).
 * KEYS: meta, history. ARGV: fresh epoch, history length, channel, event JSON without position,
 * index-events channel or '', history bytes, PUBLISH or SPUBLISH (sharded pub/sub: the channel's
 * hash tag puts it on the keys' slot; the index-events channel is classic pub/sub, every node of a
 * cluster).
 */
const PUBLISH_SCRIPT = `
${ENSURE_EPOCH}local top = redis.call('HINCRBY', KEYS[1], 'top', 1)
local position = epoch .. '-' .. string.format('%016d', top)
local event = '{"position":"' .. position .. '",' .. string.sub(ARGV[4], 2)
redis.call('XADD', KEYS[2], string.format('%d-0', top), 'e', event)
local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #event)
local maxLength = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[6])
local length = redis.call('XLEN', KEYS[2])
while length > 0 and (length > maxLength or bytes > maxBytes) do
  local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
  bytes = bytes - #oldest[1][2][2]
  redis.call('XDEL', KEYS[2], oldest[1][1])
  length = length - 1
end
if bytes < 0 or length == 0 then bytes = 0 end
redis.call('HSET', KEYS[1], 'bytes', bytes)
if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[5], event) end
redis.call(ARGV[7], ARGV[3], event)
return position
`;

/**
 * What the history holds, and the events after a position, in one consistent read.
 * KEYS: meta, history. ARGV: fresh epoch (used if the history has none), epoch and offset of
 * the position to read after ('' and -1: none), '1' to read a different epoch from its start.
 * Returns { epoch, first retained offset (top + 1 when empty), top, [event JSON…] }.
 */
const READ_SCRIPT = `
${ENSURE_EPOCH}local top = tonumber(redis.call('HGET', KEYS[1], 'top') or '0')
local first = top + 1
local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
if #oldest > 0 then first = tonumber(string.match(oldest[1][1], '^(%d+)')) end
local from = tonumber(ARGV[3])
if ARGV[2] ~= epoch then
  if ARGV[4] == '1' then from = 0 else from = -1 end
end
local events = {}
if from >= 0 and from >= first - 1 and from < top then
  local rows = redis.call('XRANGE', KEYS[2], string.format('%d-0', from + 1), '+')
  for i, row in ipairs(rows) do events[i] = row[2][2] end
end
return {epoch, first, top, events}
`;

/**
 * A new life of one index's history: its events are dropped and the next one is offset 1 of a
 * fresh epoch, and every node subscribed is told on the channel (a `reset` notice, never handed
 * to subscribers: a node that reads it finds the new epoch and ends its streams on the index with
 * `historyGone`, which they answer with `_reset` and a fresh read). What a node does when changes
 * of the index may be missing from the history: a write whose change it could not publish, or a
 * history that lost events it had delivered (a failover to a replica that had not received them).
 * With a guard (ARGV[3] = epoch, ARGV[4] = offset), only while the history is still that epoch
 * and below that offset: the first node to notice rotates, the others find it done.
 * KEYS: meta, history. ARGV: fresh epoch, channel, guard epoch or '', guard offset, PUBLISH or SPUBLISH.
 */
const ROTATE_SCRIPT = `
if ARGV[3] ~= '' then
  local epoch = redis.call('HGET', KEYS[1], 'epoch')
  local top = tonumber(redis.call('HGET', KEYS[1], 'top') or '0')
  if epoch ~= ARGV[3] or top >= tonumber(ARGV[4]) then return 0 end
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'epoch', ARGV[1], 'top', 0)
redis.call(ARGV[5], ARGV[2], '{"kind":"reset","position":"' .. ARGV[1] .. '-0000000000000000"}')
return 1
`;

/**
 * Writes in flight on one node, by index (`inFlight`), and whether the node is alive: the hash
 * `gw:node:{id}:inflight` (index → writes in flight) and the key `gw:node:{id}:alive` (expires
 * unless the node refreshes it), on one slot; `gw:nodes` lists the node ids.
 */
const NODES_KEY = 'gw:nodes';
const aliveKey = (node: string) => `gw:node:{${node}}:alive`;
const inflightKey = (node: string) => `gw:node:{${node}}:inflight`;
/** One write done: its index's count goes down, and out at zero. KEYS: inflight. ARGV: index. */
const RELEASE_SCRIPT = `
local v = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if v <= 1 then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HINCRBY', KEYS[1], ARGV[1], -1) end
return 1
`;
/**
 * A node found dead (its alive key gone) is claimed by one node: its writes in flight are
 * returned and forgotten at once, so only the claimer resets their indices. KEYS: alive, inflight.
 * Returns the flat HGETALL of the writes in flight, or false when the node is alive.
 */
const CLAIM_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local inflight = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[2])
return inflight
`;

interface HistoryRead {
  epoch: string;
  first: number;
  top: number;
  events: string[];
}

interface ScriptCommands {
  gwChangesPublish(
    meta: string, history: string, epoch: string, maxLength: string, channel: string, event: string, indexEventsChannel: string, maxBytes: string, publish: PublishCommand,
  ): Promise<string>;
  gwChangesRead(
    meta: string,
    history: string,
    epoch: string,
    sinceEpoch: string,
    sinceOffset: string,
    fromEpochStart: '0' | '1',
  ): Promise<[string, number, number, string[]]>;
  gwChangesRotate(meta: string, history: string, epoch: string, channel: string, guardEpoch: string, guardOffset: string, publish: PublishCommand): Promise<number>;
  gwInflightRelease(inflight: string, index: string): Promise<number>;
  gwNodeClaim(alive: string, inflight: string): Promise<string[] | null>;
}

type PublishCommand = 'PUBLISH' | 'SPUBLISH';

/** This node's subscription to one index's channel. */
interface Channel {
  /** The last event delivered to local subscribers: the next one must be its offset + 1. */
  last?: Position;
  /** True while events are being read from the history; live ones wait in `pending`. */
  catchingUp: boolean;
  pending: ChangeEvent[];
  /** A reset notice came while catching up: read the history once more before stopping. */
  again: boolean;
  /** The history's top when a check found this node behind it (`checkTails`); undefined when not behind. */
  behindAt?: number;
  /**
   * The channel's subscription on the current subscriber connection: none (to send), sending
   * (its starting point read or SUBSCRIBE sent, no answer yet), or confirmed.
   */
  subscription: 'none' | 'sending' | 'confirmed';
  /** Settles when the channel subscription is first confirmed (or the channel is dropped). */
  live: Promise<void>;
  settleLive(error?: Error): void;
}

export interface RedisChangeBusOptions extends ChangeBusOptions {
  /** How long `publish` waits for the first connection attempt, at startup, before rejecting (ms). */
  connectTimeoutMs?: number;
  /** Longest pause between reconnect attempts (ms). */
  maxReconnectDelayMs?: number;
  /** Connection problems, for the node's log; the bus itself carries on. */
  log?: (message: string) => void;
  /**
   * Each connection is PINGed this often, and one that has not answered by the next PING is
   * dropped and connected again (ms): a connection that stalls without closing (a partition, a
   * paused proxy) is noticed in at most twice this, and the subscriber then fills what it missed
   * from the history. Also the longest a publish or history read waits for its answer.
   */
  livenessMs?: number;
  /**
   * Sharded pub/sub (Redis 7: SPUBLISH / SSUBSCRIBE, REDIS_SHARDED_PUBSUB): an index's channel
   * lives on the cluster node that owns its keys' slot, so pub/sub traffic spreads over the
   * cluster instead of going to every node. Also valid on a single Redis 7.
   */
  sharded?: boolean;
}

/**
 * The bus between gateway nodes: ONE publisher and ONE subscriber connection per node, one
 * channel per index subscribed only while this node has subscribers on it, history in a capped
 * Redis Stream per index. Both connections reconnect on their own; on reconnect the node
 * subscribes its channels again and fills what it missed from the history (offsets are
 * contiguous, so any missed event is noticed).
 */
export class RedisChangeBus implements ChangeBus {
  private readonly pub: RedisConnection;
  private readonly sub: RedisConnection;
  private readonly publishCommand: PublishCommand;
  private readonly scripts: ScriptCommands;
  private readonly channels = new Map<string, Channel>();
  private readonly fanOut: LocalFanOut;
  private readonly historyLength: number;
  private readonly historyBytes: number;
  private readonly connectTimeoutMs: number;
  private readonly log: (message: string) => void;
  /** True until the publisher's first connection attempt succeeds or fails. */
  private firstConnect = true;
  private lastError = '';
  private closed = false;
  /** Index events of every index, for `indexChanges()`; its channel is held while it has watchers. */
  private readonly indexEvents = new Subject<IndexChange>();
  private indexWatchers = 0;
  /** Mapping changes of every index, for `mappingChanges()`; its channel is held while it has watchers. */
  private readonly mappingEvents = new Subject<MappingChange>();
  private mappingWatchers = 0;
  /** Mapping changes that could not be announced: announced once Redis answers again. */
  private readonly owedMappings = new Set<string>();
  private reconnected = 0;
  /** Indices a publish failed for: their history is rotated once Redis answers again (`settleOwed`). */
  private readonly owed = new Set<string>();
  private settling = false;
  private readonly liveness: NodeJS.Timeout;
  /** This node's id in `gw:nodes` (one per process life). */
  private readonly nodeId = `${newEpoch()}${newEpoch()}`;
  private readonly livenessMs: number;
  /** Whether this node is in `gw:nodes` (with its alive key) yet. */
  private listed = false;
  /** The pending `untilPublisherBack` wait, if any. */
  private publisherBack: Promise<boolean> | undefined;

  constructor(redisUrl: string, options: RedisChangeBusOptions = {}) {
    this.historyLength = Math.max(1, options.historyLength ?? DEFAULT_HISTORY_LENGTH);
    this.historyBytes = Math.max(0, options.historyBytes ?? DEFAULT_HISTORY_BYTES);
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    this.log = options.log ?? (() => {});
    const maxDelay = options.maxReconnectDelayMs ?? 1_000;
    const livenessMs = options.livenessMs ?? 2_000;
    const connection = {
      retryStrategy: (attempt: number) => Math.min(50 * attempt, maxDelay),
      // Fail fast instead of queueing: a publish must reject while Redis is down, and a
      // command whose reply was lost must not be sent twice (that would duplicate an event).
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
    };
    this.publishCommand = options.sharded ? 'SPUBLISH' : 'PUBLISH';
    this.pub = connectRedis(redisUrl, { ...connection, connectionName: 'gw-changes-publisher', commandTimeout: livenessMs });
    this.sub = connectRedis(redisUrl, { ...connection, connectionName: 'gw-changes-subscriber', autoResubscribe: false });
    this.pub.defineCommand('gwChangesPublish', { numberOfKeys: 2, lua: PUBLISH_SCRIPT });
    this.pub.defineCommand('gwChangesRead', { numberOfKeys: 2, lua: READ_SCRIPT });
    this.pub.defineCommand('gwChangesRotate', { numberOfKeys: 2, lua: ROTATE_SCRIPT });
    this.pub.defineCommand('gwInflightRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.pub.defineCommand('gwNodeClaim', { numberOfKeys: 2, lua: CLAIM_SCRIPT });
    this.livenessMs = livenessMs;
    this.scripts = this.pub as unknown as ScriptCommands;

    for (const [role, conn] of [['publisher', this.pub], ['subscriber', this.sub]] as const) {
      conn.on('error', (err: Error) => {
        if (err.message !== this.lastError) this.log(`change bus: Redis ${role} connection: ${err.message}`);
        this.lastError = err.message;
      });
    }
    this.pub.on('ready', () => {
      this.firstConnect = false;
      this.lastError = '';
      void this.settleOwed();
      void this.announceOwedMappings();
    });
    this.pub.on(isCluster(this.pub) ? 'end' : 'close', () => (this.firstConnect = false));
    // A fresh connection holds no subscription: subscribe every channel this node needs.
    this.sub.on('ready', () => {
      for (const [index, channel] of this.channels) {
        channel.subscription = 'none';
        this.subscribeChannel(index, channel);
      }
      if (this.indexWatchers > 0) this.sub.subscribe(INDEX_EVENTS_CHANNEL).catch(() => {});
      if (this.mappingWatchers > 0) this.sub.subscribe(MAPPING_EVENTS_CHANNEL).catch(() => {});
    });
    this.sub.on('message', (channelName: string, message: string) => this.receive(channelName, message));
    this.sub.on('smessage', (channelName: string, message: string) => this.receive(channelName, message));

    this.fanOut = new LocalFanOut({
      onFirstSubscriber: (index) => this.join(index),
      onLastSubscriber: (index) => this.leave(index),
      onDelivered: options.onDelivered,
    });
    // a connection ready again after it was once: a reconnect (for the node's metrics)
    for (const conn of [this.pub, this.sub]) {
      let wasReady = false;
      conn.on('ready', () => {
        if (wasReady) this.reconnected++;
        wasReady = true;
      });
    }
    this.liveness = this.watchLiveness(livenessMs);
  }

  async inFlight(index: string): Promise<() => void> {
    try {
      await this.publisherReady(); // a node still starting waits for Redis, as its publishes do
      // others can only notice this node's death once they know it: listed before its first mark
      if (!this.listed) await this.beat();
      await this.pub.hincrby(inflightKey(this.nodeId), index, 1);
    } catch {
      if (!this.closed) this.owe(index); // the write goes on; its streams are reset once Redis answers
      return () => {};
    }
    return () => {
      this.scripts.gwInflightRelease(inflightKey(this.nodeId), index).catch(() => {});
    };
  }

  async publish(change: NewChange): Promise<string> {
    try {
      await this.publisherReady();
    } catch (err) {
      if (!this.closed) this.owe(change.index);
      throw err;
    }
    // The script puts the position first; a stray one in the input must not override it.
    const event = JSON.stringify({ ...change, position: undefined, time: change.time ?? Date.now() });
    try {
      return await this.scripts.gwChangesPublish(
        metaKey(change.index),
        historyKey(change.index),
        newEpoch(),
        String(this.historyLength),
        changeChannel(change.index),
        event,
        change.kind === 'index' ? INDEX_EVENTS_CHANNEL : '',
        String(this.historyBytes),
        this.publishCommand,
      );
    } catch (err) {
      // the write happened and its change may never reach anyone: the history is rotated once
      // Redis answers again, so that every stream on the index is told (it may also have been
      // appended after all: a reset too many costs a read, a gap never told costs a wrong view)
      this.owe(change.index);
      throw busUnavailable(`publishing to Redis failed: ${(err as Error).message}`);
    }
  }

  indexChanges(): Observable<IndexChange> {
    return new Observable<IndexChange>((subscriber) => {
      if (this.indexWatchers++ === 0 && this.sub.status === 'ready') this.sub.subscribe(INDEX_EVENTS_CHANNEL).catch(() => {});
      const subscription = this.indexEvents.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        if (--this.indexWatchers === 0 && !this.closed && this.sub.status === 'ready') this.sub.unsubscribe(INDEX_EVENTS_CHANNEL).catch(() => {});
      };
    });
  }

  mappingChanges(): Observable<MappingChange> {
    return new Observable<MappingChange>((subscriber) => {
      if (this.mappingWatchers++ === 0 && this.sub.status === 'ready') this.sub.subscribe(MAPPING_EVENTS_CHANNEL).catch(() => {});
      const subscription = this.mappingEvents.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        if (--this.mappingWatchers === 0 && !this.closed && this.sub.status === 'ready') this.sub.unsubscribe(MAPPING_EVENTS_CHANNEL).catch(() => {});
      };
    });
  }

  async announceMapping(index: string): Promise<void> {
    if (this.closed) throw busClosed();
    const change: MappingChange = { index, time: Date.now() };
    // this node's caches first, before the write is answered (the message comes back to it too)
    this.mappingEvents.next(change);
    try {
      await this.publisherReady();
      await this.pub.publish(MAPPING_EVENTS_CHANNEL, JSON.stringify({ ...change, from: this.nodeId }));
    } catch (err) {
      // other nodes keep what they read of the old mappings until they hear of it: told when Redis is back
      if (!this.closed) this.owedMappings.add(index);
      throw busUnavailable(`publishing to Redis failed: ${(err as Error).message}`);
    }
  }

  private async announceOwedMappings(): Promise<void> {
    for (const index of [...this.owedMappings]) {
      this.owedMappings.delete(index);
      await this.pub.publish(MAPPING_EVENTS_CHANNEL, JSON.stringify({ index, time: Date.now(), from: this.nodeId })).catch(() => this.owedMappings.add(index));
    }
  }

  changes(index: string): Observable<ChangeEvent> {
    return this.fanOut.changes(index);
  }

  subscribed(index: string): Promise<void> {
    if (this.closed) return Promise.reject(busClosed());
    const channel = this.channels.get(index);
    if (channel === undefined) return Promise.reject(new Error(`nothing on this node subscribes to changes of index [${index}]`));
    return channel.live;
  }

  async history(index: string, since: string): Promise<ChangeEvent[]> {
    const from = parsePosition(since, index);
    const read = await this.read(index, from, false);
    checkResumable(index, since, read);
    return read.events.map((json) => JSON.parse(json) as ChangeEvent);
  }

  async head(index: string): Promise<string> {
    const read = await this.read(index, undefined, false);
    return formatPosition(read.epoch, read.top);
  }

  stats(): ChangeBusStats {
    return this.fanOut.stats();
  }

  /** Connections ready again after they were once. */
  get reconnects(): number {
    return this.reconnected;
  }

  connection(): ChangeBusConnection {
    if (this.closed) return { connected: false, error: 'the change bus is closed' };
    for (const [role, conn] of [['publisher', this.pub], ['subscriber', this.sub]] as const) {
      if (conn.status !== 'ready') return { connected: false, error: `Redis ${role} connection is ${conn.status}${this.lastError ? ` (${this.lastError})` : ''}` };
    }
    return { connected: true };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.liveness);
    this.fanOut.close();
    this.indexEvents.complete();
    this.mappingEvents.complete();
    for (const channel of this.channels.values()) channel.settleLive(busClosed());
    this.channels.clear();
    await Promise.all([this.pub, this.sub].map((conn) => (conn.status === 'ready' ? conn.quit().catch(() => conn.disconnect()) : conn.disconnect())));
  }

  // ---- publisher side ----

  private owe(index: string): void {
    this.owed.add(index);
    void this.settleOwed();
  }

  /**
   * Rotates the history of every index a publish failed for (`ROTATE_SCRIPT`), as soon as Redis
   * answers: the streams on it, on every node, are told to read again. Retries until done or the
   * bus closes. (A node that dies before it could rotate leaves that gap untold: see
   * docs/running-at-scale.md.)
   */
  private async settleOwed(): Promise<void> {
    if (this.settling) return;
    this.settling = true;
    try {
      while (this.owed.size > 0 && !this.closed) {
        if (this.pub.status !== 'ready') {
          await this.untilPublisherBack();
          continue;
        }
        for (const index of [...this.owed]) {
          try {
            await this.scripts.gwChangesRotate(metaKey(index), historyKey(index), newEpoch(), changeChannel(index), '', '0', this.publishCommand);
            this.owed.delete(index);
            this.log(`change bus: a change of index [${index}] could not be published; its history was reset, streams on it read again`);
          } catch {
            break;
          }
        }
        if (this.owed.size > 0) await sleep(250);
      }
    } finally {
      this.settling = false;
    }
  }

  /**
   * PINGs both connections every `ms`; one whose previous PING is still unanswered is dropped
   * and connected again (ioredis reconnects on its own; the subscriber then catches up).
   */
  private watchLiveness(ms: number): NodeJS.Timeout {
    const waiting = new Map<RedisConnection, boolean>();
    const timer = setInterval(() => {
      for (const [role, conn] of [['publisher', this.pub], ['subscriber', this.sub]] as const) {
        if (conn.status !== 'ready') {
          waiting.delete(conn);
          continue;
        }
        if (waiting.get(conn)) {
          this.log(`change bus: the Redis ${role} connection did not answer a PING within ${ms} ms; connecting again`);
          waiting.delete(conn);
          conn.disconnect(true);
          continue;
        }
        waiting.set(conn, true);
        const answered = () => waiting.delete(conn);
        conn.ping().then(answered, answered);
      }
      if (this.sub.status === 'ready') {
        for (const [index, channel] of this.channels) if (channel.subscription === 'none') this.subscribeChannel(index, channel);
      }
      if (this.pub.status === 'ready') {
        void this.beatAndSweep();
        void this.checkTails();
      }
    }, ms);
    timer.unref();
    return timer;
  }

  private async publisherReady(): Promise<void> {
    if (this.closed) throw busClosed();
    if (this.pub.status === 'ready') return;
    // Only a node that is still starting waits (briefly); otherwise a write is not held up.
    // (a cluster closes connections while it learns its slots: only its end is final)
    if (this.firstConnect && (await this.untilReady(this.pub, this.connectTimeoutMs, isCluster(this.pub) ? 'end' : 'close'))) return;
    throw busUnavailable(`Redis is not reachable (${this.lastError || this.pub.status})`);
  }

  /**
   * Waits (at most a minute) for the publisher connection to be ready again: one wait shared by
   * every channel catching up and every owed rotation, not a pair of listeners each.
   */
  private untilPublisherBack(): Promise<boolean> {
    this.publisherBack ??= this.untilReady(this.pub, 60_000).finally(() => (this.publisherBack = undefined));
    return this.publisherBack;
  }

  /** Resolves true on the connection's next 'ready', false on timeout, 'end' or `giveUpOn`. */
  private untilReady(conn: RedisConnection, timeoutMs: number, giveUpOn: 'end' | 'close' = 'end'): Promise<boolean> {
    if (conn.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        conn.off('ready', onReady);
        conn.off('end', onEnd);
        conn.off(giveUpOn, onEnd);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onEnd = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      conn.on('ready', onReady);
      conn.on('end', onEnd);
      conn.on(giveUpOn, onEnd);
    });
  }

  private async read(index: string, since: Position | undefined, fromEpochStart: boolean): Promise<HistoryRead> {
    await this.publisherReady();
    try {
      const [epoch, first, top, events] = await this.scripts.gwChangesRead(
        metaKey(index),
        historyKey(index),
        newEpoch(),
        since?.epoch ?? '',
        String(since?.offset ?? -1),
        fromEpochStart ? '1' : '0',
      );
      return { epoch, first: Number(first), top: Number(top), events };
    } catch (err) {
      throw busUnavailable(`reading the change history from Redis failed: ${(err as Error).message}`);
    }
  }

  /**
   * Keeps this node's alive key (3 PING periods), and claims the nodes whose key expired: the
   * indices they had writes in flight on get a new life of their history (their streams reset).
   */
  private async beatAndSweep(): Promise<void> {
    try {
      await this.beat();
      for (const node of await this.pub.smembers(NODES_KEY)) {
        if (node === this.nodeId) continue;
        const inflight = await this.scripts.gwNodeClaim(aliveKey(node), inflightKey(node));
        if (!inflight) continue;
        await this.pub.srem(NODES_KEY, node);
        for (let i = 0; i + 1 < inflight.length; i += 2) {
          if (Number(inflight[i + 1]) <= 0) continue;
          this.log(`change bus: node ${node} is gone with writes to index [${inflight[i]}] in flight; its history is reset`);
          this.owe(inflight[i]);
        }
      }
    } catch {
      // Redis is away: the next beat tries again
    }
  }

  /**
   * The safety net under live delivery: a message lost on the way with nothing after it (a
   * subscription moved by a cluster's subscriber, a connection that dropped a message without
   * closing) shows no gap until the next event of its index. Each PING period the history's top
   * of every index this node follows is read; a channel still behind a top it was already behind
   * at the previous check (or on another epoch) catches up from the history.
   */
  private async checkTails(): Promise<void> {
    for (const [index, channel] of [...this.channels]) {
      if (channel.catchingUp || channel.last === undefined) continue;
      let meta: Record<string, string>;
      try {
        meta = await this.pub.hgetall(metaKey(index));
      } catch {
        return; // Redis is away: reconnecting catches up
      }
      const last = channel.last;
      if (this.channels.get(index) !== channel || channel.catchingUp || meta.epoch === undefined) continue;
      const top = Number(meta.top);
      if (meta.epoch !== last.epoch || (channel.behindAt !== undefined && last.offset < channel.behindAt)) {
        channel.behindAt = undefined;
        void this.catchUp(index, channel);
      } else {
        channel.behindAt = top > last.offset ? top : undefined;
      }
    }
  }

  private async beat(): Promise<void> {
    await this.pub.set(aliveKey(this.nodeId), '1', 'PX', 3 * this.livenessMs);
    await this.pub.sadd(NODES_KEY, this.nodeId);
    this.listed = true;
  }

  // ---- subscriber side ----

  private join(index: string): void {
    let settle!: (error?: Error) => void;
    const live = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    live.catch(() => {}); // nobody may be waiting on it
    const channel: Channel = { catchingUp: false, pending: [], again: false, subscription: 'none', live, settleLive: settle };
    this.channels.set(index, channel);
    if (this.sub.status === 'ready') this.subscribeChannel(index, channel);
  }

  private leave(index: string): void {
    const channel = this.channels.get(index);
    if (channel === undefined) return;
    this.channels.delete(index);
    channel.settleLive(new Error(`the subscription to changes of index [${index}] ended`));
    if (!this.closed && this.sub.status === 'ready') (this.publishCommand === 'SPUBLISH' ? this.sub.sunsubscribe(changeChannel(index)) : this.sub.unsubscribe(changeChannel(index))).catch(() => {});
  }

  /**
   * Subscribes the node to the index's channel. The first time, the starting point (the
   * history's top) is read BEFORE the subscription is sent: every event after it is then either
   * in the history that `catchUp` reads once the subscription is live, or arrives live after it.
   * (Taken after, it could count an event published meanwhile as delivered before its message
   * came — on a Redis Cluster a PUBLISH reaches other nodes' subscribers later than its reply —
   * and drop it as a duplicate: an event lost in silence. Delivering one the streams' first reads
   * already reflect costs nothing: they drop it by version.)
   */
  private subscribeChannel(index: string, channel: Channel): void {
    if (channel.subscription !== 'none') return;
    channel.subscription = 'sending';
    const unsent = () => {
      // not sent (the connection is not ready): 'ready', or the next liveness check, sends it
      if (channel.subscription === 'sending') channel.subscription = 'none';
    };
    void this.startingPoint(index, channel).then((ready) => {
      if (!ready || this.channels.get(index) !== channel || this.sub.status !== 'ready') return unsent();
      // A cluster's subscriber connection can be replaced under a SUBSCRIBE not yet answered
      // (ioredis picks another node): that command may then never settle, and the channel would
      // never go live. Unanswered after two PING periods, it is sent again (subscribing twice is
      // harmless; what was published meanwhile is filled from the history).
      let answered = false;
      const retry = setTimeout(() => {
        if (answered || this.closed || this.channels.get(index) !== channel) return;
        this.log(`change bus: the subscription to changes of index [${index}] was not confirmed within ${2 * this.livenessMs} ms; subscribing again`);
        channel.subscription = 'none';
        this.subscribeChannel(index, channel);
      }, 2 * this.livenessMs);
      retry.unref();
      (this.publishCommand === 'SPUBLISH' ? this.sub.ssubscribe(changeChannel(index)) : this.sub.subscribe(changeChannel(index))).then(
        () => {
          answered = true;
          clearTimeout(retry);
          if (this.channels.get(index) !== channel) return;
          channel.subscription = 'confirmed';
          channel.settleLive();
          // Fill what was published since the starting point (or while unsubscribed).
          void this.catchUp(index, channel);
        },
        () => {
          // The connection dropped before the reply: 'ready', or the next liveness check, sends it again.
          answered = true;
          clearTimeout(retry);
          unsent();
        },
      );
    });
  }

  /** Reads the channel's starting point if it has none yet; false when the channel was dropped or the bus closed. */
  private async startingPoint(index: string, channel: Channel): Promise<boolean> {
    while (channel.last === undefined) {
      if (this.closed || this.channels.get(index) !== channel) return false;
      try {
        const read = await this.read(index, undefined, false);
        channel.last ??= { epoch: read.epoch, offset: read.top };
      } catch (err) {
        this.log(`change bus: reading the position of index [${index}] failed, will retry: ${(err as Error).message}`);
        if (this.pub.status === 'ready') await sleep(250);
        else await this.untilPublisherBack();
      }
    }
    return !this.closed && this.channels.get(index) === channel;
  }

  /** One JSON.parse per message, whatever the number of local subscribers. */
  private receive(channelName: string, message: string): void {
    if (channelName === MAPPING_EVENTS_CHANNEL) {
      try {
        const { from, index, time } = JSON.parse(message) as MappingChange & { from?: string };
        // this node's own subscribers had it when it was announced
        if (from !== this.nodeId) this.mappingEvents.next({ index, time });
      } catch {
        this.log(`change bus: dropped a malformed message on ${channelName}`);
      }
      return;
    }
    if (channelName === INDEX_EVENTS_CHANNEL) {
      try {
        this.indexEvents.next(JSON.parse(message) as IndexChange);
      } catch {
        this.log(`change bus: dropped a malformed message on ${channelName}`);
      }
      return;
    }
    if (!channelName.startsWith(CHANNEL_PREFIX)) return;
    const index = channelName.slice(CHANNEL_PREFIX.length, -1);
    const channel = this.channels.get(index);
    if (channel === undefined) return;
    let event: ChangeEvent;
    try {
      event = JSON.parse(message) as ChangeEvent;
    } catch {
      this.log(`change bus: dropped a malformed message on ${channelName}`);
      return;
    }
    if ((event as { kind: string }).kind === 'reset') {
      // another life of the history began: catching up finds it, and what it means
      channel.again = true;
      void this.catchUp(index, channel);
      return;
    }
    if (channel.catchingUp) {
      channel.pending.push(event);
      return;
    }
    if (this.deliverInOrder(index, channel, event) === 'gap') {
      channel.pending.push(event);
      void this.catchUp(index, channel);
    }
  }

  /** Delivers the event if it is the next one; drops one already delivered; reports a gap. */
  private deliverInOrder(index: string, channel: Channel, event: ChangeEvent): 'delivered' | 'duplicate' | 'gap' {
    const at = positionOf(event.position);
    const last = channel.last;
    if (last !== undefined && at.epoch === last.epoch && at.offset <= last.offset) return 'duplicate';
    if (last !== undefined && (at.epoch !== last.epoch || at.offset !== last.offset + 1)) return 'gap';
    channel.last = at;
    this.fanOut.deliver(index, event);
    return 'delivered';
  }

  /**
   * Brings the channel up to date from the history, then delivers the live events that
   * arrived meanwhile. Without a starting point yet, it only sets one: the events received
   * since the subscription, or else the latest position. When the history cannot bridge the gap
   * — it is another life (Redis lost its data, or a node rotated it), it no longer reaches back
   * far enough, or it lost events this node delivered — the channel fails with `historyGone`.
   */
  private async catchUp(index: string, channel: Channel): Promise<void> {
    if (channel.catchingUp) return;
    channel.catchingUp = true;
    try {
      for (;;) {
        if (this.channels.get(index) !== channel) return;
        channel.again = false;
        let read: HistoryRead;
        try {
          read = await this.read(index, channel.last, true);
        } catch (err) {
          // Redis is away: try again once the publisher connection is back (or in a moment).
          this.log(`change bus: catching up on index [${index}] failed, will retry: ${(err as Error).message}`);
          if (this.pub.status === 'ready') await sleep(250);
          else await this.untilPublisherBack();
          if (this.closed) return;
          continue;
        }
        if (this.channels.get(index) !== channel) return;

        // Live events of another life of the history are stale: what this life holds comes from the read.
        const pending = channel.pending.filter((event) => positionOf(event.position).epoch === read.epoch);
        const stale = channel.pending.find((event) => positionOf(event.position).epoch !== read.epoch);
        channel.pending = [];
        const last = channel.last;
        if (last === undefined && stale !== undefined) {
          // events delivered live since the subscription belong to a history that is gone: those
          // of them not yet shown are lost with it (the streams' first reads may predate them)
          this.fanOut.fail(index, historyGone(index, stale.position, 'discontinued'));
          return;
        } else if (last === undefined) {
          channel.last = { epoch: read.epoch, offset: pending.length > 0 ? positionOf(pending[0].position).offset - 1 : read.top };
        } else if (last.epoch !== read.epoch || last.offset < read.first - 1 || last.offset > read.top) {
          const missed = formatPosition(last.epoch, last.offset);
          if (last.epoch === read.epoch && last.offset > read.top) {
            // the history lost events this node delivered (a failover to a replica behind it):
            // offsets would be given again to other events, so the history starts a new life
            await this.scripts.gwChangesRotate(metaKey(index), historyKey(index), newEpoch(), changeChannel(index), last.epoch, String(last.offset), this.publishCommand).catch(() => {});
          }
          const why = last.epoch === read.epoch && last.offset < read.first - 1 ? 'older' : 'discontinued';
          this.log(`change bus: live changes of index [${index}] after ${missed} cannot be recovered (${why}); its streams are reset`);
          this.fanOut.fail(index, historyGone(index, missed, why));
          return;
        } else {
          for (const json of read.events) this.deliverInOrder(index, channel, JSON.parse(json) as ChangeEvent);
        }
        const gapAt = pending.findIndex((event) => this.deliverInOrder(index, channel, event) === 'gap');
        if (gapAt >= 0) channel.pending = pending.slice(gapAt).concat(channel.pending);
        else if (!channel.again) return;
      }
    } finally {
      channel.catchingUp = false;
    }
  }
}

/** Positions the bus itself wrote: no validation on the hot path. */
function positionOf(position: string): Position {
  return { epoch: position.slice(0, -17), offset: Number(position.slice(-16)) };
}
