/** The longest delay setTimeout takes (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The open streams of one node and how each one ends: at its maximum duration, or when the node
 * shuts down. One timer for all of them, not one per stream (a node holds tens of thousands):
 * every stream gets the same maximum, so the order streams open in is the order their deadlines
 * come in, and a `Set` (which iterates in insertion order) is the queue.
 */
export class StreamLifetimes {
  private readonly open = new Set<Lifetime>();
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
    const lifetime = this.enter({ end });
    return () => this.leave(lifetime);
  }

  /**
   * `add` for a stream that is an object with an `end` method: no closure per stream. Returns
   * the stream's lifetime, handed back to `leave` once it is over.
   */
  enter(stream: Ending): Lifetime {
    const lifetime: Lifetime = { deadline: performance.now() + this.maxMs, stream };
    this.open.add(lifetime);
    if (this.timer === undefined) this.arm(lifetime.deadline);
    return lifetime;
  }

  leave(lifetime: Lifetime): void {
    this.open.delete(lifetime);
    if (this.open.size === 0) this.disarm();
  }

  /** Ends every open stream (node shutdown). */
  endAll(): void {
    for (const lifetime of [...this.open]) lifetime.stream.end('shutdown');
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
    const expired: Lifetime[] = [];
    for (const lifetime of this.open) {
      if (lifetime.deadline > now) break;
      expired.push(lifetime);
    }
    for (const lifetime of expired) {
      this.open.delete(lifetime);
      lifetime.stream.end('time');
    }
    const next = this.open.values().next();
    if (!next.done) this.arm(next.value.deadline);
  }
}

/** A stream that ends at its maximum duration (`'time'`) or when the node shuts down. */
export interface Ending {
  end(why: 'time' | 'shutdown'): void;
}

export interface Lifetime {
  readonly deadline: number;
  readonly stream: Ending;
}
