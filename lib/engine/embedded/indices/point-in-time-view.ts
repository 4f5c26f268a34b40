import v8 from 'node:v8';
import { EsError } from '../../../errors/index.js';
import { TimeSlice } from '../../../cooperative/index.js';
import { holdsWideCharacters, InvertedIndex, stringBytes, type CharBytes } from '../index/index.js';
import { parseDocument, withExactUnsignedLongs } from '../mapping/index.js';
import type { JsonObject } from './deep.js';
import type { StoredDocument } from '../store/index.js';
import type { IndexHandle, LiveDocument } from './index-handle.js';

/**
 * What the frozen views of all open points in time may hold together, in bytes: a view is a copy
 * of its index (sources and postings), so a bound on documents does not bound memory (46 views of
 * 2 KB documents took 9.8 GB). A view is charged what it holds: its sources' strings and the bytes
 * its frozen index takes (InvertedIndex.memoryBytes: its typed arrays, outside the JS heap, exactly,
 * and an upper estimate of the rest). While it is built, each document reserves an estimate first,
 * so the bound holds before the memory is taken. Past the budget, opening one is refused as
 * Elasticsearch refuses what its breakers would not hold (429 circuit_breaking_exception). Closing
 * (or expiry) gives the bytes back. Default: an eighth of the heap limit (the postings are outside
 * the heap, and the process's RSS holds more than what is charged: garbage of the build, allocator
 * slack — 18 views of 20,000 documents of 2 KB charged 994 MB under the old count grew RSS by
 * 1,965 MB); the engine's `pointInTimeBytes` option (POINT_IN_TIME_BYTES) sets it.
 */
export const DEFAULT_POINT_IN_TIME_BYTES = Math.floor(v8.getHeapStatistics().heap_size_limit / 8);
/**
 * What a view's copy of the postings is charged while it is built, per byte of its documents'
 * source (per character: two bytes for text past Latin-1), before the exact count of the finished
 * view replaces it: measured 3.3 to 4.5 (texts of 1.3 KB, postings with positions, norms and doc
 * values; 20,000 and 5,000 documents). Where a view takes more, the bound is passed by the
 * difference only while that view is built: its exact count then refuses it.
 */
export const INDEX_BYTES_PER_SOURCE_BYTE = 4;
/** A document's share of a view outside its source string and postings: its object of versions, and its entry in the view. */
export const VIEW_BYTES_PER_DOCUMENT = 256;
const FROZEN_DOCUMENT_BYTES = VIEW_BYTES_PER_DOCUMENT / 2;
const VIEW_ENTRY_BYTES = VIEW_BYTES_PER_DOCUMENT / 2;

let budgetBytes = DEFAULT_POINT_IN_TIME_BYTES;

/** Sets the budget of all points in time of this process (the engine's `pointInTimeBytes`). */
export function setPointInTimeBudget(bytes: number): void {
  budgetBytes = bytes;
}

/** Bytes the views of open points in time hold now, and the budget. */
export function pointInTimeBytes(): { held: number; limit: number } {
  return { held: heldBytes, limit: budgetBytes };
}

/** A frozen view and the points in time that read it. */
interface SharedView {
  maxOrd: number;
  docCount: number;
  meta: IndexHandle['meta'];
  view: IndexHandle;
  /** Bytes charged for the view itself (its postings, its entries); its documents are charged on their own. */
  bytes: number;
  users: number;
  docs: Map<string, FrozenDocument>;
}

/**
 * What a view keeps of a document: its source as stored (parsed again when read), and its versions.
 * Views of one index share the documents no write changed between them: each document is one
 * object, charged once (`bytes`) for as long as a view (`views` of them) holds it.
 */
interface FrozenDocument extends Omit<LiveDocument, 'source'> {
  sourceText: string;
  /** Whether its source or id holds characters past Latin-1 (two bytes a character in the heap). */
  wide: boolean;
  bytes: number;
  views: number;
}

/** The document of a view, as a read shows it. */
function liveDocument(doc: FrozenDocument): LiveDocument {
  return { id: doc.id, source: JSON.parse(doc.sourceText) as JsonObject, sourceText: doc.sourceText, version: doc.version, seqNo: doc.seqNo, primaryTerm: doc.primaryTerm, routing: doc.routing };
}

/** Lets a view's documents go: the bytes of those no other view holds are given back. */
function letGo(docs: Iterable<FrozenDocument>): void {
  for (const doc of docs) if (--doc.views === 0) heldBytes -= doc.bytes;
}

/** The newest view of each live in-memory index: two points in time over an unchanged index share one. */
const newest = new WeakMap<InvertedIndex, SharedView>();
/** Bytes charged for every view some point in time still reads. */
let heldBytes = 0;

/** A point in time's hold on a view: the view, and how to let it go (once). */
export interface PointInTimeHold {
  view: IndexHandle;
  release(): void;
}

function tooLarge(wanted: number): EsError {
  const total = heldBytes + wanted;
  return new EsError(429, 'circuit_breaking_exception',
    `[point_in_time] Data too large, data for [open_point_in_time] would be [${total}/${byteSize(total)}], which is larger than the limit of [${budgetBytes}/${byteSize(budgetBytes)}], real usage: [${heldBytes}], new bytes reserved: [${wanted}]; close points in time to free them`,
    { bytes_wanted: total, bytes_limit: budgetBytes, durability: 'TRANSIENT' });
}

/** Elasticsearch's ByteSizeValue text (`1.5gb`, `10mb`, `512b`). */
function byteSize(bytes: number): string {
  const units = ['b', 'kb', 'mb', 'gb', 'tb'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Math.round(v * 10) / 10}${units[u]}`;
}

function hold(shared: SharedView, live: InvertedIndex): PointInTimeHold {
  shared.users++;
  let released = false;
  return {
    view: shared.view,
    release() {
      if (released) return;
      released = true;
      if (--shared.users > 0) return;
      heldBytes -= shared.bytes;
      letGo(shared.docs.values());
      if (newest.get(live) === shared) newest.delete(live);
    },
  };
}

/**
 * The index as it is now, frozen: its live documents (sources included) copied into an in-memory
 * index of their own, so that searches through the view see none of the writes, updates and
 * deletes made to the index later. Ordinals follow the live index's order, so a document keeps
 * its place (and its `_shard_doc`) for as long as the view lives. The view inherits everything
 * else from the handle (analysis, stats), as the search's own views do (searchView).
 *
 * The ids are taken at once (the state the point in time names); their documents are read and
 * indexed into the copy a time slice at a time, so that a large index does not stall the engine's
 * other requests (reading 20,000 documents in one piece held the event loop for 290 ms of CPU).
 * A document a write replaces or deletes meanwhile is read as it was: the handle hands the view
 * the version it supersedes (IndexHandle.watchSuperseded).
 * Cost: a copy of the index's postings per distinct state held, and its sources (as JSON text),
 * shared with the newest view before it where no write changed them; bounded in bytes over all of
 * them (the point-in-time budget).
 */
export async function holdPointInTimeView(handle: IndexHandle): Promise<PointInTimeHold> {
  handle.ensureOpen();
  const live = handle.inverted!;
  const cached = newest.get(live);
  if (cached && cached.maxOrd === live.maxOrd && cached.docCount === live.docCount && cached.meta === handle.meta) return hold(cached, live);
  // a first bound before anything is read: even a document with an empty source costs its share
  if (heldBytes + live.docCount * VIEW_BYTES_PER_DOCUMENT > budgetBytes) throw tooLarge(live.docCount * VIEW_BYTES_PER_DOCUMENT);
  const meta = handle.meta;
  const state = { maxOrd: live.maxOrd, docCount: live.docCount };
  const ids: string[] = [];
  for (const ord of live.liveOrds()) {
    const id = live.idOf(ord);
    if (id !== undefined) ids.push(id);
  }
  // the versions writes supersede from now on, as they were (undefined: the document had none)
  const superseded = new Map<string, StoredDocument | undefined>();
  const stopWatching = handle.watchSuperseded((id, previous) => {
    if (!superseded.has(id)) superseded.set(id, previous);
  });
  // the documents of the newest view of this index that are still as they were are shared, not read again
  const earlier = newest.get(live)?.docs;
  const docs = new Map<string, FrozenDocument>();
  const frozen = new InvertedIndex();
  const slice = new TimeSlice();
  // what this view has reserved of the budget for itself so far (others opening meanwhile see it);
  // its documents are charged as they are taken (those another view holds already are not)
  let reserved = 0;
  const charge = (bytes: number) => {
    heldBytes += bytes;
    if (heldBytes > budgetBytes) {
      heldBytes -= bytes;
      throw tooLarge(bytes);
    }
  };
  try {
    // 2 once a source (or id) holds a character past Latin-1: the terms made of it take two bytes a character
    let charBytes: CharBytes = 1;
    for (const id of ids) {
      const seqNo = superseded.has(id) ? superseded.get(id)?.q : handle.seqNoOf(id);
      let doc = earlier?.get(id);
      if (doc === undefined || doc.seqNo !== seqNo) {
        const stored = superseded.has(id) ? superseded.get(id) : handle.storedVersion(id);
        if (stored?.s === undefined) continue;
        const sourceText = stored.s;
        const wide = holdsWideCharacters(sourceText) || holdsWideCharacters(id);
        const bytes = stringBytes(sourceText, wide ? 2 : 1) + FROZEN_DOCUMENT_BYTES;
        doc = { id, sourceText, version: stored.v, seqNo: stored.q, primaryTerm: stored.t, routing: stored.r, wide, bytes, views: 0 };
      }
      if (doc.wide) charBytes = 2;
      const own = VIEW_ENTRY_BYTES + doc.sourceText.length * (doc.wide ? 2 : 1) * INDEX_BYTES_PER_SOURCE_BYTE;
      charge(own + (doc.views === 0 ? doc.bytes : 0));
      reserved += own;
      doc.views++;
      docs.set(id, doc);
      frozen.put(id, parseDocument(withExactUnsignedLongs(JSON.parse(doc.sourceText) as JsonObject, doc.sourceText, meta.mappings), meta.mappings, handle.registry, id));
      await slice.pause();
    }
    // the estimate gives way to what the view holds
    const exact = frozen.memoryBytes(charBytes) + docs.size * VIEW_ENTRY_BYTES;
    charge(exact - reserved);
    reserved = exact;
  } catch (e) {
    heldBytes -= reserved;
    letGo(docs.values());
    throw e;
  } finally {
    stopWatching();
  }
  const view = Object.create(handle) as IndexHandle;
  Object.defineProperty(view, 'meta', { value: meta, writable: false });
  Object.defineProperty(view, 'inverted', { value: frozen, writable: false });
  // the index as its searches find it stored: the frozen copy (its own ordinals)
  Object.defineProperty(view, 'asStored', { value: view, writable: false });
  view.get = (id: string) => {
    const doc = docs.get(id);
    return doc && liveDocument(doc);
  };
  const shared: SharedView = { ...state, meta, view, bytes: reserved, users: 0, docs };
  newest.set(live, shared);
  return hold(shared, live);
}
