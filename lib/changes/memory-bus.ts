import { Subject, type Observable } from 'rxjs';
import { stampChange, type ChangeEvent, type IndexChange, type MappingChange, type NewChange } from './change-event.js';
import { DEFAULT_HISTORY_BYTES, DEFAULT_HISTORY_LENGTH, type ChangeBus, type ChangeBusConnection, type ChangeBusOptions, type ChangeBusStats } from './change-bus.js';
import { LocalFanOut } from './local-fan-out.js';
import { checkResumable, formatPosition, newEpoch } from './position.js';
import { busClosed } from './bus-errors.js';

/**
 * One index's history: the events `first..top` (a queue: `events[i]` has offset `first + i`),
 * with their sizes.
 */
interface IndexHistory {
  top: number;
  first: number;
  readonly events: ChangeEvent[];
  readonly sizes: number[];
  /** Where the queue starts in `events` (dropped slots are compacted now and then). */
  head: number;
}

/** One event in the order all indices published them: which history, and its offset there. */
interface Published {
  readonly history: IndexHistory;
  readonly offset: number;
}

/**
 * What an event costs the history: about its document's JSON length (strings by length, without
 * escapes; numbers and the like 8) and a fixed part for the event itself. The bound is on these,
 * not on exact heap bytes; measuring walks the document without serializing it.
 */
function eventBytes(event: ChangeEvent): number {
  return EVENT_OVERHEAD_BYTES + event.index.length + (event.kind === 'document' ? event.id.length + event.type.length + (event.source ? jsonLength(event.source) : 0) : 0);
}

/**
 * Walked with a stack of its own: a deeply nested document cannot overflow the call stack. Only
 * objects and arrays go on the stack; a scalar is counted where it is found (a list of 100,000
 * strings is one pass over it).
 */
function jsonLength(root: unknown): number {
  let n = 0;
  const pending: unknown[] = [];
  const count = (value: unknown) => {
    if (typeof value === 'string') n += value.length + 2;
    else if (value === null || typeof value !== 'object') n += 8;
    else pending.push(value);
  };
  count(root);
  while (pending.length) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      n += 2 + value.length;
      for (const v of value) {
        if (typeof v === 'string') n += v.length + 2;
        else count(v);
      }
    } else {
      n += 2;
      for (const k in value as Record<string, unknown>) {
        n += k.length + 4;
        count((value as Record<string, unknown>)[k]);
      }
    }
  }
  return n;
}

const EVENT_OVERHEAD_BYTES = 200;

/**
 * The single-process bus: a Subject per index and a history per index, bounded twice: at most
 * `historyLength` events per index, and at most `historyBytes` over all indices together (the
 * oldest events go first, whichever index they belong to). A position the history no longer
 * holds is answered with `historyGone`, as for any position older than the history. Its epoch is
 * drawn at construction, so positions handed out by a previous process are refused on resume.
 */
export class MemoryChangeBus implements ChangeBus {
  private readonly epoch = newEpoch();
  private readonly capacity: number;
  private readonly maxBytes: number;
  private heldBytes = 0;
  /** Every held event, oldest first over all indices (entries already dropped by the count bound are skipped). */
  private readonly published: Published[] = [];
  private publishedHead = 0;
  private readonly histories = new Map<string, IndexHistory>();
  private readonly fanOut: LocalFanOut;
  private readonly indexEvents = new Subject<IndexChange>();
  private readonly mappingEvents = new Subject<MappingChange>();
  private closed = false;

  constructor(options: ChangeBusOptions = {}) {
    this.capacity = Math.max(1, options.historyLength ?? DEFAULT_HISTORY_LENGTH);
    this.maxBytes = Math.max(0, options.historyBytes ?? DEFAULT_HISTORY_BYTES);
    this.fanOut = new LocalFanOut({ onFirstSubscriber: () => {}, onLastSubscriber: () => {}, onDelivered: options.onDelivered });
  }

  indexChanges(): Observable<IndexChange> {
    return this.indexEvents.asObservable();
  }

  mappingChanges(): Observable<MappingChange> {
    return this.mappingEvents.asObservable();
  }

  async announceMapping(index: string): Promise<void> {
    if (this.closed) throw busClosed();
    this.mappingEvents.next({ index, time: Date.now() });
  }

  async publish(change: NewChange): Promise<string> {
    if (this.closed) throw busClosed();
    const history = this.historyOf(change.index);
    const offset = ++history.top;
    const event = stampChange(change, formatPosition(this.epoch, offset));
    this.append(history, event, offset);
    this.fanOut.deliver(change.index, event);
    if (event.kind === 'index') this.indexEvents.next(event);
    return event.position;
  }

  changes(index: string): Observable<ChangeEvent> {
    return this.fanOut.changes(index);
  }

  async subscribed(index: string): Promise<void> {
    if (this.closed) throw busClosed();
    if (!this.fanOut.has(index)) throw new Error(`nothing on this node subscribes to changes of index [${index}]`);
  }

  async history(index: string, since: string): Promise<ChangeEvent[]> {
    const history = this.histories.get(index);
    const top = history?.top ?? 0;
    const from = checkResumable(index, since, { epoch: this.epoch, first: history?.first ?? 1, top });
    if (!history) return [];
    const start = history.head + (from.offset + 1 - history.first);
    return history.events.slice(start);
  }

  async head(index: string): Promise<string> {
    return formatPosition(this.epoch, this.histories.get(index)?.top ?? 0);
  }

  stats(): ChangeBusStats {
    return this.fanOut.stats();
  }

  connection(): ChangeBusConnection {
    return this.closed ? { connected: false, error: 'the change bus is closed' } : { connected: true };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fanOut.close();
    this.indexEvents.complete();
    this.mappingEvents.complete();
  }

  /** Bytes the histories hold together (at most `historyBytes`). */
  historyBytes(): number {
    return this.heldBytes;
  }

  private historyOf(index: string): IndexHistory {
    let history = this.histories.get(index);
    if (history === undefined) {
      history = { top: 0, first: 1, events: [], sizes: [], head: 0 };
      this.histories.set(index, history);
    }
    return history;
  }

  private append(history: IndexHistory, event: ChangeEvent, offset: number): void {
    const bytes = eventBytes(event);
    history.events.push(event);
    history.sizes.push(bytes);
    this.published.push({ history, offset });
    this.heldBytes += bytes;
    if (history.top - history.first + 1 > this.capacity) this.dropOldest(history);
    while (this.heldBytes > this.maxBytes && this.publishedHead < this.published.length) {
      const { history: h, offset: o } = this.published[this.publishedHead++];
      if (o >= h.first) this.dropOldest(h); // else the count bound dropped it already
    }
    if (this.publishedHead > 1024 && this.publishedHead * 2 > this.published.length) {
      this.published.splice(0, this.publishedHead);
      this.publishedHead = 0;
    }
  }

  /** Drops `history`'s oldest event; what it held is freed at once, the slots in batches. */
  private dropOldest(history: IndexHistory): void {
    this.heldBytes -= history.sizes[history.head];
    (history.events as Array<ChangeEvent | undefined>)[history.head] = undefined;
    history.head++;
    history.first++;
    if (history.head > 1024 && history.head * 2 > history.events.length) {
      history.events.splice(0, history.head);
      history.sizes.splice(0, history.head);
      history.head = 0;
    }
  }
}
