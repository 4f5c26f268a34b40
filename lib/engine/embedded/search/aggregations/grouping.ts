import { DocValues, DV_NUMBER, DV_STRING } from '../../index/index.js';
import { docCounts, weightOf } from './doc-count-field.js';
import { emptyDocSet, missingArray, valuesOf, type ResolvedSource } from './source.js';
import type { DocSet, Value } from './types.js';

export interface Group<K> {
  key: K;
  count: number;
  /** The group's documents, gathered only when sub-aggregations need them. */
  docs?: DocSet;
}

/** Values of one document past which the keys already seen are kept in a set. */
const FEW_VALUES = 16;

/**
 * Groups documents by a key computed from each value; a document joins each distinct key once.
 * `keyOf` returns undefined to drop a value. One pass, no per-document allocation without `withDocs`.
 */
export function groupBy<K extends string | number>(docs: DocSet, src: ResolvedSource, keyOf: (v: Value) => K | undefined, withDocs: boolean): Map<K, Group<K>> {
  const groups = new Map<K, Group<K>>();
  const miss = missingArray(src);
  // the group of the last single-valued document: neighbours often share a key (a date
  // histogram's month), which then costs no lookup
  let last: Group<K> | undefined;
  for (let si = 0; si < docs.length; si++) {
    const dv = src.values[si];
    if (!dv && !miss) continue;
    const counts = docCounts(docs[si].handle);
    const column = dv instanceof DocValues ? dv : undefined;
    const ords = docs[si].ords;
    for (let d = 0; d < ords.length; d++) {
      const ord = ords[d];
      // a single value read straight from its column: what the loop below does for it, without the values array
      const kind = column === undefined ? 0 : column.kindAt(ord);
      if (kind === DV_NUMBER || kind === DV_STRING) {
        const k = keyOf(kind === DV_NUMBER ? column!.numberAt(ord) : column!.stringOf(column!.stringIdAt(ord)));
        if (k === undefined) continue;
        let g = last !== undefined && last.key === k ? last : groups.get(k);
        if (!g) groups.set(k, (g = { key: k, count: 0, docs: withDocs ? emptyDocSet(docs) : undefined }));
        last = g;
        g.count += weightOf(counts, ord);
        if (withDocs) g.docs![si].ords.push(ord);
        continue;
      }
      const vs = valuesOf(src, si, ord, miss);
      let prev: K | undefined;
      // many values (a script may give a document 10^6): their keys seen so far in a set, not compared each with those before
      const seenKeys = vs.length > FEW_VALUES ? new Set<K>() : undefined;
      for (let i = 0; i < vs.length; i++) {
        const k = keyOf(vs[i]);
        if (k === undefined || k === prev) continue;
        if (seenKeys) {
          if (seenKeys.has(k)) continue;
          seenKeys.add(k);
        } else if (i > 1) {
          let seen = false;
          for (let j = 0; j < i && !seen; j++) seen = keyOf(vs[j]) === k;
          if (seen) continue;
        }
        prev = k;
        let g = groups.get(k);
        if (!g) groups.set(k, (g = { key: k, count: 0, docs: withDocs ? emptyDocSet(docs) : undefined }));
        g.count += weightOf(counts, ord);
        if (withDocs) g.docs![si].ords.push(ord);
      }
    }
  }
  return groups;
}
