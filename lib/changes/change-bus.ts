import type { Observable } from 'rxjs';
import type { ChangeEvent, IndexChange, MappingChange, NewChange } from './change-event.js';

/**
 * Carries ChangeEvents from the node that made a write to every node with a live stream on
 * the written index. Two implementations pass one contract spec (spec/changes/): memory (one
 * process) and Redis (many gateway nodes).
 *
 * Contract:
 *
 * - Positions. `publish` gives each event a position in its index's history (format in
 *   `position.ts`): positions of one index increase by exactly one offset per event within an
 *   epoch and compare as strings. Appending to the history and handing the event to live
 *   delivery happen atomically per index, so history order = live order = position order.
 *
 * - Live delivery is at-most-once and in position order per index. Every subscriber of
 *   `changes(index)` on every node receives the events published after its node's channel
 *   subscription is live (`subscribed(index)`), until it unsubscribes. An event lost on the
 *   wire (e.g. while Redis reconnects) is recovered from the history when the node notices the
 *   gap; when the history cannot fill it, the observable errors with `historyGone` — live
 *   delivery never skips an event silently.
 *
 * - Resume. `history(index, since)` returns exactly the events after `since`, or throws the
 *   `historyGone` EsError (400) when `since` is older than the bounded history keeps or belongs
 *   to another epoch (restarted memory bus, flushed Redis). A stream that reconnects resumes with
 *   `history(last position)` and then live events with a greater position.
 *
 * - Index events (`kind: 'index'`, delete/close) travel like document events; the bus does not
 *   end anything itself: streams end when they see one.
 *
 * - Failure. While the bus cannot reach its store, `publish` rejects with a 503 EsError
 *   (`change_bus_unavailable_exception`); the write it reports already succeeded on the engine,
 *   so the caller logs the failure and answers the write normally. Nothing the bus does while
 *   disconnected throws past its own API or crashes the process.
 */
export interface ChangeBus {
  /**
   * Appends the event to its index's history and hands it to live delivery; resolves with the
   * position assigned. Memory: this node's subscribers have been called when it resolves.
   * Redis: the event is in the Redis Stream and PUBLISHed to every subscribed node, this one
   * included (its subscribers get it when the message comes back, in order).
   * A rejected publish (connection lost mid-call) may still have been appended.
   */
  publish(change: NewChange): Promise<string>;

  /**
   * Live events of one index: a hot observable. The node holds one channel subscription per
   * index with at least one subscriber, shared by all of them (one parse per message, fanned
   * out in process), taken on the first subscribe and dropped when the last one leaves.
   * Completes on `close()`; errors with `historyGone` on a gap it cannot fill.
   */
  changes(index: string): Observable<ChangeEvent>;

  /**
   * Resolves once this node's channel subscription for `index` is live, i.e. every event
   * published from now on reaches `changes(index)` subscribers. Call it after subscribing to
   * `changes(index)` and before reading the initial state: that ordering is what makes streams
   * gap-free. Waits through a reconnect; rejects if nobody on this node subscribes to `index`
   * or the bus is closed.
   */
  subscribed(index: string): Promise<void>;

  /**
   * The events of `index` after position `since`, oldest first (empty when nothing is newer).
   * Throws `historyGone` (EsError 400) when `since` is older than the retained history or from
   * another epoch, and a 400 for a malformed position.
   */
  history(index: string, since: string): Promise<ChangeEvent[]>;

  /**
   * The position of the latest event of `index` (offset 0 when there is none yet): a resume
   * token for a stream's initial message, read after `subscribed` and before the initial state.
   */
  head(index: string): Promise<string>;

  /**
   * Index events (delete, close) of every index, from every node: what each node's caches of an
   * index (mappings known, apps prepared) must drop. Live and at-most-once like `changes`, from
   * the moment this node subscribes; no history. Completes on `close()`.
   */
  indexChanges(): Observable<IndexChange>;

  /**
   * Tells every node that mappings changed (MappingChange): no history, no position. This node's
   * `mappingChanges()` subscribers have been called when it resolves, whatever the store does.
   * Rejects with the 503 EsError when the store cannot be reached (other nodes are not told).
   */
  announceMapping(index: string): Promise<void>;

  /**
   * Mapping changes of every index, from every node, live and at-most-once like `indexChanges`.
   * A cache that drops what it kept on them must also drop it when the bus was not connected or
   * reconnected since (`connection()`, `reconnects`): an announcement may have been lost then.
   */
  mappingChanges(): Observable<MappingChange>;

  /** Live subscriptions (subscribers of `changes`) and index channels this node holds. */
  stats(): ChangeBusStats;

  /**
   * Marks a write to `index` as in flight on this node until the returned release is called
   * (after its change is published, or its publish failed). A bus shared by nodes (Redis) keeps
   * the mark where every node sees it: when a node dies with writes in flight — acknowledged by
   * the engine, perhaps, but never published — another node notices (its liveness key expired)
   * and starts a new life of those indices' histories, so every stream on them is reset instead
   * of missing that change in silence. Never rejects: when the mark cannot be set, the index is
   * treated as if its publish had failed. Absent on a single-process bus (a dead process has no
   * streams left to tell).
   */
  inFlight?(index: string): Promise<() => void>;

  /** Connections to its store re-established since start (Redis); absent on a bus that has none. */
  readonly reconnects?: number;

  /**
   * Whether the bus reaches its store now, from its connection state (no round trip): what a
   * readiness probe reports. Memory: always connected until closed; Redis: both connections ready.
   */
  connection(): ChangeBusConnection;

  /** Completes every `changes` observable and releases connections. Idempotent. */
  close(): Promise<void>;
}

export interface ChangeBusStats {
  /** Subscribers of `changes(…)` on this node, across indices. */
  subscriptions: number;
  /** Index channels this node is subscribed to (one per index with subscribers). */
  channels: number;
}

export interface ChangeBusConnection {
  connected: boolean;
  /** Why not, when not connected. */
  error?: string;
}

export interface ChangeBusOptions {
  /** Events kept per index for resume, at most (both implementations trim exactly). */
  historyLength?: number;
  /**
   * Bytes of events (about their JSON) kept for resume, the oldest going first: over all indices
   * together on the memory bus; per index with Redis (an index's keys live on one slot).
   */
  historyBytes?: number;
  /**
   * Told of each event as it is delivered to this node's subscribers (once per event, after they
   * have it; not for an index nobody on this node follows). Must not throw. For metrics.
   */
  onDelivered?: (event: ChangeEvent) => void;
}

export const DEFAULT_HISTORY_LENGTH = 10_000;
export const DEFAULT_HISTORY_BYTES = 64 * 1024 ** 2;

/**
 * The bus channel on which a node tells the others (and itself) which indices changed other than
 * by a document write: a document whose `id` names the index (`_all`: every index) and whose `op`
 * says what changed (the search cache's CacheMessage: `create` when which indices exist or what a
 * name stands for may have changed).
 */
export const STRUCTURE_CHANNEL = '.gateway-cache';
