import { DocValues } from '../../index/index.js';
import type { StoredScripts } from '../../painless/index.js';
import type { DocSet, Value } from './types.js';
import { fieldValues, missingValue, valueFormat, type SourceParams, type ValueFormat, type ValueKind } from './values-source.js';
import { scriptedValues } from './script-values.js';
import { weightedCount } from './doc-count-field.js';
import { refuseMetadataFielddata } from '../sort/index.js';

/** What resolving a values source needs of the search: its clock (`now` in date math) and its stored scripts. */
export interface SourceScope {
  now: number;
  storedScripts?: StoredScripts;
}

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

export function resolveSource(docs: DocSet, params: SourceParams, scope: SourceScope, timeZone?: unknown): ResolvedSource {
  if (params.script) return resolveScriptSource(docs, params, scope, timeZone);
  refuseMetadataFielddata(params.field);
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
  return { kind: k, format, unmapped, values, missing: missingValue(params.missing, k, format, scope.now) };
}

/**
 * A source whose values a script gives (`script`, or `field` + a value script reading `_value`).
 * Its kind is the aggregation's (`value_type`, else what the aggregation reads by default:
 * keywords for `terms`, numbers for metrics); a value script keeps the field's kind and format.
 */
function resolveScriptSource(docs: DocSet, params: SourceParams, scope: SourceScope, timeZone?: unknown): ResolvedSource {
  const field = params.field === undefined ? undefined : resolveSource(docs, { ...params, script: undefined }, scope, timeZone);
  const kind: ValueKind = field && !field.unmapped ? field.kind : params.valueType ?? 'bytes';
  const format = field && !field.unmapped ? field.format : valueFormat(kind, undefined, params.format, timeZone);
  const values = docs.map((seg, si) => scriptedValues(seg, params.script!, kind, scope.storedScripts, field && ((ord) => valuesOf(field, si, ord, undefined))));
  return { kind, format, unmapped: false, values, missing: missingValue(params.missing, kind, format, scope.now) };
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

/** A bucket's `doc_count`: its documents, each counted as its `_doc_count` (1 without one). */
export function docCount(docs: DocSet): number {
  return weightedCount(docs);
}
