import { EsError } from '../../../../errors/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { DocValue } from '../../index/index.js';
import {
  INTEGER_TYPES, NUMERIC_TYPES, canonicalIp, exactUnsignedLong, isRangeType, coerceBoolean, coerceNumber, tokenCount, dateFieldValue, dateFormatOf, fieldType, formatDate, keywordTerm, resolveFieldMapping,
  type EpochTime, type FieldMapping, type Mappings,
} from '../../mapping/index.js';
import { isSingleGeoPoint, parseGeoPoint } from '../../mapping/geo-point.js';
import { fielddataDisabled, float32Text } from '../sort/index.js';
import { javaDouble } from '../aggregations/bucket-order.js';
import { decimalFormat } from '../decimal-format.js';
import type { FieldAndFormat } from './field-and-format.js';
import { leafFields, readLeaf, valuesAtPath, type LeafField } from './leaf-fields.js';

const TEXT_TYPES = new Set(['text', 'match_only_text', 'search_as_you_type']);

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * A long past 2^53 as written (a BigInt in the shown source, or integer digits): exact, as ES's
 * long reads it; undefined for any other value (read as a number, as before).
 */
function exactLong(v: unknown): bigint | undefined {
  let b: bigint | undefined;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'string' && /^[+-]?\d{16,}$/.test(v.trim())) b = BigInt(v.trim());
  if (b === undefined || b < LONG_MIN || b > LONG_MAX) return undefined;
  return b >= -(2n ** 53n) && b <= 2n ** 53n ? undefined : b;
}

/** One `_source` value of a field as the fields API shows it; undefined when it is left out (malformed, ignore_above). */
function fetchedValue(v: unknown, m: FieldMapping, format: string | undefined, registry: AnalysisRegistry): unknown {
  const type = fieldType(m);
  if (v === null) {
    if (m.null_value === undefined || m.null_value === null) return undefined;
    v = m.null_value;
  }
  if (isRangeType(type)) return fetchedRange(v, m, format);
  if (type === 'token_count') {
    // read from doc values in Elasticsearch: none without them
    if (m.doc_values === false) return undefined;
    return tokenCount(m, v, registry);
  }
  if (type === 'geo_point') return fetchedGeoPoint(v, format);
  // a join value as the source holds it: a relation name, or {name, parent}
  if (type === 'join') return v;
  if (typeof v === 'object') return undefined;
  if (TEXT_TYPES.has(type)) return String(v);
  if (type === 'keyword' || type === 'constant_keyword' || type === 'wildcard') {
    const s = String(v);
    if (typeof m.ignore_above === 'number' && s.length > m.ignore_above) return undefined;
    return keywordTerm(m, s, registry);
  }
  if (type === 'unsigned_long') {
    const exact = exactUnsignedLong(v);
    if (typeof exact === 'bigint') return exact;
  }
  if (type === 'long') {
    const exact = exactLong(v);
    if (exact !== undefined) return exact;
  }
  if (NUMERIC_TYPES.has(type)) {
    const n = coerceNumber(v, type);
    if (n === undefined) return undefined;
    if (type === 'float' || type === 'half_float') return float32Text(n);
    if (type === 'scaled_float') {
      const f = Number(m.scaling_factor ?? 1);
      return Math.round(n * f) / f;
    }
    return INTEGER_TYPES.has(type) ? Math.trunc(n) : n;
  }
  if (type === 'date' || type === 'date_nanos') {
    const date = dateFieldValue(v, m);
    return date.problem === undefined ? formatDate(date.value, format ?? dateFormatOf(m)) : undefined;
  }
  if (type === 'boolean') return coerceBoolean(v);
  if (type === 'ip') return canonicalIp(String(v));
  return v;
}

/**
 * A geo_point's value as the fields API shows it (ES's GeoPointFieldMapper value fetcher): GeoJSON
 * by default, or WKT (`format: "wkt"`), whatever form the source gives it in; undefined when malformed.
 */
function fetchedGeoPoint(v: unknown, format: string | undefined): unknown {
  const point = parseGeoPoint(v);
  if (!point) return undefined;
  if (format === 'wkt') return `POINT (${javaDouble(point.lon)} ${javaDouble(point.lat)})`;
  return { type: 'Point', coordinates: [point.lon, point.lat] };
}

/**
 * A range field's value as the fields API shows it (ES's RangeFieldMapper value fetcher): its bounds
 * under their own keys, each parsed as the range's element type (dates printed in the field's or
 * the requested format); an ip_range CIDR string as given.
 */
function fetchedRange(v: unknown, m: FieldMapping, format: string | undefined): unknown {
  const type = fieldType(m);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return type === 'ip_range' && typeof v === 'string' ? v : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    if (raw === null || raw === undefined) continue;
    if (type === 'date_range') {
      const date = dateFieldValue(raw, m);
      out[k] = date.problem === undefined ? formatDate(date.value, format ?? dateFormatOf(m)) : raw;
    } else if (type === 'ip_range') out[k] = String(raw);
    else {
      const n = coerceNumber(raw, 'double');
      out[k] = n === undefined ? raw : type === 'integer_range' || type === 'long_range' ? Math.trunc(n) : type === 'float_range' ? float32Text(n) : n;
    }
  }
  return out;
}

/**
 * `fields` of a hit: mapped fields matching the requested patterns, values read from `_source`.
 * `ignored`, when given, gets the values of the fields it names (the document's `_ignored`) that
 * indexing ignored (a keyword past its `ignore_above`, a malformed value kept by `ignore_malformed`),
 * as the source has them: the hit's `ignored_field_values` (Elasticsearch's FieldFetcher puts them
 * aside rather than dropping them).
 */
export function fieldsFromSource(
  requests: FieldAndFormat[], mappings: Mappings, registry: AnalysisRegistry, source: Record<string, unknown>,
  ignored?: { fields: ReadonlySet<string>; values: Record<string, unknown[]> },
): Record<string, unknown[]> {
  if (!requests.length) return {};
  const leaves = leafFields(mappings);
  const nested = nestedPaths(mappings);
  const innermost = (path: string) => {
    let best = '';
    for (const n of nested) if (path.startsWith(n + '.') && n.length > best.length) best = n;
    return best;
  };
  /**
   * The fields of one level: the top (full names), or one object of a nested field (names relative
   * to it), each nested field below it as a list of its objects' own fields (ES 7.12+).
   */
  const level = (node: unknown, at: string): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {};
    const relative = (path: string) => (at ? path.slice(at.length + 1) : path);
    for (const leaf of leaves) {
      if (innermost(leaf.sourcePath) !== at) continue;
      // the last request naming the field wins (ES's FieldFetcher keeps one context per field, the last put)
      const req = requests.findLast((r) => simpleMatch(r.field, leaf.name));
      if (!req) continue;
      // a field alias shows its target's values under its own name
      const read = readLeaf(leaf, leaves);
      if (!read) continue;
      if (req.format !== undefined && !FORMATTED_TYPES.has(fieldType(read.mapping))) {
        throw new EsError(400, 'illegal_argument_exception', `Field [${leaf.name}] of type [${fieldType(read.mapping)}] doesn't support formats.`);
      }
      const values: unknown[] = [];
      const left: unknown[] = [];
      const wasIgnored = ignored?.fields.has(leaf.name) === true && !at;
      const point = fieldType(read.mapping) === 'geo_point' ? isSingleGeoPoint : undefined;
      for (const raw of valuesAtPath(node, relative(read.sourcePath), point)) {
        const v = fetchedValue(raw, read.mapping, req.format, registry);
        if (v !== undefined) values.push(v);
        else if (wasIgnored && raw !== null && raw !== undefined) left.push(raw);
      }
      if (values.length) out[relative(leaf.name)] = values;
      if (left.length) ignored!.values[leaf.name] = left;
    }
    for (const child of nested) {
      if (child === at || innermost(child) !== at) continue;
      const objects = valuesAtPath(node, relative(child)).map((o) => level(o, child)).filter((f) => Object.keys(f).length > 0);
      if (objects.length) out[relative(child)] = objects;
    }
    return out;
  };
  const out = level(source, '');
  if (requests.some((r) => r.includeUnmapped)) addUnmapped(requests, mappings, leaves, source, out);
  return out;
}

const NESTED_PATHS = new WeakMap<Mappings, string[]>();

/** The full paths of a mapping's nested fields (worked out once per mappings object). */
function nestedPaths(mappings: Mappings): string[] {
  const known = NESTED_PATHS.get(mappings);
  if (known) return known;
  const out: string[] = [];
  NESTED_PATHS.set(mappings, out);
  const walk = (props: Mappings['properties'], prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      if (fieldType(m) === 'nested') out.push(prefix + name);
      if (m.properties) walk(m.properties, `${prefix}${name}.`);
    }
  };
  walk(mappings.properties, '');
  return out;
}

/** Types whose values the fields API prints in a requested format. */
const FORMATTED_TYPES = new Set(['date', 'date_nanos', 'date_range', 'geo_point', 'geo_shape']);

/**
 * `include_unmapped`: the source's values at paths no mapping knows (dynamic: false, disabled
 * objects) that such a request's pattern names, as they are in the source, leaves only.
 */
function addUnmapped(requests: FieldAndFormat[], mappings: Mappings, leaves: LeafField[], source: Record<string, unknown>, out: Record<string, unknown[]>): void {
  const mapped = new Set(leaves.map((l) => l.name));
  const patterns = requests.filter((r) => r.includeUnmapped).map((r) => r.field);
  const add = (path: string, value: unknown) => {
    if (mapped.has(path) || !patterns.some((p) => simpleMatch(p, path))) return;
    if (isMappedObject(mappings, path)) return;
    (out[path] ??= []).push(value);
  };
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, path);
      return;
    }
    if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(v, path ? `${path}.${k}` : k);
      return;
    }
    if (node !== null && node !== undefined && path) add(path, node);
  };
  walk(source, '');
  for (const values of Object.values(out)) if (values.every((v) => typeof v === 'number' || typeof v === 'string')) values.sort((a, b) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1));
}

/** A path a mapped object (not disabled) has as a field of its own: its values are the mapped leaves', not unmapped ones. */
function isMappedObject(mappings: Mappings, path: string): boolean {
  let props = mappings.properties;
  for (const part of path.split('.')) {
    const m = props?.[part];
    if (!m) return false;
    if (m.enabled === false) return false;
    props = m.properties;
  }
  return true;
}

/**
 * The fields `docvalue_fields` names in one index's mappings: a pattern stands for the fields it
 * matches (field aliases among them), a plain name for itself. Their number is what
 * `index.max_docvalue_fields_search` bounds, as Elasticsearch counts after expanding patterns.
 */
export function docValueFieldNames(requests: readonly FieldAndFormat[], mappings: Mappings): Array<{ name: string; req: FieldAndFormat }> {
  const out: Array<{ name: string; req: FieldAndFormat }> = [];
  for (const req of requests) {
    if (!req.field.includes('*')) out.push({ name: req.field, req });
    else for (const leaf of leafFields(mappings)) if (simpleMatch(req.field, leaf.name)) out.push({ name: leaf.name, req });
  }
  return out;
}

/** Metadata fields a `docvalue_fields` name may be (Elasticsearch's metadata field mappers). */
const METADATA_FIELDS = new Set(['_id', '_index', '_routing', '_seq_no', '_version', '_ignored', '_tier', '_source', '_doc_count', '_field_names', '_primary_term']);

/**
 * How many fields `docvalue_fields` asks for, as `index.max_docvalue_fields_search` counts them
 * (Elasticsearch's FetchDocValuesContext): patterns resolved, each mapped field once, unmapped
 * names left out.
 */
export function docValueFieldCount(requests: readonly FieldAndFormat[], mappings: Mappings): number {
  const names = new Set<string>();
  for (const { name } of docValueFieldNames(requests, mappings)) {
    if (METADATA_FIELDS.has(name) || resolveFieldMapping(mappings, name) !== undefined) names.add(name);
  }
  return names.size;
}

/**
 * `docvalue_fields` of a hit: values from doc values, sorted as Lucene keeps them, formatted per
 * type. A long's doc values are doubles here: past 2^53 they are read exact from `source`.
 */
export function fieldsFromDocValues(requests: FieldAndFormat[], handle: IndexHandle, ord: number, source?: unknown): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  if (!requests.length) return out;
  const leaves = leafFields(handle.mappings);
  for (const { name, req } of docValueFieldNames(requests, handle.mappings)) {
    const named = leaves.find((l) => l.name === name);
    if (!named && name === '_seq_no') {
      // the _seq_no metadata field has doc values (SeqNoFieldMapper): the document's sequence number (a nested object's is its document's)
      const seqNo = handle.seqNoAt(ord);
      if (seqNo !== undefined) out[name] = [seqNo];
      continue;
    }
    // a field alias reads its target's doc values, shown under the alias
    const leaf = named && readLeaf(named, leaves);
    if (!leaf) continue;
    const type = fieldType(leaf.mapping);
    if (TEXT_TYPES.has(type) && leaf.mapping.fielddata !== true) {
      if (req.field.includes('*')) continue;
      throw fielddataDisabled(leaf.name);
    }
    const values = handle.inverted?.field(leaf.name)?.docValues.get(ord);
    if (!values || !values.length) continue;
    let sorted: DocValue[];
    if (typeof values[0] === 'string') sorted = [...new Set(values as string[])].sort();
    else if (typeof values[0] === 'boolean') sorted = [...values].sort((a, b) => Number(a) - Number(b));
    else sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // numbers, or date_nanos BigInts
    if (type === 'long' && source !== undefined && sorted.some((v) => typeof v === 'number' && !Number.isSafeInteger(v))) {
      const exact = exactLongs(valuesAtPath(source, leaf.name));
      if (exact.length === sorted.length) sorted = exact as unknown as DocValue[];
    }
    if (type === 'date' || type === 'date_nanos') {
      const format = req.format ?? dateFormatOf(leaf.mapping);
      out[name] = sorted.map((v) => formatDate(v as EpochTime, format));
    } else if (req.format !== undefined && NUMERIC_TYPES.has(type)) {
      out[name] = sorted.map((n) => decimalFormat(n as number, req.format!));
    } else out[name] = sorted;
  }
  return out;
}

/** A long field's source values as exact longs (BigInts past 2^53), sorted. */
function exactLongs(values: unknown[]): Array<number | bigint> {
  const out: bigint[] = [];
  for (const v of values.flat(Infinity)) {
    const exact = exactLong(v);
    if (exact !== undefined) out.push(exact);
    else {
      const n = coerceNumber(v, 'long');
      if (n !== undefined) out.push(BigInt(n));
    }
  }
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out.map((b) => (b >= -(2n ** 53n) && b <= 2n ** 53n ? Number(b) : b));
}

