/**
 * What the hits of a search with `percolate` queries carry besides (Elasticsearch's
 * PercolatorMatchedSlotSubFetchPhase and PercolatorHighlightSubFetchPhase): in `fields`, per
 * percolate query, the slots of the documents the hit's stored query matched —
 * `_percolator_document_slot`, or `_percolator_document_slot_<name>` when the search holds more
 * than one percolate query — and per slot the stored query's named queries that matched it
 * (`<slot field>_<slot>_matched_queries`); in `highlight`, the percolated documents highlighted by
 * the stored query, a field's key prefixed by its slot when several documents are percolated, and
 * by the percolate query's name when there are several.
 */
import type { IndexHandle } from '../indices/index.js';
import { highlightHit, type HighlightRequest } from './highlight/index.js';
import { percolatedHits, queryContextOf, type Query } from './query/index.js';

const SLOT_FIELD = '_percolator_document_slot';

export interface PercolatorHitParts {
  fields?: Record<string, unknown[]>;
  highlight?: Record<string, string[]>;
}

export function percolatorHitParts(query: Query, highlight: HighlightRequest | undefined, handle: IndexHandle, ord: number, id: string): PercolatorHitParts {
  const found = percolatedHits(query, queryContextOf(handle), ord);
  if (!found.length) return {};
  const single = found.length === 1;
  const fields: Record<string, unknown[]> = {};
  const highlighted: Record<string, string[]> = {};
  for (const p of found) {
    const slotField = single ? SLOT_FIELD : `${SLOT_FIELD}_${p.name ?? ''}`;
    fields[slotField] = p.slots;
    for (const slot of p.slots) {
      const names = p.matchedNames(slot);
      if (names.length) fields[`${slotField}_${slot}_matched_queries`] = names;
    }
    if (!highlight) continue;
    const maxAnalyzedOffset = Number(handle.meta.settings['index.highlight.max_analyzed_offset'] ?? 1_000_000);
    for (const slot of p.slots) {
      const own = highlightHit(highlight, p.storedQuery, p.documents[slot], p.mappings, handle.registry, { index: handle.name, id, maxAnalyzedOffset });
      const prefix = (single ? '' : `${p.name ?? ''}_`) + (p.documents.length === 1 ? '' : `${slot}_`);
      for (const [field, fragments] of Object.entries(own ?? {})) highlighted[prefix + field] = fragments;
    }
  }
  const out: PercolatorHitParts = { fields };
  if (Object.keys(highlighted).length) out.highlight = highlighted;
  return out;
}
