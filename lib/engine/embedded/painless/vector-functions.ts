/**
 * The vector functions of score scripts (`script_score` over a vector field: exact kNN).
 * Elasticsearch's `cosineSimilarity`, `dotProduct`, `l1norm` and `l2norm` of a query vector and
 * the document's vector in a field (named by a String, or as `doc['field']`); OpenSearch k-NN's
 * painless extensions `l2Squared`, `l1Norm`, `lInfNorm`, `innerProduct` and `cosineSimilarity`
 * (with the query vector's magnitude as an optional third argument) of a query vector and
 * `doc['field']` (KNNScoringUtil).
 */
import type { ContextDefinition } from './codegen.js';
import { VectorDocValues, type DocMap } from './doc-values.js';
import { ScriptRuntimeError } from './script-error.js';
import { javaToString, unbox } from './values.js';

const TWO_ARGS = { params: ['def', 'def'], ret: 'double' } as const;

export const VECTOR_FUNCTIONS: NonNullable<ContextDefinition['functions']> = {
  cosineSimilarity: { params: ['def', 'def', 'def'], ret: 'double', minArgs: 2 },
  dotProduct: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  l1norm: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  l2norm: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  // OpenSearch k-NN's return floats
  l2Squared: { params: ['def', 'def'], ret: 'float' },
  l1Norm: { params: ['def', 'def'], ret: 'float' },
  lInfNorm: { params: ['def', 'def'], ret: 'float' },
  innerProduct: { params: ['def', 'def'], ret: 'float' },
};

function queryVector(v: unknown): number[] {
  if (!Array.isArray(v)) throw new ScriptRuntimeError('illegal_argument_exception', 'Unsupported input object for vector functions: a list of numbers is expected');
  return v.map((x) => Number(unbox(x)));
}

function documentVector(doc: DocMap | undefined, field: unknown, dims: number): Float32Array {
  if (field instanceof VectorDocValues && field.type === 'knn_vector') return knnDocumentVector(field, dims);
  const v = field instanceof VectorDocValues ? field.vector : doc?.vectorOf(javaToString(field));
  if (!v) throw new ScriptRuntimeError('illegal_argument_exception', "A document doesn't have a value for a vector field!");
  if (v.length !== dims) {
    throw new ScriptRuntimeError('illegal_argument_exception', `The query vector has a different number of dimensions [${dims}] than the document vectors [${v.length}].`);
  }
  return v;
}

/** The k-NN plugin's reading of `doc['field']`: its vector, of the query's dimensions. */
function knnDocumentVector(field: unknown, dims: number): Float32Array {
  if (!(field instanceof VectorDocValues)) {
    throw new ScriptRuntimeError('class_cast_exception', `class ${javaToString(field)} cannot be cast to class org.opensearch.knn.index.KNNVectorScriptDocValues`);
  }
  const v = field.value();
  if (v.length !== dims) throw new ScriptRuntimeError('illegal_argument_exception', `query vector dimension mismatch. Expected: ${v.length}, Given: ${dims}`);
  return v;
}

type Measure = (q: number[], d: Float32Array) => number;

function measured(measure: Measure) {
  return function (this: { doc?: DocMap }, query: unknown, field: unknown): number {
    const q = queryVector(query);
    return measure(q, documentVector(this.doc, field, q.length));
  };
}

/** An OpenSearch k-NN function: a float of the query vector and `doc['field']`. */
function knnMeasured(measure: Measure) {
  return function (query: unknown, field: unknown): number {
    const q = queryVector(query);
    return Math.fround(measure(q, knnDocumentVector(field, q.length)));
  };
}

const dot: Measure = (q, d) => q.reduce((s, x, i) => s + x * d[i], 0);
const esCosine = measured((q, d) => dot(q, d) / (Math.sqrt(dot(q, Float32Array.from(q))) * Math.sqrt(d.reduce((s, x) => s + x * x, 0))));

/**
 * `cosineSimilarity`: Elasticsearch's of a field name or a dense_vector's `doc['field']`;
 * OpenSearch's of a knn_vector's `doc['field']`, or with the query vector's magnitude as a third
 * argument (KNNScoringUtil.cosinesimilOptimized): 0 where the product of the magnitudes is.
 */
function cosineSimilarity(this: { doc?: DocMap }, query: unknown, field: unknown, queryMagnitude?: unknown): number {
  if (queryMagnitude === undefined && !(field instanceof VectorDocValues && field.type === 'knn_vector')) return esCosine.call(this, query, field);
  const q = queryVector(query);
  if (q.every((x) => x === 0)) throw new ScriptRuntimeError('illegal_argument_exception', 'zero vector is not supported when space type is [cosinesimil]');
  const d = knnDocumentVector(field, q.length);
  const qq = queryMagnitude === undefined ? dot(q, Float32Array.from(q)) : Number(unbox(queryMagnitude));
  const norm = qq * d.reduce((s, x) => s + x * x, 0);
  return norm === 0 ? 0 : Math.fround(dot(q, d) / Math.sqrt(norm));
}

export const VECTOR_FUNCTION_IMPLEMENTATIONS: Record<string, (this: { doc?: DocMap }, ...args: never[]) => number> = {
  dotProduct: measured(dot),
  cosineSimilarity,
  l1norm: measured((q, d) => q.reduce((s, x, i) => s + Math.abs(x - d[i]), 0)),
  l2norm: measured((q, d) => Math.sqrt(q.reduce((s, x, i) => s + (x - d[i]) ** 2, 0))),
  l2Squared: knnMeasured((q, d) => q.reduce((s, x, i) => s + (x - d[i]) ** 2, 0)),
  l1Norm: knnMeasured((q, d) => q.reduce((s, x, i) => s + Math.abs(x - d[i]), 0)),
  lInfNorm: knnMeasured((q, d) => q.reduce((s, x, i) => Math.max(s, Math.abs(x - d[i])), 0)),
  innerProduct: knnMeasured(dot),
};
