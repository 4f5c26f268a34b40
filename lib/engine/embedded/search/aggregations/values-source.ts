import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { noteFielddataLoaded } from '../../indices/index.js';
import { DEFAULT_DATE_FORMAT, INTEGER_TYPES, NUMERIC_TYPES, fieldType, parseTimeZone, resolveFieldMapping, type FieldMapping, type TimeZone } from '../../mapping/index.js';
import { decimalFormat } from '../decimal-format.js';
import { DateFormatter } from './date-formatter.js';
import { MillisOfNanos } from './millis-of-nanos.js';
import { UnsignedLongValues } from './unsigned-long-values.js';
import { parseScriptSpec, type ScriptSpec } from '../../painless/index.js';
import { isObject, type Value } from './types.js';

/** What kind of values a field gives aggregations (ES's ValuesSourceType, roughly). */
export type ValueKind = 'bytes' | 'long' | 'double' | 'date' | 'boolean' | 'ip';

/** One field's values in one index, plus how to print them. */
export interface FieldValues {
  kind: ValueKind;
  docValues: Map<number, Value[]> | undefined;
  mapping: FieldMapping | undefined;
}

/**
 * A request's `value_type`: the kind it reads, and Elasticsearch's name for it as its errors print
 * it (ValueType.toString, the description: `byte|short|integer|long`, `float|double`…).
 */
export interface ValueTypeHint {
  kind: ValueKind;
  name: string;
}

const VALUE_TYPE_NAMES: Record<string, string> = {
  string: 'string', double: 'float|double', float: 'float|double', number: 'byte|short|integer|long', numeric: 'byte|short|integer|long',
  long: 'byte|short|integer|long', integer: 'byte|short|integer|long', short: 'byte|short|integer|long', byte: 'byte|short|integer|long',
  date: 'date', ip: 'ip', boolean: 'boolean',
};

const VALUE_TYPES: Record<string, ValueKind> = {
  string: 'bytes', keyword: 'bytes', text: 'bytes', long: 'long', integer: 'long', short: 'long', byte: 'long',
  double: 'double', float: 'double', number: 'double', numeric: 'double', date: 'date', boolean: 'boolean', ip: 'ip',
};

export function kindOfType(type: string): ValueKind {
  if (type === 'date' || type === 'date_nanos') return 'date';
  if (type === 'boolean') return 'boolean';
  if (type === 'ip') return 'ip';
  if (INTEGER_TYPES.has(type)) return 'long';
  if (NUMERIC_TYPES.has(type)) return 'double';
  return 'bytes';
}

export function isNumericKind(k: ValueKind): boolean {
  return k === 'long' || k === 'double' || k === 'date' || k === 'boolean';
}

/** ES's error for aggregating on a text field without fielddata. */
function fielddataDisabled(field: string, index: string): EsError {
  return new EsError(400, 'illegal_argument_exception',
    `Fielddata is disabled on [${field}] in [${index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`);
}

/** Text fields with fielddata: values uninverted from the postings (computed per request). */
function uninvert(handle: IndexHandle, field: string): Map<number, Value[]> {
  const out = new Map<number, Value[]>();
  const fi = handle.inverted?.field(field);
  if (!fi) return out;
  const terms = [...fi.postings.keys()].sort();
  for (const term of terms) {
    for (const ord of fi.postings.get(term)!.ords) {
      if (!handle.inverted!.isLive(ord)) continue;
      let vs = out.get(ord);
      if (!vs) out.set(ord, (vs = []));
      if (vs[vs.length - 1] !== term) vs.push(term);
    }
  }
  return out;
}

/** The values of `field` in one index; undefined when the index does not map it. */
/**
 * Values of a field that has one value for every document of an index (the `_index` metadata
 * field): each lookup answers that value, without a map entry per document.
 */
class ConstantValues extends Map<number, Value[]> {
  constructor(private readonly value: Value[]) {
    super();
  }

  override get(): Value[] {
    return this.value;
  }

  override has(): boolean {
    return true;
  }

  /** The distinct value lists (one): what `min_doc_count: 0` enumerates. */
  override values(): MapIterator<Value[]> {
    return new Map([[0, this.value]]).values();
  }
}

const INDEX_MAPPING: FieldMapping = { type: 'keyword' };
const SEQ_NO_MAPPING: FieldMapping = { type: 'long' };

/** `_seq_no` as doc values (ES's SeqNoFieldMapper keeps it as a long): each live document's sequence number. */
function seqNoValues(handle: IndexHandle): Map<number, Value[]> {
  const out = new Map<number, Value[]>();
  const inverted = handle.inverted;
  if (!inverted) return out;
  for (const ord of inverted.liveOrdinals()) {
    const seqNo = handle.seqNoAt(ord);
    if (seqNo !== undefined) out.set(ord, [seqNo]);
  }
  return out;
}

export function fieldValues(handle: IndexHandle, named: string): FieldValues | undefined {
  if (named === '_index') return { kind: 'bytes', docValues: new ConstantValues([handle.name]), mapping: INDEX_MAPPING };
  if (named === '_seq_no') return { kind: 'long', docValues: seqNoValues(handle), mapping: SEQ_NO_MAPPING };
  let field = named;
  let mapping = resolveFieldMapping(handle.mappings, field);
  // a field alias reads the values of the field it points to (a credential's view leaves out an alias to a hidden field)
  if (mapping?.type === 'alias' && typeof mapping.path === 'string') mapping = resolveFieldMapping(handle.mappings, (field = mapping.path));
  if (!mapping) return undefined;
  const type = fieldType(mapping);
  if (type === 'object' || type === 'nested') return undefined;
  if (type === 'text' || type === 'match_only_text') {
    if (mapping.fielddata !== true) throw fielddataDisabled(field, handle.name);
    noteFielddataLoaded(handle, field);
    return { kind: 'bytes', docValues: uninvert(handle, field), mapping };
  }
  const docValues = handle.inverted?.field(field)?.docValues;
  if (type === 'date_nanos') return { kind: 'date', docValues: docValues && new MillisOfNanos(docValues), mapping };
  if (type === 'unsigned_long') return { kind: 'long', docValues: docValues && new UnsignedLongValues(docValues), mapping };
  // Only date_nanos and unsigned_long columns hold BigInts: every other column's values are Values.
  return { kind: kindOfType(type), docValues: docValues as Map<number, Value[]> | undefined, mapping };
}

/** Common `field`/`missing`/`value_type`/`format` parameters of values-source aggregations. */
export interface SourceParams {
  field?: string;
  missing?: unknown;
  valueType?: ValueKind;
  /** The request's own `value_type` (valueType may be an aggregation's default instead). */
  valueTypeHint?: ValueTypeHint;
  format?: string;
  /** A script giving the values (with `field`: a value script reading `_value`). */
  script?: ScriptSpec;
}

export function parseSourceParams(aggType: string, aggName: string, body: Record<string, unknown>, requireField = true): SourceParams {
  const field = body.field;
  if (field !== undefined && typeof field !== 'string') throw new EsError(400, 'parsing_exception', `[${aggType}] field must be a string`, { line: 1, col: 1 });
  const script = body.script === undefined || body.script === null ? undefined : parseScriptSpec(body.script);
  if (requireField && field === undefined && script === undefined) {
    throw new EsError(400, 'illegal_argument_exception', `Required one of fields [field, script], but none were specified. `);
  }
  let valueType: ValueKind | undefined;
  if (body.value_type !== undefined) {
    valueType = VALUE_TYPES[String(body.value_type)];
    if (!valueType) throw new EsError(400, 'illegal_argument_exception', `Unknown value type [${String(body.value_type)}]`);
  }
  void aggName;
  const valueTypeHint = valueType && { kind: valueType, name: VALUE_TYPE_NAMES[String(body.value_type)] ?? String(body.value_type) };
  return { field: field as string | undefined, missing: body.missing, valueType, valueTypeHint, format: typeof body.format === 'string' ? body.format : undefined, script };
}

/** Prints keys and metric values as ES's DocValueFormat does for the field's kind. */
export interface ValueFormat {
  kind: ValueKind;
  /** key_as_string / value_as_string; undefined when ES prints none. */
  asString(v: number | string): string | undefined;
  dateFormatter?: DateFormatter;
}

/** The format of a source over several indices: the first index that maps the field decides. */
export function valueFormat(kind: ValueKind, mapping: FieldMapping | undefined, format: string | undefined, timeZone?: unknown): ValueFormat {
  if (kind === 'date') {
    const zone: TimeZone = parseTimeZone(timeZone);
    const f = new DateFormatter(format ?? (typeof mapping?.format === 'string' ? mapping.format : DEFAULT_DATE_FORMAT), zone);
    return { kind, dateFormatter: f, asString: (v) => f.print(Number(v)) };
  }
  if (kind === 'boolean') return { kind, asString: (v) => (Number(v) !== 0 ? 'true' : 'false') };
  if (format !== undefined && (kind === 'long' || kind === 'double')) return { kind, asString: (v) => decimalFormat(Number(v), format) };
  return { kind, asString: () => undefined };
}

/** A `missing` value converted to the field's kind (dates parsed with the field's format). */
export function missingValue(raw: unknown, kind: ValueKind, fmt: ValueFormat, now: number): Value | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (kind === 'date') return fmt.dateFormatter!.parse(raw, now);
  if (kind === 'boolean') return raw === true || raw === 'true' ? 1 : 0;
  if (kind === 'long' || kind === 'double') {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new EsError(400, 'number_format_exception', `For input string: "${String(raw)}"`);
    return n;
  }
  return typeof raw === 'object' && !isObject(raw) ? String(raw) : String(raw);
}

/** Doc values are stored as booleans for boolean fields; aggregations see them as 1/0. */
export function numericValue(v: Value): number {
  return typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v);
}

/** A double the way XContent reads one: a number, or a string Java's Double.parseDouble accepts; NaN otherwise. */
export function doubleParam(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/.test(v.trim())) return Number.parseFloat(v.trim());
  return Number.NaN;
}
