import { Subscriber, Subscription, type TeardownLogic } from 'rxjs';

/**
 * A Subscriber that keeps its first teardown in a field of its own. RxJS keeps a subscriber's
 * teardowns in an array grown by `push` (about 150 bytes for one entry); a stream's subscriber
 * has one teardown (what it subscribed to), and a node holds tens of thousands of streams, each
 * a few subscribers deep. Later teardowns go to RxJS's array as usual. A child subscription kept
 * here is not told of its parent (RxJS's `_addParent`): it is only let go when the parent ends,
 * which unsubscribes it (a no-op if it ended first).
 */
export abstract class StreamSubscriber<T> extends Subscriber<T> {
  private teardown: Exclude<TeardownLogic, void> | undefined = undefined;

  override add(teardown: TeardownLogic): void {
    if (!teardown || teardown === this) return;
    if (this.closed || this.teardown !== undefined) return super.add(teardown);
    if (teardown instanceof Subscription && teardown.closed) return;
    this.teardown = teardown;
  }

  override unsubscribe(): void {
    if (this.closed) return;
    super.unsubscribe();
    const teardown = this.teardown;
    this.teardown = undefined;
    if (typeof teardown === 'function') teardown();
    else teardown?.unsubscribe();
  }
}
