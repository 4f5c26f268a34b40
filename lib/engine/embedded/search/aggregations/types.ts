import type { AggregationSteps } from './aggregation-steps.js';
import type { IndexHandle } from '../../indices/index.js';
import type { SourceScope } from './source.js';
import type { BucketCounter } from './max-buckets.js';

/** The documents of one index that fall into a bucket, as ascending ordinals. */
export interface Segment {
  handle: IndexHandle;
  ords: number[];
  /** Query scores by ordinal (top_hits shows them). */
  scores?: Map<number, number>;
}

/** A bucket's documents over every searched index. */
export type DocSet = Segment[];

/** One aggregation of the request, validated: its name, type, own parameters and sub-aggregations. */
export interface AggNode {
  name: string;
  type: string;
  body: Record<string, unknown>;
  subs: AggNode[];
  meta?: unknown;
  /** Parameters parsed by the aggregation's own parser. */
  params: unknown;
}

export interface AggContext extends SourceScope {
  typedKeys: boolean;
  /** Every searched index with all its live documents (for `global`, `min_doc_count: 0`). */
  all: DocSet;
  /** Buckets of multi-bucket aggregations built so far in the whole response (`search.max_buckets`, max-buckets.ts). */
  buckets?: BucketCounter;
  /** `profile: true`: told of every run of an aggregation (the search's profiler, search/profile). */
  timings?: AggregationTimings;
  /** The phase runs in passes, a time slice each (aggregation-steps.ts): its steps go through this record. */
  steps?: AggregationSteps;
}

/** Receives the time of each run of an aggregation over one bucket's documents (inclusive of its sub-aggregations). */
export interface AggregationTimings {
  record(node: AggNode, docs: DocSet, nanos: bigint): void;
}

/** An aggregation's result: its JSON body and the type prefix `typed_keys` shows. */
export interface AggOutput {
  typed: string;
  body: Record<string, unknown>;
}

export interface AggregationType<P = unknown> {
  /** Validates the body at request parse time; throws ES's 400s. */
  parse(name: string, body: Record<string, unknown>, subs: AggNode[]): P;
  run(node: AggNode & { params: P }, docs: DocSet, ctx: AggContext): AggOutput;
  /** Single-bucket and multi-bucket types accept sub-aggregations; metrics do not. */
  kind: 'metric' | 'bucket' | 'pipeline';
}

export type Value = string | number | boolean;

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
