import type { ChangeBus } from './change-bus.js';
import type { NewChange } from './change-event.js';

/**
 * Publishes the changes of acknowledged writes. A failed publish is logged, never turned into a
 * failed write: the engine has already applied it (streams resume from history, or are told to
 * read the state again).
 */
export class ChangePublisher {
  constructor(private readonly bus: ChangeBus, private readonly log: (line: string) => void) {}

  async publish(changes: Iterable<NewChange | undefined>): Promise<void> {
    for (const change of changes) {
      if (!change) continue;
      try {
        await this.bus.publish(change);
      } catch (err) {
        const what = change.kind === 'document' ? `${change.index}/${change.id}` : change.index;
        this.log(`change of ${what} not published: ${(err as Error).message}`);
      }
    }
  }
}
