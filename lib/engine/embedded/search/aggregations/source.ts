import { DocValues } from '../../index/index.js';
import type { DocSet, Value } from './types.js';
import { fieldValues, missingValue, valueFormat, type SourceParams, type ValueFormat, type ValueKind } from './values-source.js';

/** A values source resolved over the indices of a doc set. */
export interface ResolvedSource {
  kind: ValueKind;
  format: ValueFormat;
  /** True when no searched index maps the field. */
  unmapped: boolean;
  /** Doc values per segment, parallel to the doc set. */
  values: Array<Map<number, Value[]> | undefined>;
  missing: Value | undefined;
}

const NONE: Value[] = [];

export function resolveSource(docs: DocSet, params: SourceParams, now: number, timeZone?: unknown): ResolvedSource {
  let kind: ValueKind | undefined;
  let mapping;
  const values: Array<Map<number, Value[]> | undefined> = [];
  for (const seg of docs) {
    const fv = params.field === undefined ? undefined : fieldValues(seg.handle, params.field);
    values.push(fv?.docValues);
    if (!fv) continue;
    if (kind === undefined) {
      kind = fv.kind;
      mapping = fv.mapping;
    } else if (kind !== fv.kind && (kind === 'long' || kind === 'double') && (fv.kind === 'long' || fv.kind === 'double')) kind = 'double';
  }
  const unmapped = kind === undefined;
  const k: ValueKind = kind ?? params.valueType ?? 'bytes';
  const format = valueFormat(k, mapping, params.format, timeZone);
  return { kind: k, format, unmapped, values, missing: missingValue(params.missing, k, format, now) };
}

/**
 * The values of one document (the `missing` value when it has none). Never allocates: the array
 * may be reused by the next call for the same source, so read it before calling again.
 */
export function valuesOf(src: ResolvedSource, seg: number, ord: number, missingArr: Value[] | undefined): Value[] {
  const dv = src.values[seg];
  // A DocValues here holds no BigInts: date_nanos columns come wrapped in MillisOfNanos.
  const vs = dv instanceof DocValues ? (dv.view(ord) as Value[] | undefined) : dv?.get(ord);
  if (vs !== undefined && vs.length > 0) return vs;
  return missingArr ?? NONE;
}

export function missingArray(src: ResolvedSource): Value[] | undefined {
  return src.missing === undefined ? undefined : [src.missing];
}

/** Every value of every document of the set, as numbers (booleans → 1/0). */
export function numericValues(src: ResolvedSource, docs: DocSet): number[] {
  const out: number[] = [];
  const miss = missingArray(src);
  docs.forEach((seg, si) => {
    for (const ord of seg.ords) {
      for (const v of valuesOf(src, si, ord, miss)) out.push(typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v));
    }
  });
  return out;
}

/** Doc sets of a partition: one ords array per segment, for each bucket. */
export function emptyDocSet(docs: DocSet): DocSet {
  return docs.map((s) => ({ handle: s.handle, ords: [], scores: s.scores }));
}

export function docCount(docs: DocSet): number {
  let n = 0;
  for (const s of docs) n += s.ords.length;
  return n;
}
