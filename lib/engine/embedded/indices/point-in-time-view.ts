import { EsError } from '../../../errors/index.js';
import { TimeSlice } from '../../../cooperative/index.js';
import { InvertedIndex } from '../index/index.js';
import { parseDocument } from '../mapping/index.js';
import type { JsonObject } from './deep.js';
import type { IndexHandle, LiveDocument } from './index-handle.js';

/**
 * The most documents the frozen views of all open points in time may hold together: a view is a
 * copy of its index, so without a bound, points in time opened between writes would grow memory
 * without limit. Past it, opening one is refused as Elasticsearch refuses what its breakers would
 * not hold (429 circuit_breaking_exception); closing points in time frees room.
 */
export const MAX_POINT_IN_TIME_DOCS = 2_000_000;

/** A frozen view and the points in time that read it. */
interface SharedView {
  maxOrd: number;
  docCount: number;
  meta: IndexHandle['meta'];
  view: IndexHandle;
  docs: number;
  users: number;
}

/** The newest view of each live in-memory index: two points in time over an unchanged index share one. */
const newest = new WeakMap<InvertedIndex, SharedView>();
/** Documents held by every view some point in time still reads. */
let heldDocs = 0;

/** A point in time's hold on a view: the view, and how to let it go (once). */
export interface PointInTimeHold {
  view: IndexHandle;
  release(): void;
}

function tooLarge(wanted: number): EsError {
  return new EsError(429, 'circuit_breaking_exception',
    `[point_in_time] Data too large, data for [open_point_in_time] would be [${heldDocs + wanted}] documents, which is larger than the limit of [${MAX_POINT_IN_TIME_DOCS}] documents; close points in time to free them`,
    { bytes_wanted: heldDocs + wanted, bytes_limit: MAX_POINT_IN_TIME_DOCS, durability: 'TRANSIENT' });
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
      heldDocs -= shared.docs;
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
 * The documents are taken at once (the state the point in time names); they are indexed into the
 * copy a time slice at a time, so that a large index does not stall the engine's other requests.
 * Cost: a copy of the index's sources and postings per distinct state held, bounded by
 * MAX_POINT_IN_TIME_DOCS over all of them.
 */
export async function holdPointInTimeView(handle: IndexHandle): Promise<PointInTimeHold> {
  handle.ensureOpen();
  const live = handle.inverted!;
  const cached = newest.get(live);
  if (cached && cached.maxOrd === live.maxOrd && cached.docCount === live.docCount && cached.meta === handle.meta) return hold(cached, live);
  if (heldDocs + live.docCount > MAX_POINT_IN_TIME_DOCS) throw tooLarge(live.docCount);
  const meta = handle.meta;
  const state = { maxOrd: live.maxOrd, docCount: live.docCount };
  const docs = new Map<string, LiveDocument>();
  for (const ord of live.liveOrds()) {
    const id = live.idOf(ord);
    const doc = id === undefined ? undefined : handle.get(id);
    if (doc) docs.set(id!, doc);
  }
  heldDocs += docs.size;
  const frozen = new InvertedIndex();
  const slice = new TimeSlice();
  try {
    for (const [id, doc] of docs) {
      frozen.put(id, parseDocument(structuredClone(doc.source) as JsonObject, meta.mappings, handle.registry, id));
      await slice.pause();
    }
  } catch (e) {
    heldDocs -= docs.size;
    throw e;
  }
  const view = Object.create(handle) as IndexHandle;
  Object.defineProperty(view, 'meta', { value: meta, writable: false });
  Object.defineProperty(view, 'inverted', { value: frozen, writable: false });
  view.get = (id: string) => {
    const doc = docs.get(id);
    return doc && { ...doc, source: structuredClone(doc.source) };
  };
  const shared: SharedView = { ...state, meta, view, docs: docs.size, users: 0 };
  newest.set(live, shared);
  return hold(shared, live);
}
