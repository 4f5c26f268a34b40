import { Subject, type Observable } from 'rxjs';
import { stampChange, type ChangeEvent, type IndexChange, type NewChange } from './change-event.js';
import { DEFAULT_HISTORY_LENGTH, type ChangeBus, type ChangeBusConnection, type ChangeBusOptions, type ChangeBusStats } from './change-bus.js';
import { LocalFanOut } from './local-fan-out.js';
import { checkResumable, formatPosition, newEpoch } from './position.js';
import { busClosed } from './bus-errors.js';

/** One index's history: a ring of the last `capacity` events, slot = offset % capacity. */
interface IndexHistory {
  top: number;
  readonly ring: Array<ChangeEvent | undefined>;
}

/**
 * The single-process bus: a Subject per index and a ring buffer history per index. Its epoch is
 * drawn at construction, so positions handed out by a previous process are refused on resume.
 */
export class MemoryChangeBus implements ChangeBus {
  private readonly epoch = newEpoch();
  private readonly capacity: number;
  private readonly histories = new Map<string, IndexHistory>();
  private readonly fanOut: LocalFanOut;
  private readonly indexEvents = new Subject<IndexChange>();
  private closed = false;

  constructor(options: ChangeBusOptions = {}) {
    this.capacity = Math.max(1, options.historyLength ?? DEFAULT_HISTORY_LENGTH);
    this.fanOut = new LocalFanOut({ onFirstSubscriber: () => {}, onLastSubscriber: () => {}, onDelivered: options.onDelivered });
  }

  indexChanges(): Observable<IndexChange> {
    return this.indexEvents.asObservable();
  }

  async publish(change: NewChange): Promise<string> {
    if (this.closed) throw busClosed();
    const history = this.historyOf(change.index);
    const offset = ++history.top;
    const event = stampChange(change, formatPosition(this.epoch, offset));
    history.ring[offset % this.capacity] = event;
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
    const history = this.histories.get(index) ?? { top: 0, ring: [] };
    const first = Math.max(1, history.top - this.capacity + 1);
    const from = checkResumable(index, since, { epoch: this.epoch, first, top: history.top });
    const events: ChangeEvent[] = [];
    for (let offset = from.offset + 1; offset <= history.top; offset++) {
      events.push(history.ring[offset % this.capacity]!);
    }
    return events;
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
  }

  private historyOf(index: string): IndexHistory {
    let history = this.histories.get(index);
    if (history === undefined) {
      history = { top: 0, ring: new Array<ChangeEvent | undefined>(this.capacity) };
      this.histories.set(index, history);
    }
    return history;
  }
}
