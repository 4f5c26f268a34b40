/**
 * OpenSearch k-NN's score script (`"lang": "knn", "source": "knn_score"` in a `script_score`):
 * exact nearest neighbours of `params.query_value` in the vector field `params.field`, scored by
 * `params.space_type` (KNNScoringSpace): l2, l1 and linf as 1 / (1 + distance), cosinesimil as
 * 1 + cosine, innerproduct as the k-NN plugin normalises it, hamming over a long field or a
 * binary knn_vector as 1 / (1 + differing bits). A document without a value scores 0.
 */
import { EsError } from '../../../../errors/index.js';
import type { InvertedIndex } from '../../index/index.js';
import { fieldType, hammingBits, resolveFieldMapping, VECTOR_TYPES, vectorSpec, type Mappings } from '../../mapping/index.js';
import type { ScriptSpec } from '../../painless/index.js';

/** A score script over an index: the score of the document at `ord`. */
export interface ScoreScript {
  run(ord: number, score?: number): unknown;
}

/** The k-NN plugin's space names, and the name its errors give each. */
const LINEAR_SPACES: Record<string, string> = { l2: 'l2', l1: 'l1', linf: 'l-inf', innerproduct: 'innerproduct', cosinesimil: 'cosine' };
const HAMMING_SPACES = new Set(['hamming', 'hammingbit']);
const LONG_TYPES = new Set(['long', 'integer', 'short', 'byte']);

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** Whether a script spec names the k-NN plugin's script language. */
export function isKnnScript(spec: ScriptSpec): boolean {
  return spec.lang === 'knn';
}

/** The `knn_score` script of a spec whose lang is `knn`, bound to one index; throws ES's errors for bad params. */
export function knnScoreScript(spec: ScriptSpec, index: InvertedIndex, mappings: Mappings): ScoreScript {
  if (spec.source !== 'knn_score') throw illegal(`Unknown script name ${String(spec.source)}`);
  const { field, space_type: space, query_value: query } = spec.params;
  if (field === undefined || field === null) throw illegal('Missing parameter [field]');
  if (space === undefined || space === null) throw illegal('Missing parameter [space_type]');
  if (query === undefined || query === null) throw illegal('Missing parameter [query_value]');
  const name = String(field);
  const spaceName = String(space).toLowerCase();
  const mapping = resolveFieldMapping(mappings, name);
  const target = mapping?.type === 'alias' && typeof mapping.path === 'string' ? mapping.path : name;
  const column = index.field(target);
  const vector = mapping && VECTOR_TYPES.has(mapping.type ?? '') ? vectorSpec(mapping) : undefined;
  if (HAMMING_SPACES.has(spaceName) && vector) {
    if (vector.elementType !== 'binary') throw illegal(`Incompatible field_type for hamming space. The data type should be binary but got ${vector.elementType}`);
    const q = queryVector(query, vector.dims);
    return { run: (ord) => {
      const v = column?.vectors?.get(ord);
      return v ? 1 / (1 + hammingBits(q, v)) : 0;
    } };
  }
  if (HAMMING_SPACES.has(spaceName)) {
    if (!mapping || !LONG_TYPES.has(fieldType(mapping))) {
      throw illegal('Incompatible field_type for hamming space. The field type must of type long, binary, or knn_vector.');
    }
    const q = longOf(query);
    return { run: (ord) => {
      const v = column?.docValues.get(ord);
      return v?.length ? 1 / (1 + bitCount(BigInt.asUintN(64, BigInt(v[0] as number | bigint) ^ q))) : 0;
    } };
  }
  const errorName = LINEAR_SPACES[spaceName];
  if (errorName === undefined) throw illegal('Invalid space type. Please refer to the available space types.');
  if (!vector) throw illegal(`Incompatible field_type for ${errorName} space. The field type must be knn_vector.`);
  if (vector.elementType === 'binary') throw illegal(`Incompatible field_type for ${errorName} space. The data type should be either float or byte but got binary`);
  const q = queryVector(query, vector.dims);
  const measure = measureOf(spaceName, q);
  return { run: (ord) => {
    const v = column?.vectors?.get(ord);
    return v ? measure(v) : 0;
  } };
}

function queryVector(raw: unknown, dims: number | undefined): Float32Array {
  if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'number')) throw illegal('Incompatible query_value for the space type: a list of numbers is expected');
  if (dims !== undefined && raw.length !== dims) {
    throw illegal(`Object's length=${raw.length} does not match the expected length=${dims}.`);
  }
  return Float32Array.from(raw as number[]);
}

function longOf(raw: unknown): bigint {
  if (typeof raw === 'number' && Number.isInteger(raw)) return BigInt.asUintN(64, BigInt(raw));
  throw illegal('Incompatible query_value for hamming space. Query value must be either a Long or an Integer.');
}

function bitCount(x: bigint): number {
  let n = 0;
  for (let v = x; v > 0n; v &= v - 1n) n++;
  return n;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function measureOf(space: string, q: Float32Array): (v: Float32Array) => number {
  switch (space) {
    case 'l1':
      return (v) => { let d = 0; for (let i = 0; i < q.length; i++) d += Math.abs(q[i] - v[i]); return 1 / (1 + Math.fround(d)); };
    case 'linf':
      return (v) => { let d = 0; for (let i = 0; i < q.length; i++) d = Math.max(d, Math.abs(q[i] - v[i])); return 1 / (1 + Math.fround(d)); };
    case 'innerproduct':
      // KNNWeight.normalizeScore of the negated inner product
      return (v) => { const ip = Math.fround(dot(q, v)); return ip > 0 ? ip + 1 : 1 / (1 - ip); };
    case 'cosinesimil': {
      const qq = dot(q, q);
      if (qq === 0) throw illegal('zero vector is not supported when space type is [cosinesimil]');
      // KNNScoringUtil.cosinesimilOptimized: 0 against a zero vector
      return (v) => { const norm = qq * dot(v, v); return 1 + (norm === 0 ? 0 : dot(q, v) / Math.sqrt(norm)); };
    }
    default:
      return (v) => { let d = 0; for (let i = 0; i < q.length; i++) d += (q[i] - v[i]) ** 2; return 1 / (1 + Math.fround(d)); };
  }
}
