import type { Subscription } from 'rxjs';
import { STRUCTURE_CHANNEL, type ChangeBus } from './change-bus.js';
import type { DocumentChange } from './change-event.js';

/** How long a failed structure feed waits before it is followed again. */
const REFOLLOW_MS = 1_000;

/**
 * Follows the structure channel (STRUCTURE_CHANNEL: which indices changed other than by a
 * document write), for as long as the process lives: each message goes to `message`; when the
 * feed fails (its history lost), `lost` is told (whatever was kept from it may be stale) and
 * the channel is followed again a second later.
 */
export function followStructure(bus: ChangeBus, message: (event: DocumentChange) => void, lost: (err: Error) => void): void {
  const listen = (): Subscription => bus.changes(STRUCTURE_CHANNEL).subscribe({
    next: (event) => {
      if (event.kind === 'document') message(event);
    },
    error: (err: Error) => {
      lost(err);
      setTimeout(listen, REFOLLOW_MS).unref();
    },
  });
  listen();
}
