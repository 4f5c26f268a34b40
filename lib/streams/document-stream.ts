import { Observable } from 'rxjs';
import { comparePositions, type ChangeBus, type ChangeEvent, type DocumentChange } from '../changes/index.js';
import type { DocumentListeners } from './document-listeners.js';
import { changedMessage, deletedMessage, indexEndedMessage, liveMessage } from './messages.js';
import type { StreamMessage } from './transports/index.js';

export interface DocumentStreamSpec {
  index: string;
  id: string;
  /** The app-addressed type; changes that give the document another type read as a delete. */
  type?: string;
  /** Changes only, no initial read. */
  streamOnly: boolean;
  /** Resume after this position (SSE Last-Event-ID / `since`): replay from history, no initial read. */
  since?: string;
  /** The document read response, as the plain GET would answer it. */
  readInitial(): Promise<Record<string, unknown>>;
}

/**
 * A document stream: the current state, then every later change of the document.
 * Gap-free by construction: the stream listens before it reads, holds the changes that arrive
 * meanwhile, and drops those the read already reflects (by `_seq_no`).
 */
export function documentStream(bus: ChangeBus, listeners: DocumentListeners, spec: DocumentStreamSpec): Observable<StreamMessage> {
  return new Observable<StreamMessage>((subscriber) => {
    const held: ChangeEvent[] = [];
    let live = false;
    let reflectedSeqNo = -1;
    let lastPosition: string | undefined;
    const shownType = spec.type ?? '_doc';

    const emit = (event: ChangeEvent) => {
      if (lastPosition !== undefined && comparePositions(event.position, lastPosition) <= 0) return;
      if (event.kind === 'index') {
        subscriber.next(indexEndedMessage(event));
        subscriber.complete();
        return;
      }
      if (event.id !== spec.id) return;
      lastPosition = event.position;
      if (event.seqNo <= reflectedSeqNo) return;
      subscriber.next(messageFor(event));
    };
    const messageFor = (change: DocumentChange): StreamMessage => {
      if (change.op === 'delete' || (spec.type !== undefined && change.type !== spec.type)) return deletedMessage(change, shownType);
      return changedMessage(change, shownType, change.source);
    };

    const stop = listeners.listen(spec.index, spec.id, {
      onChange: (event) => (live ? emit(event) : held.push(event)),
      onError: (err) => subscriber.error(err),
    });

    (async () => {
      await bus.subscribed(spec.index);
      if (spec.since !== undefined) {
        lastPosition = spec.since;
        for (const event of await bus.history(spec.index, spec.since)) {
          if (subscriber.closed) return;
          if (event.kind === 'index' || event.id === spec.id) emit(event);
          else lastPosition = event.position;
        }
      } else if (!spec.streamOnly) {
        const head = await bus.head(spec.index);
        const initial = await spec.readInitial();
        if (typeof initial._seq_no === 'number') reflectedSeqNo = initial._seq_no;
        subscriber.next({ data: initial, id: head, initial: true });
      }
      live = true;
      for (const event of held.splice(0)) {
        if (subscriber.closed) return;
        emit(event);
      }
      if (!subscriber.closed) subscriber.next(liveMessage());
    })().catch((err) => subscriber.error(err));

    return stop;
  });
}
