import { Observable, type Subscriber } from 'rxjs';
import { comparePositions, type ChangeBus, type ChangeEvent, type DocumentChange } from '../changes/index.js';
import { filterSource, type SourceFilter } from '../engine/embedded/index.js';
import type { DeliveredChange, DocumentListeners } from './document-listeners.js';
import { GapFreeRun, type Rendered } from './gap-free.js';
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
 * A document stream: the current state, then every later change of the document.
 * Gap-free (`GapFreeRun`): the stream listens before it reads, holds the changes that arrive
 * meanwhile, and drops those the read already reflects (by `_seq_no`) or that came before the
 * position it resumes from.
 */
export function documentStream(bus: ChangeBus, listeners: DocumentListeners, spec: DocumentStreamSpec): Observable<StreamMessage> {
  return new Observable<StreamMessage>((out) => {
    const run = new DocumentStream(out, bus, spec);
    run.begin(new Observable<DeliveredChange>((changes) => listeners.listen(spec.index, spec.id, changes)));
  });
}

/** What the first stream of a document rendered of a change, for the others (`DeliveredChange.shown`). */
interface Shown {
  /** The type the stream asked for (`DocumentStreamSpec.type`). */
  type: string | undefined;
  rendered: Rendered;
}

/**
 * One document stream's state, as one object (a node holds tens of thousands): the spec's fields
 * it needs for its whole life, what it has shown so far, and the subscriber of its changes.
 */
class DocumentStream extends GapFreeRun<DeliveredChange> {
  private readonly index: string;
  private readonly id: string;
  private readonly type: string | undefined;
  private readonly source: SourceFilter | undefined;
  /** Until the stream has started: what it starts from. */
  private spec: DocumentStreamSpec | undefined;
  private reflectedSeqNo = -1;
  private lastPosition: string | undefined;

  constructor(out: Subscriber<StreamMessage>, private readonly bus: ChangeBus, spec: DocumentStreamSpec) {
    super(out);
    this.index = spec.index;
    this.id = spec.id;
    this.type = spec.type;
    this.source = spec.source;
    this.spec = spec;
  }

  protected async start(emit: (message: StreamMessage, end?: boolean) => void, closed: () => boolean): Promise<void> {
    const { since, streamOnly, readInitial } = this.spec!;
    this.spec = undefined; // the read and the resume position are not needed once started
    const { bus, index, id } = this;
    await bus.subscribed(index);
    if (since !== undefined) {
      this.lastPosition = since;
      for (const event of await bus.history(index, since)) {
        if (closed()) return;
        if (event.kind !== 'index' && event.id !== id) {
          this.lastPosition = event.position;
          continue;
        }
        const out = this.renderEvent(event, undefined);
        if (out) emit(out.message, out.end);
      }
    } else if (!streamOnly) {
      const head = await bus.head(index);
      const initial = await readInitial();
      if (typeof initial._seq_no === 'number') this.reflectedSeqNo = initial._seq_no;
      emit({ data: initial, id: head, initial: true });
    }
  }

  protected render(change: DeliveredChange): Rendered | undefined {
    return this.renderEvent(change.event, change as DeliveredChange<Shown>);
  }

  private renderEvent(event: ChangeEvent, delivered: DeliveredChange<Shown> | undefined): Rendered | undefined {
    if (this.lastPosition !== undefined && comparePositions(event.position, this.lastPosition) <= 0) return undefined;
    if (event.kind === 'index') return { message: indexEndedMessage(event), end: true };
    if (event.id !== this.id) return undefined;
    this.lastPosition = event.position;
    if (event.seqNo <= this.reflectedSeqNo) return undefined;
    // a filtered stream renders its own message: the shared one shows the whole document
    if (this.source !== undefined || delivered === undefined) return { message: this.messageFor(event) };
    const shown = delivered.shown;
    if (shown !== undefined && shown.type === this.type) return shown.rendered;
    const rendered = { message: this.messageFor(event) };
    delivered.shown = { type: this.type, rendered };
    return rendered;
  }

  private messageFor(change: DocumentChange): StreamMessage {
    const { type, source } = this;
    const shownType = type ?? '_doc';
    const deleted = change.op === 'delete' || (type !== undefined && change.type !== type);
    if (deleted) return deletedMessage(change, shownType);
    return changedMessage(change, shownType, source === undefined ? change.source : filterSource((change.source ?? {}) as Record<string, unknown>, source));
  }
}
