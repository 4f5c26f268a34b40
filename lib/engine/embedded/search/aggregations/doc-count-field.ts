import type { DocValues } from '../../index/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { DOC_COUNT_FIELD } from '../../mapping/index.js';
import type { DocSet } from './types.js';

/**
 * The `_doc_count` of an index's documents, for bucket counts: undefined when none was written
 * with one (every document counts as one, and the counting loops keep their fast paths).
 */
export function docCounts(handle: IndexHandle): DocValues | undefined {
  const fi = handle.inverted?.field(DOC_COUNT_FIELD);
  return fi && fi.docValues.size > 0 ? fi.docValues : undefined;
}

/** How many documents one document stands for: its `_doc_count`, else 1. */
export function weightOf(counts: DocValues | undefined, ord: number): number {
  if (counts === undefined) return 1;
  const v = counts.get(ord);
  return v !== undefined && v.length > 0 ? Number(v[0]) : 1;
}

/** The documents a doc set stands for (each its `_doc_count`, or 1). */
export function weightedCount(docs: DocSet): number {
  let n = 0;
  for (const s of docs) {
    const counts = docCounts(s.handle);
    if (counts === undefined) n += s.ords.length;
    else for (const ord of s.ords) n += weightOf(counts, ord);
  }
  return n;
}
