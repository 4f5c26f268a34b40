import { Transform, type TransformCallback } from 'node:stream';
import type { DocumentOp, NewChange } from './change-event.js';
import { changeOf, type WriteAck } from './write-changes.js';

/** One `_bulk` item as the request described it. */
interface BulkItem {
  op: DocumentOp;
  /** The source line (index/create), kept as text until an event needs it. */
  sourceText?: string;
  /** The gateway asked for the updated source (`_source: true`) and must hide it from the client. */
  injectedSource: boolean;
  /** The client chose its own `_source` for the update's answer: the answer may not hold the full source. */
  clientSource?: unknown;
  index?: string;
  id?: string;
}

const ACTIONS: Record<string, DocumentOp> = { index: 'index', create: 'create', update: 'update', delete: 'delete' };

/**
 * Watches a `_bulk` body on its way to the engine without holding it back: lines are forwarded as
 * they arrive. It remembers each item's action and source (for the change events), and asks the
 * engine to return the full source of updated documents (`"_source": true` on update actions that
 * do not choose their own `_source`). Lines it cannot read are forwarded untouched: the engine
 * gives the error.
 */
export class BulkCapture extends Transform {
  readonly items: BulkItem[] = [];

  /**
   * @param urlSource what the URL's `_source` parameters ask updated items to return (`true`
   *   for everything, another value for a filter), or undefined when the URL says nothing.
   */
  constructor(private readonly urlSource?: unknown) {
    super();
  }

  private rest = '';
  private expectSourceFor: BulkItem | undefined;
  /** An update action waits for its body: whether to ask for `_source` depends on both lines. */
  private pendingUpdate: { item: BulkItem; name: string; meta: Record<string, unknown> } | undefined;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.rest + chunk.toString('utf8');
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline < 0) {
      this.rest = text;
      return done();
    }
    this.rest = text.slice(lastNewline + 1);
    let out = '';
    for (const line of text.slice(0, lastNewline).split('\n')) {
      const held = this.pendingUpdate !== undefined;
      const written = this.line(line);
      if (!held && this.pendingUpdate !== undefined) continue; // an update action, held for its body
      out += written + '\n';
    }
    done(null, out);
  }

  /** The whole body at once (a body already read): what the stream would have forwarded. */
  rewrite(text: string): string {
    let out = '';
    const collect = (_err?: Error | null, data?: unknown) => {
      if (data !== undefined && data !== null) out += String(data);
    };
    this._transform(Buffer.from(text), 'utf8', collect);
    this._flush(collect);
    return out;
  }

  override _flush(done: TransformCallback): void {
    let out = this.rest ? this.line(this.rest) : '';
    if (this.pendingUpdate) {
      // an update action without a body: forward it as it came, the engine reports the error
      out += JSON.stringify({ [this.pendingUpdate.name]: this.pendingUpdate.meta });
      this.pendingUpdate = undefined;
    }
    done(null, out || undefined);
  }

  private line(line: string): string {
    if (line.trim() === '') return line;
    if (this.expectSourceFor) {
      this.expectSourceFor.sourceText = line;
      this.expectSourceFor = undefined;
      return line;
    }
    if (this.pendingUpdate) {
      const { item, name, meta } = this.pendingUpdate;
      this.pendingUpdate = undefined;
      let bodySource: unknown;
      try {
        bodySource = (JSON.parse(line) as Record<string, unknown>)?._source;
      } catch {
        /* the engine reports it */
      }
      const chosen = '_source' in meta ? meta._source : bodySource !== undefined ? bodySource : this.urlSource;
      if (chosen === undefined) {
        item.injectedSource = true;
        return JSON.stringify({ [name]: { ...meta, _source: true } }) + '\n' + line;
      }
      item.clientSource = chosen;
      return JSON.stringify({ [name]: meta }) + '\n' + line;
    }
    let action: Record<string, Record<string, unknown>>;
    try {
      action = JSON.parse(line);
    } catch {
      return line;
    }
    const name = action && typeof action === 'object' ? Object.keys(action)[0] : undefined;
    const op = name ? ACTIONS[name] : undefined;
    if (!op) return line;
    const item: BulkItem = { op, injectedSource: false };
    this.items.push(item);
    if (op === 'index' || op === 'create') this.expectSourceFor = item;
    const meta = action[name!];
    if (meta && typeof meta === 'object') {
      item.index = typeof meta._index === 'string' ? meta._index : undefined;
      item.id = typeof meta._id === 'string' ? meta._id : undefined;
    }
    if (op === 'update' && meta && typeof meta === 'object') {
      this.pendingUpdate = { item, name: name!, meta };
      return ''; // written together with the body line
    }
    return line;
  }
}

/**
 * The changes of an acknowledged `_bulk`, from the captured request and the engine's answer.
 * Removes the `get` members the capture asked for, so the client sees the answer it would have had.
 */
export function bulkChanges(capture: BulkCapture, response: { items?: Array<Record<string, WriteAck>> }, needsRead: number[] = []): NewChange[] {
  const changes: NewChange[] = [];
  const items = response.items ?? [];
  for (let i = 0; i < items.length && i < capture.items.length; i++) {
    const entry = items[i];
    const ack = entry[Object.keys(entry)[0]];
    const item = capture.items[i];
    if (!ack) continue;
    let source: unknown;
    if (item.op === 'update') {
      // with a client-chosen filter, the answer may hold part of the source: such an item's event
      // carries what the answer has only when the client asked for all of it
      const full = item.injectedSource || item.clientSource === true || item.clientSource === 'true';
      source = full ? (ack.get as { _source?: unknown } | undefined)?._source : undefined;
      if (item.injectedSource) delete ack.get;
      if (!full) {
        needsRead.push(i);
        continue;
      }
    } else if (item.sourceText !== undefined) {
      try {
        source = JSON.parse(item.sourceText);
      } catch {
        continue;
      }
    }
    const change = changeOf(ack, item.op, source);
    if (change) changes.push(change);
  }
  return changes;
}
