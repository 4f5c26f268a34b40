import type { DocumentOp, NewChange } from './change-event.js';
import { changeOf, type WriteAck } from './write-changes.js';
import { bulkText, readBulkCooperatively, type BulkEntry } from '../ndjson/index.js';
import { TimeSlice } from '../cooperative/index.js';

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
  /** The item's routing (its action's, else the URL's): a read of the document needs it where the index requires one. */
  routing?: string;
}

/** What a `_bulk` body is about to do, item by item, and the body to send in its place. */
export interface BulkCapture {
  readonly items: BulkItem[];
  /**
   * The body with `"_source": true` asked of every update action that does not choose its own
   * `_source` (the event needs the updated document); otherwise the body as read.
   */
  readonly body: string;
}

/**
 * Reads a `_bulk` body with the one bulk reader (lib/ndjson) and remembers each item's action and
 * source (for the change events), asking the engine to return the full source of updated
 * documents. A body the reader refuses throws the engine's own 400.
 *
 * @param urlSource what the URL's `_source` parameters ask updated items to return (`true` for
 *   everything, another value for a filter), or undefined when the URL says nothing.
 * @param urlRouting the URL's `routing`, the items' default.
 */
export async function captureBulk(text: string, urlSource?: unknown, read?: readonly BulkEntry[], urlRouting?: string): Promise<BulkCapture> {
  // items the gateway's classifier read of this very text are taken as they are (never changed: an
  // update asked for its source is a copy)
  const entries = read ? [...read] : await readBulkCooperatively(text);
  const items: BulkItem[] = [];
  let rewritten = false;
  const slice = new TimeSlice();
  for (const [i, entry] of entries.entries()) {
    if (items.length % 256 === 0) await slice.pause();
    const { meta } = entry;
    const item: BulkItem = {
      op: entry.action,
      injectedSource: false,
      index: entry.index,
      id: typeof meta._id === 'string' ? meta._id : undefined,
      routing: typeof meta.routing === 'string' ? meta.routing : urlRouting,
    };
    items.push(item);
    if (entry.action === 'index' || entry.action === 'create') item.sourceText = entry.sourceText;
    if (entry.action !== 'update') continue;
    let bodySource: unknown;
    try {
      bodySource = (JSON.parse(entry.sourceText ?? '') as Record<string, unknown> | null)?._source;
    } catch {
      /* the engine reports it */
    }
    const chosen = '_source' in meta ? meta._source : bodySource !== undefined ? bodySource : urlSource;
    if (chosen !== undefined) {
      item.clientSource = chosen;
      continue;
    }
    item.injectedSource = true;
    entries[i] = { ...entry, actionText: JSON.stringify({ update: { ...meta, _source: true } }), plain: false };
    rewritten = true;
  }
  return { items, body: rewritten ? bulkText(entries) : bulkText(entries, text) };
}

/**
 * The changes of an acknowledged `_bulk`, from the captured request and the engine's answer.
 * Removes the `get` members the capture asked for, so the client sees the answer it would have had.
 */
export async function bulkChanges(capture: BulkCapture, response: { items?: Array<Record<string, WriteAck>> }, needsRead: number[] = []): Promise<NewChange[]> {
  const changes: NewChange[] = [];
  const items = response.items ?? [];
  const slice = new TimeSlice(); // a large bulk's sources are parsed a slice at a time
  for (let i = 0; i < items.length && i < capture.items.length; i++) {
    await slice.pause();
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
