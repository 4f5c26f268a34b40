import { indexSortOf, type IndexHandle } from '../../indices/index.js';
import type { SortSpec } from './sort-spec.js';

/**
 * Whether a search's sort is a prefix of the index's sort (same fields, orders, modes and missing
 * placement), so that Lucene's collector of a sorted segment stops after the page's documents.
 */
export function sortsByIndexPrefix(handle: IndexHandle, sort: SortSpec[]): boolean {
  const indexSort = handle.meta.settings['index.sort.field'] === undefined ? undefined : indexSortOf(handle.meta.settings);
  if (!indexSort || !sort.length || sort.length > indexSort.length) return false;
  return sort.every((s, i) => {
    const d = indexSort[i];
    if (s.kind !== 'field' || s.field !== d.field || s.order !== d.order || s.nestedPath !== undefined) return false;
    if ((s.mode ?? (s.order === 'desc' ? 'max' : 'min')) !== d.mode) return false;
    return s.missing === d.missing;
  });
}
