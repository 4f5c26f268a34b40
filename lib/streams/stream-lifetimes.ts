/** The longest delay setTimeout takes (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The open streams of one node and how each one ends: at its maximum duration, or when the node
 * shuts down. One timer for all of them, not one per stream (a node holds tens of thousands):
 * every stream gets the same maximum, so the order streams open in is the order their deadlines
 * come in, and a `Set` (which iterates in insertion order) is the queue.
 */
export class StreamLifetimes {
  private readonly open = new Set<Ending>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly maxMs: number) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Counts a stream as open until the returned function is called. `end` is called once the
   * stream's maximum duration is reached (`'time'`) or the node shuts down (`'shutdown'`); the
   * caller then ends the stream, which calls the returned function.
   */
  add(end: (why: 'time' | 'shutdown') => void): () => void {
    const stream: Ending = { end, deadline: 0 };
    this.enter(stream);
    return () => this.leave(stream);
  }

  /**
   * `add` for a stream that is an object with an `end` method and a `deadline` of its own (set
   * here): no closure, nor any other object, per stream. `leave` once it is over.
   */
  enter(stream: Ending): void {
    stream.deadline = performance.now() + this.maxMs;
    this.open.add(stream);
    if (this.timer === undefined) this.arm(stream.deadline);
  }

  leave(stream: Ending): void {
    this.open.delete(stream);
    if (this.open.size === 0) this.disarm();
  }

  /** Ends every open stream (node shutdown). */
  endAll(): void {
    for (const stream of [...this.open]) stream.end('shutdown');
  }

  private arm(deadline: number): void {
    this.disarm();
    // a timer longer than setTimeout allows (~24.8 days) would fire at once: it wakes up at
    // that longest delay instead, and sets itself again for what is left
    this.timer = setTimeout(() => this.due(), Math.min(MAX_TIMER_MS, Math.max(0, deadline - performance.now())));
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private due(): void {
    this.timer = undefined;
    const now = performance.now();
    const expired: Ending[] = [];
    for (const stream of this.open) {
      if (stream.deadline > now) break;
      expired.push(stream);
    }
    for (const stream of expired) {
      this.open.delete(stream);
      stream.end('time');
    }
    const next = this.open.values().next();
    if (!next.done) this.arm(next.value.deadline);
  }
}

/** A stream that ends at its maximum duration (`'time'`) or when the node shuts down. */
export interface Ending {
  end(why: 'time' | 'shutdown'): void;
  /** When its time is up (`performance.now()`), set by `StreamLifetimes.enter`. */
  deadline: number;
}
