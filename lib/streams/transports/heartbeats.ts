/** A stream that sends a heartbeat when it has been idle long enough. */
export interface Beating {
  /** One tick of its clock went by. */
  tick(): void;
}

/**
 * One interval timer for the heartbeats of every stream that ticks at the same period, instead of
 * one per stream: a node holds tens of thousands of streams, and a timer per stream costs each
 * of them memory and the node a wake-up per stream and tick. The timer runs while a stream is
 * registered and never keeps the process alive.
 */
class HeartbeatClock {
  private readonly beating = new Set<Beating>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly periodMs: number) {}

  add(stream: Beating): void {
    this.beating.add(stream);
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      // a stream that ends in its tick (a full buffer) leaves the set: deleting the entry being
      // visited is safe while iterating a Set
      for (const s of this.beating) s.tick();
    }, this.periodMs);
    this.timer.unref();
  }

  delete(stream: Beating): void {
    this.beating.delete(stream);
    if (this.beating.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

const clocks = new Map<number, HeartbeatClock>();

/** The shared clock ticking every `periodMs`. */
export function heartbeatClock(periodMs: number): { add(stream: Beating): void; delete(stream: Beating): void } {
  let clock = clocks.get(periodMs);
  if (!clock) clocks.set(periodMs, (clock = new HeartbeatClock(periodMs)));
  return clock;
}
