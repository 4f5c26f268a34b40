/**
 * Histograms over range fields (ES's RangeHistogramAggregator): a document falls in every bucket
 * its interval overlaps. The range field's doc values (lower, upper pairs) are turned into one
 * value per bucket key covered, so the histogram groups them as any numeric field's.
 */
import { EsError } from '../../../../errors/index.js';
import { fieldType, isRangeType, resolveFieldMapping } from '../../mapping/index.js';
import type { ResolvedSource } from './source.js';
import type { DocSet, Value } from './types.js';
import { valueFormat } from './values-source.js';

/** The range field's mapping when `field` is one in the searched indices; undefined otherwise. */
export function rangeFieldType(docs: DocSet, field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  for (const seg of docs) {
    const m = resolveFieldMapping(seg.handle.mappings, field);
    if (m && isRangeType(fieldType(m))) return fieldType(m);
  }
  return undefined;
}

/**
 * Refuses a range field to an aggregation that reads single values (terms, range, the numeric
 * metrics…): Elasticsearch registers range fields only for histogram, date_histogram and the
 * aggregations that take any field (cardinality, value_count, missing), and answers others
 * `Field [f] of type [integer_range] is not supported for aggregation [terms]`.
 */
export function refuseRangeField(docs: DocSet, field: string | undefined, aggregation: string): void {
  const type = rangeFieldType(docs, field);
  if (type !== undefined) throw new EsError(400, 'illegal_argument_exception', `Field [${field}] of type [${type}] is not supported for aggregation [${aggregation}]`);
}

/**
 * The source with each document's intervals replaced by the bucket keys they cover (at most
 * `limit` per document). `hardBounds` clips each interval first, as ES's RangeHistogramAggregator
 * takes max(from, min) and min(to, max): an interval open at one end (from or to the type's
 * extreme) then covers the bounded buckets only.
 */
export function rangeBucketSource(
  src: ResolvedSource, docs: DocSet, type: string, field: string, format: string | undefined, timeZone: unknown,
  rounding: { round(v: number): number; next(k: number): number }, hardBounds?: readonly [number | undefined, number | undefined], limit = 65_536,
): ResolvedSource {
  const [min, max] = hardBounds ?? [undefined, undefined];
  const values: Array<Map<number, Value[]> | undefined> = docs.map((seg, si) => {
    const dv = src.values[si];
    if (!dv) return undefined;
    const out = new Map<number, Value[]>();
    for (const ord of seg.ords) {
      const pairs = dv.get(ord);
      if (!pairs) continue;
      const keys = new Set<number>();
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        const lo = min === undefined ? Number(pairs[i]) : Math.max(Number(pairs[i]), min);
        const hi = max === undefined ? Number(pairs[i + 1]) : Math.min(Number(pairs[i + 1]), max);
        // past 2^53 a step may not move the key (an open end at the type's extreme): stop there
        for (let k = rounding.round(lo), n: number; k <= hi && keys.size < limit; k = n) {
          keys.add(k);
          n = rounding.next(k);
          if (!(n > k)) break;
        }
      }
      out.set(ord, [...keys].sort((a, b) => a - b));
    }
    return out;
  });
  const kind = type === 'date_range' ? 'date' : 'double';
  const mapping = docs.length ? resolveFieldMapping(docs[0].handle.mappings, field) : undefined;
  return { ...src, kind, values, format: valueFormat(kind, mapping, format, timeZone) };
}
