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
  for (let si = 0; si < docs.length; si++) {
    if (!src.values[si] && !miss) continue;
    const counts = docCounts(docs[si].handle);
    for (const ord of docs[si].ords) {
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
