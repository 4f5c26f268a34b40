/**
 * Elasticsearch's vector functions of score scripts (`script_score` over a dense_vector field:
 * exact kNN): `cosineSimilarity`, `dotProduct`, `l1norm` and `l2norm` of a query vector and the
 * document's vector in a field (named by a String, or as `doc['field']`).
 */
import type { ContextDefinition } from './codegen.js';
import type { DocMap } from './doc-values.js';
import { ScriptRuntimeError } from './script-error.js';
import { javaToString, unbox } from './values.js';

const TWO_ARGS = { params: ['def', 'def'], ret: 'double' } as const;

export const VECTOR_FUNCTIONS: NonNullable<ContextDefinition['functions']> = {
  cosineSimilarity: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  dotProduct: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  l1norm: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
  l2norm: { ...TWO_ARGS, params: [...TWO_ARGS.params] },
};

function queryVector(v: unknown): number[] {
  if (!Array.isArray(v)) throw new ScriptRuntimeError('illegal_argument_exception', 'Unsupported input object for vector functions: a list of numbers is expected');
  return v.map((x) => Number(unbox(x)));
}

function documentVector(doc: DocMap | undefined, field: unknown, dims: number): Float32Array {
  const v = doc?.vectorOf(javaToString(field));
  if (!v) throw new ScriptRuntimeError('illegal_argument_exception', "A document doesn't have a value for a vector field!");
  if (v.length !== dims) {
    throw new ScriptRuntimeError('illegal_argument_exception', `The query vector has a different number of dimensions [${dims}] than the document vectors [${v.length}].`);
  }
  return v;
}

type Measure = (q: number[], d: Float32Array) => number;

function measured(measure: Measure) {
  return function (this: { doc?: DocMap }, query: unknown, field: unknown): number {
    const q = queryVector(query);
    return measure(q, documentVector(this.doc, field, q.length));
  };
}

const dot: Measure = (q, d) => q.reduce((s, x, i) => s + x * d[i], 0);

export const VECTOR_FUNCTION_IMPLEMENTATIONS: Record<string, (this: { doc?: DocMap }, ...args: never[]) => number> = {
  dotProduct: measured(dot),
  cosineSimilarity: measured((q, d) => dot(q, d) / (Math.sqrt(dot(q, Float32Array.from(q))) * Math.sqrt(d.reduce((s, x) => s + x * x, 0)))),
  l1norm: measured((q, d) => q.reduce((s, x, i) => s + Math.abs(x - d[i]), 0)),
  l2norm: measured((q, d) => Math.sqrt(q.reduce((s, x, i) => s + (x - d[i]) ** 2, 0))),
};
