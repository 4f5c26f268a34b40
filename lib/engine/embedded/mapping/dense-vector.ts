/**
 * Vector fields: Elasticsearch 8's `dense_vector` and OpenSearch 2's `knn_vector`. A document's
 * vector is checked against the mapping (dimensions, element type, the similarity's demands) and
 * kept as a Float32Array (the index's vector column), never as doc values or a copy of `_source`.
 */
import { documentParsingError } from './errors.js';
import { mapperParsing } from './field-params.js';
import type { FieldMapping } from './types.js';

export const VECTOR_TYPES = new Set(['dense_vector', 'knn_vector']);

/** Elasticsearch's similarities, and OpenSearch's space types (knn_vector's `method.space_type`). */
export type VectorSimilarity = 'l2_norm' | 'cosine' | 'dot_product' | 'max_inner_product';
export type SpaceType = 'l2' | 'cosinesimil' | 'innerproduct' | 'l1' | 'linf' | 'hamming';

const SIMILARITIES: readonly VectorSimilarity[] = ['l2_norm', 'cosine', 'dot_product', 'max_inner_product'];
const SPACE_TYPES: readonly SpaceType[] = ['l2', 'cosinesimil', 'innerproduct', 'l1', 'linf', 'hamming'];
const ELEMENT_TYPES = ['float', 'byte'];
/** OpenSearch's data types: also `binary`, a bit per dimension (8 a byte), measured in the hamming space. */
const DATA_TYPES = ['float', 'byte', 'binary'];
const MAX_DIMS = 4096;
/** OpenSearch's `index.knn.max_dimension` default (KNNVectorFieldMapper). */
const OPENSEARCH_MAX_DIMS = 16000;

const DENSE_VECTOR_PARAMS = new Set(['type', 'dims', 'similarity', 'index', 'element_type', 'index_options', 'meta']);
const KNN_VECTOR_PARAMS = new Set(['type', 'dimension', 'method', 'data_type', 'mode', 'compression_level', 'model_id', 'space_type', 'meta']);

/** What a vector field's mapping means for indexing and scoring. */
export interface VectorSpec {
  type: 'dense_vector' | 'knn_vector';
  dims: number | undefined;
  /** Elasticsearch's similarity (a knn_vector's space type's nearest); undefined for a dense_vector not indexed. */
  similarity: VectorSimilarity | undefined;
  /** A knn_vector's space type. */
  space: SpaceType;
  indexed: boolean;
  /** `binary`: a knn_vector's bits, 8 a byte; `dims` then counts its bytes. */
  elementType: 'float' | 'byte' | 'binary';
}

function spaceOf(m: FieldMapping): SpaceType {
  const method = m.method as Record<string, unknown> | undefined;
  const s = (method?.space_type ?? m.space_type ?? (m.data_type === 'binary' ? 'hamming' : 'l2')) as SpaceType;
  return s;
}

export function vectorSpec(m: FieldMapping): VectorSpec {
  if (m.type === 'knn_vector') {
    const space = spaceOf(m);
    const similarity: VectorSimilarity = space === 'cosinesimil' ? 'cosine' : space === 'innerproduct' ? 'max_inner_product' : 'l2_norm';
    const elementType = m.data_type === 'byte' || m.data_type === 'binary' ? m.data_type : 'float';
    const dims = m.dimension as number | undefined;
    return { type: 'knn_vector', dims: elementType === 'binary' && dims !== undefined ? dims / 8 : dims, similarity, space, indexed: true, elementType };
  }
  const indexed = m.index !== false;
  const similarity = (m.similarity as VectorSimilarity | undefined) ?? (indexed ? 'cosine' : undefined);
  return { type: 'dense_vector', dims: m.dims as number | undefined, similarity, space: 'l2', indexed, elementType: m.element_type === 'byte' ? 'byte' : 'float' };
}

function intParam(name: string, field: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(raw)}] for parameter [${name}] of field [${field}]`);
  return n;
}

/** A dense_vector or knn_vector definition checked as Elasticsearch (OpenSearch) checks it, as it is stored. */
export function normalizeVectorMapping(name: string, type: string, m: FieldMapping): FieldMapping {
  const allowed = type === 'knn_vector' ? KNN_VECTOR_PARAMS : DENSE_VECTOR_PARAMS;
  const out: FieldMapping = {};
  for (const [k, raw] of Object.entries(m)) {
    if (!allowed.has(k)) throw mapperParsing(`Failed to parse mapping: unknown parameter [${k}] on mapper [${name}] of type [${type}]`);
    let v = raw;
    if (k === 'dims' || k === 'dimension') {
      v = intParam(k, name, raw);
      const max = type === 'knn_vector' ? OPENSEARCH_MAX_DIMS : MAX_DIMS;
      if ((v as number) < 1 || (v as number) > max) {
        throw mapperParsing(type === 'knn_vector'
          ? `Failed to parse mapping: Dimension value must be greater than 0 and less than or equal to ${max} for vector: ${name}`
          : `Failed to parse mapping: The number of dimensions should be in the range [1, ${max}] but was [${String(v)}]`);
      }
    } else if (k === 'index') {
      v = raw === 'true' ? true : raw === 'false' ? false : raw;
      if (typeof v !== 'boolean') throw mapperParsing(`Failed to parse mapping: Failed to parse value [${String(raw)}] as only [true] or [false] are allowed.`);
    } else if (k === 'similarity') {
      if (typeof v !== 'string' || !SIMILARITIES.includes(v.toLowerCase() as VectorSimilarity)) {
        throw mapperParsing(`Failed to parse mapping: Unknown value [${String(v)}] for field [similarity] - accepted values are [${SIMILARITIES.join(', ')}]`);
      }
      v = v.toLowerCase();
    } else if (k === 'element_type' || k === 'data_type') {
      const types = k === 'data_type' ? DATA_TYPES : ELEMENT_TYPES;
      if (typeof v !== 'string' || !types.includes(v.toLowerCase())) {
        throw mapperParsing(`Failed to parse mapping: invalid element_type [${String(v)}]; available types are [${types.join(', ')}]`);
      }
      v = v.toLowerCase();
    } else if (k === 'method') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw mapperParsing(`Failed to parse mapping: Unable to parse [method] for vector: ${name}`);
      const space = (v as Record<string, unknown>).space_type;
      if (space !== undefined && !SPACE_TYPES.includes(space as SpaceType)) {
        throw mapperParsing(`Failed to parse mapping: Unable to parse the space type [${String(space)}] for vector: ${name}`);
      }
    } else if (k === 'space_type' && !SPACE_TYPES.includes(v as SpaceType)) {
      throw mapperParsing(`Failed to parse mapping: Unable to parse the space type [${String(v)}] for vector: ${name}`);
    }
    out[k] = v;
  }
  if (type === 'knn_vector' && out.dimension === undefined && out.model_id === undefined) {
    throw mapperParsing(`Failed to parse mapping: Dimension value missing for vector: ${name}`);
  }
  if (type === 'knn_vector') checkBinary(out);
  if (type === 'dense_vector' && out.index === false && out.similarity !== undefined) {
    throw mapperParsing(`Failed to parse mapping: Field [similarity] can only be specified for a field of type [dense_vector] when it is indexed`);
  }
  return out;
}

/** OpenSearch's binary vectors: a multiple of 8 dimensions, the hamming space alone (and it for no other data type). */
function checkBinary(m: FieldMapping): void {
  const space = spaceOf(m);
  if (m.data_type === 'binary') {
    if ((m.dimension as number) % 8 !== 0) throw mapperParsing('Failed to parse mapping: Dimension should be multiply of 8 for binary vector data type');
    if (space !== 'hamming') throw mapperParsing(`Failed to parse mapping: Space type [${space}] is not supported with [binary] data type`);
  } else if (space === 'hamming') {
    throw mapperParsing(`Failed to parse mapping: Space type [hamming] is not supported with [${String(m.data_type ?? 'float')}] data type`);
  }
}

function previewOf(values: readonly unknown[]): string {
  return `[${values.slice(0, 10).map((v) => (typeof v === 'number' && Number.isInteger(v) ? `${v}.0` : String(v))).join(', ')}${values.length > 10 ? ', ...' : ''}]`;
}

/**
 * A document's value for a vector field → its vector, or Elasticsearch's (OpenSearch's) error.
 * `mapping.dims` absent: the vector sets it (`inferredDims`), as the first vector does in ES 8.
 */
export function parseVector(value: unknown, mapping: FieldMapping, path: string, id: string): Float32Array {
  const spec = vectorSpec(mapping);
  const fail = (reason: string, type = 'illegal_argument_exception') => documentParsingError(
    `failed to parse field [${path}] of type [${spec.type}] in document with id '${id}'. Preview of field's value: '${Array.isArray(value) ? value.join(',') : String(value)}'`,
    { type, reason });
  if (!Array.isArray(value)) {
    if (spec.type === 'knn_vector' && typeof value === 'number') value = [value];
    else throw fail(`Failed to parse object: expecting token of type [START_ARRAY] but found [${typeof value === 'object' && value !== null ? 'START_OBJECT' : 'VALUE_STRING'}]`, 'parsing_exception');
  }
  const values = value as unknown[];
  const dims = spec.dims;
  const vec = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      const token = typeof x === 'string' ? 'VALUE_STRING' : x === null ? 'VALUE_NULL' : Array.isArray(x) ? 'START_ARRAY' : typeof x === 'object' ? 'START_OBJECT' : typeof x === 'boolean' ? 'VALUE_BOOLEAN' : 'VALUE_NUMBER';
      if (typeof x === 'number') throw fail(`[${spec.type}] field [${path}] must be a finite number, got [${String(x)}]`);
      throw fail(`Failed to parse object: expecting token of type [VALUE_NUMBER] but found [${token}]`, 'parsing_exception');
    }
    if (spec.elementType !== 'float') {
      if (!Number.isInteger(x)) throw fail(`element_type [byte] vectors only support non-decimal values but found decimal value [${x}] at dim [${i}]; Preview of invalid vector: ${previewOf(values)}`);
      if (x < -128 || x > 127) throw fail(`element_type [byte] vectors only support integers between [-128, 127] but found [${x}] at dim [${i}]; Preview of invalid vector: ${previewOf(values)}`);
    }
    vec[i] = x;
  }
  if (dims !== undefined && vec.length !== dims) {
    if (spec.type === 'knn_vector') throw documentParsingError(`Vector dimension mismatch. Expected: ${dims}, Given: ${vec.length}`);
    throw fail(`The [dense_vector] field [${path}] in doc [document with id '${id}'] has a different number of dimensions [${vec.length}] than defined in the mapping [${dims}]`);
  }
  if (dims === undefined && (vec.length < 1 || vec.length > MAX_DIMS)) {
    throw fail(`The number of dimensions should be in the range [1, ${MAX_DIMS}] but was [${vec.length}]`);
  }
  if (spec.type === 'dense_vector' && spec.indexed) {
    const sq = squaredMagnitude(vec);
    if (spec.similarity === 'cosine' && sq === 0) {
      throw fail(`The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: ${previewOf(values)}`);
    }
    if (spec.similarity === 'dot_product' && spec.elementType === 'float' && Math.abs(sq - 1) > 1e-4) {
      throw fail(`The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: ${previewOf(values)}`);
    }
  }
  return vec;
}

/** Bits that differ between two binary vectors, each a byte (-128…127) a value. */
export function hammingBits(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    let x = (a[i] ^ b[i]) & 0xff;
    for (; x; x &= x - 1) n++;
  }
  return n;
}

export function squaredMagnitude(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return s;
}
