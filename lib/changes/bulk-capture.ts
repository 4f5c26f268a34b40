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
  private rest = '';
  private expectSourceFor: BulkItem | undefined;
  private expectUpdateBody = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.rest + chunk.toString('utf8');
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline < 0) {
      this.rest = text;
      return done();
    }
    this.rest = text.slice(lastNewline + 1);
    const out: string[] = [];
    for (const line of text.slice(0, lastNewline).split('\n')) out.push(this.line(line));
    done(null, out.join('\n') + '\n');
  }

  override _flush(done: TransformCallback): void {
    done(null, this.rest ? this.line(this.rest) : undefined);
  }

  private line(line: string): string {
    if (line.trim() === '') return line;
    if (this.expectSourceFor) {
      this.expectSourceFor.sourceText = line;
      this.expectSourceFor = undefined;
      return line;
    }
    if (this.expectUpdateBody) {
      this.expectUpdateBody = false;
      return line;
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
    if (op === 'update') {
      this.expectUpdateBody = true;
      const meta = action[name!];
      if (meta && typeof meta === 'object' && !('_source' in meta)) {
        item.injectedSource = true;
        return JSON.stringify({ [name!]: { ...meta, _source: true } });
      }
    }
    return line;
  }
}

/**
 * The changes of an acknowledged `_bulk`, from the captured request and the engine's answer.
 * Removes the `get` members the capture asked for, so the client sees the answer it would have had.
 */
export function bulkChanges(capture: BulkCapture, response: { items?: Array<Record<string, WriteAck>> }): NewChange[] {
  const changes: NewChange[] = [];
  const items = response.items ?? [];
  for (let i = 0; i < items.length && i < capture.items.length; i++) {
    const entry = items[i];
    const ack = entry[Object.keys(entry)[0]];
    const item = capture.items[i];
    if (!ack) continue;
    let source: unknown;
    if (item.op === 'update') {
      source = (ack.get as { _source?: unknown } | undefined)?._source;
      if (item.injectedSource) delete ack.get;
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
