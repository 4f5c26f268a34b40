import { EsError } from '../../../errors/index.js';
import type { IndexHandle } from '../indices/index.js';
import { shardOf } from '../indices/shard-routing.js';
import { fieldType, resolveFieldMapping } from '../mapping/index.js';
import { murmur3 } from './murmur3.js';

/**
 * `slice` of a scroll or a point-in-time search, partitioned as Elasticsearch's SliceBuilder
 * partitions it: by shard first (the embedded engine knows each document's shard from its routing,
 * as Elasticsearch computes it), then within a shard by the hash of the `_id` as it is indexed
 * (a scroll), by document order (a point in time), or by a numeric field's doc values.
 */
export interface Slice {
  id: number;
  max: number;
  field?: string;
  /** A point-in-time search slices by document order; a scroll by `_id`. */
  pointInTime: boolean;
}

/** TermsSliceQuery's fixed seed. */
const TERMS_SLICE_SEED = 7919;

function failedField(field: string, reason: string): EsError {
  return new EsError(400, 'x_content_parse_exception', `[slice] failed to parse field [${field}]`, { caused_by: { type: 'illegal_argument_exception', reason } });
}

function intOf(raw: unknown, field: string): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[slice] failed to parse field [${field}]`);
  return n;
}

/** `slice: {id, max, field?}`, validated as SliceBuilder's setters validate it. */
export function parseSlice(raw: unknown, pointInTime: boolean): Slice {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new EsError(400, 'parsing_exception', '[slice] must be an object', { line: 1, col: 1 });
  const slice: Partial<Slice> = { pointInTime };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'id') {
      const id = intOf(value, 'id');
      if (id < 0) throw failedField('id', 'id must be greater than or equal to 0');
      if (slice.max !== undefined && id >= slice.max) throw failedField('id', 'max must be greater than id');
      slice.id = id;
    } else if (key === 'max') {
      const max = intOf(value, 'max');
      if (max <= 1) throw failedField('max', 'max must be greater than 1');
      if (slice.id !== undefined && slice.id >= max) throw failedField('max', 'max must be greater than id');
      slice.max = max;
    } else if (key === 'field') slice.field = String(value);
    else throw new EsError(400, 'x_content_parse_exception', `[slice] unknown field [${key}]`);
  }
  if (slice.id === undefined || slice.max === undefined) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [slice] requires both [id] and [max];');
  }
  return slice as Slice;
}

/** An `_id` as Elasticsearch indexes it (Uid.encodeId): digits packed two a byte, URL-safe base64 decoded, anything else UTF-8 behind a marker. */
export function encodedId(id: string): Uint8Array {
  if (/^[0-9]+$/.test(id)) {
    const out = new Uint8Array(1 + ((id.length + 1) >> 1));
    out[0] = 0xfe;
    for (let i = 0; i < id.length; i += 2) {
      const high = id.charCodeAt(i) - 48;
      const low = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 48;
      out[1 + (i >> 1)] = (high << 4) | low;
    }
    return out;
  }
  if (isUrlBase64WithoutPadding(id)) {
    const bytes = Buffer.from(id, 'base64url');
    return bytes[0] >= 0xfd ? Buffer.concat([Buffer.from([0xfd]), bytes]) : bytes;
  }
  return Buffer.concat([Buffer.from([0xff]), Buffer.from(id, 'utf8')]);
}

/** The last character of a base64 text whose last group holds one byte (2 chars) or two (3 chars): only these leave no stray bits. */
const LAST_OF_TWO = new Set('AQgw');
const LAST_OF_THREE = new Set('AEIMQUYcgkosw048');

function isUrlBase64WithoutPadding(id: string): boolean {
  const rest = id.length & 3;
  if (rest === 1) return false;
  if (rest === 2 && !LAST_OF_TWO.has(id[id.length - 1])) return false;
  if (rest === 3 && !LAST_OF_THREE.has(id[id.length - 1])) return false;
  return /^[A-Za-z0-9_-]+$/.test(id);
}

const floorMod = (value: number, max: number) => ((value % max) + max) % max;

/** The slice of `max` a document falls in by its `_id` (TermsSliceQuery: murmur3 of the indexed id, seed 7919). */
export function termsSliceOf(id: string, max: number): number {
  return floorMod(murmur3(encodedId(id), TERMS_SLICE_SEED), max);
}

/** HPPC's BitMixer.mix(long): Stafford's variant 9 of the 64-bit mixer, cast to an int. */
function bitMix(value: bigint): number {
  let z = BigInt.asUintN(64, value);
  z = BigInt.asUintN(64, (z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn);
  z = BigInt.asUintN(64, (z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n);
  z ^= z >> 32n;
  return Number(BigInt.asIntN(32, z));
}

const scratch = new DataView(new ArrayBuffer(8));

/** A doc value as the long its field's numeric doc values hold (Lucene's sortable encodings for floating point). */
function docValueLong(type: string, v: unknown, scalingFactor: number): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  const n = Number(v);
  if (type === 'double') {
    scratch.setFloat64(0, n);
    const bits = scratch.getBigInt64(0);
    return bits < 0n ? bits ^ 0x7fffffffffffffffn : bits;
  }
  if (type === 'float' || type === 'half_float') {
    scratch.setFloat32(0, n);
    const bits = scratch.getInt32(0);
    return BigInt(bits < 0 ? bits ^ 0x7fffffff : bits);
  }
  if (type === 'scaled_float') return BigInt(Math.round(n * scalingFactor));
  return BigInt(Math.trunc(n));
}

const NUMERIC_DOC_VALUES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long', 'double', 'float', 'half_float', 'scaled_float', 'date', 'date_nanos', 'boolean']);

/** The refusals Elasticsearch's search context makes before slicing an index. */
export function checkSlice(slice: Slice, handle: IndexHandle): void {
  if (!slice.pointInTime) {
    const limit = Number(handle.meta.settings['index.max_slices_per_scroll'] ?? '1024');
    if (slice.max > limit) {
      throw new EsError(400, 'illegal_argument_exception',
        `The number of slices [${slice.max}] is too large. It must be less than [${limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`);
    }
  }
  if (slice.field === undefined) return;
  if (slice.field === '_id') {
    if (slice.pointInTime) throw new EsError(400, 'illegal_argument_exception', 'cannot slice on [_id] when using [point-in-time]');
    return;
  }
  const mapping = resolveFieldMapping(handle.mappings, slice.field);
  if (!mapping) throw new EsError(400, 'illegal_argument_exception', `field ${slice.field} not found`);
  if (!NUMERIC_DOC_VALUES.has(fieldType(mapping)) || mapping.doc_values === false) {
    throw new EsError(400, 'illegal_argument_exception', `cannot load numeric doc values on ${slice.field}`);
  }
}

/**
 * Whether each document of an index (by ordinal) belongs to the slice: SliceBuilder.toFilter's
 * choice of shards, then TermsSliceQuery (`_id`, a scroll), DocIdSliceQuery (a point in time) or
 * DocValuesSliceQuery (a numeric field) within them.
 */
export function sliceMembership(slice: Slice, handle: IndexHandle): (ord: number) => boolean {
  const inverted = handle.inverted!;
  const shards = Number(handle.meta.settings['index.number_of_shards'] ?? '1');
  const inSlice = (id: number, max: number) => withinShard(slice, handle, id, max);
  if (shards <= 1) return inSlice(slice.id, slice.max);
  const shardOfOrd = (ord: number) => {
    const id = inverted.idOf(ord)!;
    return shardOf(handle.meta.settings, id, handle.routingOf(id));
  };
  if (slice.max >= shards) {
    const targetShard = slice.id % shards;
    const slicesInShard = Math.floor(slice.max / shards) + (slice.max % shards > targetShard ? 1 : 0);
    const within = slicesInShard === 1 ? () => true : inSlice(Math.floor(slice.id / shards), slicesInShard);
    return (ord) => shardOfOrd(ord) === targetShard && within(ord);
  }
  return (ord) => shardOfOrd(ord) % slice.max === slice.id;
}

function withinShard(slice: Slice, handle: IndexHandle, id: number, max: number): (ord: number) => boolean {
  const inverted = handle.inverted!;
  if (slice.field === undefined && slice.pointInTime) {
    // contiguous ranges of document order, the first ones one larger
    const maxDoc = inverted.maxOrd;
    const quotient = Math.floor(maxDoc / max);
    const remainder = maxDoc % max;
    const start = id < remainder ? (quotient + 1) * id : remainder * (quotient + 1) + (id - remainder) * quotient;
    const end = start + (id < remainder ? quotient + 1 : quotient);
    return (ord) => ord >= start && ord < end;
  }
  if (slice.field === undefined || slice.field === '_id') {
    return (ord) => termsSliceOf(inverted.idOf(ord)!, max) === id;
  }
  const mapping = resolveFieldMapping(handle.mappings, slice.field)!;
  const type = fieldType(mapping);
  const factor = Number(mapping.scaling_factor ?? 1);
  const values = inverted.field(slice.field)?.docValues;
  return (ord) => {
    const vs = values?.get(ord);
    if (!vs?.length) return id === 0; // no value: the hash of 0
    return vs.some((v) => floorMod(bitMix(docValueLong(type, v, factor)), max) === id);
  };
}
