import { defer, Observable } from 'rxjs';
import { comparePositions, type ChangeBus, type ChangeEvent, type DocumentChange } from '../changes/index.js';
import { filterSource, type SourceFilter } from '../engine/embedded/index.js';
import type { DocumentListeners } from './document-listeners.js';
import { gapFree } from './gap-free.js';
import { changedMessage, deletedMessage, indexEndedMessage } from './messages.js';
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
  /**
   * What of `_source` the stream shows (the request's `_source` parameters, a credential's field
   * rules among them): each change is filtered as the initial read was. Undefined: all of it.
   */
  source?: SourceFilter;
  /** The document read response, as the plain GET would answer it. */
  readInitial(): Promise<Record<string, unknown>>;
}

/**
 * The message each change was last rendered as, and for which type (`DocumentStreamSpec.type`):
 * the streams of one document share it, and its bytes are then encoded once (`frameBytes`).
 */
const rendered = new WeakMap<DocumentChange, { type: string | undefined; message: StreamMessage }>();

/**
 * A document stream: the current state, then every later change of the document.
 * Gap-free (`gapFree`): the stream listens before it reads, holds the changes that arrive
 * meanwhile, and drops those the read already reflects (by `_seq_no`) or that came before the
 * position it resumes from.
 */
export function documentStream(
  bus: ChangeBus, listeners: DocumentListeners, { index, id, type, since, streamOnly, source, readInitial }: DocumentStreamSpec,
): Observable<StreamMessage> {
  // the spec's fields, not the spec: what the stream's closures keep for its whole life
  return defer(() => {
    let reflectedSeqNo = -1;
    let lastPosition: string | undefined;
    const shownType = type ?? '_doc';

    const messageFor = (change: DocumentChange): StreamMessage => {
      const deleted = change.op === 'delete' || (type !== undefined && change.type !== type);
      // a filtered stream renders its own message: the shared one shows the whole document
      if (source !== undefined) {
        return deleted ? deletedMessage(change, shownType) : changedMessage(change, shownType, filterSource((change.source ?? {}) as Record<string, unknown>, source));
      }
      const hit = rendered.get(change);
      if (hit !== undefined && hit.type === type) return hit.message;
      const message = deleted ? deletedMessage(change, shownType) : changedMessage(change, shownType, change.source);
      rendered.set(change, { type, message });
      return message;
    };
    const render = (event: ChangeEvent) => {
      if (lastPosition !== undefined && comparePositions(event.position, lastPosition) <= 0) return undefined;
      if (event.kind === 'index') return { message: indexEndedMessage(event), end: true };
      if (event.id !== id) return undefined;
      lastPosition = event.position;
      if (event.seqNo <= reflectedSeqNo) return undefined;
      return { message: messageFor(event) };
    };
    const changes = new Observable<ChangeEvent>((subscriber) =>
      listeners.listen(index, id, { onChange: (event) => subscriber.next(event), onError: (err) => subscriber.error(err) }),
    );

    return gapFree(changes, async (emit, closed) => {
      await bus.subscribed(index);
      if (since !== undefined) {
        lastPosition = since;
        for (const event of await bus.history(index, since)) {
          if (closed()) return;
          if (event.kind !== 'index' && event.id !== id) {
            lastPosition = event.position;
            continue;
          }
          const out = render(event);
          if (out) emit(out.message, out.end);
        }
      } else if (!streamOnly) {
        const head = await bus.head(index);
        const initial = await readInitial();
        if (typeof initial._seq_no === 'number') reflectedSeqNo = initial._seq_no;
        emit({ data: initial, id: head, initial: true });
      }
    }, render);
  });
}
