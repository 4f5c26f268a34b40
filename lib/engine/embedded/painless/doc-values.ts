/**
 * `doc` in search scripts: a Map from field names to the current document's doc values
 * (ES's ScriptDocValues), typed by the field's mapping — Strings, Longs, Doubles, Dates
 * (ZonedDateTime), Booleans, GeoPoints — sorted as Lucene's doc values are. `doc['f'].value` is
 * the first value; reading it on a document without one is ES's IllegalStateException.
 */
import { ScriptRuntimeError } from './script-error.js';
import { ZonedDateTime, Instant } from './java-time.js';
import { OBJECT_MEMBERS, defineClass, memberTable, method, Stream, JavaIterator, fail } from './members.js';
import { toJson } from './json-values.js';
import { JavaObject, boxDouble, boxLong, javaEquals, javaToString } from './values.js';

/** What a document's doc values come from: an index at an ordinal, or one parsed document. */
export interface DocFields {
  /** The field's mapping type; undefined when the field is not mapped. */
  typeOf(field: string): string | undefined;
  /** The field's doc values in the current document, in any order (undefined or [] when none). */
  values(field: string): readonly unknown[] | undefined;
  /** Whether a text field has `fielddata: true` (its terms may be read). */
  fielddata?(field: string): boolean;
  /** For error messages. */
  indexName: string;
  /** Identifies the current document (randomScore without a field). */
  documentKey?(): number | string;
  /** A dense_vector field's vector in the current document (the vector functions). */
  vector?(field: string): Float32Array | undefined;
}

const NO_VALUE = "A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!";

type Kind = 'Strings' | 'Longs' | 'Doubles' | 'Dates' | 'Booleans' | 'GeoPoints';

const LONG_TYPES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
const DOUBLE_TYPES = new Set(['double', 'float', 'half_float', 'scaled_float']);
const STRING_TYPES = new Set(['keyword', 'constant_keyword', 'wildcard', 'ip', 'version', 'text', 'match_only_text', 'search_as_you_type', 'flattened']);

function kindOfType(type: string): Kind | undefined {
  if (LONG_TYPES.has(type)) return 'Longs';
  if (DOUBLE_TYPES.has(type)) return 'Doubles';
  if (type === 'date' || type === 'date_nanos') return 'Dates';
  if (type === 'boolean') return 'Booleans';
  if (type === 'geo_point') return 'GeoPoints';
  if (STRING_TYPES.has(type)) return 'Strings';
  return undefined;
}

export class GeoPoint extends JavaObject {
  readonly javaClass = 'GeoPoint';
  constructor(
    readonly lat: number,
    readonly lon: number,
  ) {
    super();
  }
  toJavaString(): string {
    return `${this.lat}, ${this.lon}`;
  }
  toJson(): unknown {
    return { lat: this.lat, lon: this.lon };
  }
  javaEquals(o: unknown): boolean {
    return o instanceof GeoPoint && o.lat === this.lat && o.lon === this.lon;
  }
}

const EARTH_RADIUS = 6371008.7714;

function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

function planeDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const x = (lon2 - lon1) * toRad * Math.cos(((lat2 + lat1) / 2) * toRad);
  const y = (lat2 - lat1) * toRad;
  return Math.sqrt(x * x + y * y) * EARTH_RADIUS;
}

/** The doc values of one field of one document. */
export class ScriptDocValues extends JavaObject {
  readonly javaClass: string;

  constructor(
    readonly kind: Kind,
    /** Sorted values as scripts see them (doubles boxed, dates as ZonedDateTime). */
    readonly items: unknown[],
  ) {
    super();
    this.javaClass = `ScriptDocValues.${kind}`;
  }

  get(i: number): unknown {
    if (this.items.length === 0) throw new ScriptRuntimeError('illegal_state_exception', NO_VALUE);
    if (i < 0 || i >= this.items.length) {
      throw new ScriptRuntimeError('index_out_of_bounds_exception', `A document doesn't have a value for a field at position [${i}]!`);
    }
    return this.items[i];
  }

  iterate(): Iterable<unknown> {
    return this.items;
  }

  toJavaString(): string {
    return `[${this.items.map(javaToString).join(', ')}]`;
  }

  toJson(): unknown {
    return this.items.map((v) => toJson(v));
  }
}

function geo(s: ScriptDocValues): GeoPoint {
  return s.get(0) as GeoPoint;
}

const DOC_VALUES_MEMBERS = memberTable(OBJECT_MEMBERS, [
  method('get/1', 'def', ['int'], (s: ScriptDocValues, i: number) => s.get(i)),
  method('getValue/0', 'def', [], (s: ScriptDocValues) => s.get(0)),
  method('getValues/0', 'List', [], (s: ScriptDocValues) => [...s.items]),
  method('size/0', 'int', [], (s: ScriptDocValues) => s.items.length),
  method('getLength/0', 'int', [], (s: ScriptDocValues) => s.items.length),
  method('isEmpty/0', 'boolean', [], (s: ScriptDocValues) => s.items.length === 0),
  method('contains/1', 'boolean', ['def'], (s: ScriptDocValues, x: unknown) => s.items.some((y) => javaEquals(x, y))),
  method('indexOf/1', 'int', ['def'], (s: ScriptDocValues, x: unknown) => s.items.findIndex((y) => javaEquals(x, y))),
  method('iterator/0', 'Iterator', [], (s: ScriptDocValues) => new JavaIterator([...s.items])),
  method('stream/0', 'Stream', [], (s: ScriptDocValues) => new Stream([...s.items])),
  method('equals/1', 'boolean', ['def'], (s: ScriptDocValues, o: unknown) => Array.isArray(o) && javaEquals(s.items, o)),
  method('add/1', 'boolean', ['def'], () => fail('unsupported_operation_exception', 'doc values are unmodifiable')),
]);

const GEO_MEMBERS = memberTable(DOC_VALUES_MEMBERS, [
  method('getLat/0', 'double', [], (s: ScriptDocValues) => geo(s).lat),
  method('getLon/0', 'double', [], (s: ScriptDocValues) => geo(s).lon),
  method('getLats/0', 'double[]', [], (s: ScriptDocValues) => s.items.map((p) => (p as GeoPoint).lat)),
  method('getLons/0', 'double[]', [], (s: ScriptDocValues) => s.items.map((p) => (p as GeoPoint).lon)),
  method('arcDistance/2', 'double', ['double', 'double'], (s: ScriptDocValues, lat: number, lon: number) => arcDistance(geo(s).lat, geo(s).lon, lat, lon)),
  method('planeDistance/2', 'double', ['double', 'double'], (s: ScriptDocValues, lat: number, lon: number) => planeDistance(geo(s).lat, geo(s).lon, lat, lon)),
  method('arcDistanceWithDefault/3', 'double', ['double', 'double', 'double'], (s: ScriptDocValues, lat: number, lon: number, d: number) =>
    (s.items.length ? arcDistance(geo(s).lat, geo(s).lon, lat, lon) : d)),
]);

for (const kind of ['Strings', 'Longs', 'Doubles', 'Dates', 'Booleans'] as const) defineClass(`ScriptDocValues.${kind}`, DOC_VALUES_MEMBERS);
defineClass('ScriptDocValues.GeoPoints', GEO_MEMBERS);
defineClass('GeoPoint', memberTable(OBJECT_MEMBERS, [
  method('getLat/0', 'double', [], (s: GeoPoint) => s.lat),
  method('getLon/0', 'double', [], (s: GeoPoint) => s.lon),
]));

/**
 * The doc values of a vector field (dense_vector, knn_vector) in one document: its vector, or none.
 * Elasticsearch's DenseVectorScriptDocValues (`vectorValue`, `magnitude`) and OpenSearch k-NN's
 * KNNVectorScriptDocValues (`value`) in one; the vector functions take it as their field.
 */
export class VectorDocValues extends JavaObject {
  readonly javaClass = 'VectorScriptDocValues';

  constructor(
    readonly field: string,
    /** The field's type: Elasticsearch's dense_vector or OpenSearch's knn_vector (whose errors it speaks). */
    readonly type: 'dense_vector' | 'knn_vector',
    readonly vector: Float32Array | undefined,
  ) {
    super();
  }

  /** The values as other doc values list them: the vector, or nothing. */
  get items(): unknown[] {
    return this.vector ? [Array.from(this.vector)] : [];
  }

  /** The vector; the IllegalArgumentException (Elasticsearch) or IllegalStateException (OpenSearch) of a document without one. */
  value(): Float32Array {
    if (!this.vector && this.type === 'dense_vector') throw new ScriptRuntimeError('illegal_argument_exception', "A document doesn't have a value for a vector field!");
    if (!this.vector) {
      throw new ScriptRuntimeError('illegal_state_exception', `One of the document doesn't have a value for field '${this.field}'. This can be avoided by checking if a document has a value for the field or not by doc['${this.field}'].size() == 0 ? 0 : {your script}`);
    }
    return this.vector;
  }

  toJavaString(): string {
    return this.vector ? `[${Array.from(this.vector).join(', ')}]` : '[]';
  }

  toJson(): unknown {
    return this.vector ? Array.from(this.vector) : [];
  }
}

defineClass('VectorScriptDocValues', memberTable(OBJECT_MEMBERS, [
  method('size/0', 'int', [], (s: VectorDocValues) => (s.vector ? 1 : 0)),
  method('isEmpty/0', 'boolean', [], (s: VectorDocValues) => !s.vector),
  method('getValue/0', 'def', [], (s: VectorDocValues) => Array.from(s.value())),
  method('getVectorValue/0', 'def', [], (s: VectorDocValues) => Array.from(s.value())),
  method('getMagnitude/0', 'double', [], (s: VectorDocValues) => Math.sqrt(s.value().reduce((sum, x) => sum + x * x, 0))),
]));

function compareNumbers(a: unknown, b: unknown): number {
  return Number(a) - Number(b);
}

/** Raw doc values (as the index keeps them) → what scripts see, sorted as Lucene's doc values. */
export function scriptDocValues(type: string, raw: readonly unknown[] | undefined): ScriptDocValues | undefined {
  const kind = kindOfType(type);
  if (!kind) return undefined;
  const values = raw ? [...raw] : [];
  switch (kind) {
    case 'Longs':
      // Longs (every integer type, as Elasticsearch's): a long each, boxed where an int could hold it
      return new ScriptDocValues(kind, values.map(Number).sort(compareNumbers).map(boxLong));
    case 'Doubles':
      return new ScriptDocValues(kind, values.map(Number).sort(compareNumbers).map(boxDouble));
    case 'Dates':
      return new ScriptDocValues(kind, values.sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0)).map(toDate));
    case 'Booleans':
      return new ScriptDocValues(kind, values.map((v) => v === true || v === 1 || v === 'true').sort((a, b) => Number(a) - Number(b)));
    case 'GeoPoints': {
      const points: GeoPoint[] = [];
      for (let i = 0; i + 1 < values.length; i += 2) points.push(new GeoPoint(Number(values[i]), Number(values[i + 1])));
      return new ScriptDocValues(kind, points);
    }
    default: {
      const strings = [...new Set(values.map(String))].sort();
      return new ScriptDocValues(kind, strings);
    }
  }
}

/** A date doc value (epoch ms, or epoch ns as a BigInt) → ZonedDateTime in UTC. */
function toDate(v: unknown): ZonedDateTime {
  if (typeof v === 'bigint') {
    const millis = Number(v / 1_000_000n);
    return new ZonedDateTime(new Instant(millis, Number(v % 1_000_000n)));
  }
  return ZonedDateTime.ofMillis(Number(v));
}

function fielddataDisabled(field: string, index: string): ScriptRuntimeError {
  return new ScriptRuntimeError('illegal_argument_exception',
    `Fielddata is disabled on [${field}] in [${index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`);
}

/**
 * `doc`: a Map whose values are read on demand from the current document. The runtime treats it
 * as any Map (get, containsKey, `doc.f`, `doc['f']`); `moveTo` each document before running.
 */
export class DocMap extends Map<unknown, unknown> {
  private readonly cache = new Map<string, ScriptDocValues>();

  constructor(private fields: DocFields) {
    super();
  }

  /** Points `doc` at another document (the fields read from it are read afresh). */
  moveTo(fields: DocFields = this.fields): void {
    this.fields = fields;
    this.cache.clear();
  }

  override get(key: unknown): ScriptDocValues | VectorDocValues {
    const field = String(key);
    const cached = this.cache.get(field);
    if (cached) return cached;
    if (field === '_id') {
      throw new ScriptRuntimeError('illegal_argument_exception',
        'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled');
    }
    const type = field === '_index' ? 'keyword' : this.fields.typeOf(field);
    if (type === undefined) throw new ScriptRuntimeError('illegal_argument_exception', `No field found for [${field}] in mapping`);
    if (type === 'dense_vector' || type === 'knn_vector') return new VectorDocValues(field, type, this.fields.vector?.(field));
    if ((type === 'text' || type === 'match_only_text' || type === 'search_as_you_type') && !this.fields.fielddata?.(field)) throw fielddataDisabled(field, this.fields.indexName);
    const values = scriptDocValues(type, field === '_index' ? [this.fields.indexName] : this.fields.values(field));
    if (!values) throw new ScriptRuntimeError('illegal_argument_exception', `No field found for [${field}] in mapping`);
    this.cache.set(field, values);
    return values;
  }

  override has(key: unknown): boolean {
    return this.fields.typeOf(String(key)) !== undefined;
  }

  /** A field's mapping type and raw doc values in the current document (the expression language reads these). */
  rawField(field: string): { type: string | undefined; values: readonly unknown[] } {
    return { type: this.fields.typeOf(field), values: this.fields.values(field) ?? [] };
  }

  /** The current document's vector in a dense_vector field (vector-functions.ts). */
  vectorOf(field: string): Float32Array | undefined {
    return this.fields.vector?.(field);
  }

  /** The current document's identity (its ordinal in the index). */
  documentKey(): number | string {
    return this.fields.documentKey?.() ?? 0;
  }

  override set(): this {
    throw new ScriptRuntimeError('unsupported_operation_exception', 'doc is read-only');
  }
}

/** `params` of a search script: the request's params, plus `_source` of the current document, loaded when read. */
export class SearchParams extends Map<unknown, unknown> {
  private source: (() => unknown) | undefined;
  private loaded: unknown;

  constructor(params: Map<unknown, unknown>) {
    super(params);
  }

  /** The current document's `_source` (as a script value), read only if the script asks. */
  withSource(load: () => unknown): this {
    this.source = load;
    this.loaded = undefined;
    return this;
  }

  override get(key: unknown): unknown {
    if (key === '_source' && this.source && !super.has('_source')) {
      if (this.loaded === undefined) this.loaded = this.source();
      return this.loaded;
    }
    return super.get(key);
  }

  override has(key: unknown): boolean {
    return (key === '_source' && this.source !== undefined) || super.has(key);
  }
}

/** ES 8's field API: `field('f').get(default)`, `field('f').get(1, default)`; a field the mapping lacks is empty. */
export class FieldAccess extends JavaObject {
  readonly javaClass = 'Field';
  constructor(
    readonly name: string,
    readonly items: unknown[],
  ) {
    super();
  }
  iterate(): Iterable<unknown> {
    return this.items;
  }
}

defineClass('Field', memberTable(OBJECT_MEMBERS, [
  method('getName/0', 'String', [], (s: FieldAccess) => s.name),
  method('isEmpty/0', 'boolean', [], (s: FieldAccess) => s.items.length === 0),
  method('size/0', 'int', [], (s: FieldAccess) => s.items.length),
  method('get/1', 'def', ['def'], (s: FieldAccess, d: unknown) => (s.items.length ? s.items[0] : d)),
  method('get/2', 'def', ['int', 'def'], (s: FieldAccess, i: number, d: unknown) => (i >= 0 && i < s.items.length ? s.items[i] : d)),
  method('getValue/1', 'def', ['def'], (s: FieldAccess, d: unknown) => (s.items.length ? s.items[0] : d)),
  method('getValues/0', 'List', [], (s: FieldAccess) => [...s.items]),
  method('iterator/0', 'Iterator', [], (s: FieldAccess) => new JavaIterator([...s.items])),
]));

/** `field(name)` of a script with a `doc` (called with the script's globals as `this`). */
export function fieldOf(this: { doc?: DocMap }, name: unknown): FieldAccess {
  const field = javaToString(name);
  if (!this.doc || !this.doc.has(field)) return new FieldAccess(field, []);
  return new FieldAccess(field, [...this.doc.get(field).items]);
}
