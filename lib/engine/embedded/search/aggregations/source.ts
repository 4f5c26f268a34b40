import { DocValues } from '../../index/index.js';
import type { StoredScripts } from '../../painless/index.js';
import type { DocSet, Value } from './types.js';
import { fieldValues, missingValue, valueFormat, type FieldValues, type SourceParams, type ValueFormat, type ValueKind } from './values-source.js';
import { fieldType } from '../../mapping/index.js';
import { EsError } from '../../../../errors/index.js';
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
  return resolveFieldSource(docs, params, scope, timeZone, false);
}

/** A field's values (`valueScripted`: a value script of the aggregation reads them). */
function resolveFieldSource(docs: DocSet, params: SourceParams, scope: SourceScope, timeZone: unknown, valueScripted: boolean): ResolvedSource {
  refuseMetadataFielddata(params.field);
  let kind: ValueKind | undefined;
  let mapping;
  const values: Array<Map<number, Value[]> | undefined> = [];
  for (const seg of docs) {
    const fv = params.field === undefined ? undefined : fieldValues(seg.handle, params.field);
    values.push(fv?.docValues);
    if (!fv) continue;
    refuseHintMismatch(params, fv, seg.handle.openSearch, valueScripted);
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

/** The values source type (ES's CoreValuesSourceType) a kind of values is read as. */
const SOURCE_TYPE: Readonly<Record<ValueKind, string>> = { bytes: 'keyword', long: 'numeric', double: 'numeric', date: 'date', boolean: 'boolean', ip: 'ip' };

/**
 * A `value_type` hint names the values source ahead of the field's own type (ValuesSourceConfig:
 * "if the user gave us a type hint, respect that"). Elasticsearch 8 refuses a hint of another
 * source type than the field's, unless a script adapts the values ("Field type [keyword] is
 * incompatible with specified value_type [byte|short|integer|long]"); OpenSearch 2 (forked
 * before that check) reads the field as the hint says, and refuses only a numeric hint (numbers,
 * dates, booleans) on a field without numeric doc values, as CoreValuesSourceType.NUMERIC.getField
 * does.
 */
function refuseHintMismatch(params: SourceParams, fv: FieldValues, openSearch: boolean, valueScripted: boolean): void {
  const hint = params.valueTypeHint;
  if (hint === undefined) return;
  const typeName = fv.mapping ? fieldType(fv.mapping) : 'keyword';
  if (openSearch) {
    if (SOURCE_TYPE[fv.kind] === 'keyword' || SOURCE_TYPE[fv.kind] === 'ip') {
      if (hint.kind !== 'bytes' && hint.kind !== 'ip') {
        throw new EsError(400, 'illegal_argument_exception', `Expected numeric type on field [${params.field}], but got [${typeName}]`);
      }
    }
    return;
  }
  if (!valueScripted && SOURCE_TYPE[hint.kind] !== SOURCE_TYPE[fv.kind]) {
    throw new EsError(400, 'illegal_argument_exception', `Field type [${typeName}] is incompatible with specified value_type [${hint.name}]`);
  }
}

/**
 * A source whose values a script gives (`script`, or `field` + a value script reading `_value`).
 * Its kind is the aggregation's (`value_type`, else what the aggregation reads by default:
 * keywords for `terms`, numbers for metrics); a value script keeps the field's kind and format.
 */
function resolveScriptSource(docs: DocSet, params: SourceParams, scope: SourceScope, timeZone?: unknown): ResolvedSource {
  const field = params.field === undefined ? undefined : resolveFieldSource(docs, { ...params, script: undefined }, scope, timeZone, true);
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
