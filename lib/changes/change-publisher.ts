import type { ChangeBus } from './change-bus.js';
import type { IndexChange, NewChange } from './change-event.js';
import { TimeSlice } from '../cooperative/index.js';

/** What this node does once an index it deleted or closed is gone (drop credentials, caches…). */
export type IndexChangeHandler = (change: Pick<IndexChange, 'index' | 'op'>) => Promise<void> | void;

/**
 * Publishes the changes of acknowledged writes. A failed publish is logged, never turned into a
 * failed write: the engine has already applied it (streams resume from history, or are told to
 * read the state again).
 *
 * Index events (an index deleted or closed through this node) also run this node's clean-ups,
 * registered with `onIndexChange`, before the write is answered: the client that deleted an
 * index finds its credentials and registrations gone when the answer arrives.
 */
export class ChangePublisher {
  private readonly indexHandlers: IndexChangeHandler[] = [];

  constructor(private readonly bus: ChangeBus, private readonly log: (line: string) => void) {}

  /** Logs a change that could not be published (e.g. a background task's, whose end could not be followed). */
  logFailure(line: string): void {
    this.log(line);
  }

  /**
   * Runs a write to `index` (forwarded to the engine, then its changes published) marked as in
   * flight on the bus (`ChangeBus.inFlight`): if this node dies in between, the streams on the
   * index are reset rather than left without the change.
   */
  async inFlight<T>(index: string, write: () => Promise<T>): Promise<T> {
    if (!this.bus.inFlight) return write();
    const release = await this.bus.inFlight(index);
    try {
      return await write();
    } finally {
      release();
    }
  }

  onIndexChange(handler: IndexChangeHandler): void {
    this.indexHandlers.push(handler);
  }

  /** Tells every node that the mappings of the indices `index` names changed (ChangeBus.announceMapping); a failure is logged. */
  async announceMapping(index: string): Promise<void> {
    try {
      await this.bus.announceMapping(index);
    } catch (err) {
      this.log(`mapping change of ${index} not announced: ${(err as Error).message}`);
    }
  }

  async publish(changes: Iterable<NewChange | undefined>): Promise<void> {
    const slice = new TimeSlice(); // the events of a large write go out a slice at a time
    for (const change of changes) {
      if (!change) continue;
      await slice.pause();
      try {
        await this.bus.publish(change);
      } catch (err) {
        const what = change.kind === 'document' ? `${change.index}/${change.id}` : change.index;
        this.log(`change of ${what} not published: ${(err as Error).message}`);
      }
      if (change.kind !== 'index') continue;
      for (const handler of this.indexHandlers) {
        try {
          await handler(change);
        } catch (err) {
          this.log(`clean-up after index ${change.op} of ${change.index} failed: ${(err as Error).message}`);
        }
      }
    }
  }
}
