import type { Subscription, Unsubscribable } from 'rxjs';
import type { ChangeBus, ChangeEvent } from '../changes/index.js';

/**
 * One change as every stream of its document receives it (index events: every stream of the
 * index): what the streams render of it is rendered once and kept here, for all of them, rather
 * than in a table keyed by the change.
 */
export class DeliveredChange<Shown = unknown> {
  /** What the first stream rendered of the change, for the streams after it; see `DocumentStream`. */
  shown: Shown | undefined = undefined;

  constructor(readonly event: ChangeEvent) {}
}

/** A document stream as its document's changes reach it (a GapFreeRun is one). */
export interface DocumentListener {
  next(change: DeliveredChange): void;
  error(err: unknown): void;
}

/**
 * Document streams of one node, dispatched by index and id: one bus subscription per index
 * with at least one stream, and a change reaches only the streams of its document (plus index
 * events, which reach every stream of the index) — no per-stream filtering of every change.
 */
export class DocumentListeners {
  private readonly indices = new Map<string, IndexListeners>();

  constructor(private readonly bus: ChangeBus) {}

  get count(): number {
    let n = 0;
    for (const i of this.indices.values()) n += i.count;
    return n;
  }

  /** Starts delivering the document's changes to the listener; returns its teardown. */
  listen(index: string, id: string, listener: DocumentListener): Unsubscribable {
    let entry = this.indices.get(index);
    if (!entry) {
      const byId = new Map<string, Set<DocumentListener>>();
      const subscription = this.bus.changes(index).subscribe({
        next: (event) => {
          // the work of a change is done once here, for all its streams (DeliveredChange); each
          // stream then only renders it (the first one for all) and writes it
          const delivered = new DeliveredChange(event);
          if (event.kind === 'index') {
            for (const set of [...byId.values()]) for (const l of [...set]) l.next(delivered);
          } else {
            const set = byId.get(event.id);
            if (set) for (const l of set.size === 1 ? set : [...set]) l.next(delivered);
          }
        },
        error: (err) => {
          // the next listener subscribes afresh (a stream reset after this error does)
          if (this.indices.get(index) === entry) this.indices.delete(index);
          for (const set of [...byId.values()]) for (const l of [...set]) l.error(err);
        },
      });
      entry = { subscription, byId, count: 0 };
      this.indices.set(index, entry);
    }
    let set = entry.byId.get(id);
    if (!set) entry.byId.set(id, (set = new Set()));
    set.add(listener);
    entry.count++;
    return new Listening(this.indices, index, entry, id, listener);
  }
}

interface IndexListeners {
  subscription: Subscription;
  byId: Map<string, Set<DocumentListener>>;
  count: number;
}

/** One listener's place among the document listeners, and its teardown: an object rather than a closure (a node holds tens of thousands). */
class Listening implements Unsubscribable {
  private removed = false;

  constructor(
    private readonly indices: Map<string, IndexListeners>,
    private readonly index: string,
    private readonly entry: IndexListeners,
    private readonly id: string,
    private readonly listener: DocumentListener,
  ) {}

  unsubscribe(): void {
    if (this.removed) return;
    this.removed = true;
    const { entry, id } = this;
    const s = entry.byId.get(id);
    s?.delete(this.listener);
    if (s?.size === 0) entry.byId.delete(id);
    if (--entry.count === 0) {
      entry.subscription.unsubscribe();
      if (this.indices.get(this.index) === entry) this.indices.delete(this.index);
    }
  }
}
