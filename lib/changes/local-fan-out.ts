import { Observable, Subject } from 'rxjs';
import type { ChangeEvent } from './change-event.js';
import type { ChangeBusStats } from './change-bus.js';

/** What a bus does when its node gains its first, or loses its last, subscriber on an index. */
export interface ChannelHooks {
  onFirstSubscriber(index: string): void;
  onLastSubscriber(index: string): void;
  /** An event reached this node's subscribers (ChangeBusOptions.onDelivered). */
  onDelivered?: (event: ChangeEvent) => void;
}

interface Channel {
  readonly subject: Subject<ChangeEvent>;
  refs: number;
}

/**
 * The node-local half of every bus: one Subject per index, shared by all of the node's
 * subscribers on it, so an event is parsed once and fanned out in process. Counts subscribers
 * and tells the bus when an index's channel is needed and when it no longer is.
 */
export class LocalFanOut {
  private readonly channels = new Map<string, Channel>();
  private subscriptions = 0;
  private closed = false;

  constructor(private readonly hooks: ChannelHooks) {}

  changes(index: string): Observable<ChangeEvent> {
    return new Observable<ChangeEvent>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      let channel = this.channels.get(index);
      const first = channel === undefined;
      if (channel === undefined) {
        channel = { subject: new Subject<ChangeEvent>(), refs: 0 };
        this.channels.set(index, channel);
      }
      const held = channel;
      held.refs++;
      this.subscriptions++;
      const inner = held.subject.subscribe(subscriber);
      if (first) this.hooks.onFirstSubscriber(index);
      return () => {
        inner.unsubscribe();
        this.subscriptions--;
        held.refs--;
        // A failed or closed channel was already removed (and its hook called) by fail/close.
        if (held.refs === 0 && this.channels.get(index) === held) {
          this.channels.delete(index);
          this.hooks.onLastSubscriber(index);
        }
      };
    });
  }

  deliver(index: string, event: ChangeEvent): void {
    const channel = this.channels.get(index);
    if (channel === undefined) return;
    channel.subject.next(event);
    this.hooks.onDelivered?.(event);
  }

  has(index: string): boolean {
    return this.channels.has(index);
  }

  indices(): string[] {
    return [...this.channels.keys()];
  }

  /** Ends every stream of `index` with `error`; the next subscriber starts a fresh channel. */
  fail(index: string, error: Error): void {
    const channel = this.channels.get(index);
    if (channel === undefined) return;
    this.channels.delete(index);
    this.hooks.onLastSubscriber(index);
    channel.subject.error(error);
  }

  stats(): ChangeBusStats {
    return { subscriptions: this.subscriptions, channels: this.channels.size };
  }

  /** Completes every observable; later subscribers complete at once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const channels = [...this.channels.values()];
    this.channels.clear();
    for (const channel of channels) channel.subject.complete();
  }
}
