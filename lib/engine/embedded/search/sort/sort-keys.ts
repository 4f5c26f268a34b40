import { EsError } from '../../../../errors/index.js';
import { indexSortOf, type IndexHandle, type IndexSortField } from '../../indices/index.js';
import { noteFielddataLoaded } from '../../indices/index.js';
import type { DocValue, InvertedIndex } from '../../index/index.js';
import { INTEGER_TYPES, NUMERIC_TYPES, exactUnsignedLong, fieldType, formatDate, ipOfOrderKey, ipOrderKey, resolveFieldMapping, type FieldMapping } from '../../mapping/index.js';
import { dateKeys } from './date-keys.js';
import { float32Text } from './numbers.js';
import type { SortMode, SortSpec } from './sort-spec.js';
import { NUMBER_SORT_CONTEXT, STRING_SORT_CONTEXT, SearchTimedOut, type StoredScripts } from '../../painless/index.js';
import { DocScript, documentSource, prepareScript } from '../scripts/index.js';

/** The value a document is ordered by for one criterion (BigInts: date_nanos); null when it has none. */
export type SortKey = number | bigint | string | null;

/** One criterion, resolved against one index: computes a document's key and renders it as ES does. */
export interface ResolvedSort {
  spec: SortSpec;
  /** 1 for ascending, -1 for descending. */
  direction: number;
  /** Where documents without a value go: -1 first, 1 last (independent of the direction). */
  missingPlacement: number;
  key(ord: number, score: number): SortKey;
  /** The key as shown in a hit's `sort` array. */
  render(key: SortKey): unknown;
  /** A `search_after` value → a key comparable with this criterion's keys. */
  parseAfter(value: unknown): SortKey;
}

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** Integer division rounding halves up, as Math.round does (non-negative operands). */
function roundedQuotient(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** `pick` over epoch nanoseconds, in exact integer arithmetic. */
function pickBigInt(values: readonly bigint[], mode: SortMode): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sum = values.reduce((a, b) => a + b, 0n);
  const mid = sorted.length >> 1;
  switch (mode) {
    case 'min':
      return sorted[0];
    case 'max':
      return sorted[sorted.length - 1];
    case 'sum':
      return sum;
    case 'avg':
      return roundedQuotient(sum, BigInt(values.length));
    case 'median':
      return sorted.length % 2 ? sorted[mid] : roundedQuotient(sorted[mid - 1] + sorted[mid], 2n);
  }
}

function pick(values: readonly DocValue[], mode: SortMode, integer: boolean): SortKey {
  if (values.length === 1) {
    const v = values[0];
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  }
  if (typeof values[0] === 'string') {
    let best = values[0] as string;
    for (const v of values) if (mode === 'max' ? (v as string) > best : (v as string) < best) best = v as string;
    return best;
  }
  // BigInts (date_nanos; an unsigned_long's values past 2^53, beside numbers) are picked exactly
  if (values.some((v) => typeof v === 'bigint')) return pickBigInt(values.map((v) => BigInt(v as number | bigint)), mode);
  const nums = values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as number)));
  switch (mode) {
    case 'min':
      return Math.min(...nums);
    case 'max':
      return Math.max(...nums);
    case 'sum':
      return nums.reduce((a, b) => a + b, 0);
    case 'avg': {
      const avg = nums.reduce((a, b) => a + b, 0) / nums.length;
      return integer ? Math.round(avg) : avg;
    }
    case 'median': {
      const s = [...nums].sort((a, b) => a - b);
      const mid = s.length >> 1;
      const m = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
      return integer ? Math.round(m) : m;
    }
  }
}

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

export function fielddataDisabled(field: string): EsError {
  return illegal(
    `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
  );
}

/**
 * Sorting or aggregating on `_id` (ES 8's IdFieldMapper: fielddata on _id is off unless the
 * cluster setting indices.id_field_data.enabled turns it on, which the engine does not offer).
 */
function idFielddataDisabled(): EsError {
  return illegal('Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled');
}

/** Metadata fields whose Elasticsearch 8 field types have no field data (MappedFieldType's default): no sort, no aggregation. */
const NO_FIELDDATA = new Set(['_source', '_routing']);

/** Refuses a sort or an aggregation on `_id` or on a metadata field without field data, as Elasticsearch 8 does. */
export function refuseMetadataFielddata(field: string | undefined): void {
  if (field === '_id') throw idFielddataDisabled();
  if (field !== undefined && NO_FIELDDATA.has(field)) throw illegal(`Fielddata is not supported on field [${field}] of type [${field}]`);
}

function missingRender(type: string, placementLast: boolean, ascending: boolean): unknown {
  // Lucene substitutes the extreme value of the type for a missing numeric value.
  const high = placementLast === ascending;
  if (INTEGER_TYPES.has(type) || type === 'date' || type === 'date_nanos' || type === 'boolean') return high ? 9223372036854775807 : -9223372036854775808;
  if (NUMERIC_TYPES.has(type)) return high ? 'Infinity' : '-Infinity';
  return null;
}

function fieldSort(spec: Extract<SortSpec, { kind: 'field' }>, handle: IndexHandle, mapping: FieldMapping | undefined): ResolvedSort {
  const direction = spec.order === 'asc' ? 1 : -1;
  const type = mapping ? fieldType(mapping) : (spec.unmappedType ?? 'keyword');
  const isNumeric = NUMERIC_TYPES.has(type) || type === 'date' || type === 'date_nanos' || type === 'boolean';
  if (TEXT_TYPES.has(type) && mapping?.fielddata !== true) throw fielddataDisabled(spec.field);
  if (TEXT_TYPES.has(type)) noteFielddataLoaded(handle, spec.field);
  const mode: SortMode = spec.mode ?? (spec.order === 'asc' ? 'min' : 'max');
  if (!isNumeric && (mode === 'sum' || mode === 'avg' || mode === 'median')) {
    throw illegal(`only supported on numeric fields: sort mode [${mode}] on field [${spec.field}]`);
  }
  // `numeric_type: long` on a floating-point field casts each value to a long (toward zero), as ES's doc values do
  const castToLong = spec.numericType === 'long' && NUMERIC_TYPES.has(type) && !INTEGER_TYPES.has(type);
  const integer = castToLong || INTEGER_TYPES.has(type) || type === 'date' || type === 'date_nanos' || type === 'boolean';
  const valuesOf = mapping ? sortValuesOf(handle, spec.field, spec.nestedPath) : () => undefined;
  const dates = type === 'date' || type === 'date_nanos' ? dateKeys(spec, type, mapping) : undefined;
  // ips order by their 16-byte form (IPv4 as ::ffff:a.b.c.d), as Elasticsearch's doc values do
  const ips = type === 'ip';

  const parseValue = (value: unknown): SortKey => {
    if (value === null || value === undefined) return null;
    if (dates) return dates.parse(value);
    if (ips) {
      const key = ipOrderKey(String(value));
      if (key === undefined) throw illegal(`'${String(value)}' is not an IP string literal.`);
      return key;
    }
    if (type === 'boolean') return value === true || value === 'true' ? 1 : value === false || value === 'false' ? 0 : Number(value);
    if (isNumeric) {
      const exact = type === 'unsigned_long' ? exactUnsignedLong(value) : undefined;
      if (exact !== undefined) return exact;
      const n = typeof value === 'number' ? value : Number(value);
      if (Number.isNaN(n)) throw illegal(`For input string: "${String(value)}"`);
      return castToLong ? Math.trunc(n) : n;
    }
    return String(value);
  };

  let missingKey: SortKey = null;
  let missingPlacement = 1;
  if (spec.missing === '_first') missingPlacement = -1;
  else if (spec.missing !== '_last') missingKey = parseValue(spec.missing);

  const renderMissing = missingRender(type, missingPlacement === 1, direction === 1);
  return {
    spec,
    direction,
    missingPlacement,
    key(ord) {
      const values = valuesOf(ord); // reused array: read here, not kept
      if (!values || values.length === 0) return missingKey;
      if (ips) return pick(values.map((v) => ipOrderKey(String(v)) ?? String(v)), mode, false);
      const picked = pick(castToLong ? values.map((v) => (typeof v === 'number' ? Math.trunc(v) : v)) : values, mode, integer);
      return dates ? dates.key(picked as number | bigint) : picked;
    },
    render(key) {
      if (key === null) return renderMissing;
      if (ips && typeof key === 'string') return ipOfOrderKey(key);
      if (dates && spec.format !== undefined && typeof key !== 'string') return formatDate(key, spec.format);
      if ((type === 'float' || type === 'half_float') && typeof key === 'number' && !castToLong) return float32Text(key);
      return key;
    },
    parseAfter: parseValue,
  };
}

/**
 * A sorted field's values of a document: its doc values, or with `nested.path` the values of the
 * document's objects at that path (read once for all the documents), as Elasticsearch's nested
 * sort joins the block of each document's nested objects before picking by the sort mode.
 */
export function sortValuesOf(handle: IndexHandle, field: string, nestedPath: string | undefined): (ord: number) => readonly DocValue[] | undefined {
  const nested = nestedPath === undefined ? undefined : handle.inverted?.nested(nestedPath);
  if (!nested) {
    const fi = handle.inverted?.field(field);
    return (ord) => fi?.docValues.view(ord);
  }
  const fi = nested.index.field(field);
  const byParent = new Map<number, DocValue[]>();
  if (fi) {
    for (const child of nested.index.liveOrdinals()) {
      const values = fi.docValues.view(child);
      if (!values?.length) continue;
      const parent = nested.parentOf[child];
      const into = byParent.get(parent);
      if (into) into.push(...values);
      else byParent.set(parent, [...values]);
    }
  }
  return (ord) => byParent.get(ord);
}

/** `_script` sort: the script's double (or String) for each document, computed once per document. */
function scriptSort(spec: Extract<SortSpec, { kind: 'script' }>, handle: IndexHandle, stored?: StoredScripts): ResolvedSort {
  const context = spec.type === 'number' ? NUMBER_SORT_CONTEXT : STRING_SORT_CONTEXT;
  const source = (ord: number) => documentSource(handle, ord);
  const script = new DocScript(prepareScript(spec.script, context, stored), handle.inverted!, handle.mappings, handle.name, { source });
  return {
    spec,
    direction: spec.order === 'asc' ? 1 : -1,
    missingPlacement: 1,
    key(ord, score) {
      let v: unknown;
      try {
        v = script.run(ord, score);
      } catch (e) {
        // Past the search's timeout the documents left get no key (they sort as missing ones).
        if (e instanceof SearchTimedOut) return null;
        throw e;
      }
      if (v === null || v === undefined) return null;
      return spec.type === 'number' ? Number(v) : String(v);
    },
    render: (k) => k,
    parseAfter: (v) => (spec.type === 'number' ? Number(v) : String(v)),
  };
}

/**
 * Resolves the sort criteria of a request against one index; `stored`: for `_script` sorts naming a
 * stored script; `shardIndex`: the index's place among those searched (`_shard_doc` is
 * `shardIndex << 32 | ordinal`, as Elasticsearch numbers shard and document).
 */
export function resolveSorts(specs: SortSpec[], handle: IndexHandle, mappedSomewhere: (field: string) => boolean, stored?: StoredScripts, shardIndex = 0): ResolvedSort[] {
  return specs.map((spec): ResolvedSort => {
    if (spec.kind === 'script') return scriptSort(spec, handle, stored);
    if (spec.kind === 'score') {
      return {
        spec, direction: spec.order === 'asc' ? 1 : -1, missingPlacement: 1,
        key: (_ord, score) => score,
        render: (k) => k,
        parseAfter: (v) => (typeof v === 'number' ? v : Number(v)),
      };
    }
    if (spec.kind === 'doc') {
      const base = spec.shard ? shardIndex * 2 ** 32 : 0;
      // the doc id: the ordinal, or with an index sort the document's place in it
      const place = docOrderOf(handle);
      return {
        spec, direction: spec.order === 'asc' ? 1 : -1, missingPlacement: 1,
        key: place ? (ord) => base + place(ord) : (ord) => base + ord,
        render: (k) => k,
        parseAfter: (v) => (typeof v === 'number' ? v : Number(v)),
      };
    }
    if (spec.field === '_index') {
      // The metadata field: one value for every document of the index, its name.
      return {
        spec, direction: spec.order === 'asc' ? 1 : -1, missingPlacement: 1,
        key: () => handle.name,
        render: (k) => k,
        parseAfter: (v) => String(v),
      };
    }
    refuseMetadataFielddata(spec.field);
    if (spec.field === '_seq_no') {
      // ES's SeqNoFieldMapper: a long with doc values, on every document
      return {
        spec, direction: spec.order === 'asc' ? 1 : -1, missingPlacement: 1,
        key: (ord) => handle.seqNoAt(ord) ?? null,
        render: (k) => k,
        parseAfter: (v) => (typeof v === 'number' ? v : Number(v)),
      };
    }
    let mapping = resolveFieldMapping(handle.mappings, spec.field);
    if (!mapping && spec.unmappedType === undefined && !mappedSomewhere(spec.field)) {
      throw new EsError(400, 'query_shard_exception', `No mapping found for [${spec.field}] in order to sort on`, { index_uuid: handle.uuid, index: handle.name });
    }
    // a field alias sorts by the field it points to (a credential's view leaves out an alias to a hidden field)
    if (mapping?.type === 'alias' && typeof mapping.path === 'string') {
      const path = mapping.path;
      mapping = resolveFieldMapping(handle.mappings, path);
      return { ...fieldSort({ ...spec, field: path }, handle, mapping), spec };
    }
    return fieldSort(spec, handle, mapping);
  });
}

/** Compares two key tuples under resolved criteria; negative when `a` ranks first. */
export function compareKeys(sorts: ResolvedSort[], a: SortKey[], b: SortKey[]): number {
  for (let i = 0; i < sorts.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null) return sorts[i].missingPlacement;
    if (y === null) return -sorts[i].missingPlacement;
    const c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c * sorts[i].direction;
  }
  return 0;
}

/**
 * Index sorting (`index.sort.*`): Elasticsearch writes each segment's documents in the index's sort
 * order, so their doc ids — the `_doc` order, and the tie-break of equal hits — follow it. The
 * embedded engine numbers documents in the order they were written; for an index with a sort it
 * numbers them instead by their place in the sort (as one fully merged segment), ties in write order.
 */

/** The sort criteria an index sort stands for, as a search's `sort` would name them. */
function sortSpecsOf(sort: IndexSortField[]): SortSpec[] {
  return sort.map((s) => ({ kind: 'field', field: s.field, order: s.order, missing: s.missing, mode: s.mode, unmappedType: 'keyword' }));
}

/**
 * Places by the liveness column a reader holds (never written again once a reader holds it:
 * InvertedIndex.writableLive copies it), so every search of the same documents — another search,
 * a credential's view, a point in time's next page — shares one computation and one order.
 */
const places = new WeakMap<Uint8Array, Int32Array>();

function placesOf(reader: InvertedIndex, stored: IndexHandle, sort: IndexSortField[]): Int32Array {
  const liveness = reader.liveness;
  const cached = places.get(liveness);
  if (cached && cached.length === reader.maxOrd) return cached;
  let sorts: ResolvedSort[];
  try {
    // the index's own fields: ordinals and their doc values are for good, the live index has them
    sorts = resolveSorts(sortSpecsOf(sort), stored, () => true);
  } catch {
    // a sort its index was not validated against (created before index sorting was): write order
    sorts = [];
  }
  const live = reader.liveOrdinals();
  const n = live.length;
  const keys: SortKey[][] = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = sorts.map((s) => s.key(live[i], 0));
  const order = Array.from({ length: n }, (_, i) => i);
  // live ordinals are ascending: equal keys keep write order
  order.sort((a, b) => compareKeys(sorts, keys[a], keys[b]) || a - b);
  const out = new Int32Array(reader.maxOrd).fill(-1);
  for (let p = 0; p < n; p++) out[live[order[p]]] = p;
  places.set(liveness, out);
  return out;
}

/**
 * A document's place in the index's order (ordinal → place), computed on first use; undefined for
 * an index without `index.sort.field`, whose order is its ordinals (no extra work on the search path).
 */
export function docOrderOf(handle: IndexHandle): ((ord: number) => number) | undefined {
  // one key lookup for an index without a sort (its settings were validated at creation)
  if (!handle.inverted || handle.meta.settings['index.sort.field'] === undefined) return undefined;
  const sort = indexSortOf(handle.meta.settings);
  const reader = handle.inverted;
  const stored = handle.asStored;
  // not an index's own documents (a nested view's objects), or an index reloaded since: their own order
  if (!sort || !stored.inverted || !(stored.inverted === reader || stored.inverted.isPrototypeOf(reader))) return undefined;
  let table: Int32Array | undefined;
  return (ord) => {
    table ??= placesOf(reader, stored, sort);
    const p = table[ord];
    // a document the reader does not see as live (never collected): after every live one
    return p === undefined || p < 0 ? table.length + ord : p;
  };
}
