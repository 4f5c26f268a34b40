import { InvertedIndex } from '../index/index.js';
import { parseDocument } from '../mapping/index.js';
import type { JsonObject } from './deep.js';
import type { IndexHandle, LiveDocument } from './index-handle.js';

/** A view made of an index in one state, reused while the index stays in that state. */
interface CachedView {
  maxOrd: number;
  docCount: number;
  meta: IndexHandle['meta'];
  view: IndexHandle;
}

/** Views by the live in-memory index they were taken of: two points in time over an unchanged index share one. */
const cache = new WeakMap<InvertedIndex, CachedView>();

/**
 * The index as it is now, frozen: its live documents (sources included) copied into an in-memory
 * index of their own, so that searches through the view see none of the writes, updates and
 * deletes made to the index later. Ordinals follow the live index's order, so a document keeps
 * its place (and its `_shard_doc`) for as long as the view lives. The view inherits everything
 * else from the handle (analysis, stats), as the search's own views do (searchView).
 *
 * Cost: a copy of the index's sources and postings per distinct state viewed; the engine bounds
 * how many points in time may be open at once.
 */
export function pointInTimeView(handle: IndexHandle): IndexHandle {
  handle.ensureOpen();
  const live = handle.inverted!;
  const cached = cache.get(live);
  if (cached && cached.maxOrd === live.maxOrd && cached.docCount === live.docCount && cached.meta === handle.meta) return cached.view;
  const meta = handle.meta;
  const docs = new Map<string, LiveDocument>();
  const frozen = new InvertedIndex();
  for (const ord of live.liveOrds()) {
    const id = live.idOf(ord);
    if (id === undefined) continue;
    const doc = handle.get(id);
    if (!doc) continue;
    docs.set(id, doc);
    frozen.put(id, parseDocument(structuredClone(doc.source) as JsonObject, meta.mappings, handle.registry, id));
  }
  const view = Object.create(handle) as IndexHandle;
  Object.defineProperty(view, 'meta', { value: meta, writable: false });
  Object.defineProperty(view, 'inverted', { value: frozen, writable: false });
  view.get = (id: string) => {
    const doc = docs.get(id);
    return doc && { ...doc, source: structuredClone(doc.source) };
  };
  cache.set(live, { maxOrd: live.maxOrd, docCount: live.docCount, meta, view });
  return view;
}
