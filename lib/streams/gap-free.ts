import { Observable, type Subscriber } from 'rxjs';
import { StreamSubscriber } from './transports/index.js';
import { LIVE } from './messages.js';
import type { StreamMessage } from './transports/index.js';

/**
 * How a stream starts: what it shows first, while the changes it follows are already arriving.
 * `emit` sends a message to the client (the current state, or the changes replayed from history;
 * `end`: the last one, the stream ends with it); `closed` tells whether the stream is over (the
 * client gone, or ended).
 */
export type StreamStart = (emit: (message: StreamMessage, end?: boolean) => void, closed: () => boolean) => Promise<void>;

/** What a change shows the client: a message, and whether the stream ends with it. */
export interface Rendered {
  message: StreamMessage;
  end?: boolean;
}

/**
 * The skeleton every stream shares (documents, searches, aggregations, declarative UIs):
 * subscribe to what changes first, then read, hold what arrives meanwhile, and flush it once the
 * read is shown — so that no change falls between the read and the subscription. Then the live
 * marker (`LIVE`), then every change as it comes.
 *
 * One object per stream, which is at once the subscriber of its changes and the state of its
 * start (a node holds tens of thousands of streams: no closures, no wrapping subscriber per
 * layer). `start` runs once `changes` is subscribed (the current state, or a replay of the
 * history after a resume position) and may set what `render` needs to drop the changes it
 * already reflects; `render` turns a change into its message, or undefined when the client must
 * not see it (already shown, another document, not a change of the answer). A change may end the
 * stream by rendering a final message with `end: true`.
 *
 * An error of `changes`, of `start` or of `render` errors the stream; unsubscribing tears
 * `changes` down.
 */
export abstract class GapFreeRun<T> extends StreamSubscriber<T> {
  /** The changes that came while the stream started; undefined once it is live. */
  private held: T[] | undefined = [];

  constructor(private readonly out: Subscriber<StreamMessage>) {
    super();
    out.add(this);
  }

  protected abstract start(emit: (message: StreamMessage, end?: boolean) => void, closed: () => boolean): Promise<void>;
  protected abstract render(change: T): Rendered | undefined;

  /** Subscribes to `changes`, then starts; the live marker follows the start and what it held. */
  begin(changes: Observable<T>): void {
    changes.subscribe(this);
    const out = this.out;
    const emit = (message: StreamMessage, end?: boolean) => this.emit(message, end);
    this.start(emit, () => out.closed).then(
      () => {
        const held = this.held ?? [];
        this.held = undefined;
        for (const change of held) this.deliver(change);
        if (!out.closed) out.next(LIVE);
      },
      (err) => out.error(err),
    );
  }

  protected override _next(change: T): void {
    if (this.held !== undefined) this.held.push(change);
    else this.deliver(change);
  }

  protected override _error(err: unknown): void {
    this.out.error(err);
    this.unsubscribe();
  }

  protected override _complete(): void {
    this.out.complete();
    this.unsubscribe();
  }

  private emit(message: StreamMessage, end?: boolean): void {
    const out = this.out;
    if (out.closed) return;
    out.next(message);
    if (end) out.complete();
  }

  private deliver(change: T): void {
    const out = this.out;
    if (out.closed) return;
    let rendered: Rendered | undefined;
    try {
      rendered = this.render(change);
    } catch (err) {
      out.error(err);
      return;
    }
    if (rendered === undefined) return;
    out.next(rendered.message);
    if (rendered.end) out.complete();
  }
}

/** `GapFreeRun` with its start and render as functions. */
class GapFreeFunctions<T> extends GapFreeRun<T> {
  constructor(
    out: Subscriber<StreamMessage>,
    private readonly starting: StreamStart,
    private readonly rendering: (change: T) => Rendered | undefined,
  ) {
    super(out);
  }

  protected start(emit: (message: StreamMessage, end?: boolean) => void, closed: () => boolean): Promise<void> {
    return this.starting(emit, closed);
  }

  protected render(change: T): Rendered | undefined {
    return this.rendering(change);
  }
}

/** A gap-free stream (`GapFreeRun`) of `changes`, started by `start`, each change shown as `render` says. */
export function gapFree<T>(changes: Observable<T>, start: StreamStart, render: (change: T) => Rendered | undefined): Observable<StreamMessage> {
  return new Observable<StreamMessage>((out) => {
    new GapFreeFunctions(out, start, render).begin(changes);
  });
}
