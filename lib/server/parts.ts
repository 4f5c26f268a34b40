/**
 * What the composition root (startGateway) has started, each with how it is closed: closed by one
 * loop in the reverse order of their start, on shutdown and on a failed start alike, so that the
 * two can never differ. A part that fails to close is logged and the others are still closed.
 */
export class Parts {
  private readonly started: Array<{ name: string; close: () => unknown }> = [];

  constructor(private readonly log: (line: string) => void) {}

  /** Registers a started part (returns it, to be used inline); `close` is called once, at the end. */
  add<T>(name: string, part: T, close: (part: T) => unknown): T {
    this.started.push({ name, close: () => close(part) });
    return part;
  }

  /** Closes every part registered so far, last started first. */
  async closeAll(): Promise<void> {
    for (let part = this.started.pop(); part; part = this.started.pop()) {
      try {
        await part.close();
      } catch (err) {
        this.log(`closing ${part.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
